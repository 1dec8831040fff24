"""An export's `--json` summarizes the file written with `-o`; without `-o` it is a bad argument.

The export itself would be stdout, so a JSON document there could only be mixed with it: refused
before anything is read or written, with one line naming `--json`.
"""

from __future__ import annotations

import pytest
from badinput_support import Unchanged, assert_bad_argument, invoke


@pytest.mark.parametrize(
    "args",
    [["export", "run", "existing"], ["export", "run", "existing", "--format", "parquet"], ["export", "log"]],
    ids=["run", "run parquet", "log"],
)
def test_json_without_an_output_file_is_refused(workbench, args):
    with Unchanged(workbench):
        result = invoke(workbench, [*args, "--json"])
    assert_bad_argument(result, "--json", "without -o the export itself goes to stdout")


def test_export_qrels_json_without_an_output_file_is_refused(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["export", "qrels", "--json"])
    assert_bad_argument(result, "--json", "summary of the file written with -o FILE")

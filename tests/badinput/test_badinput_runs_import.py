"""`runs import` of several files in one command: names and files refused before anything is written.

The command is all or nothing over every file it is given: a bad name, a name for two files, or a bad
line in any file leaves the workbench byte-for-byte as it was, with one `Error:` line.
"""

from __future__ import annotations

import pytest
from badinput_support import BASELINE_RUN, Unchanged, assert_bad_argument, assert_refused, invoke


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--name", "one"], "1 name for 2 files: give one per file"),
        (["--name", "one", "--name", "two", "--name", "three"], "3 names for 2 files"),
        (["--name", "same", "--name", "same"], "run name 'same' is given to more than one file"),
    ],
)
def test_names_that_do_not_fit_the_files_are_a_bad_argument(workbench, tmp_path, extra, said):
    paths = [tmp_path / "a.run", tmp_path / "b.run"]
    for path in paths:
        path.write_text(BASELINE_RUN)
    with Unchanged(workbench):
        result = invoke(workbench, ["runs", "import", *paths, *extra])
    assert_bad_argument(result, "--name", said)


def test_two_files_that_give_the_same_name_are_a_bad_argument(workbench, tmp_path):
    (tmp_path / "one").mkdir()
    paths = [tmp_path / "bm25.run", tmp_path / "one" / "bm25.trec.gz"]
    paths[0].write_text(BASELINE_RUN)
    paths[1].write_bytes(b"")
    with Unchanged(workbench):
        result = invoke(workbench, ["runs", "import", *paths])
    assert_bad_argument(result, "--name", "run name 'bm25' is given to more than one file")


def test_a_file_name_that_is_no_id_is_refused_naming_the_file(workbench, tmp_path):
    path = tmp_path / "my run.trec"
    path.write_text(BASELINE_RUN)
    with Unchanged(workbench):
        result = invoke(workbench, ["runs", "import", path])
    assert_refused(result, path, None, "run name taken from the file name 'my run' contains white space")


def test_an_existing_name_is_refused_before_any_file_is_read(workbench, tmp_path):
    """The second file's name is taken: the first file is not imported (nor read)."""
    first, second = tmp_path / "new.run", tmp_path / "existing.run"
    first.write_text(BASELINE_RUN)
    second.write_text(BASELINE_RUN)
    with Unchanged(workbench):
        result = invoke(workbench, ["runs", "import", first, second])
    assert result.exit_code == 1 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: a run named 'existing' exists already")


def test_a_bad_line_in_the_last_file_keeps_out_the_runs_before_it(workbench, tmp_path):
    good, bad = tmp_path / "good.run", tmp_path / "bad.run"
    good.write_text(BASELINE_RUN)
    bad.write_text(BASELINE_RUN + "1 Q0 x3 3 nan? base\n")
    with Unchanged(workbench):
        result = invoke(workbench, ["runs", "import", good, bad])
    assert_refused(result, bad, 3, "score")

"""`topics mark --unit` and `eval --include-reopened`: a unit space that does not exist changes nothing."""

from __future__ import annotations

import pytest
from badinput_support import Unchanged, assert_no_crash, invoke


@pytest.mark.parametrize(
    ("args", "fragment", "code"),
    [
        (
            ["topics", "mark", "1", "reviewed", "--assessor", "a", "--unit", "chunk:nope"],
            "--unit: no chunking named 'nope' (run 'labeler corpus chunkings')",
            2,
        ),
        (
            ["topics", "mark", "1", "reviewed", "--assessor", "a", "--unit", "paragraph"],
            "unit must be 'doc' or 'chunk:NAME', not 'paragraph'",
            2,
        ),
        (["topics", "mark", "1", "reviewed", "--assessor", "a", "--unit", "chunk:"], "unit must be", 2),
        (["status", "--unit", "chunk:nope"], "--unit: no chunking named 'nope'", 2),
        (["eval", "--include-reopened"], "no snapshot", 1),
    ],
)
def test_a_bad_unit_space_or_nothing_to_score_is_refused(workbench, args, fragment, code):
    with Unchanged(workbench):
        result = invoke(workbench, args)
    assert_no_crash(result)
    assert result.exit_code == code and result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert fragment in result.stderr, result.stderr

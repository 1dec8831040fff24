"""`labeler assign` refuses bad requests with one error line naming the argument, and writes nothing.

A bad option value is a usage error (exit 2, like click's own); `--by` is checked by the id rule
as the CLI reads it, which stays exit 1.
"""

from __future__ import annotations

import pytest
from badinput_support import Unchanged, assert_bad_argument, assert_refused, invoke

CASES = [
    # (arguments, where the error points, a fragment of the reason, the exit code)
    (
        ["--assessors", "ann,bob", "--topics", "1,nope"],
        "--topics",
        "unknown topic 'nope' (run 'labeler topics list')",
        2,
    ),
    (["--assessors", "ann,bob", "--overlap", "1.5"], "--overlap", "below 1", 2),
    (["--assessors", "ann,bob", "--overlap", "1"], "--overlap", "below 1", 2),  # 1 would mean every pair twice
    (["--assessors", "ann,bob", "--overlap", "-0.1"], "--overlap", "at least 0", 2),
    (["--assessors", "ann,bob", "--overlap", "nan"], "--overlap", "below 1", 2),
    (["--assessors", "ann", "--overlap", "0.2"], "--overlap", "two assessors (pass --assessors ann,bob to name", 2),
    (["--assessors", "ann,b\tob"], "--assessors", "white space", 2),
    (["--assessors", "ann,,bob"], "--assessors", "is empty", 2),
    (["--assessors", "ann,ann"], "--assessors", "given twice", 2),
    (["--assessors", "ann", "--topics", "1,\x1b[31m"], "--topics", "control character", 2),
    (["--assessors", "ann", "--assigned-by", "le ad"], "--assigned-by", "white space", 1),
    (["--topics", "1"], "--assessors", "give the assessors", 2),
    (["--clear"], "--clear", "which topics", 2),
    (["--clear", "--topics", "1"], "--topics", "not assigned (run 'labeler assign --list')", 2),
    (["--list", "--assessors", "ann"], "--list", "alone", 2),
]


@pytest.fixture
def pooled(workbench):
    assert invoke(workbench, ["pool", "build", "--depth", "5"]).exit_code == 0
    return workbench


@pytest.mark.parametrize(("args", "where", "fragment", "code"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_assign_is_refused_and_changes_nothing(pooled, args, where, fragment, code):
    with Unchanged(pooled):
        result = invoke(pooled, ["assign", *args])
        if code == 2:
            assert_bad_argument(result, where, fragment)
        else:
            assert_refused(result, where, None, fragment)


def test_without_a_pool_the_topics_must_be_given(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["assign", "--assessors", "ann"])
        assert_bad_argument(result, "--topics", "no pool yet")
        assert "(run 'labeler pool build --depth K')" in result.stderr

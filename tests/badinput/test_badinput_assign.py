"""`labeler assign` refuses bad requests with one error line naming the argument, and writes nothing."""

from __future__ import annotations

import pytest
from badinput_support import Unchanged, assert_refused, invoke

CASES = [
    # (arguments, where the error points, a fragment of the reason)
    (["--assessors", "ann,bob", "--topics", "1,nope"], "--topics", "unknown topic 'nope'"),
    (["--assessors", "ann,bob", "--overlap", "1.5"], "--overlap", "below 1"),
    (["--assessors", "ann,bob", "--overlap", "1"], "--overlap", "below 1"),  # 1 would mean every pair twice
    (["--assessors", "ann,bob", "--overlap", "-0.1"], "--overlap", "at least 0"),
    (["--assessors", "ann,bob", "--overlap", "nan"], "--overlap", "below 1"),
    (["--assessors", "ann", "--overlap", "0.2"], "--overlap", "at least two assessors"),
    (["--assessors", "ann,b\tob"], "--assessors", "white space"),
    (["--assessors", "ann,,bob"], "--assessors", "is empty"),
    (["--assessors", "ann,ann"], "--assessors", "given twice"),
    (["--assessors", "ann", "--topics", "1,\x1b[31m"], "--topics", "control character"),
    (["--assessors", "ann", "--by", "le ad"], "--by", "white space"),
    (["--topics", "1"], "--assessors", "give the assessors"),
    (["--clear"], "--clear", "which topics"),
    (["--clear", "--topics", "1"], "--topics", "not assigned"),
    (["--list", "--assessors", "ann"], "--list", "alone"),
]


@pytest.fixture
def pooled(workbench):
    assert invoke(workbench, ["pool", "build", "--depth", "5"]).exit_code == 0
    return workbench


@pytest.mark.parametrize(("args", "where", "fragment"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_assign_is_refused_and_changes_nothing(pooled, args, where, fragment):
    with Unchanged(pooled):
        assert_refused(invoke(pooled, ["assign", *args]), where, None, fragment)


def test_without_a_pool_the_topics_must_be_given(workbench):
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["assign", "--assessors", "ann"]), "--topics", None, "no pool yet")

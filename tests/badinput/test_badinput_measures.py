"""A measure typed as trec_eval names it: refused with labeler's name suggested, nothing changed."""

from __future__ import annotations

import pytest
from badinput_support import Unchanged, assert_bad_argument, invoke
from click.testing import Result


def assert_bad_measures(result: Result, fragment: str) -> None:
    """A bad --measures is a bad argument: exit 2, one `Error: --measures: reason` line, nothing on stdout."""
    assert_bad_argument(result, "--measures", fragment)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("P_10", "P@10"), ("ndcg_cut_10", "nDCG@10"), ("recall_100", "R@100"), ("recip_rank", "RR")],
)
def test_eval_suggests_the_name_for_a_trec_eval_measure(workbench, typed, meant):
    with Unchanged(workbench):
        result = invoke(workbench, ["eval", "--measures", f"AP {typed}"])
    assert_bad_measures(result, f"unknown measure {typed!r}: did you mean {meant}?")


def test_an_unknown_measure_still_lists_the_known_ones(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["eval", "--measures", "Q@5"])
    assert_bad_measures(result, "known measures: P@k")

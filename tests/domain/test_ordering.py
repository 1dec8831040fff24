"""Judging orders over one topic's pool; MTF against pooling_literature.md §1.3 (assertion A5)."""

from __future__ import annotations

from itertools import accumulate

import pytest

from labeler.ordering import ORDERS, mtf_next, mtf_order, pool_order, random_order, rrf_order
from labeler.pooling import PoolEntry, depth_pool

# Toy-2 for topic 1, run order A, B, C, with the oracle truth used by the literature's simulations.
RANKINGS = {
    "A": ["d1", "d2", "d3", "d4", "d5"],
    "B": ["d2", "d6", "d1", "d7", "d8"],
    "C": ["d9", "d6", "d10", "d2", "d11"],
}
RELEVANT = {"d1", "d2", "d4", "d6", "d9"}
A5 = "d1 d2 d3 d6 d7 d9 d10 d4 d5 d8 d11".split()


def toy2_pool(depth: int) -> dict[str, PoolEntry]:
    return depth_pool({run: {"1": ranking} for run, ranking in RANKINGS.items()}, depth)["1"]


def entry(unit: str, best_rank: int, runs: int, rrf: float = 0.0) -> PoolEntry:
    contributors = tuple((f"r{i}", best_rank) for i in range(runs))
    return PoolEntry("1", unit, best_rank, contributors, rrf)


def test_orders_are_named():
    assert ORDERS.names() == ("pool", "rrf", "mtf", "random", "maxmean", "hedge", "uncertainty")


def test_pool_order_is_best_rank_then_agreement_then_id():
    entries = {
        "z": entry("z", 2, 3),  # rank 2, three runs
        "x": entry("x", 1, 1),  # rank 1, one run
        "a": entry("a", 2, 3),  # ties z on rank and runs: id decides
        "y": entry("y", 1, 2),  # rank 1, two runs: before x
        "b": entry("b", 3, 5),  # many runs cannot beat a better rank
    }
    assert pool_order(entries) == ["y", "x", "a", "z", "b"]


def test_pool_order_on_toy2_depth_3():
    # Rank 1: d1 (A1,B3) and d2 (A2,B1) have two runs each, d9 one; rank 2: d6; rank 3: d10 < d3 as strings.
    assert pool_order(toy2_pool(3)) == ["d1", "d2", "d9", "d6", "d10", "d3"]


def test_rrf_order_is_score_then_id():
    entries = {"b": entry("b", 1, 1, 0.5), "a": entry("a", 1, 1, 0.5), "c": entry("c", 1, 1, 0.7)}
    assert rrf_order(entries) == ["c", "a", "b"]


def test_rrf_order_on_toy2_finds_all_relevant_after_seven():
    order = rrf_order(toy2_pool(5))
    # Ties: d10 before d3, d4 before d7, and d11 < d5 < d8 as strings.
    assert order == ["d2", "d1", "d6", "d9", "d10", "d3", "d4", "d7", "d11", "d5", "d8"]
    # §1.2: relevant found per judgment in RRF order.
    assert list(accumulate(unit in RELEVANT for unit in order))[:7] == [1, 2, 3, 4, 4, 4, 5]


UNITS = [f"doc{i}" for i in range(20)]


def test_random_order_is_a_function_of_seed_topic_and_unit_set():
    first = random_order("1", UNITS, seed=7)
    assert sorted(first) == sorted(UNITS)
    assert random_order("1", reversed(UNITS), seed=7) == first  # input order does not matter
    assert random_order("1", set(UNITS) | {"doc3"}, seed=7) == first  # nor repeats
    assert random_order("1", UNITS, seed=8) != first
    assert random_order("2", UNITS, seed=7) != first  # each topic gets its own shuffle
    assert first != sorted(UNITS)


def test_random_order_keeps_relative_order_when_the_pool_grows():
    grown = random_order("1", [*UNITS, "new1", "new2"], seed=7)
    assert [unit for unit in grown if unit in set(UNITS)] == random_order("1", UNITS, seed=7)


def judge_with_mtf(rankings, truth, **options) -> list[str]:
    """Simulate an assessor: ask mtf_next, record the true label, repeat until it returns None."""
    judged: dict[str, bool] = {}
    sequence = []
    while (unit := mtf_next(rankings, judged, **options)) is not None:
        sequence.append(unit)
        judged[unit] = unit in truth
    return sequence


def test_mtf_judged_one_at_a_time_matches_a5():
    sequence = judge_with_mtf(RANKINGS, RELEVANT)
    assert sequence == A5
    assert list(accumulate(unit in RELEVANT for unit in sequence)) == [1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5]


def test_mtf_order_with_every_label_known_is_the_a5_sequence():
    judged = {unit: unit in RELEVANT for unit in A5}
    assert mtf_order(RANKINGS, judged) == A5
    assert mtf_next(RANKINGS, judged) is None


def test_mtf_order_with_no_labels_reads_the_runs_in_turn():
    # Every unit counts as a miss, so the runs take turns: A d1, B d2, C d9, A d3 (d2 seen), B d6, ...
    assert mtf_order(RANKINGS, {}) == ["d1", "d2", "d9", "d3", "d6", "d10", "d4", "d7", "d11", "d5", "d8"]


@pytest.mark.parametrize(
    ("judged", "expected"),
    [
        ({}, "d1"),  # A is first in run order
        ({"d1": True}, "d2"),  # a hit keeps A: its next unit
        ({"d1": True, "d2": True}, "d3"),  # still on A
        ({"d1": True, "d2": False}, "d6"),  # a miss moves to B, whose d2 is already seen
        ({"d1": False}, "d2"),  # a miss moves to B, which starts with d2
        ({"d4": True}, "d1"),  # a label out of MTF order does not skip ahead
    ],
)
def test_mtf_next_follows_the_labels(judged, expected):
    assert mtf_next(RANKINGS, judged) == expected


def test_mtf_decrement_size_does_not_change_the_order():
    # Every miss costs the same, so priorities keep their order for any positive decrement.
    assert judge_with_mtf(RANKINGS, RELEVANT, decrement=3) == A5


def test_mtf_appends_pool_units_no_ranking_holds_by_id():
    rankings = {"A": ["p", "q"]}
    assert mtf_order(rankings, {}, pool=["z", "q", "b", "p"]) == ["p", "q", "b", "z"]
    assert mtf_next(rankings, {"p": True, "q": False, "b": False}, pool=["z", "q", "b", "p"]) == "z"
    assert mtf_next(rankings, {"p": True, "q": False}) is None


def test_mtf_skips_repeats_and_empty_runs():
    assert mtf_order({"A": [], "B": ["x", "x", "y"]}, {"x": True}) == ["x", "y"]
    assert mtf_order({}, {}) == []


@pytest.mark.parametrize("decrement", [0, -1])
def test_mtf_refuses_a_decrement_below_1(decrement):
    with pytest.raises(ValueError, match=f"MTF decrement must be an integer of at least 1, not {decrement}"):
        mtf_order(RANKINGS, {}, decrement=decrement)
    with pytest.raises(ValueError, match="MTF decrement"):
        mtf_next(RANKINGS, {}, decrement=decrement)

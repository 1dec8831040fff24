"""Pool membership on the literature's Toy-2 (pooling_literature.md §1.1, §1.2, assertions A1-A3)."""

from __future__ import annotations

import pytest

from labeler.pooling import (
    PoolEntry,
    collapse_to_documents,
    depth_pool,
    pool_diff,
    rrf_pool,
    rrf_ranking,
    rrf_scores,
    run_contributions,
    unique_contribution_counts,
    unique_contributions,
)

# Toy-2: one topic, three runs of five documents; run order A, B, C.
TOY2 = {
    "A": {"1": ["d1", "d2", "d3", "d4", "d5"]},
    "B": {"1": ["d2", "d6", "d1", "d7", "d8"]},
    "C": {"1": ["d9", "d6", "d10", "d2", "d11"]},
}
RELEVANT = {"d1", "d2", "d4", "d6", "d9"}


def members(pool: dict[str, dict[str, PoolEntry]], topic: str = "1") -> set[str]:
    return set(pool.get(topic, {}))


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        (1, {"d1", "d2", "d9"}),  # A1: each run's first document
        (2, {"d1", "d2", "d6", "d9"}),  # A1: d6 is second in both B and C, d2 second in A
        (3, {"d1", "d2", "d3", "d6", "d9", "d10"}),  # A1: A adds d3, C adds d10; B's d1 is already in
        (5, {f"d{i}" for i in range(1, 12)}),  # A1: every ranked document, 11 in all
    ],
)
def test_depth_pool_membership_matches_a1(depth, expected):
    assert members(depth_pool(TOY2, depth)) == expected


def test_unique_contributions_at_depth_3_match_a2():
    unique = unique_contributions(depth_pool(TOY2, 3))
    assert unique == {"A": {"1": {"d3"}}, "B": {}, "C": {"1": {"d9", "d10"}}}
    # A2's unique relevant counts: only C's d9 is relevant.
    relevant = {run: sum(len(units & RELEVANT) for units in topics.values()) for run, topics in unique.items()}
    assert relevant == {"A": 0, "B": 0, "C": 1}


def test_contributors_are_only_runs_within_their_depth():
    # C ranks d2 at 4, outside depth 3, so only A (rank 2) and B (rank 1) bring it in.
    entry = depth_pool(TOY2, 3)["1"]["d2"]
    assert entry.contributors == (("A", 2), ("B", 1))
    assert entry.runs == ("A", "B")
    assert entry.best_rank == 1
    assert (entry.topic_id, entry.unit_id) == ("1", "d2")


def test_entry_rrf_uses_every_runs_full_ranking_not_the_pool_depth():
    # At depth 1 only B contributes d2, yet its RRF still counts A at 2 and C at 4.
    entry = depth_pool(TOY2, 1)["1"]["d2"]
    assert entry.contributors == (("B", 1),)
    assert round(entry.rrf, 6) == 0.048147


def test_per_run_depth_overrides_the_default():
    pool = depth_pool(TOY2, 3, run_depths={"C": 1})
    # C now pools only d9: d10 (C's rank 3) drops out, d6 stays through B alone.
    assert members(pool) == {"d1", "d2", "d3", "d6", "d9"}
    assert pool["1"]["d6"].contributors == (("B", 2),)


def test_contribution_counts_at_depth_3():
    pool = depth_pool(TOY2, 3)
    assert run_contributions(pool) == {"A": 3, "B": 3, "C": 3}
    assert unique_contribution_counts(pool) == {"A": 1, "B": 0, "C": 2}


def test_named_runs_fix_the_report_order_and_list_runs_that_added_nothing():
    pool = depth_pool(TOY2, 1)
    assert list(run_contributions(pool, runs=["C", "B", "A", "D"])) == ["C", "B", "A", "D"]
    assert unique_contribution_counts(pool, runs=["C", "D"]) == {"C": 1, "D": 0}


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("d2", 0.048147),  # A3: 1/62 + 1/61 + 1/64 (A at 2, B at 1, C at 4)
        ("d1", 0.032266),  # A3: 1/61 + 1/63 (A at 1, B at 3)
        ("d6", 0.032258),  # A3: 2/62 (B and C at 2)
        ("d9", 0.016393),  # 1/61 (C at 1)
        ("d3", 0.015873),  # 1/63 (A at 3), ties with d10
        ("d10", 0.015873),  # 1/63 (C at 3)
        ("d4", 0.015625),  # 1/64 (A at 4)
        ("d11", 0.015385),  # 1/65 (C at 5)
    ],
)
def test_rrf_scores_match_a3(unit, expected):
    assert round(rrf_scores(TOY2)["1"][unit], 6) == expected


def test_rrf_keeps_close_scores_apart_and_exact_ties_tied():
    scores = rrf_scores(TOY2)["1"]
    assert scores["d1"] > scores["d6"]  # 0.032266 > 0.032258
    assert scores["d3"] == scores["d10"]  # both 1/63: a true tie the tie-break must settle
    # p has ranks (1, 2, 7) and q (7, 1, 2): a plain left-to-right sum differs in the last bit, fsum does not.
    runs = {
        "x": {"1": ["p", "f1", "f2", "f3", "f4", "f5", "q"]},
        "y": {"1": ["q", "p"]},
        "z": {"1": ["g1", "q", "g2", "g3", "g4", "g5", "p"]},
    }
    scores = rrf_scores(runs)["1"]
    assert scores["p"] == scores["q"]


def test_rrf_k_is_a_parameter():
    # k = 0: d2 = 1/2 + 1/1 + 1/4.
    assert rrf_scores(TOY2, k=0)["1"]["d2"] == pytest.approx(1.75)


@pytest.mark.parametrize(
    ("top_n", "expected"),
    [
        (4, {"d2", "d1", "d6", "d9"}),  # A3: equals Pool_2
        (5, {"d2", "d1", "d6", "d9", "d10"}),  # d3 and d10 tie at 1/63; "d10" < "d3" as strings, so d10 enters
        (20, {f"d{i}" for i in range(1, 12)}),  # fewer units than top_n: all of them
    ],
)
def test_rrf_pool_takes_top_n_with_unit_id_tie_break(top_n, expected):
    assert members(rrf_pool(TOY2, top_n)) == expected


def test_rrf_pool_contributors_are_every_run_that_ranks_the_unit():
    entry = rrf_pool(TOY2, 4)["1"]["d2"]
    assert entry.contributors == (("A", 2), ("B", 1), ("C", 4))
    assert entry.best_rank == 1
    assert round(entry.rrf, 6) == 0.048147


def test_rrf_ranking_breaks_ties_by_codepoint():
    assert rrf_ranking({"d3": 0.5, "d10": 0.5, "B": 0.5, "a": 0.9}) == ["a", "B", "d10", "d3"]


def test_topics_are_ordered_numerically_and_runs_missing_a_topic_add_nothing_there():
    runs = {"A": {"10": ["x"], "2": ["y", "z"]}, "B": {"2": ["z"]}}
    pool = depth_pool(runs, 1)
    assert list(pool) == ["2", "10"]
    assert {unit: entry.contributors for unit, entry in pool["2"].items()} == {"y": (("A", 1),), "z": (("B", 1),)}
    assert pool["10"]["x"].contributors == (("A", 1),)


def test_topics_with_nothing_pooled_are_left_out():
    assert depth_pool({"A": {"1": [], "2": ["x"]}}, 3) == {"2": {"x": PoolEntry("2", "x", 1, (("A", 1),), 1 / 61)}}


def test_collapse_keeps_each_documents_first_position_and_counts_the_rest():
    parents = {"a#0": "a", "b#1": "b", "a#2": "a", "c#0": "c", "b#0": "b"}
    assert collapse_to_documents(["a#0", "b#1", "a#2", "c#0", "b#0"], parents) == (["a", "b", "c"], 2)
    assert collapse_to_documents([], parents) == ([], 0)


def test_pool_diff_lists_only_new_pairs():
    depth2, depth3 = depth_pool(TOY2, 2), depth_pool(TOY2, 3)
    assert pool_diff({"1": {"d1", "d2", "d6", "d9"}}, depth3) == {"1": {"d3", "d10"}}
    assert pool_diff(depth2, depth3) == {"1": {"d3", "d10"}}  # an earlier pool works as `previous`
    assert pool_diff(None, depth2) == {"1": {"d1", "d2", "d6", "d9"}}
    assert pool_diff(depth3, depth2) == {}  # shrinking adds no work
    assert pool_diff({"2": {"x"}}, depth2) == {"1": {"d1", "d2", "d6", "d9"}}  # other topics do not count


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: depth_pool(TOY2, 0), "depth must be an integer of at least 1, not 0"),
        (lambda: depth_pool(TOY2, True), "depth must be an integer"),  # a bool is not a depth
        (lambda: depth_pool(TOY2, 3, run_depths={"Z": 2, "A": 1}), "run_depths names runs that were not given: Z"),
        (lambda: depth_pool(TOY2, 3, run_depths={"C": 0}), "depth of run 'C' must be an integer of at least 1"),
        (lambda: rrf_pool(TOY2, 0), "top_n must be an integer of at least 1"),
        (lambda: rrf_scores(TOY2, k=-1), "RRF k must be an integer of at least 0"),
        (lambda: depth_pool({"A": {"1": ["x", "y", "x"]}}, 1), "run 'A' ranks unit 'x' twice for topic '1'"),
        (lambda: collapse_to_documents(["a#0", "z#9"], {"a#0": "a"}), "chunk 'z#9' has no parent document"),
    ],
)
def test_bad_requests_raise_value_error(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()

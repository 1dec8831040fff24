"""The replay's figures on Toy-2 (pooling_literature.md §0) by hand, and against an independent computation."""

from __future__ import annotations

import math
import random

import pytest

from labeler.ordering import ORDERS, mtf_next
from labeler.pooling import depth_pool
from labeler.replay import (
    ORACLE,
    ReplaySettings,
    curve_area,
    lockstep_curve,
    oracle_area,
    replay_order,
    replay_topic,
    share,
    to_relevant,
    topic_curve,
)
from labeler.replay.campaign import SystemScorer, replay_campaign
from labeler.stopping import parse_rule

RUNS = {
    "A": {"q": "d1 d2 d3 d4 d5".split()},
    "B": {"q": "d2 d6 d1 d7 d8".split()},
    "C": {"q": "d9 d6 d10 d2 d11".split()},
}
RELEVANT = {"d1", "d2", "d4", "d6", "d9"}
POOL = depth_pool(RUNS, 5)
GRADES = {"q": {unit: int(unit in RELEVANT) for unit in POOL["q"]}}
ORDER = ("A", "B", "C")
# Systems scored for tau (P@5): X finds nothing, Y only d4, Z d9, d1 and d2.
SYSTEMS = {
    "X": {"q": "d3 d5 d7 d8 d10".split()},
    "Y": {"q": "d4 d3 d5 d7 d8".split()},
    "Z": {"q": "d9 d1 d2 d3 d5".split()},
}


def _replay(name: str):
    return replay_topic(name, "q", POOL["q"], GRADES["q"], ReplaySettings(threshold=1, run_order=ORDER))


def test_toy2_depth_order_by_hand():
    # best rank, then more contributing runs, then unit id: rank 1 d2 (3 runs) d1 (2) d9 (1); rank 2 d6;
    # rank 3 d10 < d3 (as text); rank 4 d4 d7; rank 5 d11 d5 d8
    replayed = _replay("pool")
    assert replayed.sequence == ("d2", "d1", "d9", "d6", "d10", "d3", "d4", "d7", "d11", "d5", "d8")
    assert replayed.curve == [1, 2, 3, 4, 4, 4, 5, 5, 5, 5, 5]
    assert curve_area(replayed.curve) == 43
    assert oracle_area(11, 5) == 1 + 2 + 3 + 4 + 5 * 7 == 45
    assert share(43, 45) == 43 / 45
    assert [to_relevant(replayed.curve, 5, p) for p in (50, 90, 95)] == [3, 7, 7]


def test_toy2_mtf_matches_the_literature():
    replayed = _replay("mtf")
    assert replayed.sequence == ("d1", "d2", "d3", "d6", "d7", "d9", "d10", "d4", "d5", "d8", "d11")
    assert replayed.curve == [1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5]  # pooling_literature.md §1.3
    assert to_relevant(replayed.curve, 5, 100) == 8  # all five after 8 judgments
    assert curve_area(replayed.curve) == 39
    assert [to_relevant(replayed.curve, 5, p) for p in (50, 90, 95)] == [4, 8, 8]


def test_the_oracle_finds_r_in_r_and_its_share_is_exactly_one():
    replayed = _replay(ORACLE)
    assert replayed.curve == [1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5]
    assert share(curve_area(replayed.curve), oracle_area(11, 5)) == 1.0


def test_campaign_tau_and_stopping_on_toy2_by_hand():
    scorer = SystemScorer(SYSTEMS, "P@5", ["q"], 1, GRADES)
    figures = replay_campaign(
        POOL,
        GRADES,
        ReplaySettings(threshold=1, run_order=ORDER),
        orders=[ORACLE, "pool", "mtf"],
        scorer=scorer,
        rules=[parse_rule("window:2")],
    )
    assert figures[ORACLE].curve_share == 1.0
    assert figures["pool"].curve_share == 43 / 45
    assert figures["mtf"].curve_share == 39 / 45
    assert figures["mtf"].curve == tuple((n, c) for n, c in enumerate([1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5], 1))
    assert figures["mtf"].to_relevant == {"50": 4, "90": 8, "95": 8}
    # full labels: X 0, Y 0.2, Z 0.6. Budgets of 10/25/50% (2, 3, 6 units) never reach d4, so Y ties X at 0:
    # the pairs (X,Z), (Y,Z) agree, (X,Y) is tied in one ranking only: tau_b = 2 / sqrt(3 * 2).
    # tau_AP: estimated Z, X, Y (ties keep the systems' order) against Z, Y, X: (2/2)(1 + 1/2) - 1 = 0.5
    for order in ("pool", "mtf"):
        for budget in ("10", "25", "50"):
            assert figures[order].tau[budget] == pytest.approx(2 / math.sqrt(6))
            assert figures[order].tau_ap[budget] == pytest.approx(0.5)
        assert figures[order].tau["100"] == pytest.approx(1.0)
    # window:2 on pool order (hits 1 1 1 1 0 0 ...) stops after 6 with d4 not found; MTF's misses never
    # come two in a row until judgment 10, after every relevant unit
    pool_stop = figures["pool"].stopping["window:2"]
    assert (pool_stop.judgments, pool_stop.relevant_lost, pool_stop.topics_stopped) == (6, 1, 1)
    assert pool_stop.effort_saved == pytest.approx(5 / 11)
    assert pool_stop.tau == pytest.approx(2 / math.sqrt(6))
    assert pool_stop.tau_lost == pytest.approx(1 - 2 / math.sqrt(6))
    mtf_stop = figures["mtf"].stopping["window:2"]
    assert (mtf_stop.judgments, mtf_stop.relevant_lost) == (10, 0)


def _independent_mtf(rankings: dict[str, list[str]], relevant: set[str]) -> list[str]:
    """Move-to-Front as Cormack, Palmer & Clarke describe it, written apart from labeler.ordering:
    take the highest-priority run (ties: run order), read it down from where it stopped while it finds
    relevant units, and lower its priority by one at its first non-relevant unit."""
    priority = dict.fromkeys(rankings, 0)
    position = dict.fromkeys(rankings, 0)
    judged: list[str] = []
    total = len({u for r in rankings.values() for u in r})
    while len(judged) < total:
        live = [r for r in rankings if any(u not in judged for u in rankings[r][position[r] :])]
        best = max(priority[r] for r in live)
        run = next(r for r in live if priority[r] == best)
        while position[run] < len(rankings[run]):
            unit = rankings[run][position[run]]
            position[run] += 1
            if unit in judged:
                continue
            judged.append(unit)
            if unit not in relevant:
                priority[run] -= 1
                break
    return judged


def _random_collection(rng: random.Random):
    units = [f"u{i}" for i in range(rng.randint(3, 14))]
    runs = {name: {"t": rng.sample(units, rng.randint(1, len(units)))} for name in ("r1", "r2", "r3")}
    depth = rng.randint(1, 8)
    pool = depth_pool(runs, depth)
    relevant = {u for u in pool["t"] if rng.random() < 0.4}
    grades = {u: int(u in relevant) for u in pool["t"]}
    # what MTF reads down: each run's ranking to the pool's depth (the units it brought in)
    tops = {name: r["t"][:depth] for name, r in runs.items() if r["t"][:depth]}
    return tops, pool, relevant, grades


def test_replay_matches_an_independent_computation_on_random_collections():
    rng = random.Random(16)
    for _ in range(150):
        runs, pool, relevant, grades = _random_collection(rng)
        entries = pool["t"]
        mtf = replay_order("mtf", "t", entries, grades, ReplaySettings(threshold=1, run_order=("r1", "r2", "r3")))
        assert mtf == _independent_mtf(runs, relevant)
        # the pool order by its definition, the curve and the share by theirs
        by_rank = sorted(entries, key=lambda u: (entries[u].best_rank, -len(entries[u].contributors), u))
        sequence = replay_order("pool", "t", entries, grades, ReplaySettings(threshold=1))
        assert sequence == by_rank
        found = [sum(1 for u in sequence[:n] if u in relevant) for n in range(1, len(sequence) + 1)]
        assert topic_curve([u in relevant for u in sequence]) == found
        best = sum(min(n, len(relevant)) for n in range(1, len(sequence) + 1))
        assert oracle_area(len(sequence), len(relevant)) == best
        oracle = replay_topic(ORACLE, "t", entries, grades, ReplaySettings(threshold=1))
        assert curve_area(oracle.curve) == best


def test_static_orders_asked_once_equal_asked_after_every_judgment_and_mtf_equals_mtf_next():
    rng = random.Random(7)
    for _ in range(60):
        runs, pool, relevant, grades = _random_collection(rng)
        entries = pool["t"]
        static = [n for n in ORDERS.names() if ORDERS.get(n).static]
        assert static == ["pool", "rrf", "random"]  # the orders that never look at a label
        for name in static:
            once = replay_order(name, "t", entries, grades, ReplaySettings(threshold=1, seed=3), recompute=False)
            every = replay_order(name, "t", entries, grades, ReplaySettings(threshold=1, seed=3), recompute=True)
            assert once == every, name
        judged: dict[str, bool] = {}
        while (unit := mtf_next(runs, judged, pool=entries)) is not None:
            judged[unit] = unit in relevant
        assert replay_order(
            "mtf", "t", entries, grades, ReplaySettings(threshold=1, run_order=("r1", "r2", "r3"))
        ) == list(judged)


def test_lockstep_curve_by_hand():
    # topic a: pool 3, curve 1 1 2; topic b: pool 1, curve 1
    assert lockstep_curve([[1, 1, 2], [1]]) == [(2, 2), (3, 2), (4, 3)]


def test_a_unit_without_a_label_is_refused():
    with pytest.raises(ValueError, match="no label to reveal"):
        replay_order("pool", "q", POOL["q"], {"d1": 1}, ReplaySettings(threshold=1))

"""The `uncertainty` order (LARA): hand-worked cases on a tiny topic, and its registry entry."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from labeler.agreement.calibration import MIN_EXAMPLES
from labeler.judgments.log import PairState
from labeler.ordering import ORDERS, OrderInput, arrange, needs_model, uncertainty_order
from labeler.pooling import PoolEntry

GRADES = (0, 1, 2)
PLAIN = {"prior_weight": 0.0, "min_examples": MIN_EXAMPLES}  # a plain isotonic fit, stated probs below 10 labels


@dataclass(frozen=True)
class Label:
    grade: int
    probs: dict[int, float] | None = None


def entry(unit: str, rank: int) -> PoolEntry:
    return PoolEntry("t", unit, rank, (("r", rank),), 0.0)


def judged(unit: str, grade: int) -> PairState:
    return PairState("t", unit, label=grade)


def test_registered_as_needing_a_model():
    order = ORDERS.get("uncertainty")
    assert order.needs_model and not order.seeded
    assert needs_model("uncertainty") and not needs_model("pool") and not needs_model(None)


def test_fallback_ranks_by_the_stated_margin_then_pool_order():
    # No human label yet: the stated probabilities. Margins: a 0.8-0.1=0.7, b 0.5-0.4=0.1, c 0.4-0.4=0, d 0.1.
    model = {
        "a": Label(0, {0: 0.8, 1: 0.1, 2: 0.1}),
        "b": Label(1, {0: 0.4, 1: 0.5, 2: 0.1}),
        "c": Label(1, {0: 0.2, 1: 0.4, 2: 0.4}),
        "d": Label(2, {0: 0.0, 1: 0.45, 2: 0.55}),
    }
    ordered = ["a", "b", "c", "d", "e"]  # pool order; e has no model label
    # e first (no model label), then c (margin 0), then b and d (margin 0.1: a tie, pool order), then a
    assert uncertainty_order(ordered, {}, model, GRADES) == ["e", "c", "b", "d", "a"]
    # judged units lead, in pool order, and leave the ranking
    assert uncertainty_order(ordered, {"c": judged("c", 2), "e": judged("e", 0)}, model, GRADES, **PLAIN) == [
        "c",
        "e",
        "b",
        "d",
        "a",
    ]


def test_the_calibrator_refit_on_human_labels_changes_the_order():
    # The model states a confident 0.9 for every "x" pair and a hesitant 0.6 for every "y" pair. Humans find
    # its confident "x" labels right only half the time and its hesitant "y" labels always right.
    x = {0: 0.9, 1: 0.1, 2: 0.0}
    y = {0: 0.6, 1: 0.4, 2: 0.0}
    model = {f"x{i}": Label(0, x) for i in range(8)} | {f"y{i}": Label(0, y) for i in range(8)}
    ordered = [f"x{i}" for i in range(8)] + [f"y{i}" for i in range(8)]
    # stated: y (margin 0.2) before x (margin 0.8)
    assert uncertainty_order(ordered, {}, model, GRADES)[:6] == ["y0", "y1", "y2", "y3", "y4", "y5"]
    # ten labels, MIN_EXAMPLES: x0..x5 half 0 half 1, y0..y3 all 0
    states = {f"x{i}": judged(f"x{i}", i % 2) for i in range(6)} | {f"y{i}": judged(f"y{i}", 0) for i in range(4)}
    assert len(states) == MIN_EXAMPLES
    # Isotonic per grade on P(0): x -> 0.5 (stated 0.9), y -> 1.0 (0.6) is a violation: pooled to 7/10 for both;
    # P(1) at 0.1 (x) and 0.4 (y): 3/6 and 0/4, pooled to 3/10; P(2) always 0. Both calibrate to {0: 0.7, 1: 0.3}:
    # one margin, so pool order: x6, x7, then y4.. .
    out = uncertainty_order(ordered, states, model, GRADES, **PLAIN)
    assert out[:10] == [*(f"x{i}" for i in range(6)), *(f"y{i}" for i in range(4))]
    assert out[10:] == ["x6", "x7", "y4", "y5", "y6", "y7"]


def test_calibration_moves_a_pair_ahead():
    # Same as above, but the humans find "y" pairs wrong half the time and "x" pairs always right, with the
    # stated P(0) increasing in x: isotonic keeps them apart. y: P(0)=0.6 -> 0.5; x: 0.9 -> 1.0.
    x = {0: 0.9, 1: 0.1, 2: 0.0}
    y = {0: 0.6, 1: 0.4, 2: 0.0}
    model = {f"x{i}": Label(0, x) for i in range(8)} | {f"y{i}": Label(0, y) for i in range(8)}
    ordered = [f"x{i}" for i in range(8)] + [f"y{i}" for i in range(8)]
    states = {f"x{i}": judged(f"x{i}", 0) for i in range(4)} | {f"y{i}": judged(f"y{i}", i % 2) for i in range(6)}
    out = uncertainty_order(ordered, states, model, GRADES, **PLAIN)
    # y calibrates to {0: 0.5, 1: 0.5} (margin 0): y6, y7 first; x to {0: 1, 1: 0} (margin 1) after
    assert out[10:] == ["y6", "y7", "x4", "x5", "x6", "x7"]


def test_the_stated_probabilities_as_pseudo_examples_one_human_label_moves_a_pair_ahead():
    # Two grades; a, b stated {0: 0.9, 1: 0.1}, c, d stated {0: 0.6, 1: 0.4}; pool order a, b, c, d.
    confident, hesitant = {0: 0.9, 1: 0.1}, {0: 0.6, 1: 0.4}
    model = {"a": Label(0, confident), "b": Label(0, confident), "c": Label(0, hesitant), "d": Label(0, hesitant)}
    ordered = ["a", "b", "c", "d"]
    # no human label: the stated margins, 0.2 for c, d and 0.8 for a, b
    assert uncertainty_order(ordered, {}, model, (0, 1), prior_weight=4.0) == ["c", "d", "a", "b"]
    # A human grades a 1. Four pseudo-examples of weight 1 each (total 4) with their stated values as targets.
    # P(0): at 0.9 a's 0 and a's, b's 0.9: 1.8 / 3 = 0.6; at 0.6 c's, d's 0.6: 0.6. P(1): at 0.1 (1 + 0.2) / 3
    # = 0.4; at 0.4: 0.4. So b calibrates to {0: 0.6, 1: 0.4} like c and d: margin 0.2 for all, pool order.
    out = uncertainty_order(ordered, {"a": judged("a", 1)}, model, (0, 1), prior_weight=4.0)
    assert out == ["a", "b", "c", "d"]


def test_a_label_without_probabilities_is_certain_and_the_order_input_default_is_no_model():
    entries = {u: entry(u, r) for r, u in enumerate(["a", "b", "c"], 1)}
    given = OrderInput("t", entries, {}, 1, 0, ("r",))
    assert given.model == {} and given.grades == ()
    assert arrange("uncertainty", given) == ["a", "b", "c"]  # no model: every unit unlabelled, pool order
    with_model = OrderInput("t", entries, {}, 1, 0, ("r",), {"a": Label(2), "b": Label(0, {0: 0.5, 1: 0.5})}, GRADES)
    assert arrange("uncertainty", with_model) == ["c", "b", "a"]


@pytest.mark.parametrize("method", ["isotonic", "logistic"])
def test_both_methods_give_a_full_order(method):
    model = {f"u{i}": Label(i % 3, {g: (0.6 if g == i % 3 else 0.2) for g in GRADES}) for i in range(30)}
    ordered = sorted(model)
    states = {f"u{i}": judged(f"u{i}", (i + i // 3) % 3) for i in range(15)}
    out = uncertainty_order(ordered, states, model, GRADES, method)
    assert sorted(out) == ordered and out[:15] == [u for u in ordered if u in states]

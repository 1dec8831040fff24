"""Kendall's tau-b and tau_AP between system rankings (pooling_literature.md §2.5)."""

from __future__ import annotations

import random

import pytest

from labeler.coverage import compare_rankings, kendall_tau, rank_systems, tau_ap

REFERENCE = ["s1", "s2", "s3", "s4"]


@pytest.mark.parametrize(
    ("estimated", "tau", "ap"),
    [
        # Top pair swapped: 5 concordant, 1 discordant of 6 -> 4/6. tau_AP: C(2) = 0 (s1 is not below s2),
        # C(3) = 2/2, C(4) = 3/3 -> (2/3)(0 + 1 + 1) - 1 = 1/3.
        (["s2", "s1", "s3", "s4"], 2 / 3, 1 / 3),
        # Bottom pair swapped: tau still 4/6; tau_AP: 1/1 + 2/2 + 2/3 -> (2/3)(8/3) - 1 = 7/9 = 0.778.
        (["s1", "s2", "s4", "s3"], 2 / 3, 7 / 9),
        (REFERENCE, 1.0, 1.0),  # identical
        (REFERENCE[::-1], -1.0, -1.0),  # reversed: every pair discordant, every C(i) = 0
    ],
)
def test_four_systems(estimated, tau, ap):
    assert kendall_tau(REFERENCE, estimated) == pytest.approx(tau)
    assert tau_ap(REFERENCE, estimated) == pytest.approx(ap)


def test_tau_ap_weighs_top_swaps_more_and_is_asymmetric():
    assert tau_ap(REFERENCE, ["s2", "s1", "s3", "s4"]) < tau_ap(REFERENCE, ["s1", "s2", "s4", "s3"])
    # Reference a b c d, estimate b c a d: C(2) = 1 (b above c in the reference), C(3) = 0 (a is above
    # neither b nor c), C(4) = 3 -> (2/3)(1/1 + 0/2 + 3/3) - 1 = 1/3.
    assert tau_ap(["a", "b", "c", "d"], ["b", "c", "a", "d"]) == pytest.approx(1 / 3)
    # Roles swapped: reference b c a d, estimate a b c d: C(2) = 0 (a is below b in the reference),
    # C(3) = 1 (b above c), C(4) = 3 -> (2/3)(0 + 1/2 + 1) - 1 = 0. tau-b is symmetric: a is discordant with b and c,
    # 4 - 2 of 6 pairs -> 1/3 both ways.
    assert tau_ap(["b", "c", "a", "d"], ["a", "b", "c", "d"]) == pytest.approx(0.0)
    assert kendall_tau(["a", "b", "c", "d"], ["b", "c", "a", "d"]) == pytest.approx(1 / 3)
    assert kendall_tau(["b", "c", "a", "d"], ["a", "b", "c", "d"]) == pytest.approx(1 / 3)


def test_kendall_tau_b_with_ties_by_hand():
    # pairs: (a,b) x=+1, y=-1 discordant; (a,c) x=+1, y=-2 discordant; (b,c) tied in the reference.
    # n0 = 3, n1 = 1 tie in the reference, n2 = 0 -> (0 - 2) / sqrt((3 - 1)(3 - 0)) = -2/sqrt(6).
    assert kendall_tau({"a": 3, "b": 2, "c": 2}, {"a": 1, "b": 2, "c": 3}) == pytest.approx(-2 / 6**0.5)


def test_kendall_tau_matches_scipy_on_random_scores_with_ties():
    stats = pytest.importorskip("scipy.stats")
    generator = random.Random(7)
    for _ in range(200):
        n = generator.randint(2, 9)
        systems = [f"s{i}" for i in range(n)]
        first = {s: generator.randint(0, 4) / 4 for s in systems}
        second = {s: generator.randint(0, 4) / 4 for s in systems}
        ours = kendall_tau(first, second)
        expected = stats.kendalltau([first[s] for s in systems], [second[s] for s in systems]).statistic
        if ours is None:
            assert expected != expected  # scipy's NaN where the coefficient is undefined
        else:
            assert ours == pytest.approx(expected)


def test_undefined_cases_are_none():
    assert kendall_tau({"a": 1}, {"a": 2}) is None  # one system
    assert kendall_tau({"a": 1, "b": 1}, {"a": 1, "b": 2}) is None  # every reference pair tied
    assert tau_ap(["a"], ["a"]) is None
    assert tau_ap([], []) is None


def test_rank_systems_keeps_the_given_order_on_ties_and_drops_undefined_scores():
    assert rank_systems({"x": 0.5, "y": 0.7, "z": 0.5, "w": None}) == ["y", "x", "z"]


def test_compare_rankings_uses_systems_scored_in_both():
    result = compare_rankings({"a": 0.9, "b": 0.5, "c": None, "d": 0.1}, {"a": 0.2, "b": 0.6, "c": 0.4, "d": 0.1})
    # c has no reference score, so it is left out: a b d vs b a d. tau: 2 concordant, 1 discordant -> 1/3.
    # tau_AP: C(2) = 0 (b, above a in the estimate, is below it in the reference), C(3) = 2 -> (2/2)(0 + 2/2) - 1.
    assert result["systems"] == 3
    assert result["reference"] == ["a", "b", "d"] and result["other"] == ["b", "a", "d"]
    assert result["kendall_tau"] == pytest.approx(1 / 3)
    assert result["tau_ap"] == pytest.approx(0.0)
    assert result["equivalent"] is False


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: kendall_tau(["a", "b"], ["a", "c"]), "same systems; only one has: b, c"),
        (lambda: kendall_tau(["a", "a"], ["a", "a"]), "lists a system twice"),
        (lambda: kendall_tau({"a": "high", "b": 1}, {"a": 1, "b": 2}), "score of 'a' must be a number"),
        (lambda: kendall_tau({"a": float("nan"), "b": 1}, {"a": 1, "b": 2}), "must be a number"),
        (lambda: kendall_tau("ab", "ba"), "must be a list of systems"),
        (lambda: tau_ap(["a", "b"], ["a"]), "same systems"),
        (lambda: tau_ap(["a", "b", "b"], ["a", "b", "b"]), "twice"),
    ],
)
def test_invalid_input_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()

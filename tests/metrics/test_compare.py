"""Paired comparison: deltas, wins/ties/losses, a seeded randomization test and Student's t in plain math."""

from __future__ import annotations

import math
import random

import pytest

from labeler.metrics import paired_comparison, paired_t_test, randomization_p_value
from labeler.metrics.compare import regularized_incomplete_beta


def test_hand_made_case():
    a = {"1": 0.5, "2": 0.3, "10": 0.2, "4": 0.1, "6": 0.4}
    b = {"1": 0.7, "2": 0.3, "10": 0.1, "5": 0.9, "6": None}
    # Common topics with a value on both sides: 1, 2, 10 ("4" and "5" are one-sided, "6" is undefined in b).
    result = paired_comparison(a, b)
    assert result["topics"] == ["1", "2", "10"]
    assert result["deltas"] == pytest.approx({"1": 0.2, "2": 0.0, "10": -0.1})
    assert (result["wins"], result["ties"], result["losses"], result["n"]) == (1, 1, 1, 3)
    assert result["mean_delta"] == pytest.approx(0.1 / 3)
    assert result["mean_a"] == pytest.approx(1.0 / 3) and result["mean_b"] == pytest.approx(1.1 / 3)
    assert 0 < result["randomization_p"] <= 1 and 0 < result["t_test_p"] <= 1


def test_a_difference_below_1e_12_is_a_tie():
    result = paired_comparison({"1": 0.1 + 0.2}, {"1": 0.3})
    assert (result["wins"], result["ties"], result["losses"]) == (0, 1, 0)


def test_identical_runs_give_p_one():
    scores = {str(i): i / 10 for i in range(8)}
    result = paired_comparison(scores, dict(scores))
    assert result["randomization_p"] == 1.0
    assert result["t_test_p"] == 1.0 and result["t"] == 0.0
    assert result["mean_delta"] == 0.0


def test_randomization_p_is_reproducible_and_close_to_the_exact_value():
    # Deltas 1, 2, 3: only "no flip" and "all flipped" reach |sum| = 6, so the exact p is 2/8 = 0.25.
    first = randomization_p_value([1.0, 2.0, 3.0], permutations=20_000, seed=7)
    assert first == randomization_p_value([1.0, 2.0, 3.0], permutations=20_000, seed=7)
    assert first == pytest.approx(0.25, abs=0.015)
    # Twenty consistent gains: almost no sign pattern is as extreme, so p reaches its floor 1/(permutations+1).
    deltas = [0.1 + 0.001 * i for i in range(20)]
    assert randomization_p_value(deltas, permutations=999, seed=0) == pytest.approx(1 / 1000)
    assert randomization_p_value([], permutations=10) is None


def test_randomization_blocks_of_eight_cover_every_topic():
    # 11 deltas (a full block of 8 and a partial one): flipping only the last one matters.
    deltas = [0.0] * 10 + [1.0]
    assert randomization_p_value(deltas, permutations=2000, seed=3) == 1.0  # |±1| always reaches 1


def test_no_common_topics():
    result = paired_comparison({"1": 0.5}, {"2": 0.5})
    assert result["n"] == 0 and result["mean_delta"] is None
    assert result["randomization_p"] is None and result["t_test_p"] is None


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="permutations"):
        paired_comparison({"1": 0.1}, {"1": 0.2}, permutations=0)
    with pytest.raises(ValueError, match="must be a number"):
        paired_comparison({"1": "0.1"}, {"1": 0.2})


def test_t_test_closed_form_with_one_degree_of_freedom():
    # n = 2: t has 1 degree of freedom (Cauchy), two-sided p = 1 − (2/π)·atan(|t|).
    t, p = paired_t_test([0.1, 0.3])
    assert t == pytest.approx(0.2 / (math.sqrt(0.02) / math.sqrt(2)))
    assert p == pytest.approx(1 - 2 / math.pi * math.atan(abs(t)))


def test_t_test_edge_cases():
    assert paired_t_test([0.4]) == (None, None)
    assert paired_t_test([0.2, 0.2, 0.2]) == (math.inf, 0.0)
    assert paired_t_test([0.0, 0.0]) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("x", "a", "b", "expected"),
    [
        (0.3, 1.0, 1.0, 0.3),  # I_x(1, 1) = x
        (0.3, 2.5, 1.0, 0.3**2.5),  # I_x(a, 1) = x^a
        (0.5, 4.0, 4.0, 0.5),  # symmetry
        (0.9, 1.0, 3.0, 1 - 0.1**3),  # I_x(1, b) = 1 − (1 − x)^b
        (0.0, 2.0, 3.0, 0.0),
        (1.0, 2.0, 3.0, 1.0),
    ],
)
def test_regularized_incomplete_beta(x, a, b, expected):
    assert regularized_incomplete_beta(x, a, b) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_t_test_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(11)
    for n in (2, 3, 5, 12, 40, 200):
        a = [rng.random() for _ in range(n)]
        b = [x + rng.gauss(0.03, 0.1) for x in a]
        expected = stats.ttest_rel(b, a)
        t, p = paired_t_test([y - x for x, y in zip(a, b, strict=True)])
        assert t == pytest.approx(expected.statistic, rel=1e-9)
        assert p == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-15)
        comparison = paired_comparison({str(i): x for i, x in enumerate(a)}, {str(i): y for i, y in enumerate(b)})
        assert comparison["t_test_p"] == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-15)

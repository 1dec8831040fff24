"""Prediction-powered means (labeler.metrics.ppi): hand-worked cases, the formula written out in numpy, coverage."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy import stats

from labeler.metrics.ppi import ppi_mean, ppi_precision_at_k, relevance_probability, top_k_pairs

Z95 = 1.959963984540054


def test_hand_worked_mean_and_interval():
    # f over N = 4 units: 1, 0, 1, 0 (mean 0.5, sample variance 1/3); the human sample is
    # units 1 and 2 with (Y, f) = (1, 1), (1, 0): rectifiers 0, 1 (mean 0.5, variance 0.5).
    # theta = 0.5 + 0.5 = 1.0; se = sqrt((1/3)/4 + 0.5/2) = sqrt(1/3).
    est = ppi_mean([1, 0, 1, 0], [(1, 1), (1, 0)])
    assert est.mean == pytest.approx(1.0)
    assert est.model_mean == pytest.approx(0.5)
    assert est.rectifier == pytest.approx(0.5)
    assert est.std_error == pytest.approx(math.sqrt(1 / 3))
    assert est.ci == pytest.approx((1.0 - Z95 * math.sqrt(1 / 3), 1.0 + Z95 * math.sqrt(1 / 3)))
    assert (est.units, est.human_labels, est.level) == (4, 2, 0.95)


def test_a_perfect_model_has_no_rectifier_and_a_model_of_zeros_is_the_classical_interval():
    perfect = ppi_mean([0.2, 0.4, 0.9], [(0.4, 0.4), (0.9, 0.9)])
    assert perfect.rectifier == 0
    assert perfect.std_error == pytest.approx(math.sqrt(np.var([0.2, 0.4, 0.9], ddof=1) / 3))
    ys = [1, 0, 0, 1, 1, 0, 1, 1]
    blind = ppi_mean([0.0] * len(ys), [(y, 0.0) for y in ys], level=0.9)
    low, high = stats.norm.interval(0.9, loc=np.mean(ys), scale=stats.sem(ys))  # the z interval of the mean
    assert blind.mean == pytest.approx(np.mean(ys))
    assert blind.ci == pytest.approx((low, high))


def test_the_formula_written_out_in_numpy():
    # ppi_py.ppi_mean_ci with lambda = 1, written out (with n-1 variances, labeler's choice)
    rng = np.random.default_rng(7)
    y_all = rng.binomial(1, 0.3, size=2000).astype(float)
    f_all = np.clip(y_all * 0.6 + rng.normal(0.2, 0.15, size=2000), 0, 1)
    idx = rng.choice(2000, size=150, replace=False)
    est = ppi_mean(list(f_all), list(zip(y_all[idx], f_all[idx], strict=True)), level=0.9)
    theta = f_all.mean() + (y_all[idx] - f_all[idx]).mean()
    se = math.sqrt(f_all.var(ddof=1) / 2000 + (y_all[idx] - f_all[idx]).var(ddof=1) / 150)
    half = stats.norm.ppf(0.95) * se
    assert est.mean == pytest.approx(theta)
    assert est.ci == pytest.approx((theta - half, theta + half))


def test_coverage_of_a_biased_model_in_simulation():
    # a model biased by +0.2: its own mean misses the truth, PPI's interval covers it ~95% of the time
    rng = random.Random(11)
    ys = [1.0 if rng.random() < 0.25 else 0.0 for _ in range(3000)]
    fs = [min(1.0, 0.5 * y + 0.2 + rng.random() * 0.2) for y in ys]
    truth = sum(ys) / len(ys)
    assert abs(sum(fs) / len(fs) - truth) > 0.1
    covered = 0
    for trial in range(400):
        sample = random.Random(trial).sample(range(len(ys)), 100)
        est = ppi_mean(fs, [(ys[i], fs[i]) for i in sample])
        covered += est.low <= truth <= est.high
    assert 0.92 <= covered / 400 <= 0.98


def test_precision_at_k_over_pairs_is_scaled_for_short_rankings():
    rankings = {"a": ["x", "y", "z"], "b": ["w"]}
    topics = ["a", "b"]
    assert top_k_pairs(rankings, topics, 2) == [("a", "x"), ("a", "y"), ("b", "w")]
    truth = {("a", "x"): 1.0, ("a", "y"): 0.0, ("b", "w"): 1.0}
    # every pair judged by a person, the model says 0.5 everywhere: theta = 0.5 + (2/3 - 0.5) = 2/3 of the
    # 3 ranked pairs, times 3 pairs / (k=2 x 2 topics) = 0.5, which is the mean P@2 ((1/2 + 1/2) / 2)
    est = ppi_precision_at_k(rankings, topics, 2, lambda p: 0.5, truth)
    assert est.mean == pytest.approx(0.5)
    assert est.units == 3 and est.human_labels == 3
    # labels outside the top k are not in the sample
    est = ppi_precision_at_k(rankings, topics, 2, lambda p: 0.5, {**truth, ("a", "z"): 1.0})
    assert est.human_labels == 3


def test_refusals_and_relevance_probability():
    with pytest.raises(ValueError, match="at least 2 human labels"):
        ppi_mean([0.1, 0.2], [(1.0, 0.1)])
    with pytest.raises(ValueError, match="no units"):
        ppi_mean([], [(1.0, 0.1), (0.0, 0.2)])
    with pytest.raises(ValueError, match="level"):
        ppi_mean([0.1], [(1.0, 0.1), (0.0, 0.2)], level=1.0)
    assert relevance_probability({0: 0.1, 1: 0.2, 2: 0.3, 3: 0.4}, 2) == pytest.approx(0.7)

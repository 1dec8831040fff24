"""Comparisons against a baseline: Holm and Bonferroni by hand and against statsmodels, Wilcoxon and the t-test
against scipy, the percentile bootstrap against its definition, and the family correction applied to every test."""

from __future__ import annotations

import random

import pytest

from labeler.metrics.significance import (
    adjust,
    baseline_comparison,
    bonferroni,
    bootstrap_intervals,
    correct,
    holm,
    wilcoxon_test,
)


def test_holm_by_hand():
    # m = 4: sorted 0.01, 0.02, 0.03, 0.5 -> 4*0.01=0.04, 3*0.02=0.06, 2*0.03=0.06, 1*0.5=0.5 (running max)
    assert holm([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.06, 0.5, 0.04, 0.06])
    # the running maximum: 3*0.01=0.03, then 2*0.011=0.022 is raised to 0.03, and the cap at 1
    assert holm([0.01, 0.011, 0.9]) == pytest.approx([0.03, 0.03, 0.9])
    assert holm([0.4, 0.6]) == pytest.approx([0.8, 0.8])


def test_bonferroni_by_hand():
    assert bonferroni([0.01, 0.2, 0.5]) == pytest.approx([0.03, 0.6, 1.0])
    assert adjust([0.01, 0.2], "none") == [0.01, 0.2]
    with pytest.raises(ValueError, match="correction must be one of"):
        adjust([0.1], "fdr")


def test_corrections_match_statsmodels_multipletests(monkeypatch: pytest.MonkeyPatch):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    # statsmodels' Holm branch runs gc.collect() on every call, which costs seconds in a worker's large heap and
    # computes nothing: skip it here.
    monkeypatch.setattr("gc.collect", lambda *args: 0)
    rng = random.Random(16)
    # The kept sizes cover every path of the step-down: one value (no step), two (one step), three (the running
    # maximum can raise a middle value), and a long family where the cap at 1 and several raises occur; each size
    # with distinct values and, from two values on, with a tie (equal p-values must get equal adjusted values).
    for m in (1, 2, 3, 40):
        for tie in (False, True) if m > 1 else (False,):
            pvalues = [rng.random() ** 3 for _ in range(m)]
            if tie:
                pvalues[0] = pvalues[-1]
            for method, ours in (("holm", holm), ("bonferroni", bonferroni)):
                _, expected, _, _ = multitest.multipletests(pvalues, alpha=0.05, method=method)
                assert ours(pvalues) == pytest.approx(list(expected), rel=1e-12, abs=1e-15)


def _random_pairs(rng: random.Random, n: int) -> tuple[dict[str, float], dict[str, float]]:
    a = {str(i): rng.random() for i in range(n)}
    b = {t: min(1.0, max(0.0, x + rng.gauss(0.02, 0.15))) for t, x in a.items()}
    return a, b


def test_wilcoxon_and_t_test_match_scipy_on_seeded_random_data():
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(7)
    for n in (5, 9, 20, 54, 200):
        a, b = _random_pairs(rng, n)
        result = baseline_comparison(a, b, permutations=200, resamples=50)
        xs, ys = [a[t] for t in result["topics"]], [b[t] for t in result["topics"]]
        nonzero = [y - x for x, y in zip(xs, ys, strict=True) if abs(y - x) >= 1e-12]
        expected_w = stats.wilcoxon(nonzero, zero_method="wilcox")
        assert result["tests"]["wilcoxon"]["statistic"] == pytest.approx(expected_w.statistic, rel=1e-12)
        assert result["tests"]["wilcoxon"]["p"] == pytest.approx(expected_w.pvalue, rel=1e-9)
        expected_t = stats.ttest_rel(ys, xs)
        assert result["tests"]["t_test"]["statistic"] == pytest.approx(expected_t.statistic, rel=1e-9)
        assert result["tests"]["t_test"]["p"] == pytest.approx(expected_t.pvalue, rel=1e-9, abs=1e-15)


def test_wilcoxon_by_hand_and_without_nonzero_deltas():
    pytest.importorskip("scipy.stats")
    # deltas 1, -2, 3, 4 (a zero dropped): ranks 1, 2, 3, 4; W+ = 8, W- = 2, W = min = 2;
    # exact two-sided p: the 16 sign patterns with a rank sum <= 2 or >= 8 ({}, {1}, {2} and their mirrors) = 6/16
    statistic, p = wilcoxon_test([1.0, -2.0, 0.0, 3.0, 4.0])
    assert statistic == 2.0 and p == pytest.approx(6 / 16)
    assert wilcoxon_test([0.0, 0.0]) == (None, None)
    assert wilcoxon_test([]) == (None, None)


def test_percentile_bootstrap_is_its_definition_and_reproducible():
    numpy = pytest.importorskip("numpy")
    a = [0.1, 0.4, 0.35, 0.8, 0.5, 0.6]
    b = [0.2, 0.5, 0.3, 0.9, 0.7, 0.6]
    got = bootstrap_intervals(a, b, resamples=500, seed=3)
    assert got == bootstrap_intervals(a, b, resamples=500, seed=3)
    # the definition, written out with an independent loop over the same seeded draws
    rng = numpy.random.default_rng(3)
    index = rng.integers(0, len(a), size=(500, len(a)))
    deltas = sorted(sum(b[i] - a[i] for i in row) / len(a) for row in index.tolist())
    low, high = numpy.quantile(deltas, [0.025, 0.975])
    assert got["mean_delta"] == pytest.approx([low, high], rel=1e-12)
    assert got["mean_a"][0] <= sum(a) / len(a) <= got["mean_a"][1]
    # one value resampled is always that value
    assert bootstrap_intervals([0.3], [0.5], resamples=10, seed=0)["mean_delta"] == pytest.approx([0.2, 0.2])
    assert bootstrap_intervals([], [], resamples=10, seed=0) == {"mean_a": None, "mean_b": None, "mean_delta": None}
    with pytest.raises(ValueError, match="bootstrap resamples"):
        bootstrap_intervals(a, b, resamples=0, seed=0)


def test_the_bootstrap_interval_of_a_scipy_percentile_bootstrap_is_close():
    stats = pytest.importorskip("scipy.stats")
    numpy = pytest.importorskip("numpy")
    rng = random.Random(5)
    a, b = _random_pairs(rng, 54)
    ours = bootstrap_intervals(list(a.values()), list(b.values()), resamples=4000, seed=1)["mean_delta"]
    deltas = numpy.array(list(b.values())) - numpy.array(list(a.values()))
    theirs = stats.bootstrap(
        (deltas,), numpy.mean, n_resamples=4000, method="percentile", random_state=2
    ).confidence_interval
    # two independent resamplings of the same distribution: their ends agree to resampling noise
    assert ours[0] == pytest.approx(theirs.low, abs=0.01) and ours[1] == pytest.approx(theirs.high, abs=0.01)


def test_counts_and_the_keys_it_adds():
    pytest.importorskip("scipy.stats")
    a = {"1": 0.5, "2": 0.3, "3": 0.2, "4": 0.1}
    b = {"1": 0.7, "2": 0.3, "3": 0.1, "4": 0.4}
    result = baseline_comparison(a, b, permutations=100, seed=2, resamples=100)
    assert (result["improved"], result["tied"], result["degraded"]) == (2, 1, 1)
    assert (result["wins"], result["ties"], result["losses"]) == (2, 1, 1)  # the older keys stay
    assert result["tests"]["randomization"] == {"p": result["randomization_p"], "permutations": 100, "seed": 2}
    assert result["tests"]["wilcoxon"]["n_nonzero"] == 3
    assert result["ci"]["method"] == "percentile" and result["ci"]["resamples"] == 100


def test_correct_adjusts_each_test_over_the_whole_family():
    pytest.importorskip("scipy.stats")
    rng = random.Random(9)
    family = [baseline_comparison(*_random_pairs(rng, 30), permutations=500, resamples=20) for _ in range(6)]
    raw = {test: [c["tests"][test]["p"] for c in family] for test in ("t_test", "randomization", "wilcoxon")}
    summary = correct(family, "holm")
    assert summary == {"method": "holm", "family_size": 6}
    for test, pvalues in raw.items():
        assert [c["tests"][test]["p_adjusted"] for c in family] == pytest.approx(holm(pvalues))
        assert [c["tests"][test]["p"] for c in family] == pvalues  # raw p unchanged beside the adjusted one
    correct(family, "bonferroni")
    assert [c["tests"]["t_test"]["p_adjusted"] for c in family] == pytest.approx(bonferroni(raw["t_test"]))


def test_a_missing_p_counts_in_the_family_as_one():
    pytest.importorskip("scipy.stats")
    same = {"1": 0.2, "2": 0.4}
    family = [
        baseline_comparison(same, dict(same), permutations=50, resamples=10),  # Wilcoxon: no non-zero delta
        baseline_comparison({"1": 0.1, "2": 0.2, "3": 0.3}, {"1": 0.4, "2": 0.6, "3": 0.5}, resamples=10),
    ]
    correct(family, "bonferroni")
    assert family[0]["tests"]["wilcoxon"]["p"] is None and family[0]["tests"]["wilcoxon"]["p_adjusted"] is None
    p = family[1]["tests"]["wilcoxon"]["p"]
    assert family[1]["tests"]["wilcoxon"]["p_adjusted"] == pytest.approx(min(1.0, 2 * p))

"""Comparisons against a baseline that hold up: four paired tests' worth of evidence and a family-wise correction.

For each (run, measure) against a declared baseline, `baseline_comparison`
gives what `paired_comparison` gives (per-topic deltas, wins/ties/losses, the
sign-flip randomization and paired t-test p-values) and adds:

- the Wilcoxon signed-rank test (Wilcoxon 1945), through scipy.stats.wilcoxon
  (imported when called, never when labeler starts): statistic W = the smaller
  of the positive- and negative-rank sums over the non-zero deltas
  (`zero_method="wilcox"`: zero deltas are dropped, as Wilcoxon did), H0 the
  deltas are symmetric about 0, two-sided p (exact for small n without ties,
  scipy's normal approximation otherwise);
- percentile bootstrap confidence intervals (Efron and Tibshirani 1993, ch. 13)
  for the baseline's mean, the run's mean and the mean difference: `resamples`
  resamples of the paired topics with replacement (the same topics for all
  three, so the pairing is kept), seeded, the interval's ends the
  (1 − level)/2 and (1 + level)/2 quantiles of the resampled means (numpy's
  default linear interpolation). Percentile, not BCa: BCa needs a jackknife per
  interval and, with 50-300 topics, corrects the ends by less than the
  resampling noise; this choice is labeler's.

`correct` then applies one multiple-comparison correction to every test's
p-values across the whole family (every run × every measure of one report):
Holm (1979) step-down or Bonferroni, each adjusted p beside the raw one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from labeler.metrics.compare import _paired_values, paired_comparison

CORRECTIONS = ("holm", "bonferroni", "none")
TESTS = ("t_test", "randomization", "wilcoxon")
CI_LEVEL = 0.95


def bonferroni(pvalues: Sequence[float]) -> list[float]:
    """Bonferroni: p_i · m, capped at 1, for a family of m p-values."""
    m = len(pvalues)
    return [min(1.0, p * m) for p in pvalues]


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment (Holm 1979), in the order given.

    With p_(1) ≤ ... ≤ p_(m) the sorted p-values, the adjusted p_(i) is
    max over j ≤ i of min(1, (m − j + 1) · p_(j)): the running maximum keeps the
    adjusted values in the order of the raw ones. Rejecting where the adjusted p
    is at most α is Holm's procedure at family-wise level α.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted


def adjust(pvalues: Sequence[float], method: str) -> list[float]:
    """The p-values adjusted by `method` (holm, bonferroni or none)."""
    if method == "holm":
        return holm(pvalues)
    if method == "bonferroni":
        return bonferroni(pvalues)
    if method == "none":
        return list(pvalues)
    raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {method!r}")


def wilcoxon_test(deltas: Sequence[float]) -> tuple[float | None, float | None]:
    """(W, two-sided p) of the Wilcoxon signed-rank test; (None, None) when no delta is non-zero.

    scipy.stats.wilcoxon with zero_method="wilcox" (zero deltas dropped);
    when every delta is zero there is nothing to rank and no test.
    """
    nonzero = [d for d in deltas if abs(d) >= 1e-12]
    if not nonzero:
        return None, None
    from scipy.stats import wilcoxon  # type: ignore[import-untyped]  # lazily: labeler starts without it

    result = wilcoxon(nonzero, zero_method="wilcox", alternative="two-sided")
    return float(result.statistic), float(result.pvalue)


def bootstrap_intervals(
    a: Sequence[float], b: Sequence[float], *, resamples: int, seed: int, level: float = CI_LEVEL
) -> dict[str, list[float] | None]:
    """Percentile bootstrap intervals of mean(a), mean(b) and mean(b − a) over paired values (see the module).

    The same resampled topics serve all three means. None for each when there
    are no pairs.
    """
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"bootstrap resamples must be a whole number of at least 1, not {resamples!r}")
    n = len(a)
    if n == 0:
        return {"mean_a": None, "mean_b": None, "mean_delta": None}
    import numpy  # lazily, like scipy

    rng = numpy.random.default_rng(seed)
    index = rng.integers(0, n, size=(resamples, n))
    values_a = numpy.asarray(a, dtype=float)
    values_b = numpy.asarray(b, dtype=float)
    quantiles = [(1.0 - level) / 2.0, (1.0 + level) / 2.0]

    def interval(values: Any) -> list[float]:
        means = values[index].mean(axis=1)
        return [float(q) for q in numpy.quantile(means, quantiles)]

    return {"mean_a": interval(values_a), "mean_b": interval(values_b), "mean_delta": interval(values_b - values_a)}


def baseline_comparison(
    baseline: Mapping[str, float | None],
    run: Mapping[str, float | None],
    *,
    permutations: int = 10_000,
    seed: int = 0,
    resamples: int = 1000,
) -> dict[str, Any]:
    """`paired_comparison(baseline, run)` plus improved/degraded/tied, the three tests and bootstrap intervals.

    Adds "improved", "degraded", "tied" (the run's wins, losses and ties per
    topic against the baseline, |delta| < 1e-12 a tie), "tests": {"t_test":
    {"statistic", "p"}, "randomization": {"p", "permutations", "seed"},
    "wilcoxon": {"statistic", "p", "n_nonzero"}} and "ci": {"method":
    "percentile", "level", "resamples", "seed", "mean_a", "mean_b",
    "mean_delta"} ([low, high] each). `correct` adds each test's "p_adjusted".
    """
    result = paired_comparison(baseline, run, permutations=permutations, seed=seed)
    pairs = _paired_values(baseline, run)
    deltas = list(result["deltas"].values())
    w_stat, w_p = wilcoxon_test(deltas)
    result["improved"], result["degraded"], result["tied"] = result["wins"], result["losses"], result["ties"]
    result["tests"] = {
        "t_test": {"statistic": result["t"], "p": result["t_test_p"]},
        "randomization": {"p": result["randomization_p"], "permutations": permutations, "seed": seed},
        "wilcoxon": {"statistic": w_stat, "p": w_p, "n_nonzero": sum(1 for d in deltas if abs(d) >= 1e-12)},
    }
    intervals = bootstrap_intervals(
        [x for x, _ in pairs.values()], [y for _, y in pairs.values()], resamples=resamples, seed=seed
    )
    result["ci"] = {"method": "percentile", "level": CI_LEVEL, "resamples": resamples, "seed": seed, **intervals}
    return result


def correct(comparisons: Sequence[dict[str, Any]], method: str) -> dict[str, Any]:
    """Adjust every test's p-value across the family `comparisons` (each a `baseline_comparison`), in place.

    Each test ("t_test", "randomization", "wilcoxon") is corrected on its own
    over the whole family; a comparison whose test has no p-value (too few
    topics, no non-zero delta) gets "p_adjusted": None but still counts in the
    family size m (it is treated as p = 1, which can only make the others'
    adjustment stricter, never looser). Returns {"method", "family_size"}.
    """
    if method not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, not {method!r}")
    for test in TESTS:
        raw = [c["tests"][test]["p"] for c in comparisons]
        adjusted = adjust([1.0 if p is None or math.isnan(p) else p for p in raw], method)
        for comparison, p, p_adjusted in zip(comparisons, raw, adjusted, strict=True):
            comparison["tests"][test]["p_adjusted"] = None if p is None else p_adjusted
    return {"method": method, "family_size": len(comparisons)}

"""Inter-assessor agreement: how far assessors who graded the same (topic, unit) pairs agree.

Relevance labels are only as good as the assessors' consistency, and a pool judged by several
people (or people and a model) says how consistent they are. This module holds the statistics
(Cohen 1960, Fleiss 1971, Krippendorff 2011) as pure functions over plain values: grades are integers, a "unit" of
agreement is one judged pair, and missing grades are simply absent.

Every statistic comes back as a `Statistic`: its value, the number of pairs it rests on, and,
when it is undefined (no pairs, no variation), `value=None` with the reason, never a silent
1.0 or 0.0. Arithmetic is exact (integers and fractions) so "undefined" is decided exactly.

Sources: Cohen (1960), "A coefficient of agreement for nominal scales", Educational and
Psychological Measurement 20(1); Cohen (1968), "Weighted kappa", Psychological Bulletin 70(4);
Krippendorff (2011), "Computing Krippendorff's alpha-reliability", Annenberg School for
Communication, University of Pennsylvania; Voorhees (2000), "Variations in relevance judgments
and the measurement of retrieval effectiveness", IP&M 36(5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from labeler.json_form import JsonResult
from labeler.models import topic_sort_key

METRICS = ("nominal", "ordinal", "interval")
WEIGHTS = (None, "linear", "quadratic")
NO_PAIRS = "no pair was graded by both assessors"
NO_MULTI = "no pair was graded by two or more assessors"


@dataclass(frozen=True)
class Statistic(JsonResult):
    """A value (None when undefined, with the reason) and the number of pairs it rests on."""

    value: float | None
    pairs: int
    reason: str | None = None


@dataclass(frozen=True)
class ConfusionMatrix(JsonResult):
    """Counts of (first grade, second grade) over the ordered `grades`: rows the first, columns the second."""

    grades: list[int]
    counts: list[list[int]]


@dataclass(frozen=True)
class PairAgreement(JsonResult):
    """Every two-assessor statistic over the pairs both `assessors` graded (the first gives the matrix's rows)."""

    assessors: list[str]
    pairs: int
    overlap: Statistic
    binary_overlap: Statistic
    relevant_overlap: Statistic
    cohen_kappa: Statistic
    weighted_kappa_linear: Statistic
    weighted_kappa_quadratic: Statistic
    binary_kappa: Statistic
    confusion: ConfusionMatrix


@dataclass(frozen=True)
class AgreementBlock(JsonResult):
    """Agreement over a set of pairs: overlap and alpha over all assessors, and every statistic per assessor pair.

    `pairs` counts the pairs graded by two or more; `pairs_by_assessors` is keyed `A|B` (`assessor_pair_key`).
    """

    pairs: int
    assessors: list[str]
    overlap: Statistic
    binary_overlap: Statistic
    krippendorff_alpha: Statistic
    pairs_by_assessors: dict[str, PairAgreement]


@dataclass(frozen=True)
class AgreementSummary(JsonResult):
    """Agreement overall and per topic (the topics with a pair graded by two or more, in topic order)."""

    assessors: list[str]
    pairs_judged: int
    pairs_multi: int
    overall: AgreementBlock
    topics: dict[str, AgreementBlock]


def _undefined(pairs: int, reason: str) -> Statistic:
    return Statistic(None, pairs, reason)


def _check_grade(grade: Any) -> int:
    if isinstance(grade, bool) or not isinstance(grade, int):
        raise ValueError(f"a grade must be an integer, not {grade!r}")
    return grade


def _paired(first: Sequence[int], second: Sequence[int]) -> list[tuple[int, int]]:
    if len(first) != len(second):
        raise ValueError(f"the two assessors' grades must be paired: {len(first)} and {len(second)} grades")
    return [(_check_grade(a), _check_grade(b)) for a, b in zip(first, second, strict=True)]


def percent_agreement(first: Sequence[int], second: Sequence[int]) -> Statistic:
    """Raw overlap p_o: the share of pairs both assessors gave the same grade."""
    pairs = _paired(first, second)
    if not pairs:
        return _undefined(0, NO_PAIRS)
    return Statistic(sum(a == b for a, b in pairs) / len(pairs), len(pairs))


def binary_agreement(first: Sequence[int], second: Sequence[int], threshold: int) -> Statistic:
    """Raw overlap on binary relevance: the share of pairs both call relevant (grade ≥ threshold) or both not."""
    pairs = _paired(first, second)
    return percent_agreement([int(a >= threshold) for a, _ in pairs], [int(b >= threshold) for _, b in pairs])


def relevant_overlap(first: Sequence[int], second: Sequence[int], threshold: int) -> Statistic:
    """Voorhees' overlap of the relevant sets, |A ∩ B| / |A ∪ B|, over pairs both assessors graded.

    Undefined when neither assessor found anything relevant (0/0). Voorhees (2000); trectools `check_overlap`.
    """
    pairs = _paired(first, second)
    if not pairs:
        return _undefined(0, NO_PAIRS)
    both = sum(a >= threshold and b >= threshold for a, b in pairs)
    either = sum(a >= threshold or b >= threshold for a, b in pairs)
    if either == 0:
        return _undefined(len(pairs), "neither assessor graded any pair relevant (0/0)")
    return Statistic(both / either, len(pairs))


def _categories(grades: Iterable[int], categories: Iterable[int] | None) -> list[int]:
    return sorted(set(grades) | {_check_grade(c) for c in (categories or ())})


def _weight(i: int, j: int, weights: str | None) -> int:
    if weights is None:
        return int(i != j)
    if weights == "linear":
        return abs(i - j)
    return (i - j) ** 2


def cohen_kappa(
    first: Sequence[int], second: Sequence[int], *, weights: str | None = None, categories: Iterable[int] | None = None
) -> Statistic:
    """Cohen's kappa between two assessors, plain or weighted.

    Plain (Cohen 1960): `κ = (p_o − p_e) / (1 − p_e)`, `p_e = Σ_c p_A(c) · p_B(c)`.
    Weighted (Cohen 1968), with disagreement weights `w_ij` on the positions i, j of the grades in
    the ordered category list (linear `|i − j|`, quadratic `(i − j)²`; plain is `w_ij = [i ≠ j]`):
    `κ_w = 1 − Σ w_ij o_ij / Σ w_ij e_ij`, o the observed and `e_ij = r_i c_j / n` the chance
    proportions from the two assessors' marginals. `categories` (e.g. the scale's grades) fixes the
    positions: grades that nobody gave still count as steps between those that were given (as
    `sklearn.metrics.cohen_kappa_score(..., labels=categories)` does).

    Undefined when no pair is shared, or when the expected disagreement is 0 (both assessors gave
    every pair one and the same grade, so chance explains everything: 0/0).
    """
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be linear, quadratic or None, not {weights!r}")
    pairs = _paired(first, second)
    n = len(pairs)
    if n == 0:
        return _undefined(0, NO_PAIRS)
    ordered = _categories((g for pair in pairs for g in pair), categories)
    position = {grade: index for index, grade in enumerate(ordered)}
    rows = [0] * len(ordered)
    columns = [0] * len(ordered)
    observed = 0
    for a, b in pairs:
        rows[position[a]] += 1
        columns[position[b]] += 1
        observed += _weight(position[a], position[b], weights)
    expected = sum(
        rows[i] * columns[j] * _weight(i, j, weights) for i in range(len(ordered)) for j in range(len(ordered))
    )
    if expected == 0:
        return _undefined(n, "expected disagreement is 0: both assessors gave every pair the same single grade")
    return Statistic(float(1 - Fraction(n * observed, expected)), n)


def confusion_matrix(
    first: Sequence[int], second: Sequence[int], *, categories: Iterable[int] | None = None
) -> ConfusionMatrix:
    """Counts of (first assessor's grade, second assessor's grade): rows the first, columns the second."""
    pairs = _paired(first, second)
    ordered = _categories((g for pair in pairs for g in pair), categories)
    position = {grade: index for index, grade in enumerate(ordered)}
    counts = [[0] * len(ordered) for _ in ordered]
    for a, b in pairs:
        counts[position[a]][position[b]] += 1
    return ConfusionMatrix(ordered, counts)


def _unit_values(unit: Mapping[Any, int] | Iterable[int]) -> list[int]:
    values = unit.values() if isinstance(unit, Mapping) else unit
    return [_check_grade(v) for v in values if v is not None]


def _coincidences(units: Iterable[Mapping[Any, int] | Iterable[int]]) -> tuple[dict[tuple[int, int], Fraction], int]:
    """Krippendorff's coincidence matrix o_ck and the number of pairable units (those with m_u ≥ 2 values)."""
    by_size: dict[int, dict[tuple[int, int], int]] = {}
    pairable = 0
    for unit in units:
        values = _unit_values(unit)
        if len(values) < 2:
            continue
        pairable += 1
        counts = by_size.setdefault(len(values), {})
        for i, c in enumerate(values):
            for j, k in enumerate(values):
                if i != j:
                    counts[(c, k)] = counts.get((c, k), 0) + 1
    matrix: dict[tuple[int, int], Fraction] = {}
    for size, counts in by_size.items():
        for key, count in counts.items():
            matrix[key] = matrix.get(key, Fraction(0)) + Fraction(count, size - 1)
    return matrix, pairable


def _distances(values: list[int], totals: dict[int, Fraction], metric: str) -> dict[tuple[int, int], Fraction]:
    """δ²_ck for every pair of values that occur, by metric (Krippendorff 2011, section E)."""
    distance: dict[tuple[int, int], Fraction] = {}
    for i, c in enumerate(values):
        for j, k in enumerate(values):
            if metric == "nominal":
                d = Fraction(int(c != k))
            elif metric == "interval":
                d = Fraction((c - k) ** 2)
            else:
                low, high = min(i, j), max(i, j)
                between = sum(totals[values[g]] for g in range(low, high + 1))
                d = (between - (totals[c] + totals[k]) / 2) ** 2
            distance[(c, k)] = d
    return distance


def krippendorff_alpha(units: Iterable[Mapping[Any, int] | Iterable[int]], *, metric: str = "ordinal") -> Statistic:
    """Krippendorff's alpha over units graded by any subset of assessors (missing grades allowed).

    Each unit is the grades it received (a mapping assessor -> grade, or just the grades). Units
    with fewer than two grades are not pairable and are left out. With m_u grades in unit u, every
    ordered pair of its grades adds 1/(m_u − 1) to the coincidence matrix o_ck; n_c = Σ_k o_ck and
    n = Σ_c n_c (the pairable values). Then (Krippendorff 2011, "Computing Krippendorff's
    alpha-reliability"):

        α = 1 − D_o / D_e = 1 − (n − 1) · Σ_c Σ_k o_ck δ²_ck / Σ_c Σ_k n_c n_k δ²_ck

    with δ²_ck nominal `[c ≠ k]`, interval `(c − k)²`, ordinal
    `(Σ_{g=c..k} n_g − (n_c + n_k)/2)²` (g over the values that occur, in order).

    Undefined when no unit has two grades, or when the expected disagreement D_e is 0 (every
    pairable grade is the same value: no variation, α = 1 − 0/0).
    """
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, not {metric!r}")
    matrix, pairable = _coincidences(units)
    if pairable == 0:
        return _undefined(0, NO_MULTI)
    totals: dict[int, Fraction] = {}
    for (c, _), weight in matrix.items():
        totals[c] = totals.get(c, Fraction(0)) + weight
    n = sum(totals.values())
    values = sorted(totals)
    distance = _distances(values, totals, metric)
    expected = sum(totals[c] * totals[k] * distance[(c, k)] for c in values for k in values)
    if expected == 0:
        return _undefined(pairable, "expected disagreement is 0: every grade given is the same (no variation)")
    observed = sum(weight * distance[key] for key, weight in matrix.items())
    return Statistic(float(1 - (n - 1) * observed / expected), pairable)


def mean_pairwise_agreement(units: Iterable[Mapping[Any, int] | Iterable[int]]) -> Statistic:
    """Raw overlap for any number of assessors: per pair, the share of its assessor pairs that agree; the mean.

    With two assessors per pair this is `percent_agreement`; a pair graded 2, 2, 3 counts 1/3
    (one of its three assessor pairs agrees). Each pair weighs the same (Fleiss 1971's mean P_i).
    """
    shares = []
    for unit in units:
        values = _unit_values(unit)
        if len(values) < 2:
            continue
        couples = list(combinations(values, 2))
        shares.append(Fraction(sum(a == b for a, b in couples), len(couples)))
    if not shares:
        return _undefined(0, NO_MULTI)
    return Statistic(float(sum(shares) / len(shares)), len(shares))


def assessor_pair_key(first: str, second: str) -> str:
    """`A|B`, the two names in sorted order."""
    return "|".join(sorted((first, second)))


def compare_assessors(
    units: Iterable[Mapping[str, int]],
    first: str,
    second: str,
    *,
    threshold: int,
    categories: Iterable[int] | None = None,
) -> PairAgreement:
    """Every two-assessor statistic over the pairs both graded (`first` gives the confusion matrix's rows)."""
    shared = [(u[first], u[second]) for u in units if first in u and second in u]
    a = [g for g, _ in shared]
    b = [g for _, g in shared]
    categories = list(categories or ())
    binary_a = [int(g >= threshold) for g in a]
    binary_b = [int(g >= threshold) for g in b]
    return PairAgreement(
        assessors=[first, second],
        pairs=len(shared),
        overlap=percent_agreement(a, b),
        binary_overlap=binary_agreement(a, b, threshold),
        relevant_overlap=relevant_overlap(a, b, threshold),
        cohen_kappa=cohen_kappa(a, b, categories=categories),
        weighted_kappa_linear=cohen_kappa(a, b, weights="linear", categories=categories),
        weighted_kappa_quadratic=cohen_kappa(a, b, weights="quadratic", categories=categories),
        binary_kappa=cohen_kappa(binary_a, binary_b, categories=(0, 1)),
        confusion=confusion_matrix(a, b, categories=categories),
    )


def agreement_block(
    units: Sequence[Mapping[str, int]],
    *,
    threshold: int,
    categories: Iterable[int] | None = None,
    metric: str = "ordinal",
) -> AgreementBlock:
    """Overlap, binary overlap and alpha over all assessors, and every statistic per assessor pair.

    `units` are the grades of each pair (assessor -> grade); pairs with fewer than two grades count nowhere.
    """
    multi = [u for u in units if len(u) >= 2]
    categories = list(categories or ())
    assessors = sorted({a for u in multi for a in u})
    by_pair: dict[str, PairAgreement] = {}
    for first, second in combinations(assessors, 2):
        if any(first in u and second in u for u in multi):
            by_pair[assessor_pair_key(first, second)] = compare_assessors(
                multi, first, second, threshold=threshold, categories=categories
            )
    return AgreementBlock(
        pairs=len(multi),
        assessors=assessors,
        overlap=mean_pairwise_agreement(multi),
        binary_overlap=mean_pairwise_agreement([[int(g >= threshold) for g in u.values()] for u in multi]),
        krippendorff_alpha=krippendorff_alpha(multi, metric=metric),
        pairs_by_assessors=by_pair,
    )


def summarize_agreement(
    grades: Mapping[str, Mapping[str, Mapping[str, int]]],
    *,
    threshold: int,
    categories: Iterable[int] | None = None,
    metric: str = "ordinal",
) -> AgreementSummary:
    """Agreement overall and per topic from `topic -> unit -> {assessor: grade}`.

    Topics without a pair graded by two or more assessors are left out of `topics`.
    """
    categories = list(categories or ())
    all_units = [u for units in grades.values() for u in units.values()]
    overall = agreement_block(all_units, threshold=threshold, categories=categories, metric=metric)
    topics: dict[str, AgreementBlock] = {}
    for topic in sorted(grades, key=topic_sort_key):
        units = list(grades[topic].values())
        if any(len(u) >= 2 for u in units):
            topics[topic] = agreement_block(units, threshold=threshold, categories=categories, metric=metric)
    return AgreementSummary(
        assessors=overall.assessors,
        pairs_judged=sum(1 for u in all_units if u),
        pairs_multi=overall.pairs,
        overall=overall,
        topics=topics,
    )

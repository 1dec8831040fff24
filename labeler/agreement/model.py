"""A model judge against the people: confusion, kappa, per-grade precision and recall, reliability.

A model's label is an instrument with an error bar; this module measures the error bar on the
pairs that both a person and the model labelled, as pure functions over plain values. Humans
are the truth (the confusion matrix's rows, the recall's denominators), the model the prediction.

Sources: Cohen (1960) and Cohen (1968) for kappa and weighted kappa (computed by
`labeler.agreement.statistics.cohen_kappa`); DeGroot & Fienberg (1983), "The comparison and evaluation of
forecasters", The Statistician 32(1), for reliability diagrams; Guo, Pleiss, Sun & Weinberger
(2017), "On calibration of modern neural networks", ICML, for the expected calibration error
`ECE = Σ_b (n_b / n) · |observed_b − stated_b|` over equal-width bins.

Choices that are labeler's, not the papers': the confidence of a model label is the probability
the model states for the grade it reported (Guo et al. take the argmax; the two agree when the
reported grade is the most probable one); bins are (low, high], the first one [0, high]; a stated
probability times the number of bins is rounded to 9 decimals before it is binned, so that a sum
such as 0.8 + 0.1 falls in the bin of 0.9; a precision, recall or share whose denominator is 0 is None, not 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from labeler.agreement.statistics import Statistic, cohen_kappa, confusion_matrix, percent_agreement
from labeler.json_form import JsonResult, json_field

DEFAULT_WEIGHTS = "quadratic"
DEFAULT_BINS = 10


@dataclass(frozen=True)
class LabelPair:
    """One pair labelled by both: the human grade (truth), the model's grade and its stated probabilities."""

    human: int
    model: int
    probs: Mapping[int, float] | None = None


@dataclass(frozen=True)
class WeightedKappa(Statistic):
    """A weighted kappa and the disagreement `weights` it used (`linear` or `quadratic`)."""

    weights: str = DEFAULT_WEIGHTS


@dataclass(frozen=True)
class Confusion(JsonResult):
    """Counts with the human grades as rows (the truth) and the model's as columns, and each row's shares."""

    json_extra = {"rows": None, "columns": None}
    rows = "human"  # what the rows and the columns are, named in the document
    columns = "model"

    grades: list[int]
    counts: list[list[int]]
    row_shares: list[list[float | None]]  # a row's counts over its total; None in a row nobody gave


@dataclass(frozen=True)
class GradeScores(JsonResult):
    """One grade's precision and recall (None when the denominator is 0) and the counts they rest on.

    `support`: the pairs the humans gave the grade; `predicted`: those the model gave it.
    """

    precision: float | None
    recall: float | None
    support: int
    predicted: int


@dataclass(frozen=True)
class ReliabilityBin(JsonResult):
    """One (low, high] bin of stated probabilities: how many, their mean and the share that came true."""

    low: float
    high: float
    count: int
    mean_stated: float | None  # None in an empty bin
    observed: float | None


@dataclass(frozen=True)
class Reliability(JsonResult):
    """A reliability diagram over `pairs` stated probabilities, and its expected calibration error.

    `ece` is None without pairs.
    """

    pairs: int
    bins: list[ReliabilityBin]
    ece: float | None


@dataclass(frozen=True)
class Calibration(JsonResult):
    """The reliability of a model's stated probabilities, on the pairs that carry them (see `calibration`)."""

    pairs_with_probs: int
    pairs_without_probs: int
    confidence: Reliability
    relevant: Reliability
    per_grade: dict[str, Reliability]  # keyed by the grade as text


@dataclass(frozen=True)
class ModelComparison(JsonResult):
    """Every statistic of a model's labels against the human labels on some pairs (`compare_model`).

    `calibration` (a reliability diagram of the probabilities stated) only when asked for.
    """

    pairs: int
    exact_match: Statistic
    kappa: Statistic
    weighted_kappa: WeightedKappa
    weighted_kappa_linear: Statistic
    weighted_kappa_quadratic: Statistic
    confusion: Confusion
    per_grade: dict[str, GradeScores]  # keyed by the grade as text, in grade order
    calibration: Calibration | None = json_field(default=None, omit_if_none=True)


def confusion(pairs: Sequence[LabelPair], grades: Sequence[int]) -> Confusion:
    """Counts with humans as rows and the model as columns, and each row's shares (None for an empty row)."""
    matrix = confusion_matrix([p.human for p in pairs], [p.model for p in pairs], categories=grades)
    shares = []
    for row in matrix.counts:
        total = sum(row)
        shares.append([count / total if total else None for count in row])
    return Confusion(matrix.grades, matrix.counts, shares)


def per_grade(pairs: Sequence[LabelPair], grades: Sequence[int]) -> dict[str, GradeScores]:
    """Per grade g: precision = |model g ∧ human g| / |model g|, recall = |model g ∧ human g| / |human g|.

    `support` is the number of pairs the humans gave g, `predicted` those the model gave g
    (the counts of `sklearn.metrics.precision_recall_fscore_support`, which says 0 where this says None).
    """
    ordered = sorted(set(grades) | {p.human for p in pairs} | {p.model for p in pairs})
    out = {}
    for g in ordered:
        hits = sum(1 for p in pairs if p.human == g and p.model == g)
        predicted = sum(1 for p in pairs if p.model == g)
        support = sum(1 for p in pairs if p.human == g)
        out[str(g)] = GradeScores(
            precision=hits / predicted if predicted else None,
            recall=hits / support if support else None,
            support=support,
            predicted=predicted,
        )
    return out


def _bin(stated: float, bins: int) -> int:
    """The index of the (low, high] bin `stated` falls in; 0 also holds 0 itself.

    `stated · bins` is rounded to 9 decimals first, so that a float such as 0.3 (3.0000000000000004
    tenths) or a sum such as 0.8 + 0.1 falls in the bin of the decimal it stands for.
    """
    return max(0, min(bins - 1, math.ceil(round(stated * bins, 9)) - 1))


def reliability(stated: Sequence[float], outcomes: Sequence[bool], *, bins: int = DEFAULT_BINS) -> Reliability:
    """A reliability diagram (DeGroot & Fienberg 1983) and its ECE (Guo et al. 2017).

    Per equal-width bin of the stated probability: the count, the mean stated probability and
    the observed share of outcomes that came true (None in an empty bin). A calibrated forecaster's
    observed share equals its mean statement in every bin. ECE is undefined (None) without pairs.
    """
    if len(stated) != len(outcomes):
        raise ValueError(f"stated probabilities and outcomes must be paired: {len(stated)} and {len(outcomes)}")
    if bins < 1:
        raise ValueError(f"bins must be 1 or more, not {bins}")
    for p in stated:
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise ValueError(f"a stated probability must be a number in [0, 1], not {p!r}")
    counts = [0] * bins
    sums = [0.0] * bins
    hits = [0] * bins
    for p, outcome in zip(stated, outcomes, strict=True):
        b = _bin(p, bins)
        counts[b] += 1
        sums[b] += p
        hits[b] += bool(outcome)
    rows = []
    ece = 0.0
    for b in range(bins):
        n = counts[b]
        rows.append(
            ReliabilityBin(
                low=b / bins,
                high=(b + 1) / bins,
                count=n,
                mean_stated=sums[b] / n if n else None,
                observed=hits[b] / n if n else None,
            )
        )
        if n:
            ece += n / len(stated) * abs(hits[b] / n - sums[b] / n)
    return Reliability(pairs=len(stated), bins=rows, ece=ece if stated else None)


def calibration(
    pairs: Sequence[LabelPair], grades: Sequence[int], threshold: int, *, bins: int = DEFAULT_BINS
) -> Calibration:
    """Reliability of the model's stated probabilities, on the pairs that carry them.

    `confidence`: the probability stated for the reported grade against "the human gave that grade";
    `relevant`: P(relevant) = Σ_{g ≥ threshold} p(g) against "the human grade is ≥ threshold";
    `per_grade`: p(g) against "the human gave g", for each grade (one versus the rest).
    """
    with_probs = [p for p in pairs if p.probs is not None]
    probs = [dict(p.probs or {}) for p in with_probs]
    return Calibration(
        pairs_with_probs=len(with_probs),
        pairs_without_probs=len(pairs) - len(with_probs),
        confidence=reliability(
            [min(1.0, q.get(p.model, 0.0)) for p, q in zip(with_probs, probs, strict=True)],
            [p.model == p.human for p in with_probs],
            bins=bins,
        ),
        relevant=reliability(
            [min(1.0, round(sum(v for g, v in q.items() if g >= threshold), 12)) for q in probs],
            [p.human >= threshold for p in with_probs],
            bins=bins,
        ),
        per_grade={
            str(g): reliability([q.get(g, 0.0) for q in probs], [p.human == g for p in with_probs], bins=bins)
            for g in grades
        },
    )


def compare_model(
    pairs: Sequence[LabelPair],
    grades: Sequence[int],
    threshold: int,
    *,
    weights: str = DEFAULT_WEIGHTS,
    bins: int = DEFAULT_BINS,
    with_calibration: bool = True,
) -> ModelComparison:
    """Every statistic of the model against the humans on `pairs` (humans the rows and the truth)."""
    human = [p.human for p in pairs]
    model = [p.model for p in pairs]
    weighted = cohen_kappa(human, model, weights=weights, categories=grades)
    return ModelComparison(
        pairs=len(pairs),
        exact_match=percent_agreement(human, model),
        kappa=cohen_kappa(human, model, categories=grades),
        weighted_kappa=WeightedKappa(weighted.value, weighted.pairs, weighted.reason, weights),
        weighted_kappa_linear=cohen_kappa(human, model, weights="linear", categories=grades),
        weighted_kappa_quadratic=cohen_kappa(human, model, weights="quadratic", categories=grades),
        confusion=confusion(pairs, grades),
        per_grade=per_grade(pairs, grades),
        calibration=calibration(pairs, grades, threshold, bins=bins) if with_calibration else None,
    )

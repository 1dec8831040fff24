"""Prediction-powered inference (PPI) for a mean: scores from model labels with an honest error bar.

Angelopoulos, Bates, Fannjiang, Jordan and Zrnic, "Prediction-powered inference", Science 382 (2023),
section "Mean estimation"; as ARES uses it for judged RAG scores (Saad-Falcon, Khattab, Potts and
Zaharia, NAACL 2024). N units each have a model-based value f_i; a *random sample* of n of them also
has the human value Y_i. Then

    theta_PP = (1/N) sum_{i<=N} f_i  +  (1/n) sum_{j<=n} (Y_j - f_j)
    CI       = theta_PP -/+ z_{1-alpha/2} * sqrt(sigma_f^2 / N + sigma_rect^2 / n)

where sigma_f^2 is the variance of the f_i over the N units and sigma_rect^2 the variance of the
rectifiers Y_j - f_j over the n labelled units (the normal-approximation interval of the paper's
Theorem for the mean; `ppi_py.ppi_mean_ci` with lambda = 1). The first term is the model's estimate,
the second removes its bias as measured on the human sample: however wrong the model, theta_PP is
unbiased when the n units are a uniform random sample of the N; a good model only makes the
interval narrower than the human-only one.

Choices that are labeler's (the paper leaves them open):

- The f_i are averaged over *all* N units, the labelled ones included (the paper and `ppi_py`
  average over the unlabelled ones). Both are unbiased; with n much smaller than N they differ
  by little, and this form is one mean over the whole population.
- Variances use n - 1 and N - 1 (the sample variances; `ppi_py` uses numpy's default, n and N):
  slightly wider intervals, which matters at n = 50.
- **The unit of the sample is the ranked pair of P@k** (`ppi_precision_at_k`): the mean of P@k
  over T topics is exactly (1/(kT)) times the number of relevant (topic, unit) pairs in the runs'
  top k, i.e. a mean over pairs, so the human sample can be pairs (what assessors judge), and a
  seeded share of pairs judged by a person (labeler's overlap pairs, `labeler.assignment.
  overlap_draw`: a keyed hash per pair, so the pairs of any fixed set that fall in the share are a
  uniform Bernoulli sample of that set) is the random sample PPI needs. Measures that are not a
  mean over pairs (nDCG, AP, recall: their normaliser depends on every label of the topic) need the
  topic as the unit instead (`ppi_mean` over per-topic values, with a random subset of topics
  judged completely by people); labeler computes those from `ppi_mean` only where the caller can
  say the topics are such a sample.
- Human judgments made in pool order, or on the units the model was unsure of, are **not** a
  random sample: PPI over them is biased in an unknown direction. Callers pass only the random
  sample as `labelled`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from labeler.json_form import JsonResult, json_field

LEVEL = 0.95
MIN_HUMAN_LABELS = 50  # below this the normal approximation of the rectifier's mean is not trusted


@dataclass(frozen=True)
class PPIEstimate(JsonResult):
    """theta_PP with its interval, and what it rests on."""

    json_extra = {"ci": "mean"}

    mean: float
    level: float
    units: int  # N: the units the model labelled
    human_labels: int  # n: the random sample with a human value
    model_mean: float  # (1/N) sum f_i
    rectifier: float  # (1/n) sum (Y_j - f_j)
    std_error: float  # sqrt(sigma_f^2/N + sigma_rect^2/n)
    low: float = json_field(omit=True)  # in JSON as `ci`, [low, high]
    high: float = json_field(omit=True)

    @property
    def ci(self) -> tuple[float, float]:
        return (self.low, self.high)


def _variance(values: Sequence[float]) -> float:
    """The sample variance (n - 1); 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.fsum((v - mean) ** 2 for v in values) / (n - 1)


def ppi_mean(
    predictions: Sequence[float], labelled: Sequence[tuple[float, float]], level: float = LEVEL
) -> PPIEstimate:
    """theta_PP and its normal-approximation interval.

    `predictions`: f_i for all N units; `labelled`: (Y_j, f_j) for the n units of the random
    human sample (each also among the N). Raises ValueError for no units, fewer than two human
    values, or a level outside (0, 1).
    """
    if not 0 < level < 1:
        raise ValueError(f"the level must be between 0 and 1, not {level}")
    if not predictions:
        raise ValueError("no units to estimate a mean over")
    if len(labelled) < 2:
        raise ValueError(f"a prediction-powered interval needs at least 2 human labels, not {len(labelled)}")
    big_n, n = len(predictions), len(labelled)
    model_mean = math.fsum(predictions) / big_n
    rectifiers = [y - f for y, f in labelled]
    rectifier = math.fsum(rectifiers) / n
    std_error = math.sqrt(_variance(predictions) / big_n + _variance(rectifiers) / n)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    mean = model_mean + rectifier
    return PPIEstimate(
        mean=mean,
        low=mean - z * std_error,
        high=mean + z * std_error,
        level=level,
        units=big_n,
        human_labels=n,
        model_mean=model_mean,
        rectifier=rectifier,
        std_error=std_error,
    )


Pair = tuple[str, str]


def top_k_pairs(rankings: Mapping[str, Sequence[str]], topics: Sequence[str], k: int) -> list[Pair]:
    """The (topic, unit) pairs of each topic's first k results: the units of P@k's mean."""
    return [(t, u) for t in topics for u in list(rankings.get(t, ()))[:k]]


def ppi_precision_at_k(
    rankings: Mapping[str, Sequence[str]],
    topics: Sequence[str],
    k: int,
    model_relevance: Callable[[Pair], float],
    human_sample: Mapping[Pair, float],
    level: float = LEVEL,
) -> PPIEstimate:
    """The mean P@k over `topics`, prediction-powered over the ranked pairs.

    `model_relevance(pair)` is the model's value for a pair (a calibrated P(grade >= threshold),
    or 1/0 from its grade); `human_sample` maps the pairs of the random human sample to their
    human relevance (1/0), and pairs outside the runs' top k are ignored. With R ranked pairs
    (R < kT when a topic has fewer than k results, whose empty slots count 0 and are known),
    mean P@k = (R / kT) * (mean relevance over the R pairs), and the estimate and its interval
    are scaled by R / kT.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    pairs = top_k_pairs(rankings, topics, k)
    if not pairs:
        raise ValueError("the runs rank no units on these topics")
    wanted = set(pairs)
    predictions = [model_relevance(p) for p in pairs]
    labelled = [(y, model_relevance(p)) for p, y in human_sample.items() if p in wanted]
    pooled = ppi_mean(predictions, labelled, level)
    scale = len(pairs) / (k * len(topics))
    return PPIEstimate(
        mean=pooled.mean * scale,
        low=pooled.low * scale,
        high=pooled.high * scale,
        level=level,
        units=pooled.units,
        human_labels=pooled.human_labels,
        model_mean=pooled.model_mean * scale,
        rectifier=pooled.rectifier * scale,
        std_error=pooled.std_error * scale,
    )


def relevance_probability(probs: Mapping[int, float], threshold: int) -> float:
    """P(grade >= threshold) from a probability per grade (a model's, calibrated or not)."""
    return math.fsum(p for g, p in probs.items() if g >= threshold)

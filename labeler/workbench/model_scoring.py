"""`eval --labels model|combined`: scores from a model judge's labels, and prediction-powered intervals.

`model` scores with the model's grades alone. `combined` scores with the human label of a pair
where the snapshot has one and the model's *calibrated* label elsewhere, and gives each P@k mean
as a prediction-powered estimate with its interval (`labeler.metrics.ppi`): the model's
calibrated P(grade >= threshold) on every pair of the run's top k, corrected by the human labels
of a random sample of those pairs.

The random sample is the assignment plan's overlap pairs (`assign --overlap`): whether a pair is
one is a keyed hash of (seed, topic, unit), so the overlap pairs among a run's top k are a uniform
Bernoulli sample of them, chosen before anyone judged. Human labels judged in pool order are not
a random sample, so they are never the sample; without planned overlap pairs `combined` refuses,
and below `MIN_HUMAN_LABELS` labelled sample pairs in a run's top k it refuses too. Sample pairs a
person has not graded yet (outside the pool, or not judged) are counted and reported: while they
remain, the sample is the judged part of a random sample, which is random only if what was left
unjudged is unrelated to relevance.

Which topics `combined` scores follows from the same sample: a topic counts once its random
sample is judged (every overlap pair of its pool has a human label), whatever its review status,
since the model labels the rest (`sample_coverage`). A topic without planned overlap pairs has no
sample, and its pairs would enter the estimate uncorrected, so it is left out even when reviewed.

The calibrator (`labeler.agreement.calibration`, isotonic) is fitted on the human labels *outside* the
sample that the model also labelled, so the model's values f are fixed independently of the
sample's labels, as PPI requires (a calibrator fitted on the sample itself would make f depend on
the Y it is corrected by). With fewer than ten such labels it uses the model's stated
probabilities (the calibrator's own fallback).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from labeler.agreement.calibration import Calibrator, fit_calibrator
from labeler.errors import BadArgumentError, LabelerError, argument_hint
from labeler.json_form import JsonResult, json_field
from labeler.judgments.model_labels import ModelLabel
from labeler.metrics import Measure
from labeler.metrics.ppi import MIN_HUMAN_LABELS, PPIEstimate, ppi_precision_at_k, relevance_probability
from labeler.models import SnapshotInfo, topic_sort_key
from labeler.scales import GradeScale
from labeler.store import Store
from labeler.workbench.assignments import Plan, current_plan
from labeler.workbench.read_labels import model_labels, model_names

LABELS = ("human", "model", "combined")
Pair = tuple[str, str]


@dataclass(frozen=True)
class ModelScoring:
    """What `--labels model|combined` scores with: the qrels, and for `combined` what the intervals need."""

    labels: str
    model: str
    qrels: dict[str, dict[str, int]]
    value: dict[Pair, float] = field(default_factory=dict)  # f: the model's calibrated P(relevant) per pair
    human: dict[Pair, int] = field(default_factory=dict)  # the snapshot's human grades
    sampled: frozenset[Pair] | None = None  # None: every pair's draw is asked of the plan
    calibration: dict[str, Any] = field(default_factory=dict)
    samples: dict[str, dict[str, int]] = field(default_factory=dict)  # `sample_coverage`: topic -> pairs, judged


@dataclass(frozen=True)
class LabelsNote(JsonResult):
    """Which labels a report scored: the model judge, its calibration, and for combined labels the topic rule.

    The calibration fields are absent for model labels (nothing is calibrated); `topic_rule` is
    `sample_judged` when a topic counts once its random sample is judged, `as_human` otherwise.
    """

    labels: str
    model: str
    method: str | None = json_field(default=None, omit_if_none=True)
    examples: int | None = json_field(default=None, omit_if_none=True)
    fallback: bool | None = json_field(default=None, omit_if_none=True)
    topic_rule: str | None = json_field(default=None, omit_if_none=True)
    samples: dict[str, dict[str, int]] | None = json_field(default=None, omit_if_none=True)


def check_labels(store: Store, labels: str, model: str | None, unit: str | None, info: SnapshotInfo) -> str | None:
    """The model to score with (None for human labels), once the arguments are known good."""
    if labels not in LABELS:
        raise BadArgumentError(f"must be one of {', '.join(LABELS)}, not {labels!r}", argument="labels")
    if labels == "human":
        if model is not None:
            raise BadArgumentError("names a model, but the scores use human labels", argument="model")
        return None
    if unit is not None and unit != info.unit:
        raise BadArgumentError(
            f"model labels are scored in the snapshot's own unit space ({info.unit}), not lifted to {unit!r}",
            argument="unit",
        )
    names = model_names(store, info.unit)
    if model is None:
        if len(names) == 1:
            return names[0]
        raise BadArgumentError(
            "no model has labels in this unit space"
            if not names
            else f"several models have labels: name one of {', '.join(names)}",
            argument="model",
        )
    if model not in names:
        raise LabelerError(
            f"model {model!r} has no labels in {info.unit}"
            + (f" (models with labels: {', '.join(names)})" if names else ""),
            hints=argument_hint("model", why="to name a model whose labels were imported"),
        )
    return model


def model_scoring(
    store: Store, info: SnapshotInfo, labels: str, model: str, human: Mapping[str, Mapping[str, int]]
) -> ModelScoring:
    """The qrels of `labels` (model or combined) and, for combined, the calibrated values and the sample."""
    by_pair = model_labels(store, model, info.unit)
    if labels == "model":
        qrels: dict[str, dict[str, int]] = {}
        for (topic, unit_id), label in by_pair.items():
            qrels.setdefault(topic, {})[unit_id] = label.grade
        return ModelScoring(labels=labels, model=model, qrels=qrels)
    grades = [g.value for g in GradeScale.from_dict(info.manifest["scale"]).grades]
    threshold = int(info.manifest["scale"]["threshold"])
    human_pairs = {(t, u): g for t, units in human.items() for u, g in units.items() if g >= 0}
    plan = current_plan(store)
    if not any(entry.second is not None for entry in plan.topics.values()):
        raise LabelerError(
            "combined scores need a random sample of human labels, and the assignments plan no overlap pairs "
            "(the seeded share of pairs judged by two): labels judged in pool order are not a random sample",
            hints=argument_hint("labels", "human", why="to score with the human labels alone"),
        )
    examples = [
        (label.probs, human_pairs[pair])
        for pair, label in by_pair.items()
        if label.probs is not None and pair in human_pairs and not plan.is_overlap(*pair)
    ]
    calibrator = fit_calibrator(examples, grades)
    qrels = {t: dict(units) for t, units in human.items()}
    value: dict[Pair, float] = {}
    for pair, label in by_pair.items():
        probs = _probs(label, calibrator)
        value[pair] = relevance_probability(probs, threshold) if probs else float(label.grade >= threshold)
        if pair not in human_pairs:
            qrels.setdefault(pair[0], {})[pair[1]] = _grade(label, probs)
    return ModelScoring(
        labels=labels,
        model=model,
        qrels=qrels,
        value=value,
        human=human_pairs,
        calibration={"method": calibrator.method, "examples": len(examples), "fallback": calibrator.fallback},
        samples=sample_coverage(store, info, plan, human),
    )


def sample_coverage(
    store: Store, info: SnapshotInfo, plan: Plan, human: Mapping[str, Mapping[str, int]]
) -> dict[str, dict[str, int]]:
    """`{topic: {"pairs", "judged"}}`: each planned topic's overlap pairs in its space's latest pool, and how many
    of them hold a human label (a grade of 0 or more). The topics without a second judge have no sample."""
    pools = [p.name for p in store.pools() if p.unit == info.unit]
    coverage: dict[str, dict[str, int]] = {}
    for topic in sorted(plan.topics, key=topic_sort_key):
        entry = plan.topics[topic]
        if entry.second is None:
            continue
        sample = [u for u in (store.pool_topic_units(pools[-1], topic) if pools else ()) if entry.is_overlap(u)]
        judged = [u for u in sample if human.get(topic, {}).get(u, -1) >= 0]
        coverage[topic] = {"pairs": len(sample), "judged": len(judged)}
    return coverage


def _probs(label: ModelLabel, calibrator: Calibrator) -> dict[int, float] | None:
    return None if label.probs is None else calibrator.calibrate(label.probs)


def _grade(label: ModelLabel, probs: Mapping[int, float] | None) -> int:
    """The calibrated label: the most probable grade (the lower one on a tie); the model's grade without probs."""
    if not probs:
        return label.grade
    return max(sorted(probs), key=lambda g: (probs[g], -g))


def ppi_for_run(
    store: Store,
    scoring: ModelScoring,
    run: str,
    rankings: Mapping[str, list[str]],
    topics: list[str],
    measures: list[Measure],
    threshold: int,
) -> tuple[dict[str, PPIEstimate | None], dict[str, int]]:
    """Each measure's PPI estimate for one run (None for a measure that is not a mean over pairs), and for each
    estimated measure how many of its random sample pairs (the overlap pairs in the top k) hold no human label.

    Raises LabelerError when a P@k has fewer than `MIN_HUMAN_LABELS` labelled sample pairs.
    """
    plan = current_plan(store)
    estimates: dict[str, PPIEstimate | None] = {}
    unlabelled: dict[str, int] = {}
    for measure in measures:
        if measure.family != "P" or measure.cutoff is None or not topics:
            estimates[measure.name] = None
            continue
        k = measure.cutoff
        top = [(t, u) for t in topics for u in rankings.get(t, [])[:k]]
        sample = [p for p in top if plan.is_overlap(*p)]
        labelled = {p: float(scoring.human[p] >= threshold) for p in sample if p in scoring.human}
        unlabelled[measure.name] = len(sample) - len(labelled)
        if len(labelled) < MIN_HUMAN_LABELS:
            raise LabelerError(
                f"run {run!r}: {measure.name} would rest on {len(labelled)} human labels of the random sample "
                f"(the overlap pairs in its top {k}), fewer than the {MIN_HUMAN_LABELS} a prediction-powered "
                "interval needs",
                hints=argument_hint("labels", "human", why="to score with the human labels alone"),
            )
        estimates[measure.name] = ppi_precision_at_k(rankings, topics, k, lambda p: scoring.value.get(p, 0.0), labelled)
    return estimates, unlabelled

"""Scoring answer runs by their nuggets and citation support, on a snapshot or on the log as it is now.

Per run and topic, the four nugget scores with their denominators and the citation
support (`labeler.answers.scores`); per run, their means over the topics scored and the
topics left out with the reason. With a baseline, every other run is compared with it
topic by topic (the paired tests and correction of `eval`). With `labels="combined"`,
each run's mean `strict_vital_score` is also estimated by prediction-powered inference:
a model's assignments stand for every vital (topic, nugget) pair, the people's labels
of the random sample (the pairs the topic's assignment draws for overlap) correct its bias.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from labeler.answers.model import Answer
from labeler.answers.scores import (
    NO_ANSWER,
    SCORE_NAMES,
    SUPPORT,
    LeftOut,
    NuggetScore,
    SupportScore,
    mean,
    nugget_score,
    support_score,
)
from labeler.answers.spaces import assignment_space, support_space
from labeler.errors import BadArgumentError, LabelerError, argument_hint
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import GRADE, model_events
from labeler.metrics.ppi import MIN_HUMAN_LABELS, PPIEstimate, ppi_mean
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.workbench.answer_labels import answer_run_names
from labeler.workbench.eval_results import BaselineReport
from labeler.workbench.evaluation import baseline_report, check_statistics, runs_with_baseline
from labeler.workbench.snapshot_answers import FrozenAnswers, freeze_answers
from labeler.workbench.snapshots import CURRENT, snapshot_answers

LABELS = ("people", "combined")


@dataclass(frozen=True)
class CombinedEstimate(JsonResult):
    """A run's mean `strict_vital_score` estimated from a model's assignments and the people's random sample.

    `model_missing`: vital pairs the model did not assign (counted as not supported);
    `sample_unlabelled`: pairs of the random sample people have not assigned (left out of the sample).
    """

    estimate: PPIEstimate
    topics: int
    model_missing: int
    sample_unlabelled: int


@dataclass(frozen=True)
class RunNuggetScores(JsonResult):
    """One run's nugget scores and citation support, per topic and as means over the topics scored."""

    run: str
    topics_scored: int
    strict_vital_score: float | None
    strict_all_score: float | None
    vital_score: float | None
    all_score: float | None
    support_precision: float | None
    support_recall: float | None
    support_topics: int
    per_topic: tuple[NuggetScore, ...] = json_field(name="topics")
    left_out: tuple[LeftOut, ...] = json_field()
    support: tuple[SupportScore, ...] = json_field()
    support_left_out: tuple[LeftOut, ...] = json_field()
    combined: CombinedEstimate | None = json_field(default=None, omit_if_none=True)


@dataclass(frozen=True)
class NuggetScoresReport(JsonResult):
    """`score_nuggets`'s result: every run asked for, on one snapshot (or `current`: the log now)."""

    snapshot: str
    labels: str
    model: str | None = json_field(omit_if_none=True)
    runs: tuple[RunNuggetScores, ...] = json_field()
    baseline: BaselineReport | None = json_field(default=None, omit_if_none=True)


@dataclass(frozen=True)
class NuggetScoreRequest:
    """What to score: the snapshot (None: the log now), runs (None: every run not retired), baseline, labels."""

    snapshot: str | None = None
    runs: Sequence[str] | None = None
    baseline: str | None = None
    correction: str = "holm"
    labels: str = "people"
    model: str | None = None


def score_nuggets(store: Store, request: NuggetScoreRequest) -> NuggetScoresReport:
    """Score answer runs by nuggets and citation support as `request` asks."""
    _check_request(request)
    if request.baseline is not None:
        answer_run_names(store, [request.baseline], argument="baseline")  # an unknown run is refused by name
    names = answer_run_names(store, runs_with_baseline(list(request.runs) if request.runs else None, request.baseline))
    if request.baseline is not None and request.baseline not in names:
        raise BadArgumentError(f"names a run that is not scored: {request.baseline!r}", argument="baseline")
    name, answers = _answers(store, request.snapshot)
    runs = tuple(_run_scores(store, run, answers) for run in names)
    if request.model is not None:
        runs = tuple(_with_combined(store, scores, answers, request.model) for scores in runs)
    return NuggetScoresReport(name, request.labels, request.model, runs, _against_baseline(runs, request))


def _against_baseline(runs: Sequence[RunNuggetScores], request: NuggetScoreRequest) -> BaselineReport | None:
    """Every run against the baseline on the four scores, paired over the topics both score (None: no baseline)."""
    if request.baseline is None:
        return None
    per_topic = {r.run: {s.topic: {m: getattr(s, m) for m in SCORE_NAMES} for s in r.per_topic} for r in runs}
    return baseline_report(per_topic, request.baseline, list(SCORE_NAMES), correction=request.correction)


def _check_request(request: NuggetScoreRequest) -> None:
    check_statistics(request.correction, 1, 1)
    if request.labels not in LABELS:
        raise BadArgumentError(f"must be one of {', '.join(LABELS)}, not {request.labels!r}", argument="labels")
    if (request.labels == "combined") != (request.model is not None):
        raise BadArgumentError(
            "combined labels need the model whose assignments stand for the rest, and only they do",
            argument="model",
        )


def _answers(store: Store, snapshot: str | None) -> tuple[str, FrozenAnswers]:
    """The snapshot's name and its nuggets and answer labels (the log's now when none is named)."""
    if snapshot is None or snapshot == CURRENT:
        return CURRENT, freeze_answers(store)
    info = store.snapshot(snapshot)
    return info.name, snapshot_answers(store, info)


def _run_scores(store: Store, run: str, frozen: FrozenAnswers) -> RunNuggetScores:
    """One run's scores: every topic it answered or that has nuggets, scored or left out."""
    answers = {a.topic_id: a for a in store.answers(run)}
    importance = frozen.importance()
    assigned = frozen.grades(assignment_space(run))
    supported = frozen.grades(support_space(run))
    outcomes = [
        nugget_score(topic_id, importance.get(topic_id, {}), assigned.get(topic_id, {}))
        if topic_id in answers
        else LeftOut(topic_id, NO_ANSWER)
        for topic_id in sorted(answers.keys() | importance.keys(), key=topic_sort_key)
    ]
    scored = [o for o in outcomes if isinstance(o, NuggetScore)]
    left_out = [o for o in outcomes if isinstance(o, LeftOut)]
    support, support_out = _support(answers, supported)
    return _run_means(run, scored, left_out, support, support_out)


def _run_means(
    run: str,
    scored: list[NuggetScore],
    left_out: list[LeftOut],
    support: list[SupportScore],
    support_out: list[LeftOut],
) -> RunNuggetScores:
    """A run's per-topic outcomes and their means."""
    precisions = [s.precision for s in support if s.precision is not None]
    return RunNuggetScores(
        run=run,
        topics_scored=len(scored),
        strict_vital_score=mean([s.strict_vital_score for s in scored]),
        strict_all_score=mean([s.strict_all_score for s in scored]),
        vital_score=mean([s.vital_score for s in scored]),
        all_score=mean([s.all_score for s in scored]),
        support_precision=mean(precisions),
        support_recall=mean([s.recall for s in support]),
        support_topics=len(support),
        per_topic=tuple(scored),
        left_out=tuple(left_out),
        support=tuple(support),
        support_left_out=tuple(support_out),
    )


def _support(
    answers: Mapping[str, Answer], labels: Mapping[str, Mapping[str, int]]
) -> tuple[list[SupportScore], list[LeftOut]]:
    """Each answer's citation support, or why it is left out (sentence numbers as the labels' item ids)."""
    scored: list[SupportScore] = []
    left_out: list[LeftOut] = []
    for topic_id in sorted(answers, key=topic_sort_key):
        grades = {int(item): g for item, g in labels.get(topic_id, {}).items() if item.isdecimal()}
        outcome = support_score(topic_id, [bool(s.citations) for s in answers[topic_id].sentences], grades)
        if isinstance(outcome, SupportScore):
            scored.append(outcome)
        else:
            left_out.append(outcome)
    return scored, left_out


def _model_assignments(store: Store, run: str, model: str) -> dict[tuple[str, str], int]:
    """`(topic, nugget id) -> grade`: the model's latest assignment of each pair of one run's answers."""
    grades: dict[tuple[str, str], int] = {}
    for event in model_events(store.unit_events(assignment_space(run))):
        if event.kind == GRADE and event.model == model and event.unit_id is not None and event.grade is not None:
            grades[(event.topic_id, event.unit_id)] = event.grade
    return grades


def _with_combined(store: Store, scores: RunNuggetScores, frozen: FrozenAnswers, model: str) -> RunNuggetScores:
    """The run's scores with the prediction-powered estimate of its mean `strict_vital_score`.

    The population: every vital (topic, nugget) pair of the topics the run answered that have
    nuggets. Topic t's strict vital score is the mean over its V_t vital pairs, so the run's mean
    over T topics is the mean over all N vital pairs of the value y * N / (T * V_t) (y 1 for
    support, else 0): a mean over pairs, which a random sample of pairs estimates without bias.
    """
    from labeler.workbench.assessors import current_plan

    plan = current_plan(store)
    topics, pairs, weight = _vital_pairs(store, scores.run, frozen)
    people = frozen.grades(assignment_space(scores.run))
    predicted = _model_assignments(store, scores.run, model)

    def value(grade: int | None, topic_id: str) -> float:
        return weight[topic_id] if grade == SUPPORT else 0.0

    sample = [p for p in pairs if plan.is_overlap(*p)]
    labelled = [(value(people[t][n], t), value(predicted.get((t, n)), t)) for t, n in sample if n in people.get(t, {})]
    if len(labelled) < MIN_HUMAN_LABELS:
        raise LabelerError(
            f"run {scores.run!r}: the estimate would rest on {len(labelled)} people's assignments of the random "
            f"sample, fewer than the {MIN_HUMAN_LABELS} a prediction-powered interval needs",
            hints=argument_hint("labels", "people", why="to score with the people's assignments alone"),
        )
    estimate = ppi_mean([value(predicted.get(p), p[0]) for p in pairs], labelled)
    combined = CombinedEstimate(
        estimate=estimate,
        topics=topics,
        model_missing=sum(1 for p in pairs if p not in predicted),
        sample_unlabelled=len(sample) - len(labelled),
    )
    return replace(scores, combined=combined)


def _vital_pairs(store: Store, run: str, frozen: FrozenAnswers) -> tuple[int, list[tuple[str, str]], dict[str, float]]:
    """The topics T the run answered that have nuggets, their N vital pairs, and each topic's N / (T * V_t)."""
    answered = set(store.answer_topics(run))
    vital = {t: _vital(nuggets) for t, nuggets in frozen.importance().items() if t in answered}
    pairs = [(t, n) for t in sorted(vital, key=topic_sort_key) for n in vital[t]]
    if not pairs:
        raise LabelerError(f"run {run!r}: no vital nugget of a topic it answered to estimate its score over")
    weight = {t: len(pairs) / (len(vital) * len(v)) for t, v in vital.items() if v}
    return len(vital), pairs, weight


def _vital(importance: Mapping[str, str]) -> list[str]:
    return [n for n, level in importance.items() if level == "vital"]

"""`labeler agreement`: how far the assessors agree on the pairs more than one of them graded.

Agreement is about assessors, not about labels, so it reads the judgment log: each pair's
latest grade from every assessor (`PairState.grades`). A snapshot keeps one label per pair and
leaves conflicting pairs out, so its labels would hide exactly the disagreements measured here;
a snapshot only narrows the report to that snapshot's unit space and topics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from labeler.agreement.model import DEFAULT_BINS, DEFAULT_WEIGHTS, LabelPair, ModelComparison, compare_model
from labeler.agreement.statistics import METRICS, AgreementBlock, AgreementSummary, agreement_block, summarize_agreement
from labeler.answers.spaces import TASK_KINDS, AnswerSpace, answer_space
from labeler.assignment import JUDGED_CONDITIONS, judged_condition
from labeler.coverage.correlation import compare_rankings
from labeler.errors import BadArgumentError, NotFoundError
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import Event, PairState
from labeler.judgments.model_labels import ModelLabel
from labeler.metrics import Measure, evaluate, merge_evaluations, parse_measures
from labeler.models import topic_sort_key
from labeler.scales import GradeScale
from labeler.store import Store
from labeler.workbench.answer_labels import answer_run_names
from labeler.workbench.assignments import current_plan, space_pool
from labeler.workbench.batches import topic_batches
from labeler.workbench.read_labels import current_labels, label_space, model_labels, model_names
from labeler.workbench.snapshots import CURRENT, current_snapshot, resolve_snapshot


@dataclass(frozen=True)
class PairCondition(JsonResult):
    """The condition a pair graded by two or more was judged in: `blind`, `shown` or `unrecorded`."""

    topic: str
    unit_id: str
    condition: str


@dataclass(frozen=True)
class AgreementReport(JsonResult):
    """`agreement_report`'s result: what was read, and the agreement overall, per topic and per condition.

    `pairs_read` is `overlap` (the planned overlap, `planned_overlap` pairs) or `all`; `summary` holds the
    agreement overall and per topic (its keys join the document in its place); `conditions` counts the
    pairs graded by two or more per condition and `by_condition` gives the agreement of each condition
    that has some.
    """

    unit: str
    snapshot: str | None
    scale: str
    threshold: int
    metric: str
    pairs_read: str
    planned_overlap: int | None
    summary: AgreementSummary = json_field(flatten=True)
    conditions: dict[str, int] = json_field()  # `json_field()` after `summary`: mypy takes a rule for a default
    by_condition: dict[str, AgreementBlock] = json_field()
    pair_conditions: tuple[PairCondition, ...] = json_field()


def _scope(store: Store, snapshot: str | None, unit: str | None) -> tuple[str, set[str] | None, GradeScale, str | None]:
    """The unit space, the topics (None: all), the scale and the snapshot's name the report is restricted to.

    An answer space (`nugget:RUN`, `support:RUN`) has its own three grades; a snapshot holds a relevance
    space's labels, so naming one with an answer space is refused as any other space it does not hold.
    """
    if snapshot is None:
        space = label_space(store, unit)
        return space, None, space_scale(store, space), None
    info = current_snapshot(store, unit) if snapshot == CURRENT else resolve_snapshot(store, snapshot)
    if unit is not None and label_space(store, unit) != info.unit:
        raise BadArgumentError(
            f"snapshot {info.name} holds {info.unit} labels, not {unit!r}: "
            "leave it out or choose a snapshot of that unit space",
            argument="unit",
        )
    manifest = info.manifest
    topics = set(manifest.get("topics", {})) | {topic for topic, _ in manifest.get("conflicts_left_out", [])}
    return info.unit, topics, GradeScale.from_dict(manifest["scale"]), info.name


def space_scale(store: Store, space: str) -> GradeScale:
    """The grades judged in a space: an answer space's own, else the workbench's scale."""
    answer = answer_space(space)
    return answer.scale if answer is not None else store.scale()


def planned_overlap(store: Store, space: str, topics: set[str] | None) -> set[tuple[str, str]] | None:
    """The overlap pairs the plan asks two assessors to judge in the space's latest pool; None without one."""
    plan = current_plan(store)
    overlapping = {t: entry for t, entry in plan.topics.items() if entry.second is not None}
    if not overlapping:
        return None
    info = space_pool(store, space)
    if info is None:
        return set()
    return {
        (topic_id, unit_id)
        for topic_id, entry in overlapping.items()
        if topics is None or topic_id in topics
        for unit_id in store.pool_topic_units(info.name, topic_id)
        if entry.is_overlap(unit_id)
    }


def _pairs_planned(store: Store, space: str, topics: set[str] | None, all_pairs: bool) -> set[tuple[str, str]] | None:
    """The planned overlap pairs to read, or None to read every pair: asked (`all_pairs`), or an answer space,
    which has no pool and so no planned overlap."""
    if all_pairs or answer_space(space) is not None:
        return None
    return planned_overlap(store, space, topics)


def agreement_report(
    store: Store,
    *,
    snapshot: str | None = None,
    unit: str | None = None,
    metric: str = "ordinal",
    all_pairs: bool = False,
) -> AgreementReport:
    """Overlap and Cohen's kappa per assessor pair, and Krippendorff's alpha, overall and per topic.

    Which grades count: every assessor's latest real grade of a pair in the unit space (the
    log as it is now). Negative grades ("pooled, not judged"), adjudications, skip/unsure/flag
    states, retracted events and grades made stale by a change of the unit's text do not count.
    With `snapshot`, only pairs of that snapshot's unit space and topics are read, still from the
    log: agreement is about the assessors, not the snapshot's single label per pair. When the
    assignments plan an overlap, only its pairs are read (a sample chosen in advance, not the pairs
    someone happened to grade twice), unless `all_pairs`. Each pair graded by two or more is put in
    the condition its second judgment was made in (`blind`, `shown`, `unrecorded`), with the
    agreement per condition beside the whole.
    """
    _check_metric(metric)
    space, topics, scale, snapshot_name = _scope(store, snapshot, unit)
    planned = _pairs_planned(store, space, topics, all_pairs)
    grades = _real_grades(store, space, topics, planned)
    summary = summarize_agreement(grades, threshold=scale.threshold, categories=scale.values, metric=metric)
    counts, blocks, pair_conditions = _by_condition(store, space, grades, scale, metric)
    return AgreementReport(
        unit=space,
        snapshot=snapshot_name,
        scale=scale.name,
        threshold=scale.threshold,
        metric=metric,
        pairs_read="all" if planned is None else "overlap",
        planned_overlap=None if planned is None else len(planned),
        summary=summary,
        conditions=counts,
        by_condition=blocks,
        pair_conditions=pair_conditions,
    )


def _check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise BadArgumentError(f"must be one of {', '.join(METRICS)}, not {metric!r}", argument="metric")


Grades = dict[str, dict[str, dict[str, int]]]
"""`topic -> unit (or item) id -> {assessor: grade}`: what the agreement statistics take."""


def _real_grades(store: Store, space: str, topics: set[str] | None, planned: set[tuple[str, str]] | None) -> Grades:
    """Every assessor's latest real grade (0 or more) of each pair of the space, within the topics and plan."""
    grades: Grades = {}
    for (topic_id, unit_id), state in current_labels(store, space).items():
        if topics is not None and topic_id not in topics:
            continue
        if planned is not None and (topic_id, unit_id) not in planned:
            continue
        real = {assessor: grade for assessor, grade in state.grades.items() if grade is not None and grade >= 0}
        if real:
            grades.setdefault(topic_id, {})[unit_id] = real
    return grades


"""`--answers` -> the kind of answer space it reads: nugget assignments, or citation support."""


@dataclass(frozen=True)
class AnswerAgreementReport(JsonResult):
    """`answer_agreement_report`'s result: agreement on answer judgments pooled over answer runs.

    `summary` is over every run's items (per topic: the items of every run's answer to it; its keys join
    the document in its place); `by_run` gives each run's items apart, `conditions` and `by_condition`
    the second judgments' conditions as for relevance.
    """

    answers: str
    runs: tuple[str, ...]
    scale: str
    threshold: int
    metric: str
    summary: AgreementSummary = json_field(flatten=True)
    conditions: dict[str, int] = json_field()
    by_condition: dict[str, AgreementBlock] = json_field()
    by_run: dict[str, AgreementBlock] = json_field()


def answer_agreement_report(
    store: Store, answers: str, *, runs: Sequence[str] | None = None, metric: str = "ordinal"
) -> AnswerAgreementReport:
    """How far people agree on answer judgments (`nuggets`: assignments; `support`: citation support), over runs.

    Each run's items are read as `agreement_report` reads its answer space (`nugget:RUN` or
    `support:RUN`): every person's latest real grade, every item graded by two or more (an answer
    space has no planned overlap). An item is a run's (topic, nugget or sentence): the same nugget
    judged in two runs' answers is two items. Default runs: every answer run not retired.
    """
    _check_metric(metric)
    if answers not in TASK_KINDS:
        raise BadArgumentError(f"must be nuggets or support, not {answers!r}", argument="answers")
    chosen = answer_run_names(store, runs)
    scale = AnswerSpace(TASK_KINDS[answers], "").scale
    pooled, by_condition, by_run = _pooled_runs(store, TASK_KINDS[answers], chosen, scale, metric)
    return AnswerAgreementReport(
        answers=answers,
        runs=tuple(chosen),
        scale=scale.name,
        threshold=scale.threshold,
        metric=metric,
        summary=summarize_agreement(pooled, threshold=scale.threshold, categories=scale.values, metric=metric),
        conditions={name: len(units) for name, units in by_condition.items()},
        by_condition=_blocks({name: units for name, units in by_condition.items() if units}, scale, metric),
        by_run=_blocks(by_run, scale, metric),
    )


Graded = list[dict[str, int]]
"""The grades of some items, each `{assessor: grade}`."""


def _pooled_runs(
    store: Store, kind: str, runs: list[str], scale: GradeScale, metric: str
) -> tuple[Grades, dict[str, Graded], dict[str, Graded]]:
    """Every run's items pooled per topic (an item keyed `RUN ITEM`: ids hold no white space), and the items'
    grades per condition of the second judgment and per run."""
    pooled: Grades = {}
    by_condition: dict[str, Graded] = {name: [] for name in JUDGED_CONDITIONS}
    by_run: dict[str, Graded] = {}
    for run in runs:
        space = str(AnswerSpace(kind, run))
        grades = _real_grades(store, space, None, None)
        for topic, items in grades.items():
            pooled.setdefault(topic, {}).update({f"{run} {item}": by for item, by in items.items()})
        for pair in _by_condition(store, space, grades, scale, metric)[2]:
            by_condition[pair.condition].append(grades[pair.topic][pair.unit_id])
        by_run[run] = [by for items in grades.values() for by in items.values()]
    return pooled, by_condition, by_run


def _blocks(units: dict[str, Graded], scale: GradeScale, metric: str) -> dict[str, AgreementBlock]:
    """The agreement of each named set of items' grades."""
    return {
        name: agreement_block(graded, threshold=scale.threshold, categories=scale.values, metric=metric)
        for name, graded in units.items()
    }


def _by_condition(
    store: Store, space: str, grades: dict[str, dict[str, dict[str, int]]], scale: GradeScale, metric: str
) -> tuple[dict[str, int], dict[str, AgreementBlock], tuple[PairCondition, ...]]:
    """Which condition each pair graded by two or more was judged in (`judged_condition`), the count per
    condition, and the agreement per condition (`agreement_block`) for each condition that has pairs."""
    multi = {(t, u) for t, units in grades.items() for u, by in units.items() if len(by) >= 2}
    events: dict[tuple[str, str], list[Event]] = {}
    if multi:
        for event in store.unit_events(space):
            pair = (event.topic_id, event.unit_id or "")
            if pair in multi:
                events.setdefault(pair, []).append(event)
    ordered = sorted(multi, key=lambda k: (topic_sort_key(k[0]), k[1]))
    judged = {pair: judged_condition(events.get(pair, ())) for pair in ordered}
    counts = {name: sum(1 for c in judged.values() if c == name) for name in JUDGED_CONDITIONS}
    blocks = {
        name: agreement_block(
            [grades[t][u] for (t, u), c in judged.items() if c == name],
            threshold=scale.threshold,
            categories=scale.values,
            metric=metric,
        )
        for name in JUDGED_CONDITIONS
        if counts[name]
    }
    return counts, blocks, tuple(PairCondition(t, u, judged[(t, u)]) for t, u in ordered)


@dataclass(frozen=True)
class RunScores(JsonResult):
    """One run's mean score on the human labels and on the model's (None when undefined)."""

    human: float | None
    model: float | None


@dataclass(frozen=True)
class RankingTau(JsonResult):
    """How far the runs ranked on the model's labels agree with them ranked on the human labels."""

    measure: str
    topics: int
    runs: int
    runs_not_scored: list[str]
    kendall_tau: float | None
    tau_ap: float | None
    human_ranking: list[str]
    model_ranking: list[str]
    scores: dict[str, RunScores]


@dataclass(frozen=True)
class ModelAgreementReport(JsonResult):
    """`model_agreement_report`'s result: what was read, then the statistics on every pair compared (`whole`,
    with its calibration; its keys join the document in its place), the same per condition (`blind`,
    `shown`, `shown_other`, without calibration), and the runs' ranking tau."""

    model: str
    unit: str
    scale: str
    threshold: int
    pairs_read: str
    planned_overlap: int | None
    model_labels: int
    whole: ModelComparison = json_field(flatten=True)
    conditions: dict[str, ModelComparison] = json_field()
    tau: RankingTau = json_field()

    @property
    def pairs(self) -> int:
        """The number of pairs compared: labelled by both a person and the model."""
        return self.whole.pairs


DEFAULT_TAU_MEASURE = "nDCG@10"
CONDITIONS = ("blind", "shown", "shown_other")


def model_agreement_report(
    store: Store,
    model: str,
    *,
    unit: str | None = None,
    measure: str = DEFAULT_TAU_MEASURE,
    weights: str = DEFAULT_WEIGHTS,
    bins: int = DEFAULT_BINS,
    all_pairs: bool = False,
) -> ModelAgreementReport:
    """A model's labels against the human labels of the pairs both labelled (`labeler agreement --model`).

    The pairs compared are pairs with a current human label (human or imported judgments, no
    conflict, not stale) and a label from `model`. When the assignments plan an overlap, only its
    pairs are read, unless `all_pairs`: they are a seeded sample chosen before anyone judged,
    while the pairs people happened to judge (in pool order, or where an `uncertainty` order sent
    them) are not, and a model's error bar measured on them is biased. Without a plan, every pair
    both labelled is read, and the report says so. Each pair is put in a condition
    by what the deciding human judgment had on screen: `blind` (no model label), `shown` (this
    model's label) or `shown_other` (another model's). The system ranking's Kendall tau and
    tau_AP compare each run's mean `measure` on the model's labels with that on the human labels,
    on exactly the pairs compared (so only the grades differ), over the topics holding one.
    """
    tau_measure = _checked_report_request(weights, bins, measure)
    space = label_space(store, unit)
    scale = space_scale(store, space)
    labels = model_labels(store, model, space)
    if not labels:
        known = ", ".join(model_names(store, space)) or "none"
        raise NotFoundError(f"no labels from model {model!r} in {space} (models: {known})")
    planned = _pairs_planned(store, space, None, all_pairs)
    pairs, condition = _compared_pairs(store, space, model, labels, planned)
    ordered = sorted(pairs, key=lambda k: (topic_sort_key(k[0]), k[1]))
    chosen = [pairs[k] for k in ordered]
    grades = list(scale.values)
    by_condition = {
        name: compare_model(
            [pairs[k] for k in ordered if condition[k] == name],
            grades,
            scale.threshold,
            weights=weights,
            with_calibration=False,
        )
        for name in CONDITIONS
    }
    return ModelAgreementReport(
        model=model,
        unit=space,
        scale=scale.name,
        threshold=scale.threshold,
        pairs_read="human and model labelled" if planned is None else "overlap",
        planned_overlap=None if planned is None else len(planned),
        model_labels=len(labels),
        whole=compare_model(chosen, grades, scale.threshold, weights=weights, bins=bins),
        conditions=by_condition,
        tau=ranking_tau(store, space, ordered, pairs, tau_measure, scale.threshold),
    )


def _checked_report_request(weights: str, bins: int, measure: str) -> Measure:
    """The tau measure, parsed, once the weights and bins are known good: refused before anything is read."""
    if weights not in ("linear", "quadratic"):
        raise BadArgumentError(f"must be linear or quadratic, not {weights!r}", argument="weights")
    if bins < 1:
        raise BadArgumentError(f"must be 1 or more, not {bins}", argument="bins")
    try:
        return parse_measures([measure])[0]
    except ValueError as exc:
        raise BadArgumentError(str(exc), argument="measure") from None


def _compared_pairs(
    store: Store,
    space: str,
    model: str,
    labels: Mapping[tuple[str, str], ModelLabel],
    planned: set[tuple[str, str]] | None,
) -> tuple[dict[tuple[str, str], LabelPair], dict[tuple[str, str], str]]:
    """The pairs both labelled (within the planned overlap when there is one), and each one's condition.

    A human label counts only when it stands (judged, not in conflict, not stale); a model's negative grade
    is its "cannot say", not a grade, so that pair is left out.
    """
    pairs: dict[tuple[str, str], LabelPair] = {}
    condition: dict[tuple[str, str], str] = {}
    for key, state in current_labels(store, space).items():
        if planned is not None and key not in planned:
            continue
        if key not in labels or not state.judged or state.conflict or state.stale or state.label is None:
            continue
        label = labels[key]
        if label.grade < 0:
            continue
        pairs[key] = LabelPair(state.label, label.grade, label.probs)
        condition[key] = _condition(state, model)
    return pairs, condition


def _condition(state: PairState, model: str) -> str:
    """What the deciding judgment had on screen: `blind`, `shown` (this model's label) or `shown_other`."""
    shown = state.deciding_event.shown_model if state.deciding_event is not None else None
    return "blind" if shown is None else "shown" if shown == model else "shown_other"


def ranking_tau(
    store: Store,
    space: str,
    keys: list[tuple[str, str]],
    pairs: dict[tuple[str, str], LabelPair],
    measure: Measure,
    threshold: int,
) -> RankingTau:
    """Kendall's tau and tau_AP between the runs ranked by `measure` on human labels and on model labels."""
    human: dict[str, dict[str, int]] = {}
    model: dict[str, dict[str, int]] = {}
    for topic, unit_id in keys:
        human.setdefault(topic, {})[unit_id] = pairs[(topic, unit_id)].human
        model.setdefault(topic, {})[unit_id] = pairs[(topic, unit_id)].model
    topics = sorted(human, key=topic_sort_key)
    retired = store.retirements()
    runs = [r for r in store.runs() if r.name not in retired and str(r.unit) == space]
    others = sorted(r.name for r in store.runs() if r.name not in retired and str(r.unit) != space)
    scores_human: dict[str, float | None] = {}
    scores_model: dict[str, float | None] = {}
    if topics:
        for run in runs:
            parts_h, parts_m = [], []
            for batch in topic_batches(topics, [run]):
                rankings = store.ranked_units(run.name, topics=batch)
                parts_h.append(evaluate(human, rankings, [measure], topics=batch, threshold=threshold))
                parts_m.append(evaluate(model, rankings, [measure], topics=batch, threshold=threshold))
            scores_human[run.name] = merge_evaluations(parts_h).aggregate[measure.name]
            scores_model[run.name] = merge_evaluations(parts_m).aggregate[measure.name]
    ranking = compare_rankings(scores_human, scores_model)
    return RankingTau(
        measure=measure.name,
        topics=len(topics),
        runs=ranking["systems"],
        runs_not_scored=others,
        kendall_tau=ranking["kendall_tau"],
        tau_ap=ranking["tau_ap"],
        human_ranking=ranking["reference"],
        model_ranking=ranking["other"],
        scores={r: RunScores(scores_human[r], scores_model[r]) for r in scores_human},
    )

"""`labeler eval`: scores of runs on a snapshot, always with their denominators.

Which topics count is decided here, from the snapshot's review statuses, and
reported with every result: topics scored, topics excluded and why, topics the
run returned nothing for (scored 0 and named). Units are reconciled
explicitly: chunk runs against document labels collapse to parents; document
runs against chunk labels use derived document grades, flagged as lower bounds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from labeler.errors import BadArgumentError
from labeler.judgments.log import NO_ANSWER, UNREVIEWED
from labeler.metrics import DEFAULT_MEASURES, Measure, evaluate, merge_evaluations, parse_measures
from labeler.metrics.significance import CORRECTIONS, baseline_comparison, correct
from labeler.models import RunInfo, SnapshotInfo, topic_sort_key
from labeler.review import REOPENED
from labeler.store import Store
from labeler.workbench.alignment import (
    TopicsSince,
    aligned_labels,
    aligned_rankings,
    check_unit,
    entered_and_left,
    reopened_topics,
    retired_runs,
    runs_to_score,
    scored_topics,
)
from labeler.workbench.batches import topic_batches
from labeler.workbench.eval_results import (
    BaselineReport,
    EvalReport,
    RunComparison,
    RunScore,
    RunTopics,
    StageRow,
    StageTable,
)
from labeler.workbench.setup import Progress
from labeler.workbench.snapshot_view import as_of_pools
from labeler.workbench.snapshots import resolve_snapshot

if TYPE_CHECKING:
    from labeler.workbench.model_scoring import LabelsNote, ModelScoring

AVERAGES = ("reviewed", "trec_eval", "trec_eval_c")


@dataclass(frozen=True)
class EvalRequest:
    """What a scoring report is asked for, checked once when it is made (a bad choice is refused here).

    `average` chooses the topics a mean is over: `reviewed` (labeler's rule:
    reviewed topics with a relevant label, a topic the run missed scores 0),
    or trec_eval's own, for reproducing its numbers: `trec_eval` (topics in both
    the labels and the run, review status ignored, a topic without relevant
    labels scores 0) and `trec_eval_c` (the same over every labelled topic, as `-c`).
    A reopened topic (its space's latest pool holds units nobody judged since
    the mark) is left out unless `include_reopened`; then its score is a lower
    bound and it is listed in `lower_bound`.
    With `baseline`, every other scored run is compared with it on every
    measure (`baseline_report`, with `correction`, `bootstrap`, `permutations`, `seed`);
    the baseline is scored too when `runs` leaves it out.
    `labels` chooses the labels: `human` (the snapshot's), `model` (the grades of the judge
    `model`) or `combined` (human where the snapshot has a label, the model's calibrated label
    elsewhere; each P@k mean a prediction-powered estimate with its interval, over a random
    sample of human labels: `labeler.workbench.model_scoring`).
    `judged_only` removes the units the labels do not judge from each ranking before any
    measure reads it (trec_eval -J, condensed lists): scores of another question.
    """

    snapshot: str | None = None
    runs: list[str] | None = None
    measures: str | None = None
    per_query: bool = False
    depth: int | None = None
    unit: str | None = None
    include_unreviewed: bool = False
    include_reopened: bool = False
    stages: list[str] | None = None
    average: str = "reviewed"
    baseline: str | None = None
    correction: str = "holm"
    bootstrap: int = 1000
    permutations: int = 10_000
    seed: int = 0
    labels: str = "human"
    model: str | None = None
    judged_only: bool = False
    parsed: list[Measure] = field(init=False, repr=False, compare=False)  # `measures`, parsed when checked

    def __post_init__(self) -> None:
        object.__setattr__(self, "parsed", checked_request(self.average, self.measures, self.depth))
        check_judged_only(self.judged_only, self.labels)
        check_statistics(self.correction, self.bootstrap, self.permutations)


def runs_with_baseline(runs: list[str] | None, baseline: str | None) -> list[str] | None:
    """The runs named, with the baseline first when they leave it out (None: the default set)."""
    if baseline is not None and runs and baseline not in runs:
        return [baseline, *runs]
    return runs


def evaluate_runs(store: Store, request: EvalRequest, progress: Progress | None = None) -> EvalReport:
    """Score runs on one snapshot as `request` asks; every figure comes with the topics it rests on.

    `progress(done, total)` is called after each run is scored.
    """
    runs, baseline, unit = runs_with_baseline(request.runs, request.baseline), request.baseline, request.unit
    info = as_of_pools(store, resolve_snapshot(store, request.snapshot))
    check_unit(info, unit)
    judge = _model_judge(store, request.labels, request.model, unit, info)
    names, not_scored = runs_to_score(store, runs, unit or info.unit)
    if baseline is not None and baseline not in names:
        raise BadArgumentError(f"names a run that is not scored: {baseline!r}", argument="baseline")
    qrels, label_notes = aligned_labels(store, info, unit)
    by_model = None
    if judge is not None:
        from labeler.workbench.model_scoring import model_scoring

        by_model = model_scoring(store, info, request.labels, judge, qrels)
        qrels = by_model.qrels
    samples = _sample_rule(by_model, request.average, request.include_unreviewed)
    scoring = Scoring(
        info=info,
        request=request,
        qrels=qrels,
        label_notes=label_notes,
        reopened=reopened_topics(info),
        threshold=info.manifest["scale"]["threshold"],
        samples=samples,
        previous=previous_labels(store, info, unit, by_model),
    )
    results = _score_runs(store, scoring, names, by_model, progress)
    compared = None
    if baseline is not None:
        compared = _against_baseline(results, request)
        if not request.per_query:
            results = [replace(r, per_query=None) for r in results]
    return EvalReport(
        snapshot=info.name,
        snapshot_sha256=info.sha256,
        unit=unit or info.unit,
        measures=[m.name for m in request.parsed],
        average=request.average,
        depth=request.depth,
        threshold=scoring.threshold,
        runs=results,
        runs_not_scored=not_scored,
        runs_retired=retired_runs(store, runs),
        stages=stage_table(results, request.stages) if request.stages else None,
        baseline=compared,
        labels=None if by_model is None else _labels_note(request.labels, by_model, samples),
        judged_only=request.judged_only,
    )


def _against_baseline(results: list[RunScore], request: EvalRequest) -> BaselineReport:
    """Every scored run against `request.baseline`, per topic, with the request's statistics."""
    per_topic = {r.run: r.per_query or {} for r in results}
    return baseline_report(
        per_topic,
        request.baseline or "",
        [m.name for m in request.parsed],
        correction=request.correction,
        bootstrap=request.bootstrap,
        permutations=request.permutations,
        seed=request.seed,
    )


def _model_judge(store: Store, labels: str, model: str | None, unit: str | None, info: SnapshotInfo) -> str | None:
    """The model judge whose labels are scored, checked; None for human labels (the model's modules stay unloaded)."""
    if labels == "human" and model is None:
        return None
    from labeler.workbench.model_scoring import check_labels

    return check_labels(store, labels, model, unit, info)


def _score_runs(
    store: Store, scoring: Scoring, names: list[str], by_model: ModelScoring | None, progress: Progress | None
) -> list[RunScore]:
    """Each run's scores, in `names` order, with prediction-powered intervals for combined labels."""
    results: list[RunScore] = []
    for name in names:
        score = score_run(store, scoring, name)
        if by_model is not None and by_model.labels == "combined":
            score = with_intervals(store, scoring, by_model, score)
        results.append(score)
        if progress:
            progress(len(results), len(names))
    return results


def check_judged_only(judged_only: bool, labels: str) -> None:
    """Refuse judged-only scores of model labels: a model labels every unit, so nothing is condensed away."""
    if judged_only and labels != "human":
        raise BadArgumentError(
            "judged-only scores condense each ranking against the human labels; model labels judge every unit",
            argument="judged_only",
        )


def _sample_rule(by_model: ModelScoring | None, average: str, include_unreviewed: bool):
    """Combined labels' topic rule (their samples) unless another rule was asked for; None: the human rule.

    The model labels the rest, so a topic counts once its random sample is judged.
    """
    if by_model is None or by_model.labels != "combined" or average != "reviewed" or include_unreviewed:
        return None
    return by_model.samples


def _labels_note(labels: str, by_model: ModelScoring, samples: dict[str, dict[str, int]] | None) -> LabelsNote:
    """The report's `labels`: which labels, which model, its calibration, and for combined the topic rule."""
    from labeler.workbench.model_scoring import LabelsNote

    combined = by_model.labels == "combined"
    return LabelsNote(
        labels=labels,
        model=by_model.model,
        **by_model.calibration,
        topic_rule=("sample_judged" if samples is not None else "as_human") if combined else None,
        samples=by_model.samples if combined else None,
    )


def with_intervals(store: Store, scoring: Scoring, by_model: ModelScoring, score: RunScore) -> RunScore:
    """A combined run score whose P@k means are prediction-powered, each with its interval and sample size."""
    from labeler.workbench.model_scoring import ppi_for_run

    run = store.run(score.run)
    scored = _scored_of(scoring, store, score.run)
    rankings, _ = aligned_rankings(store, scoring.info, run, scoring.unit, topics=scored)
    if scoring.depth is not None:  # as `evaluate` reads them: the first `depth` results only
        rankings = {t: units[: scoring.depth] for t, units in rankings.items()}
    estimates, unlabelled = ppi_for_run(
        store, by_model, score.run, rankings, scored, scoring.measures, scoring.threshold
    )
    aggregate = {m: (e.mean if e is not None else score.aggregate[m]) for m, e in estimates.items()}
    return replace(
        score,
        aggregate=aggregate,
        ci={m: (None if e is None else [e.low, e.high]) for m, e in estimates.items()},
        human_labels=max((e.human_labels for e in estimates.values() if e is not None), default=0),
        ppi={
            "per_measure": {m: (None if e is None else e.to_json()) for m, e in estimates.items()},
            "sample_unlabelled": unlabelled,
        },
    )


def _scored_of(scoring: Scoring, store: Store, name: str) -> list[str]:
    """The topics `score_run` scored `name` on (the same rule, asked again)."""
    return list(topics_to_score(scoring, set(store.run_topics(name)))[0])


def topics_to_score(scoring: Scoring, ranked: set[str]) -> tuple[list[str], dict[str, str], list[str]]:
    """(scored topics, {excluded topic: reason}, run topics the snapshot does not cover) under `scoring`'s rule."""
    if scoring.average != "reviewed":
        return _trec_eval_topics(scoring.qrels, ranked, with_missing=scoring.average == "trec_eval_c")
    if scoring.samples is not None:
        return sampled_topics(scoring.info, scoring.qrels, ranked, scoring.threshold, scoring.samples)
    return scored_topics(
        scoring.info,
        scoring.qrels,
        ranked,
        scoring.threshold,
        scoring.include_unreviewed,
        include_reopened=scoring.include_reopened,
    )


def sampled_topics(
    info: SnapshotInfo, qrels, rankings, threshold: int, samples: dict[str, dict[str, int]]
) -> tuple[list[str], dict[str, str], list[str]]:
    """Combined labels' rule: the topics whose random sample is judged, whatever their review status.

    Reasons: `no_answer` (marked so), `no_sample` (the plan gives the topic no overlap pairs, so
    its pairs would enter a prediction-powered mean uncorrected), `sample_unjudged` (overlap pairs
    without a human label), `no_relevant` (no relevant label, human or model).
    """
    statuses = {t: row.get("review_status", UNREVIEWED) for t, row in info.manifest["topics"].items()}
    scored, excluded = [], {}
    for topic in sorted(set(statuses) | set(qrels) | set(samples), key=topic_sort_key):
        reason = _sample_reason(statuses.get(topic), samples.get(topic), qrels.get(topic, {}), threshold)
        if reason is None:
            scored.append(topic)
        else:
            excluded[topic] = reason
    covered = set(scored) | set(excluded)
    return scored, excluded, sorted((t for t in rankings if t not in covered), key=topic_sort_key)


def check_statistics(correction: str, bootstrap: int, permutations: int) -> None:
    """Refuse a correction, a bootstrap or a permutation count that cannot be used, before anything is scored."""
    if correction not in CORRECTIONS:
        raise BadArgumentError(f"must be one of {', '.join(CORRECTIONS)}, not {correction!r}", argument="correction")
    if bootstrap < 1:
        raise BadArgumentError(f"must be at least 1, not {bootstrap}", argument="bootstrap")
    if permutations < 1:
        raise BadArgumentError(f"must be at least 1, not {permutations}", argument="permutations")


def baseline_report(
    per_topic: dict[str, dict[str, dict[str, float | None]]],
    baseline: str,
    measures: list[str],
    *,
    correction: str = "holm",
    bootstrap: int = 1000,
    permutations: int = 10_000,
    seed: int = 0,
) -> BaselineReport:
    """Every run of `per_topic` ({run: {topic: {measure: value}}}) but `baseline` against it, on each measure.

    One `baseline_comparison` per (run, measure), paired over the topics both
    define; `correction` is applied across all of them (runs x measures).
    """
    reference = per_topic[baseline]
    others = [run for run in per_topic if run != baseline]
    comparisons: dict[str, dict[str, dict[str, Any]]] = {}
    for run in others:
        comparisons[run] = {}
        for measure in measures:
            a = {t: v.get(measure) for t, v in reference.items()}
            b = {t: v.get(measure) for t, v in per_topic[run].items()}
            comparisons[run][measure] = baseline_comparison(
                a, b, permutations=permutations, seed=seed, resamples=bootstrap
            )
    family = correct([c for by_measure in comparisons.values() for c in by_measure.values()], correction)
    differing = _differing_topic_sets(reference, per_topic, others)
    return BaselineReport(
        baseline=baseline,
        runs=others,
        measures=list(measures),
        correction={**family, "runs": len(others), "measures": len(measures)},
        bootstrap={"method": "percentile", "resamples": bootstrap, "seed": seed, "level": 0.95},
        comparisons=comparisons,
        topic_sets=differing,
    )


def _differing_topic_sets(reference, per_topic, others: list[str]) -> dict[str, dict[str, list[str]]]:
    """{run: `topic_sets` against the baseline} for the runs scored over other topics than the baseline."""
    return {run: sets for run in others if (sets := topic_sets(reference, per_topic[run]))}


def topic_sets(first: dict[str, Any], second: dict[str, Any]) -> dict[str, list[str]] | None:
    """`{"first_only", "second_only"}`: the topics one side scores and the other does not; None when they agree.

    A paired comparison is over the topics both score, so when the sets differ its means are not
    the means each side's own report gives.
    """
    if first.keys() == second.keys():
        return None
    return {
        "first_only": sorted(first.keys() - second.keys(), key=topic_sort_key),
        "second_only": sorted(second.keys() - first.keys(), key=topic_sort_key),
    }


def checked_request(average: str, measures: str | None, depth: int | None) -> list[Measure]:
    """The measures asked for, once the arguments are known good: said before anything slower can fail."""
    if average not in AVERAGES:
        raise BadArgumentError(f"must be one of {', '.join(AVERAGES)}, not {average!r}", argument="average")
    try:
        parsed = parse_measures(measures or DEFAULT_MEASURES)
    except ValueError as exc:
        raise BadArgumentError(str(exc), argument="measures") from None
    if depth is not None and depth < 1:
        raise BadArgumentError(f"must be at least 1, not {depth}", argument="depth")
    return parsed


@dataclass(frozen=True)
class Scoring:
    """What every run of one report is scored with: the request, the snapshot's labels and the topic rule."""

    info: SnapshotInfo
    request: EvalRequest
    qrels: dict[str, dict[str, int]]
    label_notes: dict[str, Any]
    reopened: dict[str, dict[str, Any]]
    threshold: int
    samples: dict[str, dict[str, int]] | None = None  # combined labels: topic -> sample pairs, judged (the rule)
    # the snapshot before this one in its unit space, and its labels: the scored topics are named against it
    previous: tuple[SnapshotInfo, dict[str, dict[str, int]]] | None = None

    @property
    def unit(self) -> str | None:
        return self.request.unit

    @property
    def measures(self) -> list[Measure]:
        return self.request.parsed

    @property
    def depth(self) -> int | None:
        return self.request.depth

    @property
    def average(self) -> str:
        return self.request.average

    @property
    def include_unreviewed(self) -> bool:
        return self.request.include_unreviewed

    @property
    def include_reopened(self) -> bool:
        return self.request.include_reopened

    @property
    def judged_only(self) -> bool:
        return self.request.judged_only

    @property
    def per_query(self) -> bool:
        """Per-topic scores are kept when asked for, and for a baseline comparison (it pairs topics)."""
        return self.request.per_query or self.request.baseline is not None


def score_run(store: Store, scoring: Scoring, name: str) -> RunScore:
    """One run's scores on the topics `scoring.average` chooses, with the topics they rest on."""
    run = store.run(name)
    ranked = set(store.run_topics(name))
    scored, excluded, not_in_snapshot = topics_to_score(scoring, ranked)
    evaluation, run_notes = evaluate_in_batches(store, scoring, run, scored)
    notes = {**scoring.label_notes, **run_notes}
    if scoring.average != "reviewed":
        evaluation = _as_trec_eval(evaluation)
    return RunScore(
        run=name,
        unit=notes["unit"],
        run_unit=str(run.unit),
        stage=run.stage,
        topics=replace(
            run_topics(scored, excluded, not_in_snapshot, ranked, scoring.reopened),
            since=topics_since(scoring, ranked, scored, excluded),
        ),
        aggregate=evaluation.aggregate,
        counts=evaluation.counts,
        residuals={m: v for m, v in evaluation.residuals.items() if v is not None} or None,
        recall={str(k): v for k, v in evaluation.recall.items()},
        status="ok" if scored else "no topics to score",
        units=notes,
        # Judged@k is a mean over the scored topics, like every measure here (`coverage` gives it over all, too)
        judged_topics=len(scored) if any(m.family == "Judged" for m in scoring.measures) else None,
        per_query=evaluation.per_query if scoring.per_query else None,
    )


def previous_labels(
    store: Store, info: SnapshotInfo, unit: str | None, by_model: ModelScoring | None = None
) -> tuple[SnapshotInfo, dict[str, dict[str, int]]] | None:
    """The snapshot made before `info` in the same unit space, as it was recorded, with its labels in `unit`.

    None for model or combined labels: their topics follow from the model's labels and the sample,
    which a snapshot does not record.
    """
    if by_model is not None:
        return None
    earlier = None
    for candidate in store.snapshots():
        if candidate.name == info.name:
            break
        if candidate.unit == info.unit:
            earlier = candidate
    if earlier is None:
        return None
    return earlier, aligned_labels(store, earlier, unit)[0]


def topics_since(scoring: Scoring, ranked: set[str], scored: list[str], excluded: dict[str, str]) -> TopicsSince | None:
    """The scored topics against the previous snapshot's, under the same rule (None without a previous snapshot)."""
    if scoring.previous is None:
        return None
    earlier, labels = scoring.previous
    before = set(topics_to_score(replace(scoring, info=earlier, qrels=labels, previous=None), ranked)[0])
    changes = entered_and_left(before, scored, excluded)
    return TopicsSince(snapshot=earlier.name, scored=len(before), entered=changes.entered, left=changes.left)


def run_topics(
    scored: list[str],
    excluded: dict[str, str],
    not_in_snapshot: list[str],
    ranked: set[str],
    reopened: dict[str, dict[str, Any]],
) -> RunTopics:
    """The denominators of one run's scores: scored, excluded by reason, missed by the run, reopened."""
    missing = [t for t in scored if t not in ranked]
    return RunTopics(
        scored=len(scored),
        excluded=dict(sorted(Counter(excluded.values()).items())),
        excluded_topics={t: excluded[t] for t in sorted(excluded, key=topic_sort_key)},
        not_in_run=len(missing),
        not_in_run_topics=missing,
        not_in_snapshot=len(not_in_snapshot),
        reopened={
            t: reopened[t] for t in sorted(reopened, key=topic_sort_key) if t in scored or excluded.get(t) == REOPENED
        },
        lower_bound=[t for t in scored if t in reopened],
    )


def compare_runs(store: Store, run_a: str, run_b: str, request: EvalRequest) -> RunComparison:
    """A paired comparison of two runs on the same snapshot and the same topics, per measure.

    Run a is the baseline: each measure gets `baseline_comparison(a, b)` (the
    paired tests and bootstrap intervals), and `request.correction` is applied across
    the measures (a family of one pair x the measures). `request.average` chooses the
    topics as in `evaluate_runs` (with trec_eval's rule a topic without relevant
    labels is paired with its 0 on both sides). The request's runs, stages, baseline
    and labels are not read: two runs are compared on the human labels.
    """
    report = evaluate_runs(
        store,
        replace(request, runs=[run_a, run_b], per_query=True, stages=None, baseline=None, labels="human", model=None),
    )
    permutations, seed, bootstrap = request.permutations, request.seed, request.bootstrap
    first, second = report.runs
    comparisons = {}
    for measure in report.measures:
        a = {t: v[measure] for t, v in (first.per_query or {}).items() if v.get(measure) is not None}
        b = {t: v[measure] for t, v in (second.per_query or {}).items() if v.get(measure) is not None}
        comparisons[measure] = baseline_comparison(a, b, permutations=permutations, seed=seed, resamples=bootstrap)
    family = correct(list(comparisons.values()), request.correction)
    return RunComparison(
        snapshot=report.snapshot,
        a=run_a,
        b=run_b,
        unit=report.unit,
        topics_a=first.topics,
        topics_b=second.topics,
        measures=comparisons,
        average=request.average,
        correction={**family, "runs": 1, "measures": len(comparisons)},
        bootstrap={"method": "percentile", "resamples": bootstrap, "seed": seed, "level": 0.95},
        judged_only=request.judged_only,
        topic_sets=topic_sets(first.per_query or {}, second.per_query or {}),
    )


def stage_table(results: list[RunScore], stages: list[str]) -> StageTable:
    """Recall at each pipeline stage and what each step lost (retrieve K, rerank, keep n: recall at each cut)."""
    by_run = {r.run: r for r in results}
    missing = [s for s in stages if s not in by_run]
    if missing:
        raise BadArgumentError(f"names runs that were not evaluated: {', '.join(missing)}", argument="stages")
    ks = sorted({int(k) for r in results for k in r.recall})
    rows = []
    previous: dict[int, float | None] | None = None
    for name in stages:
        run = by_run[name]
        recall: dict[int, float | None] = {k: run.recall[str(k)]["macro"] for k in ks}
        lost = {k: _lost(previous[k] if previous else None, recall[k]) for k in ks}
        rows.append(StageRow(run=name, stage=run.stage, recall=recall, lost=lost))
        previous = recall
    return StageTable(k=ks, rows=rows)


def _lost(before: float | None, after: float | None) -> float | None:
    """What a stage lost against the one before it (None when either is unknown)."""
    return None if before is None or after is None else round(before - after, 6)


def evaluate_in_batches(store: Store, scoring: Scoring, run: RunInfo, scored: list[str]):
    """`evaluate` of one run on `scored`, reading the run a batch of topics at a time; and the run's unit notes.

    Memory holds one batch's rankings (`topic_batches`), not the whole run;
    `merge_evaluations` makes the result equal to one call over every topic.
    Every topic the run ranks is read, scored or not, so the count of chunks
    collapsed to documents describes the whole run.
    """
    info, unit, qrels, measures = scoring.info, scoring.unit, scoring.qrels, scoring.measures
    threshold, depth, judged_only = scoring.threshold, scoring.depth, scoring.judged_only
    _, notes = aligned_rankings(store, info, run, unit, topics=[])  # refuses a unit mismatch before reading
    scored_set = set(scored)
    topics = sorted(set(store.run_topics(run.name)) | scored_set, key=topic_sort_key)
    parts = []
    for batch in topic_batches(topics, [run]):
        rankings, batch_notes = aligned_rankings(store, info, run, unit, topics=batch)
        if "chunks_collapsed" in notes:
            notes["chunks_collapsed"] += batch_notes["chunks_collapsed"]
        wanted = [t for t in batch if t in scored_set]
        if wanted:
            parts.append(
                evaluate(
                    qrels, rankings, measures, topics=wanted, threshold=threshold, depth=depth, judged_only=judged_only
                )
            )
    if not parts:
        return evaluate(
            qrels, {}, measures, topics=[], threshold=threshold, depth=depth, judged_only=judged_only
        ), notes
    return merge_evaluations(parts), notes


def _trec_eval_topics(qrels, ranked, *, with_missing: bool):
    """trec_eval's topic set: labelled topics the run has (or, like -c, every labelled topic)."""
    labelled = sorted(qrels, key=topic_sort_key)
    scored = labelled if with_missing else [t for t in labelled if t in ranked]
    excluded = {t: "not_in_run" for t in labelled if t not in scored}
    not_in_snapshot = sorted((t for t in ranked if t not in qrels), key=topic_sort_key)
    return scored, excluded, not_in_snapshot


def _as_trec_eval(evaluation):
    """Score a topic without relevant labels 0, as trec_eval does, and average over every topic."""
    per_query = {
        t: {m: (0.0 if v is None else v) for m, v in values.items()} for t, values in evaluation.per_query.items()
    }
    measures = list(evaluation.aggregate)
    count = len(per_query)
    aggregate = {m: (sum(v[m] for v in per_query.values()) / count if count else None) for m in measures}
    return replace(evaluation, per_query=per_query, aggregate=aggregate, counts=dict.fromkeys(measures, count))


def _sample_reason(status: str | None, sample: dict[str, int] | None, grades, threshold: int) -> str | None:
    """Why combined labels leave a topic out (`sampled_topics`), or None when it is scored."""
    if status == NO_ANSWER:
        return "no_answer"
    if sample is None or sample["pairs"] == 0:
        return "no_sample"
    if sample["judged"] < sample["pairs"]:
        return "sample_unjudged"
    if not any(g >= threshold for g in grades.values()):
        return "no_relevant"
    return None

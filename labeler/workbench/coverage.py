"""`labeler coverage` and `labeler compare`: how complete the judgments are, and what re-pooling changed.

The figures come from `labeler.coverage` (pure functions); this module feeds
them a snapshot's labels and the runs, reconciled to one unit the same way
`labeler eval` does, and adds what only the workbench knows: the latest pool,
what it added, what is left to judge and how long that takes at the team's pace.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import compress, groupby, repeat
from operator import add, eq, itemgetter, mul, sub
from typing import Any

from labeler.coverage import DEFAULT_LORO_MEASURES, DEPENDENCE_WARNING
from labeler.coverage.batched import CoverageBatches
from labeler.coverage.compare import compare_evaluations, compare_measures
from labeler.errors import BadArgumentError, LabelerError, argument_hint
from labeler.metrics import Evaluation, Measure, evaluate, merge_evaluations
from labeler.models import PoolInfo, RunInfo, SnapshotInfo, topic_sort_key
from labeler.pace import Pace
from labeler.store import Store
from labeler.workbench.alignment import (
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
from labeler.workbench.coverage_results import (
    ComparisonRanking,
    CoverageRanking,
    CoverageReport,
    CoverageRun,
    CoverageTopic,
    Effort,
    PaceNote,
    PoolCounts,
    RankingNotRun,
    RepoolStatus,
    SnapshotComparison,
    TopicPoolCounts,
)
from labeler.workbench.evaluation import baseline_report, check_statistics, runs_with_baseline
from labeler.workbench.read_labels import current_labels, judging_pace
from labeler.workbench.rounds import reopened_between
from labeler.workbench.setup import Progress
from labeler.workbench.snapshot_view import as_of_pools
from labeler.workbench.snapshots import CURRENT, current_snapshot, resolve_snapshot


@dataclass(frozen=True)
class CoverageFigures:
    """The coverage domain's figures over every run, read batch by batch (`CoverageBatches.result`).

    Each is as its all-at-once function in `labeler.coverage` returns it; `bias` is None without
    leave-one-run-out, a scored topic or a second run.
    """

    judged: dict[str, Any]
    estimates: dict[str, Any]
    saturation: dict[str, Any]
    curves: dict[str, Any]
    bias: dict[str, Any] | None


@dataclass(frozen=True)
class CoverageRequest:
    """What a coverage report is asked for, checked once when it is made.

    `depth` is the k of Judged@k and of the pool's view; `measures` are leave-one-run-out's
    (default `DEFAULT_LORO_MEASURES`), run only with `loro`. `space` chooses the unit space of the
    `current` labels (default: the latest pool's). The scored topics leave reopened topics out,
    as `eval` does, unless `include_reopened` (their scores are lower bounds). `judged_only` scores
    leave-one-run-out over condensed lists (trec_eval -J: each ranking without the units the
    judgments in force leave unjudged); Judged@k, unjudged and unique units describe the rankings as run.
    """

    snapshot: str | None = None
    depth: int = 10
    runs: list[str] | None = None
    unit: str | None = None
    measures: list[str] | None = None
    loro: bool = True
    space: str | None = None
    include_reopened: bool = False
    judged_only: bool = False

    def __post_init__(self) -> None:
        check_depth(self.depth)


@dataclass(frozen=True)
class CompareRequest:
    """What a comparison of snapshot `old` with `new` is asked for, checked once when it is made.

    With `baseline`, every other run is compared with it on every measure the report gives,
    under the `new` snapshot's labels (`baseline_report`, with `correction`, `bootstrap` and
    `seed`); the baseline is scored too when `runs` leaves it out.
    """

    old: str
    new: str
    depth: int = 10
    runs: list[str] | None = None
    unit: str | None = None
    baseline: str | None = None
    correction: str = "holm"
    bootstrap: int = 1000
    seed: int = 0
    judged_only: bool = False

    def __post_init__(self) -> None:
        check_depth(self.depth)
        check_statistics(self.correction, self.bootstrap, 1)


def check_depth(depth: int) -> None:
    """Refuse a cutoff below 1: no unit is ranked above the first."""
    if depth < 1:
        raise BadArgumentError(f"must be at least 1, not {depth}", argument="depth")


def coverage_report(store: Store, request: CoverageRequest, progress: Progress | None = None) -> CoverageReport:
    """Per run: Judged@k, unjudged units, unique contributions and pool bias; per topic: R's bounds and saturation.

    The runs are read a batch of topics at a time (`topic_batches`) and
    reduced to per-topic rows by `labeler.coverage.CoverageBatches`, so memory
    holds one batch's rankings, not every run's: the same figures as the
    all-at-once functions, at a bounded size. `progress(done, total)` is
    called after each batch with the topics done.
    """
    snapshot, depth, runs, unit = request.snapshot, request.depth, request.runs, request.unit
    info = (
        current_snapshot(store, request.space)
        if snapshot == CURRENT
        else as_of_pools(store, resolve_snapshot(store, snapshot))
    )
    check_unit(info, unit)
    names, not_scored = runs_to_score(store, runs, unit or info.unit)
    qrels, _ = aligned_labels(store, info, unit)
    threshold = info.manifest["scale"]["threshold"]
    topics = sorted(set(qrels) | {t for name in names for t in store.run_topics(name)}, key=topic_sort_key)
    scored = scored_topics(
        info, qrels, {}, threshold, include_unreviewed=False, include_reopened=request.include_reopened
    )[0]
    batches = CoverageBatches(
        names,
        depth=depth,
        threshold=threshold,
        loro_measures=(request.measures or list(DEFAULT_LORO_MEASURES)) if request.loro else None,
        judged_only=request.judged_only,
    )
    figures = _read_in_batches(store, info, unit, names, qrels, topics, set(scored), batches, progress)
    report_topics = {topic: _coverage_topic(figures, topic) for topic in topics}
    bias = figures.bias
    return CoverageReport(
        snapshot=info.name,
        depth=depth,
        unit=unit or info.unit,
        threshold=threshold,
        runs=_coverage_runs(figures, topics, set(scored)),
        topics=report_topics,
        scored_topics=len(scored),
        reopened=reopened_topics(info),
        judged_topics=len(topics),
        effort=top_k_effort(report_topics, depth, judging_pace(store)),
        ranking=_ranking(bias),
        loro=bias["summary"] if bias else None,
        r_estimate_warning=DEPENDENCE_WARNING,
        pool=repool_status(store, unit or info.unit, names),
        runs_not_scored=not_scored,
        runs_retired=retired_runs(store, runs),
        judged_only=request.judged_only,
    )


def _read_in_batches(
    store: Store,
    info: SnapshotInfo,
    unit: str | None,
    names: list[str],
    qrels: dict[str, dict[str, int]],
    topics: list[str],
    scored: set[str],
    batches: CoverageBatches,
    progress: Progress | None,
) -> CoverageFigures:
    """Feed `batches` every run's rankings a batch of topics at a time; its figures once all are read.

    A figure the domain cannot compute (a ValueError, e.g. a measure leave-one-run-out cannot use)
    is the user's error, said as the domain says it.
    """
    infos = [store.run(name) for name in names]
    try:
        done = 0
        for batch in topic_batches(topics, infos):
            rankings = {run.name: aligned_rankings(store, info, run, unit, topics=batch)[0] for run in infos}
            batches.add(
                {t: qrels[t] for t in batch if t in qrels},
                rankings,
                topics=batch,
                scored=[t for t in batch if t in scored],
            )
            done += len(batch)
            if progress:
                progress(done, len(topics))
        return CoverageFigures(**batches.result())
    except ValueError as exc:
        raise LabelerError(str(exc)) from None


def _coverage_runs(figures: CoverageFigures, topics: list[str], scored: set[str]) -> dict[str, CoverageRun]:
    """Each run's Judged@k over every topic (the pool's view) and over the scored ones (what `eval` averages)."""
    bias = figures.bias
    scored_order = [t for t in topics if t in scored]
    report_runs = {}
    for name, row in figures.judged["runs"].items():
        loro = loro_judged = None
        if bias is not None:
            loro = {
                m: {k: v[k] for k in ("full", "without", "drop", "relative_drop")}
                for m, v in bias["runs"][name]["measures"].items()
            }
            loro_judged = bias["runs"][name]["judged"]
        report_runs[name] = CoverageRun(
            judged=row["judged"],
            judged_topics=len(topics),
            judged_scored=mean_of([row["judged_per_topic"][t] for t in scored_order]),
            judged_scored_topics=len(scored_order),
            unjudged=row["unjudged"],
            unjudged_share=row["unjudged_share"],
            unique=row["unique"],
            unique_relevant=row["unique_relevant"],
            recall_curve=figures.curves[name],
            loro=loro,
            loro_judged=loro_judged,
        )
    return report_runs


def _coverage_topic(figures: CoverageFigures, topic: str) -> CoverageTopic:
    """One topic's pool and judgments, and the estimate of its R (a topic no run pooled has none)."""
    row = figures.judged["topics"].get(topic, {"pool": 0, "judged": 0, "relevant": 0})
    estimate = figures.estimates["topics"][topic]
    return CoverageTopic(
        pool=row["pool"],
        judged=row["judged"],
        relevant=row["relevant"],
        r_lower_bound=estimate["lower_bound"],
        r_estimate=estimate["estimate"],
        r_se=estimate["se"],
        r_unreliable=estimate["unreliable"],
        saturation=figures.saturation["topics"][topic]["saturation"],
    )


def mean_of(values: list[float]) -> float | None:
    """The mean, None for no values (as `judged_summary` gives for no topics)."""
    return sum(values) / len(values) if values else None


def top_k_effort(topics: dict[str, CoverageTopic], depth: int, pace: Pace) -> Effort:
    """What judging the unjudged units of the runs' top k (their depth-k pool) takes, at the team's pace."""
    unjudged = sum(row.pool - row.judged for row in topics.values())
    return Effort(depth=depth, unjudged=unjudged, hours=round(unjudged / pace.per_hour, 2), pace=PaceNote.of(pace))


def _ranking(bias: dict[str, Any] | None) -> CoverageRanking | RankingNotRun:
    """The first leave-one-run-out measure's ranking figures; `RankingNotRun` when it was not run."""
    if bias is None:
        return RankingNotRun()
    measure = bias["measures"][0]
    ranking = bias["ranking"][measure]
    return CoverageRanking(
        measure=measure,
        full=ranking["full"],
        kendall_tau=ranking["kendall_tau"],
        tau_ap=ranking["tau_ap"],
        min_kendall_tau=ranking["min_kendall_tau"],
        not_equivalent=ranking["not_equivalent"],
        favoured=tuple(f["run"] for f in bias["summary"][measure]["favoured"]),
    )


def repool_status(store: Store, space: str | None = None, runs: list[str] | None = None) -> RepoolStatus | None:
    """What the latest pool (of `space`, when given) added over the previous one of its unit, what is
    unjudged, and the effort left; `runs_not_pooled` names those of `runs` (default: every run) it lacks.

    A report on a snapshot passes the snapshot's space: a pool of another space says nothing about it.
    """
    latest, previous = _latest_two_pools(store, space)
    if latest is None:
        return None
    judged_units = _judged_units(store, latest.unit)
    per_topic: dict[str, Counter[str]] = {}
    # Each pair falls in one of four classes, unjudged + 2 * new; a run's counts are the classes of its pairs.
    by_class: list[Counter[str]] = [Counter() for _ in range(4)]
    # the pool streamed a topic at a time, the previous pool read a topic at a time: millions of pairs are never held
    for topic, rows in groupby(store.pool_pair_contributors(latest.name), key=itemgetter(0)):
        before = store.pool_topic_units(previous.name, topic) if previous else set()
        sizes = _count_classes(store, rows, judged_units.get(topic, set()), before, by_class)
        per_topic[topic] = _class_counts(sizes)
    per_run = _per_run_counts(latest.runs, by_class)
    pace = judging_pace(store)
    unjudged_total = sum(r["unjudged"] for r in per_topic.values())
    return RepoolStatus(
        pool=latest.name,
        runs_not_pooled=[r for r in (store.run_names() if runs is None else runs) if r not in latest.runs],
        previous=previous.name if previous else None,
        unit=latest.unit,
        unjudged=unjudged_total,
        # the median pace of the last timed judgments, else the default pace, and which one it is
        judgments_per_hour=pace.per_hour,
        effort_hours=round(unjudged_total / pace.per_hour, 2),
        pace=PaceNote.of(pace),
        per_run={run: _pool_counts(counts) for run, counts in per_run.items()},
        per_topic={t: TopicPoolCounts.of(_pool_counts(per_topic[t])) for t in sorted(per_topic, key=topic_sort_key)},
    )


def _latest_two_pools(store: Store, space: str | None) -> tuple[PoolInfo | None, PoolInfo | None]:
    """The latest pool (of `space`, when given) and the one before it in the same unit space."""
    pools = [p for p in store.pools() if space is None or p.unit == space]
    if not pools:
        return None, None
    latest = pools[-1]
    earlier = [p for p in store.pools() if p.unit == latest.unit and p.name != latest.name]
    return latest, (earlier[-1] if earlier else None)


def _judged_units(store: Store, space: str) -> dict[str, set[str]]:
    """`topic -> units judged` in a unit space, as the log says now."""
    judged: dict[str, set[str]] = {}
    for (topic, unit_id), state in current_labels(store, space).items():
        if state.judged:
            judged.setdefault(topic, set()).add(unit_id)
    return judged


def _count_classes(
    store: Store, rows: Iterable[tuple], judged: set[str], before: set[str], by_class: list[Counter[str]]
) -> list[int]:
    """One topic's pairs by class (unjudged + 2 * new); each class's contributing runs added to `by_class`.

    A topic's pairs are classed by set lookups mapped in C, and each class's runs counted in one call.
    """
    _, units, stored = zip(*rows, strict=True)
    # class = (not judged) + 2 * (not before) = 3 - judged - 2 * before, per unit
    classes = list(
        map(
            sub,
            repeat(3),
            map(add, map(judged.__contains__, units), map(mul, map(before.__contains__, units), repeat(2))),
        )
    )
    sizes = [0, 0, 0, 0]
    for pair_class in range(4):
        pairs = list(compress(stored, map(eq, classes, repeat(pair_class))))
        sizes[pair_class] = len(pairs)
        if pairs:
            by_class[pair_class].update(store.count_contributor_runs(pairs))
    return sizes


def _per_run_counts(runs: Iterable[str], by_class: list[Counter[str]]) -> dict[str, Counter[str]]:
    """Each run's pairs, unjudged, new and new_unjudged from its pairs counted by class."""
    per_run: dict[str, Counter[str]] = {run: Counter() for run in runs}
    for pair_class, runs_counted in enumerate(by_class):
        for run, count in runs_counted.items():
            counts = per_run.setdefault(run, Counter())
            for key, value in _class_counts([count if c == pair_class else 0 for c in range(4)]).items():
                counts[key] += value
    return per_run


def _class_counts(classes: list[int]) -> Counter[str]:
    """pairs, unjudged, new and new_unjudged from the pairs counted by class (unjudged + 2 * new)."""
    return Counter(
        pairs=sum(classes),
        unjudged=classes[1] + classes[3],
        new=classes[2] + classes[3],
        new_unjudged=classes[3],
    )


def _pool_counts(counts: Counter[str]) -> PoolCounts:
    return PoolCounts(
        pairs=counts["pairs"], unjudged=counts["unjudged"], new=counts["new"], new_unjudged=counts["new_unjudged"]
    )


def _score_both(parts, qrels_pair, rankings, wanted, batch, threshold: int, judged_only: bool) -> None:
    """Append one batch's evaluation under each snapshot's labels (each side condensed against its own)."""
    for side, labels in enumerate(qrels_pair):
        parts[side].append(
            evaluate(labels, rankings, wanted, topics=batch, threshold=threshold, judged_only=judged_only)
        )


def compare_report(store: Store, request: CompareRequest, progress: Progress | None = None) -> SnapshotComparison:
    """What changed from snapshot `old` to `new`: labels, relevant sets, each run's scores, the system ranking.

    `progress(done, total)` is called after each batch of topics is scored.
    """
    old, new, depth, unit, baseline = request.old, request.new, request.depth, request.unit, request.baseline
    runs = runs_with_baseline(request.runs, baseline)
    before_info = resolve_snapshot(store, old)
    after_info = as_of_pools(store, resolve_snapshot(store, new))
    if unit is None and before_info.unit != after_info.unit:
        raise LabelerError(
            f"snapshot {old} labels {before_info.unit} and {new} labels {after_info.unit}",
            hints=argument_hint("unit", "doc", why="to compare them at document level"),
        )
    names, not_scored = runs_to_score(store, runs, unit or before_info.unit)
    if baseline is not None and baseline not in names:
        raise BadArgumentError(f"names a run that is not scored: {baseline!r}", argument="baseline")
    infos = [store.run(name) for name in names]
    before, _ = aligned_labels(store, before_info, unit)
    after, _ = aligned_labels(store, after_info, unit)
    threshold = after_info.manifest["scale"]["threshold"]
    # both snapshots are scored on the topics the newer one scores, so a change is never a change of denominator
    topics, excluded, _ = scored_topics(after_info, after, {}, threshold, include_unreviewed=False)
    # what `eval` on the older snapshot scored (its manifest as recorded): the topics that entered or left since
    scored_before = set(scored_topics(before_info, before, {}, threshold, include_unreviewed=False)[0])
    changes = entered_and_left(scored_before, topics, excluded)
    topic_changes = {"old_scored": len(scored_before), "entered": changes.entered, "left": changes.left}
    if not topics:
        raise LabelerError(f"snapshot {new} has no reviewed topic with a relevant label to compare on{_why(excluded)}")
    try:
        wanted, rank_by = compare_measures(depth)
        evaluations = _score_in_batches(
            store, request, before_info, infos, (before, after), wanted, topics, threshold, progress
        )
        result = compare_evaluations(
            before, after, evaluations, topics=topics, depth=depth, threshold=threshold, rank_by=rank_by
        )
    except ValueError as exc:
        raise LabelerError(str(exc)) from None
    compared = None
    if baseline is not None:
        compared = baseline_report(
            {name: after_evaluation.per_query for name, (_, after_evaluation) in evaluations.items()},
            baseline,
            list(result["measures"]),
            correction=request.correction,
            bootstrap=request.bootstrap,
            seed=request.seed,
        )
    ranking = result["ranking"]
    return SnapshotComparison(
        old=old,
        new=new,
        depth=depth,
        unit=unit or after_info.unit,
        topics=len(topics),
        reopened=reopened_topics(after_info),
        labels=result["labels"],
        topics_grown=result["topics_grown"],
        reopened_since={r.topic: r for r in reopened_between(store, before_info, after_info, before)},
        runs=result["runs"],
        runs_not_scored=not_scored,
        runs_retired=retired_runs(store, runs),
        ranking=ComparisonRanking(
            measure=ranking["measure"],
            before=ranking["before"],
            after=ranking["after"],
            kendall_tau=ranking["kendall_tau"],
            tau_ap=ranking["tau_ap"],
            moved=ranking["moved"],
            gained=ranking["gained"],
        ),
        baseline=compared,
        judged_only=request.judged_only,
        topic_changes=topic_changes,
    )


def _why(excluded: Mapping[str, str]) -> str:
    """` (2 unreviewed, 1 without a relevant label)`: why the topics were left out, or nothing."""
    pending = Counter(excluded.values())
    return f" ({', '.join(f'{n} {reason}' for reason, n in sorted(pending.items()))})" if pending else ""


def _score_in_batches(
    store: Store,
    request: CompareRequest,
    before_info: SnapshotInfo,
    infos: list[RunInfo],
    labels: tuple[Mapping[str, Mapping[str, int]], Mapping[str, Mapping[str, int]]],
    wanted: list[Measure],
    topics: list[str],
    threshold: int,
    progress: Progress | None,
) -> dict[str, tuple[Evaluation, Evaluation]]:
    """Each run's evaluation under the old and the new labels, {run name: (old, new)}.

    Topics are scored in batches with one batch of every run's rankings in memory at a time, so a large
    workbench compares in bounded memory; the batches' evaluations merge into exactly the whole one.
    """
    parts: dict[str, tuple[list, list]] = {run.name: ([], []) for run in infos}
    done = 0
    for batch in topic_batches(topics, infos):
        for run in infos:
            rankings, _ = aligned_rankings(store, before_info, run, request.unit, topics=batch)
            _score_both(parts[run.name], labels, rankings, wanted, batch, threshold, request.judged_only)
        done += len(batch)
        if progress:
            progress(done, len(topics))
    return {name: (merge_evaluations(b), merge_evaluations(a)) for name, (b, a) in parts.items()}

"""What changed between two snapshots of the judgments, seen from the runs (`labeler compare A B`).

New judgments change scores unevenly: a run whose unique finds were just
judged gains, the others can lose as R grows, and the system ranking can
change. This is the re-pooling report (Zobel, SIGIR 1998), and the place where the
new-system penalty of shallow pools becomes visible.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from labeler.coverage.correlation import compare_rankings
from labeler.coverage.inputs import (
    QrelsByTopic,
    check_cutoff,
    check_qrels,
    check_runs,
    check_threshold,
    check_topics,
    is_judged,
    relevant_set,
)
from labeler.metrics import Evaluation, Measure, evaluate, parse_measures


def default_measures(depth: int) -> tuple[str, ...]:
    """R@k, nDCG@k and AP at the comparison depth (Judged@k is always added)."""
    return (f"R@{depth}", f"nDCG@{depth}", "AP")


def _label_changes(before: QrelsByTopic, after: QrelsByTopic) -> dict[str, int]:
    """Judgments added, changed (another grade) and retracted between two qrels; unjudged rows are not judgments."""
    added = changed = retracted = 0
    for topic in before:
        old = {unit: grade for unit, grade in before[topic].items() if is_judged(grade)}
        new = {unit: grade for unit, grade in after[topic].items() if is_judged(grade)}
        added += len(new.keys() - old.keys())
        retracted += len(old.keys() - new.keys())
        changed += sum(1 for unit in old.keys() & new.keys() if old[unit] != new[unit])
    return {"added": added, "changed": changed, "retracted": retracted}


def _topics_grown(before: QrelsByTopic, after: QrelsByTopic, threshold: int) -> dict[str, Any]:
    """Topics with more relevant units after than before, with both counts and the units that became relevant."""
    grown = {}
    for topic in before:
        old, new = relevant_set(before[topic], threshold), relevant_set(after[topic], threshold)
        if len(new) > len(old):
            grown[topic] = {"before": len(old), "after": len(new), "new": sorted(new - old)}
    return grown


def _score(evaluation: Evaluation) -> tuple[dict[str, float | None], dict[str, Any]]:
    """({measure: mean}, {R@k measure: recall report}) of one run on one qrels."""
    recall = {
        m.name: evaluation.recall[m.cutoff] for m in evaluation.measures if m.family == "R" and m.cutoff is not None
    }
    return dict(evaluation.aggregate), recall


def _difference(before: float | None, after: float | None) -> float | None:
    return None if before is None or after is None else after - before


def compare_snapshots(
    before: Mapping[str, Mapping[str, int]],
    after: Mapping[str, Mapping[str, int]],
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    topics: Sequence[str],
    threshold: int,
    depth: int = 10,
    measures: str | Iterable[str] | None = None,
    rank_by: str | None = None,
) -> dict[str, Any]:
    """Each run's scores on the `before` and `after` qrels, and how the system ranking moved.

    Per run, the measures (default R@k, nDCG@k and AP at k = `depth`, with
    Judged@k always first) before, after and their change (after − before),
    plus the full R@k report (macro, micro, ceiling) both times, all scored
    by labeler.metrics.evaluate on whole rankings over `topics` (Judged@k
    with trec_eval's rule: grade >= 0, denominator k).

    The systems are ranked by `rank_by` (default the first R@ measure, else
    the first measure) before and after; `kendall_tau` (tau-b) and `tau_ap`
    compare the after ranking with the before ranking (reference). `moved`
    gives the 1-based rank before and after of every run whose rank changed,
    and `gained` lists the runs by their change in `rank_by`, largest gain
    first: a run whose unique finds were just judged rises here.

    Returns {"depth", "threshold", "topic_ids", "measures", "labels": {"added",
    "changed", "retracted"}, "topics_grown": {topic: {"before", "after", "new"}},
    "runs": {run: {"before": {m: v}, "after": {m: v}, "change": {m: v},
    "recall": {R@k: {"before": report, "after": report, "change": {"macro",
    "micro", "ceiling"}}}}}, "ranking": {"measure", "systems", "before", "after",
    "kendall_tau", "tau_ap", "moved": {run: {"before", "after"}},
    "gained": [{"run", "before", "after", "gain"}, ...]}}.
    """
    ordered = check_topics(topics)
    k = check_cutoff(depth, "depth")
    check_threshold(threshold)
    rankings = check_runs(runs, ordered)
    wanted, rank_by = compare_measures(k, measures, rank_by)
    old = check_qrels(before, ordered, "before")
    new = check_qrels(after, ordered, "after")
    evaluations = {
        run: (
            evaluate(old, by_topic, wanted, topics=ordered, threshold=threshold),
            evaluate(new, by_topic, wanted, topics=ordered, threshold=threshold),
        )
        for run, by_topic in rankings.items()
    }
    return compare_evaluations(old, new, evaluations, topics=ordered, depth=k, threshold=threshold, rank_by=rank_by)


def compare_measures(
    depth: int, measures: str | Iterable[str] | None = None, rank_by: str | None = None
) -> tuple[list[Measure], str]:
    """The measures a comparison scores (Judged@k first, then `measures` or the defaults) and the one it ranks by."""
    k = check_cutoff(depth, "depth")
    wanted = parse_measures([f"Judged@{k}", *parse_measures(default_measures(k) if measures is None else measures)])
    names = [m.name for m in wanted]
    if rank_by is None:
        rank_by = next((m.name for m in wanted if m.family == "R"), names[1] if len(names) > 1 else names[0])
    elif rank_by not in names:
        raise ValueError(f"rank_by {rank_by!r} is not among the measures compared: {', '.join(names)}")
    return wanted, rank_by


def compare_evaluations(
    before: Mapping[str, Mapping[str, int]],
    after: Mapping[str, Mapping[str, int]],
    evaluations: Mapping[str, tuple[Evaluation, Evaluation]],
    *,
    topics: Sequence[str],
    depth: int,
    threshold: int,
    rank_by: str,
) -> dict[str, Any]:
    """`compare_snapshots`' report from each run's evaluations on the two qrels (before, after).

    The evaluations may come from `merge_evaluations` over batches of topics:
    a caller with large runs scores them a batch at a time and never holds a
    whole run (labeler.workbench.coverage.compare_report).
    """
    ordered = check_topics(topics)
    old = check_qrels(before, ordered, "before")
    new = check_qrels(after, ordered, "after")
    report_runs = {}
    names: list[str] = []
    for run, (evaluation_before, evaluation_after) in evaluations.items():
        names = list(evaluation_before.aggregate)
        scores_before, recall_before = _score(evaluation_before)
        scores_after, recall_after = _score(evaluation_after)
        report_runs[run] = {
            "before": scores_before,
            "after": scores_after,
            "change": {name: _difference(scores_before[name], scores_after[name]) for name in names},
            "recall": {
                name: {
                    "before": recall_before[name],
                    "after": recall_after[name],
                    "change": {
                        part: _difference(recall_before[name][part], recall_after[name][part])
                        for part in ("macro", "micro", "ceiling")
                    },
                }
                for name in recall_before
            },
        }

    return {
        "depth": depth,
        "threshold": threshold,
        "topic_ids": ordered,
        "measures": names,
        "labels": _label_changes(old, new),
        "topics_grown": _topics_grown(old, new, threshold),
        "runs": report_runs,
        "ranking": _ranking_change(report_runs, rank_by),
    }


def _ranking_change(report_runs: Mapping[str, Any], rank_by: str) -> dict[str, Any]:
    """The system ranking by one measure before and after, its correlation, the moves and the gains."""
    scores_before = {run: values["before"][rank_by] for run, values in report_runs.items()}
    scores_after = {run: values["after"][rank_by] for run, values in report_runs.items()}
    compared = compare_rankings(scores_before, scores_after)
    position_before = {run: rank for rank, run in enumerate(compared["reference"], start=1)}
    position_after = {run: rank for rank, run in enumerate(compared["other"], start=1)}
    moved = {
        run: {"before": position_before[run], "after": position_after[run]}
        for run in compared["reference"]
        if position_before[run] != position_after[run]
    }
    gains = [
        {"run": run, "before": scores_before[run], "after": scores_after[run], "gain": values["change"][rank_by]}
        for run, values in report_runs.items()
        if values["change"][rank_by] is not None
    ]
    return {
        "measure": rank_by,
        "systems": compared["systems"],
        "before": compared["reference"],
        "after": compared["other"],
        "kendall_tau": compared["kendall_tau"],
        "tau_ap": compared["tau_ap"],
        "moved": moved,
        "gained": sorted(gains, key=lambda row: -row["gain"]),
    }

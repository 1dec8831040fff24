"""How well the judgments cover each run's top k, and what each run alone brought into the pool.

A run scored on a pool it barely contributed to is scored mostly on units
nobody judged, and every measure then treats those as non-relevant. Judged@k
says how much of a run's top k rests on real judgments; the units only it
contributed say how much the pool depends on it (Zobel, SIGIR 1998;
Buckley et al. 2007).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from labeler.coverage.inputs import (
    QrelsByTopic,
    RunsByName,
    check_inputs,
    is_judged,
    mean,
)
from labeler.metrics import judged_at_k
from labeler.pooling import PoolView, depth_pool, unique_contributions


def judged_coverage(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    topics: Sequence[str],
    depth: int,
    threshold: int,
) -> dict[str, Any]:
    """Per run: mean Judged@k, unjudged units in its top k, and its unique (relevant) pool contributions.

    Judged@k = |{d ∈ top_k(run) : grade(d) ≥ 0}| / k per topic (trec_eval's
    `unj.k` semantics): absent units and grades
    < 0 are unjudged, and the denominator stays k, so an empty or short
    ranking cannot look well covered (an empty ranking gives 0). `judged` is
    its mean over `topics` (None for no topics).

    `unjudged` counts the unjudged units in the run's top k summed over
    topics; `unjudged_share` divides it by `ranked`, the units the run
    actually has in its top k (None when it has none), so for runs with at
    least k units per topic it equals 1 − judged.

    `unique` counts U_k(run) = top_k(run) minus the top k of every other
    given run, from a depth-k pool of the given runs over `topics`;
    `unique_relevant` counts those graded ≥ threshold (UR_k, §1.1). The units
    themselves are listed per topic.

    Returns {"depth", "threshold", "runs": {run: {...}}, "topics": {topic:
    {"pool", "judged", "relevant"}}}, where the per-topic figures count the
    depth-k pool's units, those judged, and those judged relevant.
    """
    ordered, k, grades, rankings = check_inputs(qrels, runs, topics=topics, depth=depth, threshold=threshold)
    parts = judged_topic_rows(
        grades, rankings, ordered, k, threshold, depth_pool(rankings, k, fuse=False, distinct=True)
    )
    return judged_summary(parts, ordered, k, threshold, list(rankings))


def judged_topic_rows(
    grades: QrelsByTopic, rankings: RunsByName, ordered: Sequence[str], k: int, threshold: int, pool: PoolView
) -> dict[str, Any]:
    """The per-topic rows `judged_summary` adds up, for checked inputs and their depth-k pool.

    Every figure of the report is a sum or a mean of these rows, so a caller
    can compute them a batch of topics at a time and merge the rows (plain
    dict updates) before summing: {"runs": {run: {topic: row}}, "topics":
    {topic: row}}.
    """
    unique = unique_contributions({topic: pool[topic] for topic in ordered if topic in pool}, list(rankings))
    runs_rows: dict[str, dict[str, Any]] = {}
    for run, by_topic in rankings.items():
        rows = runs_rows[run] = {}
        for topic in ordered:
            top = by_topic.get(topic, [])[:k]
            topic_grades = grades[topic]
            units = sorted(unique[run].get(topic, ()))
            rows[topic] = {
                "judged": judged_at_k(top, topic_grades, k),
                "ranked": len(top),
                "unjudged": sum(1 for unit in top if not is_judged(topic_grades.get(unit))),
                "unique_units": units,
                "unique_relevant_units": [unit for unit in units if topic_grades.get(unit, -1) >= threshold],
            }
    topic_rows = {}
    for topic in ordered:
        pooled = pool.get(topic, {})
        topic_grades = grades[topic]
        topic_rows[topic] = {
            "pool": len(pooled),
            "judged": sum(1 for unit in pooled if is_judged(topic_grades.get(unit))),
            "relevant": sum(1 for unit in pooled if topic_grades.get(unit, -1) >= threshold),
        }
    return {"runs": runs_rows, "topics": topic_rows}


def judged_summary(
    parts: Mapping[str, Any], ordered: Sequence[str], k: int, threshold: int, runs: Sequence[str]
) -> dict[str, Any]:
    """`judged_coverage`'s report from the per-topic rows of every topic in `ordered` (in that order)."""
    report_runs: dict[str, Any] = {}
    for run in runs:
        rows = parts["runs"][run]
        per_topic = {topic: rows[topic]["judged"] for topic in ordered}
        ranked = sum(rows[topic]["ranked"] for topic in ordered)
        unjudged = sum(rows[topic]["unjudged"] for topic in ordered)
        unique_units = {topic: rows[topic]["unique_units"] for topic in ordered if rows[topic]["unique_units"]}
        unique_relevant_units = {
            topic: rows[topic]["unique_relevant_units"] for topic in ordered if rows[topic]["unique_relevant_units"]
        }
        report_runs[run] = {
            "judged": mean(per_topic.values()),
            "judged_per_topic": per_topic,
            "ranked": ranked,
            "unjudged": unjudged,
            "unjudged_share": unjudged / ranked if ranked else None,
            "unique": sum(len(units) for units in unique_units.values()),
            "unique_relevant": sum(len(units) for units in unique_relevant_units.values()),
            "unique_units": unique_units,
            "unique_relevant_units": unique_relevant_units,
        }
    report_topics = {topic: parts["topics"][topic] for topic in ordered}
    return {"depth": k, "threshold": threshold, "runs": report_runs, "topics": report_topics}

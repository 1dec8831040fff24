"""How well the judgments cover each run's top k, and what each run alone brought into the pool.

A run scored on a pool it barely contributed to is scored mostly on units
nobody judged, and every measure then treats those as non-relevant. Judged@k
says how much of a run's top k rests on real judgments; the units only it
contributed say how much the pool depends on it (pooling_literature.md §1.1,
§2.1, §2.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from labeler.coverage.inputs import (
    check_cutoff,
    check_qrels,
    check_runs,
    check_threshold,
    check_topics,
    is_judged,
    mean,
)
from labeler.metrics import judged_at_k
from labeler.pooling import depth_pool, unique_contributions


def judged_coverage(qrels: Mapping[str, Mapping[str, int]], runs: Mapping[str, Mapping[str, Sequence[str]]], *,
                    topics: Sequence[str], depth: int, threshold: int) -> dict[str, Any]:
    """Per run: mean Judged@k, unjudged units in its top k, and its unique (relevant) pool contributions.

    Judged@k = |{d ∈ top_k(run) : grade(d) ≥ 0}| / k per topic (trec_eval's
    `unj.k` semantics, pooling_literature.md §2.3): absent units and grades
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
    ordered = check_topics(topics)
    k = check_cutoff(depth, "depth")
    check_threshold(threshold)
    grades = check_qrels(qrels, ordered)
    rankings = check_runs(runs, ordered)

    pool = depth_pool(rankings, k)
    unique = unique_contributions(pool, list(rankings))

    report_runs: dict[str, Any] = {}
    for run, by_topic in rankings.items():
        per_topic: dict[str, float] = {}
        ranked = unjudged = 0
        for topic in ordered:
            top = by_topic.get(topic, [])[:k]
            per_topic[topic] = judged_at_k(top, grades[topic], k)
            ranked += len(top)
            unjudged += sum(1 for unit in top if not is_judged(grades[topic].get(unit)))
        unique_units = {topic: sorted(units) for topic, units in _in_order(unique[run], ordered)}
        unique_relevant_units = {
            topic: relevant for topic, units in unique_units.items()
            if (relevant := [unit for unit in units if grades[topic].get(unit, -1) >= threshold])
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

    report_topics = {}
    for topic in ordered:
        pooled = pool.get(topic, {})
        report_topics[topic] = {
            "pool": len(pooled),
            "judged": sum(1 for unit in pooled if is_judged(grades[topic].get(unit))),
            "relevant": sum(1 for unit in pooled if grades[topic].get(unit, -1) >= threshold),
        }
    return {"depth": k, "threshold": threshold, "runs": report_runs, "topics": report_topics}


def _in_order(by_topic: Mapping[str, Any], ordered: Sequence[str]) -> list[tuple[str, Any]]:
    """The (topic, value) pairs of `by_topic` in the order of `ordered`."""
    return [(topic, by_topic[topic]) for topic in ordered if topic in by_topic]

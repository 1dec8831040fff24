"""Judging saturation: whether deepening a topic's pool still finds relevant units.

Zobel (SIGIR 1998) found that pools keep yielding relevant documents at
depth, and proposed spending extra judging on the topics that still do. The
curve of relevant units against pool depth, and its slope over the last
depths, is that signal.
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
)
from labeler.pooling import PoolView, depth_pool


def default_window(depth: int) -> int:
    """The last 20% of the depths, at least one: depth // 5, or 1."""
    return max(1, depth // 5)


def judging_saturation(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    topics: Sequence[str],
    depth: int,
    threshold: int,
    window: int | None = None,
) -> dict[str, Any]:
    """Per topic, relevant units found per extra pooled unit over the last `window` pool depths.

    For d = 1..D (D = `depth`), pool(d) = |Pool_d|, the depth-d pool of the
    runs, and rel(d) = its units judged relevant (grade >= threshold). Then

        saturation = (rel(D) − rel(D−w)) / (pool(D) − pool(D−w))

    with pool(0) = rel(0) = 0, and None when the last w depths added no unit.
    w defaults to the last 20% of the depths (at least 1).

    How to read it: the share of the units that the last depths added which
    turned out relevant. Near 0 the pool is saturated: judging deeper mostly
    finds non-relevant units. A high value says this topic still yields
    relevant units at depth and deserves a deeper pool (Zobel 1998).
    `unjudged_in_window` counts the added units not yet judged, which count
    as non-relevant here: while it is above 0, saturation is a lower bound.

    Pool_d is read off one depth-D pool: a unit is in Pool_d exactly when
    its best rank over the runs is at most d. Returns {"depth", "window",
    "threshold", "topics": {topic: {"curve": [(depth, pool size, relevant),
    ...], "new_judgments", "new_relevant", "saturation", "unjudged_in_window"}}}.
    """
    ordered = check_topics(topics)
    deepest = check_cutoff(depth, "depth")
    if window is None:
        window = default_window(deepest)
    elif isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= deepest:
        raise ValueError(f"window must be a whole number from 1 to the depth ({deepest}), not {window!r}")
    check_threshold(threshold)
    grades = check_qrels(qrels, ordered)
    pool = depth_pool(check_runs(runs, ordered), deepest, fuse=False, distinct=True)
    return {
        "depth": deepest,
        "window": window,
        "threshold": threshold,
        "topics": saturation_topic_rows(grades, pool, ordered, deepest, window, threshold),
    }


def saturation_topic_rows(
    grades: Mapping[str, Mapping[str, int]],
    pool: PoolView,
    ordered: Sequence[str],
    deepest: int,
    window: int,
    threshold: int,
) -> dict[str, Any]:
    """Each topic's saturation row, from checked grades and the depth-D pool (a batch of topics at a time)."""
    report = {}
    for topic in ordered:
        entries = pool.get(topic, {})
        entered = [0] * (deepest + 1)  # units whose best rank is exactly d
        relevant_entered = [0] * (deepest + 1)
        for unit, entry in entries.items():
            entered[entry.best_rank] += 1
            if grades[topic].get(unit, -1) >= threshold:
                relevant_entered[entry.best_rank] += 1
        curve = []
        pooled = relevant = 0
        for d in range(1, deepest + 1):
            pooled += entered[d]
            relevant += relevant_entered[d]
            curve.append((d, pooled, relevant))
        before = (0, 0, 0) if window == deepest else curve[deepest - window - 1]
        new_judgments = pooled - before[1]
        new_relevant = relevant - before[2]
        start = deepest - window  # the window covers best ranks start+1 .. D
        report[topic] = {
            "curve": curve,
            "new_judgments": new_judgments,
            "new_relevant": new_relevant,
            "saturation": new_relevant / new_judgments if new_judgments else None,
            "unjudged_in_window": sum(
                1
                for unit, entry in entries.items()
                if entry.best_rank > start and not is_judged(grades[topic].get(unit))
            ),
        }
    return report

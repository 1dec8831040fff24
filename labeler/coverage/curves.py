"""The Recall@k-vs-k curve of a run, with the ceiling at each k, for reports to plot.

Where the curve flattens is the seed's elbow diagnostic: the depth beyond
which a run stops finding relevant units. The ceiling, min(k, |G|)/|G|
averaged over topics, shows how much of any shortfall no ranking could avoid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from labeler.coverage.inputs import check_cutoff, check_qrels, check_threshold, check_topics, relevant_set
from labeler.metrics.denominators import hits_at_k, recall_summary, topic_ranking

DEFAULT_RECALL_KS = (1, 2, 3, 5, 10, 20, 50, 100)


def recall_curve(
    qrels: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, Sequence[str]],
    *,
    topics: Sequence[str],
    threshold: int,
    ks: Iterable[int] = DEFAULT_RECALL_KS,
) -> list[dict[str, Any]]:
    """labeler.metrics.recall_report for one run at each k, in increasing k.

    Each point is {"k", "macro", "micro", "ceiling", "share_of_ceiling",
    "topics", "excluded", "hits", "relevant"}: macro = mean over topics of
    |G ∩ top_k|/|G|, micro = Σ|G ∩ top_k| / Σ|G|, ceiling = mean of
    min(k, |G|)/|G|; topics with no relevant unit are excluded, and with none
    left every figure is None.
    """
    if isinstance(ks, (str, bytes)):
        raise ValueError(f"ks must be a list of cutoffs, not {ks!r}")
    cutoffs = [check_cutoff(k, "each k") for k in ks]
    if not cutoffs:
        raise ValueError("no cutoffs given for the recall curve")
    if len(set(cutoffs)) != len(cutoffs):
        raise ValueError(f"a cutoff is listed twice: {cutoffs!r}")
    ordered = check_topics(topics)
    check_threshold(threshold)
    grades = check_qrels(qrels, ordered)
    if not isinstance(rankings, Mapping):
        raise ValueError(f"rankings must be a mapping {{topic: [unit, ...]}}, not {type(rankings).__name__}")
    checked = {topic: topic_ranking(rankings, topic) for topic in ordered}
    cutoffs = sorted(cutoffs)
    return recall_curve_summary(recall_curve_rows(grades, checked, ordered, threshold, cutoffs), ordered, cutoffs)


def recall_curve_rows(
    grades: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, Sequence[str]],
    ordered: Sequence[str],
    threshold: int,
    cutoffs: Sequence[int],
) -> dict[str, Any]:
    """Per topic, (|G|, [hits in the top k for each cutoff]) from checked inputs; None for a topic with no G.

    Two integers per topic and cutoff are all the curve needs, so a caller can
    score a batch of topics, drop their rankings, and sum at the end.
    """
    rows: dict[str, Any] = {}
    for topic in ordered:
        relevant = relevant_set(grades[topic], threshold)
        if not relevant:
            rows[topic] = None
            continue
        ranking = rankings.get(topic, [])
        rows[topic] = (len(relevant), [hits_at_k(ranking, relevant, k) for k in cutoffs])
    return rows


def recall_curve_summary(
    rows: Mapping[str, Any], ordered: Sequence[str], cutoffs: Sequence[int]
) -> list[dict[str, Any]]:
    """The curve, one `recall_summary` per cutoff (increasing), from the rows of every topic in `ordered`."""
    scored = [rows[topic] for topic in ordered if rows[topic] is not None]
    excluded = len(ordered) - len(scored)
    return [
        recall_summary(k, [(hits[i], relevant) for relevant, hits in scored], excluded) for i, k in enumerate(cutoffs)
    ]

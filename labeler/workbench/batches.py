"""Splitting topics into batches that hold a bounded number of ranked units.

Scores and coverage are sums or means of per-topic values, so the services
read large runs a batch of topics at a time instead of whole: memory then
holds one batch's rankings whatever the number of topics
(docs/architecture.md, "Reports in batches of topics").
"""

from __future__ import annotations

from collections.abc import Sequence

from labeler.models import RunInfo

# About this many ranked units (over all runs read together) are held at once.
BATCH_UNITS = 1_000_000


def topic_batches(topics: Sequence[str], runs: Sequence[RunInfo], batch_units: int | None = None) -> list[list[str]]:
    """`topics` in consecutive batches holding about `batch_units` ranked units over all `runs`.

    A run's units per topic are estimated from what it holds (entries /
    topics), so ten runs of 1,000 results per topic give batches of 100
    topics: a few hundred MB at most.
    """
    batch_units = BATCH_UNITS if batch_units is None else batch_units
    per_topic = sum(run.entries / run.topics for run in runs if run.topics)
    size = max(1, int(batch_units // per_topic)) if per_topic else len(topics) or 1
    return [list(topics[start : start + size]) for start in range(0, len(topics), size)]

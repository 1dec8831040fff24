"""What happened between two snapshots of a campaign: which reviewed topics later pools reopened.

A snapshot's manifest records each topic's review status and the pools of its
unit space that existed when it was frozen. A topic that was reviewed (or
no_answer) in the older snapshot and that a later pool gave units the older
snapshot holds no label for was reopened: its older score was over a set of
judgments the campaign later found incomplete. `compare` names those topics,
the pools that reopened them and what they hold in the newer snapshot, so a
change in a run's score can be read as "more judged", not "better system".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from labeler.models import SnapshotInfo, topic_sort_key
from labeler.store import Store

CLOSED = ("reviewed", "no_answer")


@dataclass(frozen=True)
class Reopened:
    """One topic reopened between two snapshots."""

    topic: str
    pools: dict[str, int] = field(default_factory=dict)  # pool -> units it added that the older snapshot lacked
    before: str = "reviewed"  # status in the older snapshot
    after: str = "unreviewed"  # status in the newer snapshot

    def to_dict(self) -> dict[str, object]:
        return {
            "pools": dict(self.pools),
            "units": sum(self.pools.values()),
            "before": self.before,
            "after": self.after,
        }


def reopened_between(
    store: Store, before: SnapshotInfo, after: SnapshotInfo, before_labels: dict[str, dict[str, int]]
) -> list[Reopened]:
    """Topics closed in `before` that pools made after it (and by `after`) gave units `before` has no label for.

    Only pools of the snapshots' own unit space count (a chunk pool does not
    reopen a document review); two snapshots of different spaces have none.
    """
    if before.unit != after.unit:
        return []
    known = set(before.manifest.get("pools", []))
    later = [p for p in after.manifest.get("pools", []) if p not in known]
    if not later:
        return []
    before_topics = before.manifest.get("topics", {})
    after_topics = after.manifest.get("topics", {})
    found = []
    for topic in sorted(before_topics, key=topic_sort_key):
        status = before_topics[topic].get("review_status")
        if status not in CLOSED:
            continue
        labelled = set(before_labels.get(topic, {}))
        added: dict[str, int] = {}
        seen: set[str] = set()
        for pool in later:
            new = store.pool_topic_units(pool, topic) - labelled - seen
            if new:
                added[pool] = len(new)
                seen |= new
        if added:
            after_status = after_topics.get(topic, {}).get("review_status", "unreviewed")
            found.append(Reopened(topic, added, status, after_status))
    return found

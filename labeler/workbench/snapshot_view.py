"""A snapshot read against the pools built since it was frozen.

A snapshot's manifest records each topic's review status as it was when the
snapshot was made. A pool built afterwards can add units to a topic the
snapshot calls reviewed; scoring that snapshot as it was recorded would count
the topic as complete while the campaign already knows it is not, which is
the pool bias Zobel (SIGIR 1998) measured (a new run penalised for what nobody judged). So `eval`,
`coverage`, `compare` and the report read a snapshot through `as_of_pools`:
a topic whose labels miss units of its space's latest pool, built after the
snapshot, is `reopened` by that pool, with the count of units the snapshot
holds no label for. The stored manifest is never changed (`snapshot show`
and `verify` see it as frozen).
"""

from __future__ import annotations

import copy
from dataclasses import replace

from labeler.judgments.log import NO_ANSWER, REVIEWED
from labeler.models import SnapshotInfo
from labeler.review import REOPENED
from labeler.store import Store
from labeler.workbench.snapshots import CURRENT, snapshot_rows


def as_of_pools(store: Store, info: SnapshotInfo) -> SnapshotInfo:
    """`info` with its closed topics reopened by a pool of its space built after it, where that pool adds units."""
    if info.name == CURRENT:
        return info  # the current labels' statuses are derived with the latest pool already
    pools = [p for p in store.pools() if p.unit == info.unit]
    if not pools or pools[-1].name in set(info.manifest.get("pools", [])):
        return info
    latest = pools[-1]
    topics = info.manifest.get("topics", {})
    closed = [t for t, row in topics.items() if row.get("review_status") in (REVIEWED, NO_ANSWER)]
    if not closed:
        return info
    labelled: dict[str, set[str]] = {}
    for topic, unit_id, _, _ in snapshot_rows(store, info):
        labelled.setdefault(topic, set()).add(unit_id)
    for topic, unit_id in info.manifest.get("conflicts_left_out", []):
        labelled.setdefault(topic, set()).add(unit_id)  # judged, awaiting adjudication: not a missing judgment
    reopened = {}
    for topic in closed:
        missing = store.pool_topic_units(latest.name, topic) - labelled.get(topic, set())
        if missing:
            reopened[topic] = {"pool": latest.name, "unjudged": len(missing), "since_snapshot": True}
    if not reopened:
        return info
    manifest = copy.deepcopy(info.manifest)
    for topic, detail in reopened.items():
        manifest["topics"][topic]["review_status"] = REOPENED
        manifest["topics"][topic]["reopened"] = detail
    return replace(info, manifest=manifest)

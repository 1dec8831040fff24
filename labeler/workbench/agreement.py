"""`labeler agreement`: how far the assessors agree on the pairs more than one of them graded.

Agreement is about assessors, not about labels, so it reads the judgment log: each pair's
latest grade from every assessor (`PairState.grades`). A snapshot keeps one label per pair and
leaves conflicting pairs out, so its labels would hide exactly the disagreements measured here;
a snapshot only narrows the report to that snapshot's unit space and topics.
"""

from __future__ import annotations

from typing import Any

from labeler.agreement import METRICS, summarize_agreement
from labeler.errors import BadArgumentError
from labeler.scales import GradeScale
from labeler.store import Store
from labeler.workbench.assignments import current_plan, space_pool
from labeler.workbench.labels import current_labels, unit_space
from labeler.workbench.snapshots import CURRENT, current_snapshot, resolve_snapshot


def _scope(store: Store, snapshot: str | None, unit: str | None) -> tuple[str, set[str] | None, GradeScale, str | None]:
    """The unit space, the topics (None: all), the scale and the snapshot's name the report is restricted to."""
    if snapshot is None:
        return unit_space(store, unit), None, store.scale(), None
    info = current_snapshot(store, unit) if snapshot == CURRENT else resolve_snapshot(store, snapshot)
    if unit is not None and unit_space(store, unit) != info.unit:
        raise BadArgumentError(
            f"snapshot {info.name} holds {info.unit} labels, not {unit!r}: "
            "leave it out or choose a snapshot of that unit space",
            argument="unit",
        )
    manifest = info.manifest
    topics = set(manifest.get("topics", {})) | {topic for topic, _ in manifest.get("conflicts_left_out", [])}
    return info.unit, topics, GradeScale.from_dict(manifest["scale"]), info.name


def planned_overlap(store: Store, space: str, topics: set[str] | None) -> set[tuple[str, str]] | None:
    """The overlap pairs the plan asks two assessors to judge in the space's latest pool; None without one."""
    plan = current_plan(store)
    overlapping = {t: entry for t, entry in plan.topics.items() if entry.second is not None}
    if not overlapping:
        return None
    info = space_pool(store, space)
    if info is None:
        return set()
    return {
        (topic_id, unit_id)
        for topic_id, entry in overlapping.items()
        if topics is None or topic_id in topics
        for unit_id in store.pool_topic_units(info.name, topic_id)
        if entry.is_overlap(unit_id)
    }


def agreement_report(
    store: Store,
    *,
    snapshot: str | None = None,
    unit: str | None = None,
    metric: str = "ordinal",
    all_pairs: bool = False,
) -> dict[str, Any]:
    """Overlap and Cohen's kappa per assessor pair, and Krippendorff's alpha, overall and per topic.

    Which grades count: every assessor's latest real grade of a pair in the unit space (the
    log as it is now). Negative grades ("pooled, not judged"), adjudications, skip/unsure/flag
    states, retracted events and grades made stale by a change of the unit's text do not count.
    With `snapshot`, only pairs of that snapshot's unit space and topics are read, still from the
    log: agreement is about the assessors, not the snapshot's single label per pair. When the
    assignments plan an overlap, only its pairs are read (a sample chosen in advance, not the pairs
    someone happened to grade twice), unless `all_pairs`.
    """
    if metric not in METRICS:
        raise BadArgumentError(f"must be one of {', '.join(METRICS)}, not {metric!r}", argument="metric")
    space, topics, scale, snapshot_name = _scope(store, snapshot, unit)
    planned = None if all_pairs else planned_overlap(store, space, topics)
    grades: dict[str, dict[str, dict[str, int]]] = {}
    for (topic_id, unit_id), state in current_labels(store, space).items():
        if topics is not None and topic_id not in topics:
            continue
        if planned is not None and (topic_id, unit_id) not in planned:
            continue
        real = {assessor: grade for assessor, grade in state.grades.items() if grade is not None and grade >= 0}
        if real:
            grades.setdefault(topic_id, {})[unit_id] = real
    summary = summarize_agreement(grades, threshold=scale.threshold, categories=scale.values, metric=metric)
    return {
        "unit": space,
        "snapshot": snapshot_name,
        "scale": scale.name,
        "threshold": scale.threshold,
        "metric": metric,
        "pairs_read": "all" if planned is None else "overlap",
        "planned_overlap": None if planned is None else len(planned),
        **summary,
    }

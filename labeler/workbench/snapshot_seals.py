"""Snapshot seals: what scoring reads from a snapshot, hashed and chained, so a change to it shows.

A snapshot's `sha256` covers its labels (the qrels text). Its seal is the SHA-256
of its whole manifest (`labeler.store.digests.manifest_sha256`): each topic's review
status and counts, which decide what `eval` scores, the pools, the unit space, the
scale, the conflicts left out, and its labels' `sha256`. Before it is sealed the
manifest records:

- `parent_seal`: the hash of its parent's manifest (the latest earlier snapshot of
  the same unit space), so a parent edited or removed after its child was made shows;
- `log`: the log head when it was written (how many events, the last one's chain
  link), so an event before the snapshot changed, removed or slipped in shows, even
  when the chain was rewritten after it: the event at that position no longer has
  that link;
- `parts`: a short digest of each manifest field and each topic's row, so a changed
  manifest is reported by what changed (a topic, a field), not only as a bad hash.

Snapshots are numbered v1, v2, ... and never removed; the workbench records the
latest number made, so a removed snapshot leaves a gap, at the end too.

Snapshots made before seals existed have none: their labels stay sealed by `sha256`,
their manifest is not ("sealed labels only"), and a sealed child records its hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labeler.models import SnapshotInfo
from labeler.store import Store
from labeler.store.digests import SEAL, manifest_sha256
from labeler.validation import shown
from labeler.wording import agrees, plural

PARENT_SEAL = "parent_seal"
LOG = "log"
PARTS = "parts"
SEALED_MANIFEST = "manifest"
SEALED_LABELS = "labels only"
_COLUMN_FIELDS = (
    ("snapshot", "name"),
    ("parent", "parent"),
    ("message", "message"),
    ("created", "created"),
    ("sha256", "sha256"),
)


def _digest(value: Any) -> str:
    return manifest_sha256({"value": value})[:16]


def manifest_parts(manifest: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """A short digest of each field of a manifest (but its topics, parts and seal) and of each topic's row."""
    fields = {key: _digest(value) for key, value in manifest.items() if key not in (SEAL, PARTS, "topics")}
    topics = manifest.get("topics")
    rows = {str(t): _digest(row) for t, row in topics.items()} if isinstance(topics, dict) else {}
    return {"fields": fields, "topics": rows}


def seal_manifest(store: Store, manifest: dict[str, Any], parent: SnapshotInfo | None) -> str:
    """Record the parent's hash, the log head now and the parts in `manifest` (inside the write), then seal it."""
    manifest["parent"] = parent.name if parent else None
    manifest[PARENT_SEAL] = manifest_sha256(parent.manifest) if parent else None
    events, head = store.log_head()
    manifest[LOG] = {"events": events, "head": head}
    manifest[PARTS] = manifest_parts(manifest)
    manifest[SEAL] = manifest_sha256(manifest)
    return manifest[SEAL]


def sealed(info: SnapshotInfo) -> str:
    """What a snapshot's hashes cover: its whole manifest, or (made before seals) its labels only."""
    return SEALED_LABELS if info.seal is None and SEAL not in info.manifest else SEALED_MANIFEST


def seal_findings(store: Store, info: SnapshotInfo, stored: Mapping[str, SnapshotInfo]) -> list[str]:
    """What is wrong with a snapshot beyond its labels: its table row, manifest, parent and log head.

    `stored`: every snapshot of the workbench by name (a parent is looked up there).
    """
    findings = _row_findings(info)
    if sealed(info) == SEALED_LABELS:
        return findings
    return findings + _manifest_findings(info) + _parent_findings(info, stored) + _log_findings(store, info)


def _row_findings(info: SnapshotInfo) -> list[str]:
    """The table's columns must say what the manifest says (labeler reads both)."""
    manifest = info.manifest
    findings = [
        f"snapshot {info.name}: its {key} is {shown(getattr(info, attribute))} in the table, "
        f"{shown(manifest.get(key))} in its manifest"
        for key, attribute in _COLUMN_FIELDS
        if manifest.get(key) != getattr(info, attribute)
    ]
    if info.unit != manifest.get("unit"):
        findings.append(
            f"snapshot {info.name}: its unit space is {shown(info.unit)} in the table, "
            f"{shown(manifest.get('unit'))} in its manifest"
        )
    return findings


def _manifest_findings(info: SnapshotInfo) -> list[str]:
    """The manifest must hash to its seal, and each part to the digest recorded for it (a seal made again shows)."""
    manifest = info.manifest
    actual = manifest_sha256(manifest)
    changed = _changed_parts(manifest)
    if not changed and actual == info.seal == manifest.get(SEAL):
        return []
    if not changed and actual == manifest.get(SEAL):
        return [
            f"snapshot {info.name}: the seal stored with it ({_short(info.seal)}) is not the one its manifest "
            f"records ({_short(manifest.get(SEAL))})"
        ]
    return [
        f"snapshot {info.name}: its manifest was changed after it was made ({changed or 'its sealed hash differs'}; "
        f"it hashes to {actual[:12]}, sealed as {_short(info.seal)})"
    ]


def _changed_parts(manifest: Mapping[str, Any]) -> str:
    """Which fields and topics differ from the digests recorded when the manifest was sealed ('' when none)."""
    recorded = manifest.get(PARTS)
    if not isinstance(recorded, dict):
        return "its record of parts is gone"
    now = manifest_parts(manifest)
    changed = []
    for kind, label in (("fields", "field"), ("topics", "topic")):
        found = recorded.get(kind)
        before: dict[str, Any] = found if isinstance(found, dict) else {}
        keys = sorted(set(before) | set(now[kind]), key=str)
        changed += [f"{label} {shown(key)}" for key in keys if before.get(key) != now[kind].get(key)]
    if not changed:
        return ""
    listed = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
    return f"{listed} {agrees(len(changed), 'differs', 'differ')} from what was sealed"


def _parent_findings(info: SnapshotInfo, stored: Mapping[str, SnapshotInfo]) -> list[str]:
    name, manifest = info.parent, info.manifest
    if name is None:
        return []
    parent = stored.get(name)
    if parent is None:
        return [f"snapshot {info.name}: its parent {shown(name)} is not in the workbench: it was removed"]
    recorded = manifest.get(PARENT_SEAL)
    actual = manifest_sha256(parent.manifest)
    if recorded != actual:
        return [
            f"snapshot {info.name}: its parent {parent.name} is not the one it was made after "
            f"(recorded {_short(recorded)}, {parent.name}'s manifest hashes to {actual[:12]})"
        ]
    return []


def _log_findings(store: Store, info: SnapshotInfo) -> list[str]:
    log = info.manifest.get(LOG)
    events = log.get("events") if isinstance(log, dict) else None
    head = log.get("head") if isinstance(log, dict) else None
    if not isinstance(events, int) or isinstance(events, bool) or not isinstance(head, str):
        return [f"snapshot {info.name}: its manifest records no log head"]
    found = store.link_at(events)
    if found is None:
        held = store.event_count()
        return [
            f"snapshot {info.name} was made when the log held {plural(events, 'event')}; it holds {held} now: "
            "events before the snapshot were removed"
        ]
    if found != head:
        return [
            f"snapshot {info.name} was made when event {events} of the log had link {head[:12] or '-'}; it has "
            f"{found[:12] or '-'} now: events before the snapshot were changed, removed or inserted"
        ]
    return []


def numbering_findings(store: Store) -> list[str]:
    """Snapshots missing from v1..vN (N the latest made, as recorded), and rows not named by their number."""
    numbers = store.snapshot_numbers()
    made = store.snapshots_made()
    findings = [f"snapshot number {n} is named {shown(name)}, not v{n}" for n, name in numbers if name != f"v{n}"]
    present = {n for n, _ in numbers}
    findings += _gap_findings(present, made)
    if present and max(present) > made:
        findings.append(
            f"snapshot v{max(present)} is not recorded as made (the latest recorded is "
            f"{f'v{made}' if made else 'none'}): added or renumbered outside labeler"
        )
    return findings


def _gap_findings(present: set[int], made: int) -> list[str]:
    last = max(present | {made})
    missing = [n for n in range(1, last + 1) if n not in present]
    if not missing:
        return []
    names = ", ".join(f"v{n}" for n in missing[:10]) + (" ..." if len(missing) > 10 else "")
    return [
        f"{plural(len(missing), 'snapshot')} of v1..v{last} {agrees(len(missing), 'is', 'are')} "
        f"missing ({names}): removed from the workbench (snapshots are never deleted)"
    ]


def _short(value: Any) -> str:
    return value[:12] if isinstance(value, str) and value else "none"

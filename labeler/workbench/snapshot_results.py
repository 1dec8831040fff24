"""What the snapshot use cases return: typed results whose `to_json()` is the documented `--json` shape.

Apart from labeler/workbench/snapshots.py so that module stays about freezing and reading labels;
the front ends read these attributes, and only `to_json()` knows the keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from labeler.models import SnapshotInfo


@dataclass(frozen=True)
class SnapshotSummary:
    """One snapshot in a line: its name, hash, label and topic counts, parent, message and unit space."""

    snapshot: str
    sha256: str
    labels: int
    topics: int
    parent: str | None
    message: str
    created: str
    unit: str
    conflicts_left_out: int

    @staticmethod
    def fields_of(info: SnapshotInfo) -> dict[str, Any]:
        """The summary's fields for a stored snapshot (or the current labels), read from its manifest."""
        manifest = info.manifest
        return {
            "snapshot": info.name,
            "sha256": info.sha256,
            "labels": manifest["labels"],
            "topics": len(manifest["topics"]),
            "parent": info.parent,
            "message": info.message,
            "created": info.created,
            "unit": info.unit,
            "conflicts_left_out": len(manifest["conflicts_left_out"]),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "sha256": self.sha256,
            "labels": self.labels,
            "topics": self.topics,
            "parent": self.parent,
            "message": self.message,
            "created": self.created,
            "unit": self.unit,
            "conflicts_left_out": self.conflicts_left_out,
        }


@dataclass(frozen=True, kw_only=True)
class SnapshotCreated(SnapshotSummary):
    """`create_snapshot`'s result: the new snapshot, or (`new` false) the unchanged one it would repeat."""

    new: bool
    unchanged_since: str | None

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "new": self.new, "unchanged_since": self.unchanged_since}


@dataclass(frozen=True, kw_only=True)
class SnapshotShown(SnapshotSummary):
    """`show_snapshot`'s result: the summary and the manifest as stored (topics in natural order)."""

    manifest: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "manifest": self.manifest}


@dataclass(frozen=True)
class SnapshotVerified:
    """One snapshot's labels hash as recorded and as its labels give it now, and what its seal shows wrong.

    `sealed` is `manifest` (its whole manifest is sealed) or `labels only` (made before
    seals: its labels are sealed, its review statuses and counts are not); `findings`
    are the seal's (manifest changed, parent removed or changed, log before it changed).
    """

    snapshot: str
    sha256: str
    actual: str
    ok: bool
    seal: str | None = None
    sealed: str = "manifest"
    findings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "sha256": self.sha256,
            "actual": self.actual,
            "ok": self.ok,
            "seal": self.seal,
            "sealed": self.sealed,
            "findings": list(self.findings),
        }


@dataclass(frozen=True)
class SnapshotsVerified:
    """`verify_snapshots`'s result: every snapshot checked, `ok` when all hash as recorded and none is missing.

    `findings`: the numbering's (a snapshot of v1..vN missing), when every snapshot was verified.
    """

    ok: bool
    snapshots: tuple[SnapshotVerified, ...]
    findings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "snapshots": [s.to_json() for s in self.snapshots],
            "findings": list(self.findings),
        }


@dataclass(frozen=True)
class LabelAdded:
    """A label in the newer snapshot only (`grade`), or (as a removal) in the older one only."""

    unit: str
    grade: int

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "grade": self.grade}


@dataclass(frozen=True)
class LabelChanged:
    """A label both snapshots hold, with another grade."""

    unit: str
    before: int
    after: int

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class TopicDiff:
    """One topic's labels added, changed and removed between two snapshots, in qrels order."""

    added: tuple[LabelAdded, ...] = ()
    changed: tuple[LabelChanged, ...] = ()
    removed: tuple[LabelAdded, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "added": [a.to_json() for a in self.added],
            "changed": [c.to_json() for c in self.changed],
            "removed": [r.to_json() for r in self.removed],
        }


@dataclass(frozen=True)
class SnapshotDiff:
    """`diff_snapshots`'s result: the counts from `old` to `new`, and the topics where labels differ."""

    old: str
    new: str
    topics: dict[str, TopicDiff]

    @property
    def added(self) -> int:
        return sum(len(t.added) for t in self.topics.values())

    @property
    def changed(self) -> int:
        return sum(len(t.changed) for t in self.topics.values())

    @property
    def removed(self) -> int:
        return sum(len(t.removed) for t in self.topics.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.old,
            "to": self.new,
            "added": self.added,
            "changed": self.changed,
            "removed": self.removed,
            "topics": {t: diff.to_json() for t, diff in self.topics.items()},
        }

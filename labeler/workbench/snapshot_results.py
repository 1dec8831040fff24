"""What the snapshot use cases return: typed results whose JSON form (`labeler.json_form`) is the `--json` shape.

Apart from labeler/workbench/snapshots.py so that module stays about freezing and reading labels;
the front ends read these attributes, and the JSON keys are the fields' names and rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from labeler.json_form import JsonResult, json_field
from labeler.models import SnapshotInfo
from labeler.scales import GradeScale
from labeler.workbench.snapshot_answers import AnswersDiff


@dataclass(frozen=True)
class SnapshotSummary(JsonResult):
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
    # the nuggets and answer labels frozen with the labels (both left out when there are none)
    nuggets: int | None = json_field(default=None, omit_if_none=True)
    answer_labels: int | None = json_field(default=None, omit_if_none=True)

    @classmethod
    def of(cls: type[Summary], info: SnapshotInfo, **more: Any) -> Summary:
        """The summary of a stored snapshot (or the current labels), read from its manifest.

        `more` fills the fields a subclass adds.
        """
        manifest = info.manifest
        return cls(
            snapshot=info.name,
            sha256=info.sha256,
            labels=manifest["labels"],
            topics=len(manifest["topics"]),
            parent=info.parent,
            message=info.message,
            created=info.created,
            unit=info.unit,
            conflicts_left_out=len(manifest["conflicts_left_out"]),
            nuggets=manifest.get("nuggets"),
            answer_labels=manifest.get("answer_labels"),
            **more,
        )


Summary = TypeVar("Summary", bound=SnapshotSummary)


@dataclass(frozen=True, kw_only=True)
class SnapshotCreated(SnapshotSummary):
    """`create_snapshot`'s result: the new snapshot, or (`new` false) the unchanged one it would repeat."""

    new: bool
    unchanged_since: str | None


@dataclass(frozen=True, kw_only=True)
class SnapshotShown(SnapshotSummary):
    """`show_snapshot`'s result: the summary and the manifest as stored (topics in natural order)."""

    manifest: dict[str, Any]


@dataclass(frozen=True)
class SnapshotVerified(JsonResult):
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


@dataclass(frozen=True)
class SnapshotsVerified(JsonResult):
    """`verify_snapshots`'s result: every snapshot checked, `ok` when all hash as recorded and none is missing.

    `findings`: the numbering's (a snapshot of v1..vN missing), when every snapshot was verified.
    """

    ok: bool
    snapshots: tuple[SnapshotVerified, ...]
    findings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LabelAdded(JsonResult):
    """A label in the newer snapshot only (`grade`), or (as a removal) in the older one only."""

    unit: str
    grade: int


@dataclass(frozen=True)
class LabelChanged(JsonResult):
    """A label both snapshots hold, with another grade."""

    unit: str
    before: int
    after: int


@dataclass(frozen=True)
class TopicDiff(JsonResult):
    """One topic's labels added, changed and removed between two snapshots, in qrels order."""

    added: tuple[LabelAdded, ...] = ()
    changed: tuple[LabelChanged, ...] = ()
    removed: tuple[LabelAdded, ...] = ()


@dataclass(frozen=True)
class SnapshotDiff(JsonResult):
    """`diff_snapshots`'s result: the counts from `old` to `new`, and the topics where labels differ."""

    json_extra = {"added": "new", "changed": "new", "removed": "new"}

    old: str = json_field(name="from")
    new: str = json_field(name="to")
    topics: dict[str, TopicDiff] = json_field()
    # nuggets and answer labels that differ (left out when none do)
    answers: AnswersDiff | None = json_field(default=None, omit_if_none=True)

    @property
    def added(self) -> int:
        return sum(len(t.added) for t in self.topics.values())

    @property
    def changed(self) -> int:
        return sum(len(t.changed) for t in self.topics.values())

    @property
    def removed(self) -> int:
        return sum(len(t.removed) for t in self.topics.values())


@dataclass(frozen=True)
class QrelsExport(JsonResult):
    """`export_qrels`'s result: the snapshot's labels as file text, in the unit space asked for.

    `partial_documents`: (topic, document) pairs lifted from chunk labels while some of the
    document's chunks are unjudged (the grade is a lower bound).
    """

    snapshot: str
    unit: str
    text: str
    labels: int
    partial_documents: tuple[tuple[str, str], ...]
    sha256: str


@dataclass(frozen=True)
class TopicLabelCounts(JsonResult):
    """One topic's row in a snapshot manifest: its labels by kind and its review status in the snapshot's space.

    `pooled_unjudged`: labels of pooled units left unjudged (a negative grade); `reopened`: what reopened the
    topic (`{"pool", "unjudged"}`), None when it is not reopened.
    """

    labels: int
    relevant: int
    nonrelevant: int
    pooled_unjudged: int
    review_status: str
    reopened: dict[str, object] | None


@dataclass(frozen=True)
class ChunkingRef(JsonResult):
    """The chunking a chunk snapshot's labels are in: its name, hash, kind and parameters."""

    name: str
    hash: str
    kind: str
    params: dict[str, str | int]


@dataclass(frozen=True)
class FrozenManifest(JsonResult):
    """What a snapshot's manifest says of the labels it freezes, before the write names and seals it.

    Its JSON form is the manifest as stored (then sealed, `labeler.workbench.snapshot_seals`).
    """

    snapshot: str
    created: str
    message: str
    parent: str | None
    pools: tuple[str, ...]
    unit: str
    chunking: ChunkingRef | None
    scale: GradeScale = json_field(encode=GradeScale.to_dict)
    labels: int = json_field()
    topics: dict[str, TopicLabelCounts] = json_field()
    conflicts_left_out: tuple[tuple[str, str], ...] = json_field()
    stale_left_out: int = json_field()
    sha256: str = json_field()
    labeler_version: str = json_field()
    # the nuggets and answer labels frozen with the labels (both left out when there are none)
    nuggets: int | None = json_field(default=None, omit_if_none=True)
    answer_labels: int | None = json_field(default=None, omit_if_none=True)

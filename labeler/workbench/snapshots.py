"""Snapshots: immutable, hashed versions of the labels, and their qrels exports."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from itertools import groupby
from typing import Any

from labeler import installed_version
from labeler.errors import Hint, LabelerError, NotFoundError
from labeler.formats.qrels import format_qrels, qrels_sort_key, qrels_topic_key
from labeler.judgments.log import UNREVIEWED, PairState, derive_pairs
from labeler.models import SnapshotInfo, topic_sort_key
from labeler.review import ReviewState
from labeler.store import Store
from labeler.workbench.read_labels import unit_space
from labeler.workbench.review import review_states_in_batches
from labeler.workbench.setup import now
from labeler.workbench.snapshot_answers import (
    AnswersDiff,
    FrozenAnswers,
    answers_text,
    canonical,
    diff_answers,
    freeze_answers,
)
from labeler.workbench.snapshot_results import (
    ChunkingRef,
    FrozenManifest,
    LabelAdded,
    LabelChanged,
    QrelsExport,
    SnapshotCreated,
    SnapshotDiff,
    SnapshotShown,
    SnapshotSummary,
    SnapshotsVerified,
    SnapshotVerified,
    TopicDiff,
    TopicLabelCounts,
)
from labeler.workbench.snapshot_seals import numbering_findings, seal_findings, seal_manifest, sealed
from labeler.workbench.unit_spaces import all_spaces, choices_hint, label_count, write_space


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


Labels = dict[tuple[str, str], PairState]
"""Pairs of a unit space and what the log says of each (`derive_pairs`)."""

CURRENT = "current"
"""The name that means "the labels as they are now", wherever a snapshot name is taken for reading."""


LabelRow = tuple[str, str, int, str | None]
"""(topic, unit, grade, deciding event) of one label in a snapshot."""


LabelSink = Callable[[list[LabelRow]], None]
"""Where `_freeze` puts each batch of label rows (a staging table, a list, or nowhere)."""


def _space_labels(store: Store, space: str) -> Iterator[tuple[list[str], Labels]]:
    """A unit space's labels a topic at a time, in the topic order of canonical qrels.

    Every topic the workbench knows comes, with or without labels. Topics whose ids tie in that
    order ("7" and "007") come together, their events in log order, so their pairs come in the
    order the whole space's would.
    """
    from labeler.workbench.status import all_topic_ids  # here: scoring a snapshot reads no status

    changes = store.change_times(space)
    held = space in store.unit_spaces()
    for _, tied in groupby(sorted(all_topic_ids(store), key=qrels_topic_key), key=qrels_topic_key):
        topics = list(tied)
        events = [e for t in topics for e in store.topic_events(space, t)] if held else []
        if len(topics) > 1:
            events.sort(key=lambda e: e.seq)
        yield topics, derive_pairs(events, changes) if events else {}


def _freeze(
    store: Store,
    space: str,
    message: str,
    name: str,
    sink: LabelSink | None = None,
    answers: FrozenAnswers | None = None,
) -> FrozenManifest:
    """The manifest of a unit space's current labels, each batch of label rows given to `sink`.

    `answers`: the nuggets and answer labels frozen with them (read from the log when not
    given); their text follows the labels' under the one hash, and their counts join the
    manifest only when there are some.

    Pairs in conflict have no label: they are left out and listed. Stale
    judgments (text changed since) no longer count and are counted.
    The labels are derived a topic at a time, so memory holds one topic's.
    """
    scale = store.scale()
    states_of = review_states_in_batches(store, space)
    digest = hashlib.sha256()
    conflicts: list[tuple[str, str]] = []
    stale = labelled = 0
    counts: dict[str, TopicLabelCounts] = {}
    for topics, current in _space_labels(store, space):
        labels, left_out, stale_here = _split(current)
        digest.update(format_qrels((t, u, g) for t, u, g, _ in labels).encode("utf-8"))
        conflicts.extend(sorted(left_out, key=lambda p: qrels_sort_key(*p)))
        stale += stale_here
        labelled += len(labels)
        counts.update(_topic_counts(topics, labels, states_of(topics, current), scale.threshold))
        if sink is not None and labels:
            sink(labels)
    answers = freeze_answers(store) if answers is None else answers
    digest.update(answers_text(answers).encode("utf-8"))
    parent = latest_snapshot_of(store, space)
    return FrozenManifest(
        snapshot=name,
        created=now(),
        message=message,
        parent=parent.name if parent else None,
        pools=tuple(p.name for p in store.pools() if p.unit == space),
        unit=space,
        chunking=_chunking_ref(store, space),
        scale=scale,
        labels=labelled,
        topics={t: counts[t] for t in sorted(counts, key=topic_sort_key)},
        conflicts_left_out=tuple(conflicts),
        stale_left_out=stale,
        sha256=digest.hexdigest(),
        labeler_version=installed_version(),
        **answers.counts(),
    )


def _split(current: Labels) -> tuple[list[LabelRow], list[tuple[str, str]], int]:
    """The label rows of some pairs, the pairs in conflict, and how many are stale."""
    labels: list[LabelRow] = []
    conflicts: list[tuple[str, str]] = []
    stale = 0
    for (topic_id, unit_id), state in current.items():
        if state.conflict:
            conflicts.append((topic_id, unit_id))
        elif state.label is not None:
            deciding = state.deciding_event
            labels.append((topic_id, unit_id, state.label, deciding.event_id if deciding else None))
        elif state.stale:
            stale += 1
    return labels, conflicts, stale


def _topic_counts(
    topics: list[str], labels: list[LabelRow], states: dict[str, ReviewState], threshold: int
) -> dict[str, TopicLabelCounts]:
    """Each topic's labels by kind and its review status (with what reopened it)."""
    counts = {topic_id: [0, 0, 0, 0] for topic_id in topics}  # topic -> [labels, relevant, nonrelevant, unjudged]
    for topic_id, _, grade, _ in labels:
        row = counts[topic_id]
        row[0] += 1
        row[3 if grade < 0 else 1 if grade >= threshold else 2] += 1
    rows = {}
    for topic_id, (labelled, relevant, nonrelevant, unjudged) in counts.items():
        state = states.get(topic_id, ReviewState(UNREVIEWED))
        rows[topic_id] = TopicLabelCounts(labelled, relevant, nonrelevant, unjudged, state.status, state.reopened)
    return rows


def _chunking_ref(store: Store, space: str) -> ChunkingRef | None:
    """The chunking of a chunk space (None for documents); an unknown one is refused."""
    if not space.startswith("chunk:"):
        return None
    name = space.split(":", 1)[1]
    info = store.chunking(name)
    if info is None:
        raise NotFoundError(f"no chunking named {name!r}", hints=Hint("list_chunkings"))
    return ChunkingRef(info.name, info.hash, info.kind, info.params)


def latest_snapshot_of(store: Store, space: str) -> SnapshotInfo | None:
    """A snapshot's parent: the latest one of the same unit space (a chunk version does not follow a doc one)."""
    return next((s for s in reversed(store.snapshots()) if s.unit == space), None)


def snapshot_space(store: Store, unit: str | None, *, default: str | None = None) -> str:
    """The unit space a new snapshot freezes.

    Asked for: that one. Otherwise the one space that has labels (so a chunk
    pool built after document judging does not make an empty chunk snapshot);
    with several, `default` (the space a front end's user is judging) if it is
    one of them, else a refusal that lists each space with its label count.
    No labels anywhere: `default`, else the space the workbench holds (`write_space`: refused when
    it holds several).
    """
    if unit is not None:
        return unit_space(store, unit)
    spaces = all_spaces(store)
    labelled = [space for space in spaces if _has_labels(store, space)]
    if len(labelled) == 1:
        return labelled[0]
    if labelled:
        if default in labelled:
            return default
        counts = {space: sum(label_count(current) for _, current in _space_labels(store, space)) for space in labelled}
        listing = ", ".join(f"{space} ({counts[space]} label{'' if counts[space] == 1 else 's'})" for space in labelled)
        raise LabelerError(
            f"labels exist in {len(labelled)} unit spaces: {listing}",
            hints=choices_hint(labelled, "to say which to freeze"),
        )
    return default or write_space(store, None, why="to say which to freeze")


def _has_labels(store: Store, space: str) -> bool:
    """Whether any pair of the space has a label (read up to the first topic that has one)."""
    return any(label_count(current) for _, current in _space_labels(store, space))


def create_snapshot(
    store: Store,
    message: str,
    *,
    unit: str | None = None,
    allow_unchanged: bool = False,
    default_unit: str | None = None,
) -> SnapshotCreated:
    """Freeze the current labels of one unit space as `vN`, with its manifest.

    The space is chosen by `snapshot_space`. Labels and review statuses identical
    to the parent's (same space, same qrels hash, every topic's status the same) make
    no new version unless `allow_unchanged` (a topic marked reviewed since, or reopened
    by a pool, is a change: it decides what eval scores):
    the result then has `new: false` and names the existing snapshot (`created` stays its timestamp).
    """
    if not message.strip():
        raise LabelerError("a snapshot needs a message (-m)")
    space = snapshot_space(store, unit, default=default_unit)
    # read the log and stage the labels before taking the write lock, so annotators are not kept
    # waiting while labels are derived
    store.stage_snapshot_begin()
    try:
        answers = freeze_answers(store)
        frozen = _freeze(store, space, message, "", store.stage_snapshot_labels, answers)
        return _store_snapshot(store, space, frozen, allow_unchanged, answers)
    finally:
        store.stage_snapshot_end()


def _store_snapshot(
    store: Store, space: str, frozen: FrozenManifest, allow_unchanged: bool, answers: FrozenAnswers
) -> SnapshotCreated:
    """Store a frozen manifest, the labels staged and the answers frozen as `vN`, unless its parent says the same."""
    manifest: dict[str, Any] = frozen.to_json()  # the document stored and sealed
    parent = latest_snapshot_of(store, space)
    if parent is not None and _same_content(parent.manifest, manifest) and not allow_unchanged:
        return SnapshotCreated.of(parent, new=False, unchanged_since=parent.name)
    with store.transaction():
        snapshot_id = store.next_snapshot_id()
        manifest["snapshot"] = f"v{snapshot_id}"
        # in the write: the parent and the log head are those the snapshot follows, whoever wrote just before
        seal = seal_manifest(store, manifest, latest_snapshot_of(store, space))
        info = SnapshotInfo(
            manifest["snapshot"],
            manifest["parent"],
            frozen.message,
            manifest["created"],
            space,
            manifest,
            manifest["sha256"],
            seal,
        )
        store.insert_snapshot(snapshot_id, info)
        store.insert_snapshot_answers(snapshot_id, answers.nuggets, answers.labels)
    return SnapshotCreated.of(info, new=True, unchanged_since=None)


def _same_content(parent: dict[str, Any], manifest: dict[str, Any]) -> bool:
    """Whether a new snapshot would say what its parent says: the same labels and the same statuses."""
    if parent.get("sha256") != manifest["sha256"]:
        return False

    # a topic's review status and its reopened row, as the manifest holds them (the row compared as stored)
    def statuses(m: dict[str, Any]) -> dict[str, tuple[str | None, object]]:
        return {t: (row.get("review_status"), row.get("reopened")) for t, row in m.get("topics", {}).items()}

    return statuses(parent) == statuses(manifest)


def current_snapshot(store: Store, unit: str | None = None) -> SnapshotInfo:
    """The labels as they are now, described like a snapshot but stored nowhere (name `current`)."""
    space = unit_space(store, unit)
    manifest = _freeze(store, space, "the labels now, not a snapshot", CURRENT)
    return SnapshotInfo(
        CURRENT, manifest.parent, manifest.message, manifest.created, space, manifest.to_json(), manifest.sha256
    )


def snapshot_rows(store: Store, info: SnapshotInfo) -> list[LabelRow]:
    """(topic, unit, grade, deciding event) of a snapshot, or of the current labels."""
    if info.name == CURRENT:
        rows: list[LabelRow] = []
        _freeze(store, info.unit, info.message, CURRENT, rows.extend)
        return rows
    return store.snapshot_labels(info.name)


def snapshot_answers(store: Store, info: SnapshotInfo) -> FrozenAnswers:
    """The nuggets and answer labels of a snapshot, or (`current`) of the log now."""
    if info.name == CURRENT:
        return freeze_answers(store)
    return canonical(store.snapshot_nuggets(info.name), store.snapshot_answer_labels(info.name))


def list_snapshots(store: Store) -> list[SnapshotSummary]:
    """Every snapshot, oldest first, in a line each."""
    return [SnapshotSummary.of(s) for s in store.snapshots()]


def conflicts_left_out(store: Store, name: str) -> list[list[str]]:
    """The (topic, unit) pairs a snapshot left out because assessors disagreed, as its manifest lists them."""
    return store.snapshot(name).manifest["conflicts_left_out"]


def show_snapshot(store: Store, name: str | None = None) -> SnapshotShown:
    """A snapshot's summary and manifest, its topics in natural order (the stored JSON has them as text)."""
    info = resolve_snapshot(store, name)
    manifest = dict(info.manifest)
    topics = manifest.get("topics", {})
    manifest["topics"] = {t: topics[t] for t in sorted(topics, key=topic_sort_key)}
    return SnapshotShown.of(info, manifest=manifest)


def snapshot_text(store: Store, name: str) -> str:
    """The canonical text a snapshot's hash covers: its qrels, then its nuggets and answer labels (if any)."""
    info = resolve_snapshot(store, name)
    qrels = format_qrels((t, u, g) for t, u, g, _ in snapshot_rows(store, info))
    return qrels + answers_text(snapshot_answers(store, info))


def verify_snapshots(store: Store, name: str | None = None) -> SnapshotsVerified:
    """Recompute each snapshot's hashes: its labels', its manifest's, its parent's, and its place in the log.

    Every snapshot (no `name`) also checks the numbering: none of v1..vN missing.
    See `labeler.workbench.snapshot_seals` for what a seal covers.
    """
    everything = store.snapshots()
    stored = {info.name: info for info in everything}
    infos = [store.snapshot(name)] if name else everything
    results = []
    for info in infos:
        actual = sha256_text(snapshot_text(store, info.name))
        labels_ok = actual == info.sha256 == info.manifest.get("sha256")
        findings = tuple(seal_findings(store, info, stored))
        results.append(
            SnapshotVerified(
                snapshot=info.name,
                sha256=info.sha256,
                actual=actual,
                ok=labels_ok and not findings,
                seal=info.seal,
                sealed=sealed(info),
                findings=findings,
            )
        )
    numbering = () if name else tuple(numbering_findings(store))
    return SnapshotsVerified(
        ok=all(r.ok for r in results) and not numbering, snapshots=tuple(results), findings=numbering
    )


def diff_snapshots(store: Store, old: str, new: str) -> SnapshotDiff:
    """Labels added, changed and removed from snapshot `old` to `new`, per topic."""
    before = {(t, u): g for t, u, g, _ in snapshot_rows(store, resolve_snapshot(store, old))}
    after = {(t, u): g for t, u, g, _ in snapshot_rows(store, resolve_snapshot(store, new))}
    added: dict[str, list[LabelAdded]] = {}
    changed: dict[str, list[LabelChanged]] = {}
    removed: dict[str, list[LabelAdded]] = {}
    for pair in sorted(after.keys() - before.keys(), key=lambda p: qrels_sort_key(*p)):
        added.setdefault(pair[0], []).append(LabelAdded(pair[1], after[pair]))
    for pair in sorted(before.keys() & after.keys(), key=lambda p: qrels_sort_key(*p)):
        if before[pair] != after[pair]:
            changed.setdefault(pair[0], []).append(LabelChanged(pair[1], before[pair], after[pair]))
    for pair in sorted(before.keys() - after.keys(), key=lambda p: qrels_sort_key(*p)):
        removed.setdefault(pair[0], []).append(LabelAdded(pair[1], before[pair]))
    topics = sorted(added.keys() | changed.keys() | removed.keys(), key=topic_sort_key)
    answers = _answers_diff(store, old, new)
    return SnapshotDiff(
        old=old,
        new=new,
        topics={
            t: TopicDiff(tuple(added.get(t, ())), tuple(changed.get(t, ())), tuple(removed.get(t, ()))) for t in topics
        },
        answers=None if answers.empty else answers,
    )


def _answers_diff(store: Store, old: str, new: str) -> AnswersDiff:
    """Nugget and answer-label changes from snapshot `old` to `new`."""
    return diff_answers(
        snapshot_answers(store, resolve_snapshot(store, old)), snapshot_answers(store, resolve_snapshot(store, new))
    )


def export_qrels(
    store: Store, *, snapshot: str | None = None, unit: str | None = None, fmt: str = "trec"
) -> QrelsExport:
    """A snapshot as TREC qrels (or JSONL with provenance); chunk labels can be lifted to documents.

    At document level a document's grade is the maximum over its judged
    chunks; documents with unjudged chunks are listed (the grade is a lower bound).
    """
    if fmt not in ("trec", "jsonl"):
        raise LabelerError(f"format must be trec or jsonl, not {fmt!r}")
    info = resolve_snapshot(store, snapshot)
    rows = snapshot_rows(store, info)
    partial: list[tuple[str, str]] = []
    if unit is not None and unit != info.unit:
        if unit != "doc" or not info.unit.startswith("chunk:"):
            raise LabelerError(
                f"snapshot {info.name} holds {info.unit} labels; they can be exported as 'doc', not {unit!r}"
            )
        rows, partial = _lift_to_documents(store, info.unit.split(":", 1)[1], rows)
    if fmt == "trec":
        text = format_qrels((t, u, g) for t, u, g, _ in rows)
    else:
        text = _jsonl(store, info, rows)
    return QrelsExport(
        snapshot=info.name,
        unit=unit or info.unit,
        text=text,
        labels=len(rows),
        partial_documents=tuple(partial),
        sha256=info.sha256,
    )


def _lift_to_documents(store: Store, chunking: str, rows):
    parents = store.parents_of(chunking, [u for _, u, _, _ in rows])
    grades: dict[tuple[str, str], tuple[int, str | None]] = {}
    judged: dict[tuple[str, str], int] = {}
    for topic_id, unit_id, grade, event_id in rows:
        if grade < 0:
            continue
        if unit_id not in parents:
            raise LabelerError(f"chunk {unit_id!r} is not in chunking {chunking!r}: cannot name its document")
        key = (topic_id, parents[unit_id])
        judged[key] = judged.get(key, 0) + 1
        if key not in grades or grade > grades[key][0]:
            grades[key] = (grade, event_id)
    totals = store.chunk_counts(chunking, {d for _, d in grades})
    partial = sorted(((t, d) for (t, d), n in judged.items() if n < totals.get(d, 0)), key=lambda p: qrels_sort_key(*p))
    lifted = [(t, d, g, e) for (t, d), (g, e) in grades.items()]
    return lifted, partial


def _jsonl(store: Store, info: SnapshotInfo, rows) -> str:
    lines = []
    for topic_id, unit_id, grade, event_id in sorted(rows, key=lambda r: qrels_sort_key(r[0], r[1])):
        event = store.event(event_id) if event_id else None
        lines.append(
            json.dumps(
                {
                    "topic": topic_id,
                    "unit": unit_id,
                    "grade": grade,
                    "snapshot": info.name,
                    "assessor": event.assessor if event else None,
                    "source": event.source if event else None,
                    "model": event.model if event else None,
                    "time": event.time if event else None,
                    "event": event_id,
                },
                ensure_ascii=False,
            )
        )
    return "".join(line + "\n" for line in lines)


def resolve_snapshot(store: Store, name: str | None) -> SnapshotInfo:
    """The named snapshot, the latest one, or (`current`) the labels as they are now."""
    if name == CURRENT:
        return current_snapshot(store)
    if name is None:
        latest = store.latest_snapshot()
        if latest is None:
            raise NotFoundError("no snapshot yet", hints=Hint("create_snapshot"))
        return latest
    return store.snapshot(name)

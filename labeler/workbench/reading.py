"""What an assessor reads: a unit's text, a chunk inside its parent, decisions and conflicts.

These read-only views feed the judging UI (and any other front end) with
plain values, so the UI never touches the store directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.json_form import JsonResult
from labeler.judgments.log import ADJUDICATE, GRADE, RETRACT, Event, effective_events
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.workbench.read_labels import current_labels, label_space


@dataclass(frozen=True)
class UnitText:
    """The text shown for a unit. For a chunk, `text` is the parent document and `span` the chunk in it."""

    unit: str  # "doc" or "chunk:NAME"
    unit_id: str
    doc_id: str
    title: str
    text: str
    span: tuple[int, int] | None = None  # the chunk's character offsets in `text`
    neighbours: tuple[tuple[int, int], ...] = ()  # offsets of the parent's chunks, in order
    known: bool = True  # False in evaluation-only workbenches without a corpus

    @property
    def is_chunk(self) -> bool:
        return self.unit != "doc"

    @property
    def chunking(self) -> str | None:
        return self.unit.split(":", 1)[1] if self.is_chunk else None


def unit_text(store: Store, unit: str, unit_id: str) -> UnitText:
    """The text of a document, or of a chunk shown inside its parent document."""
    if unit == "doc":
        document = store.document(unit_id)
        if document is None:
            return UnitText(unit, unit_id, unit_id, "", "", known=False)
        return UnitText(unit, unit_id, unit_id, document.title, document.text)
    chunking = unit.split(":", 1)[1]
    chunk = store.chunk(chunking, unit_id)
    if chunk is None:
        return UnitText(unit, unit_id, "", "", "", known=False)
    document = store.document(chunk.doc_id)
    if document is None:
        return UnitText(unit, unit_id, chunk.doc_id, "", "", known=False)
    siblings = store.chunks_of(chunking, chunk.doc_id)
    spans = tuple((c.start, c.end) for c in siblings if c.start is not None and c.end is not None)
    span = (chunk.start, chunk.end) if chunk.start is not None and chunk.end is not None else None
    return UnitText(unit, unit_id, chunk.doc_id, document.title, document.text, span, spans)


def recent_events(store: Store, assessor: str | None = None, *, limit: int = 20) -> list[Event]:
    """The latest events of the log, newest first, undone ones included (`labeler judgments log`)."""
    return store.recent_events(assessor, limit=limit)


def recent_decisions(store: Store, assessor: str, limit: int = 10) -> list[Event]:
    """An assessor's latest decisions still in force (undone ones left out), newest first."""
    events = store.recent_events(assessor, limit=limit * 4 + 20)
    retracted = {e.target for e in events if e.kind == RETRACT} | store.retracted_ids(e.event_id for e in events)
    decisions = []
    for event in events:
        if event.kind == RETRACT or event.unit_id is None or event.event_id in retracted:
            continue
        decisions.append(event)
        if len(decisions) == limit:
            break
    return decisions


@dataclass(frozen=True)
class ConflictGrade(JsonResult):
    """One assessor's latest grade of a pair in conflict (`kind` grade), or the latest adjudication, with its note."""

    assessor: str
    grade: int | None
    kind: str
    note: str | None
    time: str


@dataclass(frozen=True)
class ConflictNote(JsonResult):
    """A note an assessor left on a pair in conflict."""

    assessor: str
    note: str


@dataclass(frozen=True)
class Conflict(JsonResult):
    """A pair whose assessors disagree: its grades (by kind, then assessor) and its notes, for adjudication."""

    topic: str
    unit: str
    unit_id: str
    grades: tuple[ConflictGrade, ...]
    notes: tuple[ConflictNote, ...]


def conflicts(store: Store, *, unit: str | None = None, topic_id: str | None = None) -> list[Conflict]:
    """Pairs whose assessors disagree, with each assessor's latest grade and notes, for adjudication.

    `unit` may name an answer space (`nugget:RUN`, `support:RUN`): its items are adjudicated alike.
    """
    space = label_space(store, unit)
    result = []
    for (topic, unit_id), state in current_labels(store, space).items():
        if not state.conflict or (topic_id is not None and topic != topic_id):
            continue
        events = store.pair_events(space, topic, unit_id)
        latest: dict[tuple[str, str], Event] = {}
        for event in effective_events(events):
            if event.kind in (GRADE, ADJUDICATE):
                latest[(event.kind, event.assessor)] = event
        grades = tuple(
            ConflictGrade(a, e.grade, k, e.note, e.time) for (k, a) in sorted(latest) for e in [latest[(k, a)]]
        )
        notes = tuple(ConflictNote(a, n) for a, n in state.notes)
        result.append(Conflict(topic, space, unit_id, grades, notes))
    return sorted(result, key=lambda c: (topic_sort_key(c.topic), c.unit_id))

"""Recording judgments: one event per decision, one short transaction each."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from labeler.errors import ConflictError, LabelerError, NotFoundError, QrelsFormatError, UnknownIdError
from labeler.formats.qrels import read_qrels
from labeler.ids import check_id
from labeler.judgments import (
    ADJUDICATE,
    FLAG,
    GRADE,
    NO_ANSWER,
    NOTE,
    RETRACT,
    REVIEW,
    REVIEW_MARKS,
    REVIEWED,
    SKIP,
    SOURCES,
    UNSURE,
    Event,
)
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.labels import current_labels, topic_labels, unit_space
from labeler.workbench.setup import now
from labeler.workbench.unknown import unknown_ids_advice

UNDOABLE = (GRADE, SKIP, UNSURE, FLAG, NOTE, ADJUDICATE)
RELEASING = (GRADE, SKIP, UNSURE, ADJUDICATE)
"""Decisions that end the assessor's claim on the pair; a flag or a note keeps them on it."""


def record_judgment(
    store: Store,
    topic_id: str,
    unit_id: str,
    *,
    assessor: str,
    grade: int | None = None,
    kind: str = GRADE,
    unit: str | None = None,
    source: str = "human",
    model: str | None = None,
    reason: str | None = None,
    note: str | None = None,
    active_ms: int | None = None,
    order: str | None = None,
    seed: int | None = None,
    pool: str | None = None,
    allow_unknown: bool = False,
) -> Event:
    """Append one decision about a pair: a grade, skip, unsure (with a reason), flag or note.

    The topic, unit and assessor obey the id rule (`labeler.ids`) whatever the front end:
    an id holding a line break would write a second, forged line into exported qrels.
    """
    check_id(topic_id, "topic id")
    check_id(unit_id, "unit id")
    _check_assessor(assessor)
    space = unit_space(store, unit)
    if source not in SOURCES:
        raise LabelerError(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    if source == "model" and not model:
        raise LabelerError("a model judgment needs the model's name (--model)")
    if kind in (GRADE, ADJUDICATE):
        _check_grade(store, grade)
    elif kind in (SKIP, FLAG, NOTE, UNSURE):
        grade = None
        if kind == UNSURE and not (reason or "").strip():
            raise LabelerError("'unsure' needs a reason")
        if kind == NOTE and not (note or "").strip():
            raise LabelerError("a note needs text")
    else:
        raise LabelerError(f"cannot record a {kind!r} event as a judgment")
    if not allow_unknown:
        _check_known(store, space, topic_id, unit_id)
    event = Event(
        "",
        0,
        topic_id,
        unit_id,
        kind,
        assessor,
        now(),
        grade=grade,
        reason=reason,
        note=note,
        source=source,
        model=model,
        active_ms=active_ms,
        content_hash=store.unit_content_hash(space, unit_id),
        order=order,
        seed=seed,
        pool=pool,
        unit=space,
    )
    with store.transaction():
        if kind in RELEASING:  # the decision ends the assessor's claim on the pair (labeler.workbench.claims)
            store.delete_claim(space, topic_id, unit_id, assessor)
        return store.append_event(event)


def adjudicate(
    store: Store,
    topic_id: str,
    unit_id: str,
    grade: int,
    *,
    assessor: str,
    unit: str | None = None,
    note: str | None = None,
) -> Event:
    """Settle a pair's label, resolving a conflict between assessors."""
    return record_judgment(
        store,
        topic_id,
        unit_id,
        assessor=assessor,
        grade=grade,
        kind=ADJUDICATE,
        unit=unit,
        note=note,
        allow_unknown=True,
    )


def undo(store: Store, assessor: str) -> Event:
    """Retract the assessor's latest decision that is still in force; returns the retracted event.

    The pair goes back to its state before that decision (it reopens in the queue).
    """
    _check_assessor(assessor)
    recent = store.recent_events(assessor, limit=200)
    retracted = {e.target for e in recent if e.kind == RETRACT}
    retracted |= store.retracted_ids(e.event_id for e in recent)
    for event in recent:
        if event.kind in UNDOABLE and event.event_id not in retracted:
            retract = Event(
                "",
                0,
                event.topic_id,
                event.unit_id,
                RETRACT,
                assessor,
                now(),
                target=event.event_id,
                unit=event.unit,
                source=event.source,
            )
            with store.transaction():
                store.append_event(retract)
            return event
    raise NotFoundError(f"nothing to undo for assessor {assessor!r}")


def mark_topic(store: Store, topic_id: str, status: str, *, assessor: str, unit: str | None = None) -> dict[str, Any]:
    """Set a topic's review status in one unit space (the latest pool's by default, else `doc`).

    A mark is a claim about the labels of one space: reviewing the documents
    says nothing about a chunk pool. `no_answer` is refused while the topic has
    a relevant label.
    """
    check_id(topic_id, "topic id")
    _check_assessor(assessor)
    space = unit_space(store, unit)
    if status not in REVIEW_MARKS:
        raise LabelerError(f"status must be one of {', '.join(REVIEW_MARKS)}, not {status!r}")
    if store.topic_count() and store.topic(topic_id) is None and topic_id not in store.event_topics():
        raise UnknownIdError(f"no topic {topic_id!r} in the workbench")
    if status == NO_ANSWER:
        relevant = relevant_units(store, topic_id)
        if relevant:
            raise ConflictError(
                f"topic {topic_id!r} has {plural(len(relevant), 'relevant label')} (e.g. {relevant[0]}): "
                "it cannot be marked no_answer"
            )
    with store.transaction():
        store.append_event(Event("", 0, topic_id, None, REVIEW, assessor, now(), reason=status, unit=space))
    return {"topic": topic_id, "status": status, "unit": space}


def relevant_units(store: Store, topic_id: str) -> list[str]:
    """Units with a relevant label for a topic, in any unit space."""
    threshold = store.scale().threshold
    found: list[str] = []
    for space in store.unit_spaces():
        found.extend(
            u
            for u, state in topic_labels(store, space, topic_id).items()
            if state.label is not None and state.label >= threshold
        )
    return sorted(found)


def import_judgments(
    store: Store,
    path: str | Path,
    *,
    assessor: str,
    source: str = "import",
    model: str | None = None,
    reviewed: bool = False,
    unit: str | None = None,
    allow_unknown: bool = False,
) -> dict[str, Any]:
    """Existing TREC qrels into the log, all or nothing.

    Grades are checked against the scale; a negative grade means "pooled, not
    judged" as in trec_eval. A line that repeats the assessor's current grade
    is skipped, so importing the same file twice changes nothing.
    """
    _check_assessor(assessor)
    if source not in ("import", "model"):
        raise LabelerError(f"--source must be import or model, not {source!r}")
    if source == "model" and not model:
        raise LabelerError("model judgments need the model's name (--model)")
    space = unit_space(store, unit)
    scale = store.scale()
    lines = list(read_qrels(path))
    for line in lines:
        if line.grade >= 0 and line.grade not in scale.values:
            raise QrelsFormatError(
                f"grade {line.grade} is not on the scale {scale.name!r} ({', '.join(map(str, scale.values))}; "
                "a negative grade means pooled, not judged)",
                path=path,
                line=line.line,
            )
    if not allow_unknown:
        _check_known_many(store, space, path, lines)
    labels = current_labels(store, space)
    time = now()
    events = []
    unchanged = 0
    for line in lines:
        state = labels.get((line.topic_id, line.unit_id))
        if state is not None and state.grades.get(assessor) == line.grade:
            unchanged += 1
            continue
        events.append(
            Event(
                "",
                0,
                line.topic_id,
                line.unit_id,
                GRADE,
                assessor,
                time,
                grade=line.grade,
                source=source,
                model=model,
                unit=space,
                content_hash=None,
            )
        )
    topics = sorted({line.topic_id for line in lines}, key=topic_sort_key)
    # one pass over the lines, not one per topic (5,000 topics x 100,000 lines would take half a minute)
    with_relevant = {line.topic_id for line in lines if line.grade >= scale.threshold}
    marks = {}
    with store.transaction():
        store.append_events(events)
        if reviewed:
            for topic_id in topics:
                status = REVIEWED if topic_id in with_relevant else NO_ANSWER
                marks[topic_id] = status
                store.append_event(Event("", 0, topic_id, None, REVIEW, assessor, time, reason=status, unit=space))
    return {
        "path": str(path),
        "unit": space,
        "assessor": assessor,
        "source": source,
        "judgments": len(events),
        "unchanged": unchanged,
        "topics": len(topics),
        "relevant": sum(1 for line in lines if line.grade >= scale.threshold),
        "pooled_unjudged": sum(1 for line in lines if line.grade < 0),
        "marked": marks,
    }


def _check_assessor(assessor: str) -> None:
    check_id(assessor, "assessor name")


def _check_grade(store: Store, grade: int | None) -> None:
    scale = store.scale()
    if grade is None or grade not in scale.values:
        raise LabelerError(f"grade {grade} is not on the scale {scale.name!r} ({', '.join(map(str, scale.values))})")


def _check_known(store: Store, space: str, topic_id: str, unit_id: str) -> None:
    """Refuse an unknown topic or unit; a unit id that another chunking holds names `--unit chunk:NAME` first.

    Following a bare `--allow-unknown` would store a chunk id as a document id (as runs and
    qrels imports warn, via `unknown_ids_advice`).
    """
    topics = store.topic_count()
    if topics and store.topic(topic_id) is None:
        raise UnknownIdError(
            f"topic {topic_id!r} is not in the workbench, which holds {topics} "
            f"topic{'' if topics == 1 else 's'} (see 'labeler topics list'; "
            "pass --allow-unknown to accept it)"
        )
    if space == "doc":
        if store.document_count() and store.missing_documents([unit_id]):
            raise UnknownIdError(
                f"no document {unit_id!r} in the corpus " + unknown_ids_advice(store, space, [unit_id], accept="it")
            )
    elif store.missing_chunks(space.split(":", 1)[1], [unit_id]):
        raise UnknownIdError(
            f"no chunk {unit_id!r} in {space} " + unknown_ids_advice(store, space, [unit_id], accept="it")
        )


def _check_known_many(store: Store, space: str, path: str | Path, lines) -> None:
    if store.topic_count():
        known = store.topic_ids()
        for line in lines:
            if line.topic_id not in known:
                raise UnknownIdError(
                    f"topic {line.topic_id!r} is not in the workbench (pass --allow-unknown)", path=path, line=line.line
                )
    ids = {line.unit_id for line in lines}
    if space == "doc":
        missing = store.missing_documents(ids) if store.document_count() else []
        where = "the corpus"
    else:
        missing = store.missing_chunks(space.split(":", 1)[1], ids)
        where = space
    if missing:
        first = min((line for line in lines if line.unit_id in set(missing)), key=lambda entry: entry.line)
        raise UnknownIdError(
            f"{plural(len(missing), 'id')} not in {where}, e.g. {', '.join(missing[:5])} "
            + unknown_ids_advice(store, space, missing),
            path=path,
            line=first.line,
        )

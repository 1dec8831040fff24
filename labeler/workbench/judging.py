"""Recording judgments: one event per decision, one short transaction each."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from labeler.checks import (
    ID_NAMES,
    IMPORT_SOURCES,
    RECORDABLE_KINDS,
    choice_problem,
    decision_problem,
    grade_problem,
    grades_kind,
)
from labeler.errors import (
    BadArgumentError,
    ConflictError,
    Hint,
    LabelerError,
    NotFoundError,
    QrelsFormatError,
    UnknownIdError,
    argument_hint,
)
from labeler.formats.qrels import QrelsLine, read_qrels
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
from labeler.scales import GradeScale
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
    check_id(topic_id, ID_NAMES["topic"])
    check_id(unit_id, ID_NAMES["unit"])
    _check_assessor(assessor)
    space = unit_space(store, unit)
    _check_decision(store, kind, grade, source=source, model=model, reason=reason, note=note)
    if not grades_kind(kind):
        grade = None
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


def _check_decision(
    store: Store,
    kind: str,
    grade: int | None,
    *,
    source: str,
    model: str | None,
    reason: str | None,
    note: str | None,
) -> None:
    """A decision the log can hold: a kind and a source it knows, a grade on the scale, what its kind carries.

    The rules of `labeler.checks`, the same a merged log is held to (`labeler.formats.judgment_log`).
    """
    if kind not in (*RECORDABLE_KINDS, ADJUDICATE):
        raise BadArgumentError(f"cannot record a {kind!r} event as a judgment", argument="kind")
    _check_source_and_fields(kind, source, SOURCES, model=model, reason=reason, note=note)
    if grades_kind(kind):
        _check_grade(store, grade)


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
    check_id(topic_id, ID_NAMES["topic"])
    _check_assessor(assessor)
    space = unit_space(store, unit)
    problem = choice_problem(status, REVIEW_MARKS, "review mark")
    if problem is not None:
        raise BadArgumentError(problem, argument="status")
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


@dataclass(frozen=True)
class JudgmentImport:
    """What importing qrels did: the events it appended, what it skipped, and the topics it marked."""

    path: str
    unit: str
    assessor: str
    source: str
    judgments: int  # events appended
    unchanged: int  # lines that repeat the assessor's current grade
    topics: int
    relevant: int
    pooled_unjudged: int  # negative grades
    marked: dict[str, str]  # topic -> review status, with `reviewed`

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


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
) -> JudgmentImport:
    """Existing TREC qrels into the log, all or nothing.

    Grades are checked against the scale; a negative grade means "pooled, not
    judged" as in trec_eval. A line that repeats the assessor's current grade
    is skipped, so importing the same file twice changes nothing.
    """
    _check_import_request(assessor, source, model)
    space = unit_space(store, unit)
    scale = store.scale()
    lines = list(read_qrels(path))
    _check_grades(scale, path, lines)
    if not allow_unknown:
        _check_known_many(store, space, path, lines)
    time = now()
    events, unchanged = _new_grades(store, space, lines, assessor=assessor, source=source, model=model, time=time)
    topics = sorted({line.topic_id for line in lines}, key=topic_sort_key)
    marks = _review_marks(topics, lines, scale.threshold) if reviewed else {}
    with store.transaction():
        store.append_events(events)
        for topic_id, status in marks.items():
            store.append_event(Event("", 0, topic_id, None, REVIEW, assessor, time, reason=status, unit=space))
    return JudgmentImport(
        path=str(path),
        unit=space,
        assessor=assessor,
        source=source,
        judgments=len(events),
        unchanged=unchanged,
        topics=len(topics),
        relevant=sum(1 for line in lines if line.grade >= scale.threshold),
        pooled_unjudged=sum(1 for line in lines if line.grade < 0),
        marked=marks,
    )


def _check_import_request(assessor: str, source: str, model: str | None) -> None:
    """An assessor name, a source qrels can come from, and a model's name when a model made them."""
    _check_assessor(assessor)
    _check_source_and_fields(GRADE, source, IMPORT_SOURCES, model=model, reason=None, note=None)


def _check_grades(scale: GradeScale, path: str | Path, lines: list[QrelsLine]) -> None:
    """Every grade on the scale, or negative (pooled, not judged): the first that is not names its line."""
    for line in lines:
        problem = grade_problem(line.grade, scale.values, scale.name, pooled=True)
        if problem is not None:
            raise QrelsFormatError(problem, path=path, line=line.line)


def _new_grades(
    store: Store, space: str, lines: list[QrelsLine], *, assessor: str, source: str, model: str | None, time: str
) -> tuple[list[Event], int]:
    """The grade events to append, and how many lines repeat the assessor's current grade (skipped)."""
    labels = current_labels(store, space)
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
    return events, unchanged


def _review_marks(topics: list[str], lines: list[QrelsLine], threshold: int) -> dict[str, str]:
    """`reviewed` for a topic with a relevant line, `no_answer` for the others, in topic order."""
    # one pass over the lines, not one per topic (5,000 topics x 100,000 lines would take half a minute)
    with_relevant = {line.topic_id for line in lines if line.grade >= threshold}
    return {topic_id: REVIEWED if topic_id in with_relevant else NO_ANSWER for topic_id in topics}


def _check_source_and_fields(
    kind: str,
    source: str,
    sources: Sequence[str],
    *,
    model: str | None,
    reason: str | None,
    note: str | None,
) -> None:
    """A source among those allowed here, and the fields its kind and source need (`labeler.checks`).

    Shared by recording one decision and importing qrels, so both refuse the same way: the
    source first, then the first missing field, each as a bad argument named after it.
    """
    problem = choice_problem(source, sources, "source")
    if problem is not None:
        raise BadArgumentError(problem, argument="source")
    missing = decision_problem(kind, source=source, model=model, reason=reason, note=note)
    if missing is not None:
        raise BadArgumentError(missing[1], argument=missing[0])


def _check_assessor(assessor: str) -> None:
    check_id(assessor, ID_NAMES["assessor"])


def _check_grade(store: Store, grade: int | None) -> None:
    scale = store.scale()
    problem = grade_problem(grade, scale.values, scale.name)
    if problem is not None:
        raise LabelerError(problem)


def _check_known(store: Store, space: str, topic_id: str, unit_id: str) -> None:
    """Refuse an unknown topic or unit; a unit id that another chunking holds names that chunking's space first.

    Accepting an unknown id outright would store a chunk id as a document id (as runs and
    qrels imports warn, via `unknown_ids_advice`).
    """
    topics = store.topic_count()
    if topics and store.topic(topic_id) is None:
        raise UnknownIdError(
            f"topic {topic_id!r} is not in the workbench, which holds {plural(topics, 'topic')}",
            hints=(Hint("list_topics"), argument_hint("allow_unknown", why="to accept it")),
        )
    if space == "doc":
        if store.document_count() and store.missing_documents([unit_id]):
            advice, hints = unknown_ids_advice(store, space, [unit_id], accept="it")
            raise UnknownIdError(f"no document {unit_id!r} in the corpus{advice}", hints=hints)
    elif store.missing_chunks(space.split(":", 1)[1], [unit_id]):
        advice, hints = unknown_ids_advice(store, space, [unit_id], accept="it")
        raise UnknownIdError(f"no chunk {unit_id!r} in {space}{advice}", hints=hints)


def _check_known_many(store: Store, space: str, path: str | Path, lines: list[QrelsLine]) -> None:
    """Every topic and unit of the qrels known to the workbench; the first unknown names its line."""
    if store.topic_count():
        known = store.topic_ids()
        for line in lines:
            if line.topic_id not in known:
                raise UnknownIdError(
                    f"topic {line.topic_id!r} is not in the workbench",
                    path=path,
                    line=line.line,
                    hints=(Hint("import_topics"), argument_hint("allow_unknown", why="to accept it")),
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
        advice, hints = unknown_ids_advice(store, space, missing)
        raise UnknownIdError(
            f"{plural(len(missing), 'id')} not in {where}, e.g. {', '.join(missing[:5])}{advice}",
            path=path,
            line=first.line,
            hints=hints,
        )

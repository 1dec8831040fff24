"""Recording judgments: one event per decision, one short transaction each."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from labeler.answers.spaces import answer_space, is_answer_unit
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
from labeler.formats.model_jsonl import looks_like_jsonl, read_model_parts
from labeler.formats.qrels import QrelsPart, read_qrels_parts
from labeler.ids import check_id
from labeler.json_form import JsonResult
from labeler.judgments.log import (
    ADJUDICATE,
    FLAG,
    GRADE,
    MODEL,
    NO_ANSWER,
    NOTE,
    RETRACT,
    REVIEW,
    REVIEW_MARKS,
    SKIP,
    SOURCES,
    UNSURE,
    Event,
    PairState,
    probs_problem,
)
from labeler.judgments.model_labels import ModelLabel
from labeler.models import topic_sort_key
from labeler.review import import_mark, mark_problem
from labeler.scales import GradeScale
from labeler.store import Store
from labeler.validation import (
    ID_NAMES,
    IMPORT_SOURCES,
    RECORDABLE_KINDS,
    choice_problem,
    decision_problem,
    grade_problem,
    grades_kind,
    label_grade_problem,
)
from labeler.wording import plural
from labeler.workbench.answer_labels import answer_item_problem
from labeler.workbench.assessors import check_assessor
from labeler.workbench.read_labels import current_labels, label_space, model_labels, topic_labels
from labeler.workbench.review import is_relevant
from labeler.workbench.setup import now
from labeler.workbench.unit_spaces import foreign_ids, missing_units, refuse_foreign, write_space
from labeler.workbench.unknown import unknown_ids_advice

UNDOABLE = (GRADE, SKIP, UNSURE, FLAG, NOTE, ADJUDICATE)
RELEASING = (GRADE, SKIP, UNSURE, ADJUDICATE)
"""Decisions that end the assessor's claim on the pair; a flag or a note keeps them on it."""


@dataclass(frozen=True)
class Judgment:
    """One decision about a pair as its front end drafts it: a grade, skip, unsure (with a reason), flag or note.

    What needs no workbench is checked once, when the draft is made: the topic and unit obey the
    id rule (`labeler.ids`) whatever the front end (an id holding a line break would write a second,
    forged line into exported qrels), the kind is one the log records, the source and the fields its
    kind needs (`labeler.validation`), and the model-only and person-only fields. `probs` (a model's
    grade only) is its probability per grade of the scale; `shown_model` (a person's decision only)
    names the model whose label was on screen, None when none was; `shown_others` (a person's
    decision on a planned overlap pair) the other assessors whose labels were on screen (empty:
    judged blind), None when not known. `order`, `seed` and `pool` say how the pair was served.
    Without `unit`, the space follows `labeler.workbench.unit_spaces`; `allow_unknown` accepts an
    id the workbench does not know, never one that is a unit of another space.
    """

    topic_id: str
    unit_id: str
    assessor: str
    grade: int | None = None
    kind: str = GRADE
    unit: str | None = None
    source: str = "human"
    model: str | None = None
    reason: str | None = None
    note: str | None = None
    active_ms: int | None = None
    order: str | None = None
    seed: int | None = None
    pool: str | None = None
    allow_unknown: bool = False
    probs: Mapping[int, float] | None = None
    shown_model: str | None = None
    shown_others: Sequence[str] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "topic_id", check_id(self.topic_id, ID_NAMES["topic"]))
        object.__setattr__(self, "unit_id", check_id(self.unit_id, ID_NAMES["unit"]))
        if self.kind not in (*RECORDABLE_KINDS, ADJUDICATE):
            raise BadArgumentError(f"cannot record a {self.kind!r} event as a judgment", argument="kind")
        _check_source_and_fields(self.kind, self.source, SOURCES, model=self.model, reason=self.reason, note=self.note)
        _check_shown(self.source, self.shown_model)
        object.__setattr__(self, "shown_others", _checked_others(self.source, self.shown_others))
        if self.probs is not None and (self.source != MODEL or self.kind != GRADE):
            raise BadArgumentError("only a model's grade carries probabilities (its source is model)", argument="probs")
        if not grades_kind(self.kind):
            object.__setattr__(self, "grade", None)


def record_judgment(store: Store, judgment: Judgment) -> Event:
    """Append one decision about a pair, once the workbench knows its assessor, space, unit and grade."""
    topic_id, unit_id, kind, source = judgment.topic_id, judgment.unit_id, judgment.kind, judgment.source
    assessor = check_assessor(store, judgment.assessor)
    answer = answer_space(judgment.unit) if judgment.unit is not None else None
    if answer is not None:
        space, scale = _checked_answer_item(store, judgment), answer.scale
    else:
        space, scale = _checked_unit(store, judgment), store.scale()
    checked_probs = _checked_probs(judgment.probs, scale)
    event = Event(
        "",
        0,
        topic_id,
        unit_id,
        kind,
        assessor,
        now(),
        grade=judgment.grade,
        reason=judgment.reason,
        note=judgment.note,
        source=source,
        model=judgment.model,
        active_ms=judgment.active_ms,
        content_hash=store.unit_content_hash(space, unit_id),
        order=judgment.order,
        seed=judgment.seed,
        pool=judgment.pool,
        unit=space,
        probs=checked_probs,
        shown_model=judgment.shown_model,
        shown_others=tuple(judgment.shown_others) if judgment.shown_others is not None else None,
    )
    with store.transaction():
        if kind in RELEASING:  # the decision ends the assessor's claim on the pair (labeler.workbench.claims)
            store.delete_claim(space, topic_id, unit_id, assessor)
        return store.append_event(event)


def _checked_others(source: str, shown_others: Sequence[str] | None) -> tuple[str, ...] | None:
    """`shown_others` only on a person's decision, each an assessor id."""
    if shown_others is None:
        return None
    if source == MODEL:
        raise BadArgumentError(
            "a model's judgment has no others shown (that records what a person saw)", argument="shown_others"
        )
    return tuple(check_id(name, "assessor name") for name in shown_others)


def _check_shown(source: str, shown_model: str | None) -> None:
    """`shown_model` only on a person's decision, a name."""
    if shown_model is not None:
        if source == MODEL:
            raise BadArgumentError(
                "a model's judgment has no shown model (that records what a person saw)", argument="shown_model"
            )
        check_id(shown_model, "shown model")


def _checked_probs(probs: Mapping[int, float] | None, scale: GradeScale) -> dict[int, float] | None:
    """A model's probabilities per grade, sound for the space's scale."""
    if probs is None:
        return None
    checked = {int(g): p for g, p in probs.items()}
    problem = probs_problem(checked, scale.values)
    if problem is not None:
        raise BadArgumentError(problem, argument="probs")
    return {g: float(p) for g, p in checked.items()}


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
        Judgment(
            topic_id=topic_id,
            unit_id=unit_id,
            assessor=assessor,
            grade=grade,
            kind=ADJUDICATE,
            unit=unit,
            note=note,
            allow_unknown=True,
        ),
    )


def is_relevance_decision(event: Event) -> bool:
    """An event of a relevance space (documents or a chunking): not a nugget version, not an answer judgment."""
    return not is_answer_unit(event.unit)


def undo(store: Store, assessor: str, *, where: Callable[[Event], bool] = is_relevance_decision) -> Event:
    """Retract the assessor's latest decision that is still in force; returns the retracted event.

    The pair goes back to its state before that decision (it reopens in the queue). `where`
    chooses the decisions that count: relevance decisions unless told otherwise (the answer
    judging screens undo only answer judgments; a nugget version is never undone here).
    """
    assessor = _check_assessor(assessor)
    recent = store.recent_events(assessor, limit=200)
    retracted = {e.target for e in recent if e.kind == RETRACT}
    retracted |= store.retracted_ids(e.event_id for e in recent)
    for event in recent:
        if not where(event):
            continue
        # a model's label imported under the assessor's name is not their decision to undo (nor to show)
        if event.kind in UNDOABLE and event.source != MODEL and event.event_id not in retracted:
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


@dataclass(frozen=True)
class TopicMark(JsonResult):
    """`mark_topic`'s result: the topic, the review status it was given, and the unit space the mark is for."""

    topic: str
    status: str
    unit: str


def mark_topic(store: Store, topic_id: str, status: str, *, assessor: str, unit: str | None = None) -> TopicMark:
    """Set a topic's review status in one unit space (without `unit`: the one the workbench holds).

    A mark is a claim about the labels of one space: reviewing the documents
    says nothing about a chunk pool. `no_answer` is refused while the topic has
    a relevant label.
    """
    topic_id = check_id(topic_id, ID_NAMES["topic"])
    assessor = check_assessor(store, assessor)
    space = write_space(store, unit, why="to say which space the mark is for")
    problem = choice_problem(status, REVIEW_MARKS, "review mark")
    if problem is not None:
        raise BadArgumentError(problem, argument="status")
    if store.topic_count() and store.topic(topic_id) is None and topic_id not in store.event_topics():
        raise UnknownIdError(f"no topic {topic_id!r} in the workbench")
    problem = mark_problem(status, relevant_units(store, topic_id) if status == NO_ANSWER else [])
    if problem is not None:
        raise ConflictError(f"topic {topic_id!r} {problem}")
    with store.transaction():
        store.append_event(Event("", 0, topic_id, None, REVIEW, assessor, now(), reason=status, unit=space))
    return TopicMark(topic=topic_id, status=status, unit=space)


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
class JudgmentImport(JsonResult):
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
    unmarked: list[str]  # with `reviewed`: topics left unmarked, nothing judged (only pooled, not judged)


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

    Streamed: the file is read and appended a part at a time inside one transaction, so memory does
    not hold the file's lines or events. A problem with a grade or an id is kept until the whole file
    has been read, so errors come in the order they did when the file was read first: a format error
    anywhere, then the first grade off the scale, then the first unknown topic, then the unknown units.

    Without `unit`, the file's ids choose the space (`labeler.workbench.unit_spaces`: documents go to
    `doc`, chunks of one chunking to its space), read in a first pass; `allow_unknown` accepts ids the
    workbench does not know, never ids of another of its spaces.
    """
    assessor = _check_import_request(store, assessor, source, model)
    if reviewed and source == MODEL:  # a review mark says people checked the topic: a model's file cannot
        raise BadArgumentError("a model's labels cannot mark topics reviewed (people's labels do)", argument="reviewed")
    scale = store.scale()
    jsonl = source == MODEL and looks_like_jsonl(path)
    space = write_space(store, unit, ids=_file_units(path, scale, jsonl), why="to say which space the labels go to")
    threshold = scale.threshold
    checks = _ImportChecks(store, space, path, scale, source=source, allow_unknown=allow_unknown)
    current = model_labels(store, str(model), space) if source == MODEL else {}
    labels = _model_states(current, assessor) if source == MODEL else current_labels(store, space)
    time = now()
    judgments = unchanged = relevant = pooled_unjudged = 0
    topics_seen: set[str] = set()
    with store.transaction():
        parts = _model_parts(path, scale) if jsonl else ((part, None) for part in read_qrels_parts(path))
        for part, probs in parts:
            if checks.passes(part):
                if probs is not None:
                    events, skipped = _new_model_events(current, part, probs, assessor, str(model), time, space)
                    judgments += store.append_events(events)
                else:
                    grades, skipped = _new_grades(labels, part, assessor)
                    judgments += store.append_grades(
                        grades, assessor=assessor, time=time, source=source, model=model, unit=space
                    )
                unchanged += skipped
            topics_seen.update(part.topics)
            relevant += sum(map(threshold.__le__, part.grades))
            pooled_unjudged += sum(map((0).__gt__, part.grades))
        checks.raise_first()
        topics = sorted(topics_seen, key=topic_sort_key)
        marks, unmarked = _review_marks(store, space, topics) if reviewed else ({}, [])
        for topic_id, status in marks.items():
            store.append_event(Event("", 0, topic_id, None, REVIEW, assessor, time, reason=status, unit=space))
    return JudgmentImport(
        path=str(path),
        unit=space,
        assessor=assessor,
        source=source,
        judgments=judgments,
        unchanged=unchanged,
        topics=len(topics),
        relevant=relevant,
        pooled_unjudged=pooled_unjudged,
        marked=marks,
        unmarked=unmarked,
    )


def _file_units(path: str | Path, scale: GradeScale, jsonl: bool) -> Iterator[list[str]]:
    """The unit ids of a qrels (or a model's JSON lines) file, a part at a time."""
    parts = (part for part, _ in _model_parts(path, scale)) if jsonl else read_qrels_parts(path)
    for part in parts:
        yield part.units


def _model_parts(path: str | Path, scale: GradeScale) -> Iterator[tuple[QrelsPart, list[dict[int, float] | None]]]:
    for part in read_model_parts(path, scale.values, scale.name):
        yield part.qrels, part.probs


def _model_states(current: Mapping[tuple[str, str], ModelLabel], assessor: str) -> dict[tuple[str, str], PairState]:
    """A model's current labels as pair states holding `assessor`'s grade (what `_new_grades` compares with).

    A model's grades are not in `current_labels` (they are not people's labels): re-importing a model's
    file compares with what that model says now, so the same file twice changes nothing.
    """
    return {pair: PairState(*pair, grades={assessor: label.grade}) for pair, label in current.items()}


def _new_model_events(
    current: Mapping[tuple[str, str], ModelLabel],
    part: QrelsPart,
    probs: list[dict[int, float] | None],
    assessor: str,
    model: str,
    time: str,
    space: str,
) -> tuple[list[Event], int]:
    """A model's labels to append (with their probabilities), and how many repeat its current label exactly."""
    events, unchanged = [], 0
    for topic_id, unit_id, grade, p in zip(part.topics, part.units, part.grades, probs, strict=True):
        label = current.get((topic_id, unit_id))
        if label is not None and label.grade == grade and label.probs == p:
            unchanged += 1
            continue
        events.append(
            Event(
                "",
                0,
                topic_id,
                unit_id,
                GRADE,
                assessor,
                time,
                grade=grade,
                source=MODEL,
                model=model,
                unit=space,
                probs=p,
            )
        )
    return events, unchanged


def _check_import_request(store: Store, assessor: str, source: str, model: str | None) -> str:
    """An assessor name (returned in NFC), a source qrels can come from, and a model's name when a model made them."""
    assessor = check_assessor(store, assessor)
    _check_source_and_fields(GRADE, source, IMPORT_SOURCES, model=model, reason=None, note=None)
    return assessor


# Unit ids known to be in the workbench, kept to spare the store a look-up per part; cleared when this large.
_KNOWN_UNITS_KEPT = 100_000


class _ImportChecks:
    """Grades on the scale and ids known to the workbench, a part at a time; the first problem kept, not raised.

    The same problems, in the same order of precedence, as checking every line's grade and then every
    line's ids after reading the whole file: a grade off the scale anywhere comes before an unknown
    topic anywhere, which comes before the unknown units (all of them counted, the first line named).
    """

    def __init__(
        self, store: Store, space: str, path: str | Path, scale: GradeScale, *, source: str, allow_unknown: bool
    ):
        self.store = store
        self.source = source  # a model's grades are on the scale; imported qrels' may be negative (pooled)
        self.space = space
        self.path = path
        self.scale = scale
        self.values = scale.values
        self.grade_error: QrelsFormatError | None = None
        self.topic_error: UnknownIdError | None = None
        self.missing: dict[str, int] = {}  # unknown unit id -> its first line
        self.foreign: dict[str, int] = {}  # accepted as unknown, but a unit of another space -> its first line
        self.allow_unknown = allow_unknown
        self.check_topics = not allow_unknown and bool(store.topic_count())
        self.known_topics = store.topic_ids() if self.check_topics else set()
        # with unknown ids allowed, ids are still looked up: one of another space is refused all the same
        self.check_units = space != "doc" or bool(store.document_count())
        self.known_units: set[str] = set()

    def passes(self, part: QrelsPart) -> bool:
        """Check a part; False once any problem is known (the import will fail: nothing more to write)."""
        if self.grade_error is None:
            self._check_grades(part)
        if self.grade_error is None and self.topic_error is None:
            if self.check_topics:
                self._check_topics(part)
            if self.topic_error is None and self.check_units:
                self._check_units(part)
        return self.grade_error is None and self.topic_error is None and not self.missing and not self.foreign

    def _check_grades(self, part: QrelsPart) -> None:
        values, name, source = self.values, self.scale.name, self.source
        bad = {g for g in set(part.grades) if label_grade_problem(g, values, name, kind=GRADE, source=source)}
        if bad:
            line, grade = next((n, g) for n, g in zip(part.lines, part.grades, strict=True) if g in bad)
            problem = label_grade_problem(grade, values, name, kind=GRADE, source=source)
            self.grade_error = QrelsFormatError(str(problem), path=self.path, line=line)

    def _check_topics(self, part: QrelsPart) -> None:
        known = self.known_topics
        if set(part.topics) <= known:
            return
        line, topic_id = next((n, t) for n, t in zip(part.lines, part.topics, strict=True) if t not in known)
        self.topic_error = UnknownIdError(
            f"topic {topic_id!r} is not in the workbench",
            path=self.path,
            line=line,
            hints=(Hint("import_topics"), argument_hint("allow_unknown", why="to accept it")),
        )

    def _check_units(self, part: QrelsPart) -> None:
        ids = set(part.units) - self.known_units
        if not ids:
            return
        if self.space == "doc":
            missing = set(self.store.missing_documents(ids))
        else:
            missing = set(self.store.missing_chunks(self.space.split(":", 1)[1], ids))
        if len(self.known_units) > _KNOWN_UNITS_KEPT:
            self.known_units.clear()
        self.known_units |= ids - missing
        kept = self.missing
        if missing and self.allow_unknown:
            missing, kept = foreign_ids(self.store, self.space, missing), self.foreign
        if missing:
            for number, unit_id in zip(part.lines, part.units, strict=True):
                if unit_id in missing and unit_id not in kept:
                    kept[unit_id] = number

    def raise_first(self) -> None:
        """Raise the problem the whole file has, if any, as checking it after reading it all would."""
        if self.grade_error is not None:
            raise self.grade_error
        if self.topic_error is not None:
            raise self.topic_error
        if self.foreign:
            refuse_foreign(
                self.store, self.space, sorted(self.foreign), path=self.path, line=min(self.foreign.values())
            )
        if self.missing:
            missing = sorted(self.missing)
            where = "the corpus" if self.space == "doc" else self.space
            advice, hints = unknown_ids_advice(self.store, self.space, missing)
            raise UnknownIdError(
                f"{plural(len(missing), 'id')} not in {where}, e.g. {', '.join(missing[:5])}{advice}",
                path=self.path,
                line=min(self.missing.values()),
                hints=hints,
            )


def _new_grades(
    labels: dict[tuple[str, str], PairState], part: QrelsPart, assessor: str
) -> tuple[Iterable[tuple[str, str, int]], int]:
    """The (topic, unit, grade) of a part to append, and how many lines repeat the assessor's current grade."""
    lines = zip(part.topics, part.units, part.grades, strict=True)
    if not labels:
        return lines, 0
    new = []
    unchanged = 0
    for topic_id, unit_id, grade in lines:
        state = labels.get((topic_id, unit_id))
        if state is not None and state.grades.get(assessor) == grade:
            unchanged += 1
        else:
            new.append((topic_id, unit_id, grade))
    return new, unchanged


def _review_marks(store: Store, space: str, topics: list[str]) -> tuple[dict[str, str], list[str]]:
    """Each imported topic's mark by `import_mark`, over its labels in the workbench (the file's lines included).

    In topic order, and the topics left unmarked: those with no real label in `space` (only
    "pooled, not judged").
    """
    judged, relevant = _judged_and_relevant(store, space, set(topics))
    marks: dict[str, str] = {}
    unmarked: list[str] = []
    for topic_id in topics:
        mark = import_mark(judged=topic_id in judged, relevant=sorted(relevant.get(topic_id, [])))
        if mark is None:
            unmarked.append(topic_id)
        else:
            marks[topic_id] = mark
    return marks, unmarked


def _judged_and_relevant(store: Store, space: str, wanted: set[str]) -> tuple[set[str], dict[str, list[str]]]:
    """Of the `wanted` topics: those with a real label in `space`, and each one's relevant units in any space.

    Read a topic at a time (`topic_labels`), so an import of a million lines holds one topic's labels,
    not every label of the workbench, while it marks the topics it imported.
    """
    threshold = store.scale().threshold
    judged: set[str] = set()
    relevant: dict[str, list[str]] = {}
    for each in store.unit_spaces():
        changes = store.change_times(each)
        for topic_id in sorted(wanted, key=topic_sort_key):
            labels = topic_labels(store, each, topic_id, changes)
            if each == space and any(state.judged for state in labels.values()):
                judged.add(topic_id)
            found = [unit_id for unit_id, state in labels.items() if is_relevant(state, threshold)]
            if found:
                relevant.setdefault(topic_id, []).extend(found)
    return judged, relevant


def _check_source_and_fields(
    kind: str,
    source: str,
    sources: Sequence[str],
    *,
    model: str | None,
    reason: str | None,
    note: str | None,
) -> None:
    """A source among those allowed here, and the fields its kind and source need (`labeler.validation`).

    Shared by recording one decision and importing qrels, so both refuse the same way: the
    source first, then the first missing field, each as a bad argument named after it.
    """
    problem = choice_problem(source, sources, "source")
    if problem is not None:
        raise BadArgumentError(problem, argument="source")
    missing = decision_problem(kind, source=source, model=model, reason=reason, note=note)
    if missing is not None:
        raise BadArgumentError(missing[1], argument=missing[0])


def _check_assessor(assessor: str) -> str:
    return check_id(assessor, ID_NAMES["assessor"])


def _checked_unit(store: Store, judgment: Judgment) -> str:
    """The relevance space a judgment goes to, once its grade is on the scale and its topic and unit are known."""
    unit_id = judgment.unit_id
    space = write_space(store, judgment.unit, ids=[[unit_id]], why="to say which space the judgment belongs to")
    if grades_kind(judgment.kind):
        _check_grade(store.scale(), judgment.grade)
    if judgment.allow_unknown:
        refuse_foreign(store, space, missing_units(store, space, [unit_id]))
    else:
        _check_known(store, space, judgment.topic_id, unit_id)
    return space


def _checked_answer_item(store: Store, judgment: Judgment) -> str:
    """The answer space a judgment names, once its grade is one of the space's and its item one the answer has.

    An answer's item is no corpus unit: unknown ids are never accepted there (`allow_unknown` is moot).
    """
    space = label_space(store, judgment.unit)
    answer = answer_space(space)
    assert answer is not None  # label_space keeps an answer space as it is
    if grades_kind(judgment.kind):
        _check_grade(answer.scale, judgment.grade)
    problem = answer_item_problem(store, space, judgment.topic_id, judgment.unit_id)
    if problem is not None:
        raise UnknownIdError(problem)
    return space


def _check_grade(scale: GradeScale, grade: int | None) -> None:
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

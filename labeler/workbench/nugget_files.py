"""A topic's nuggets from files, and nuggetizer's files written from what the log holds.

An import logs each new nugget of a file as a nugget version through `record_nugget_changes`
(one transaction, checked); changes by hand are `labeler.workbench.nugget_edits`'.

Assignments from a file are grade events in the run's assignment space (`labeler.answers.spaces`),
matched to the topic's nuggets by exact text; exports write nuggetizer's formats from the current
nuggets and people's current labels, each topic's nuggets in rank order (the order of the file
they were imported from), so a file imported and exported again comes back as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from labeler.answers.model import Answer
from labeler.answers.nuggets import (
    CREATE,
    DRAFTED,
    IMPORTED,
    Nugget,
    NuggetVersion,
    file_nugget_id,
)
from labeler.answers.spaces import ASSIGNMENT_GRADES, ASSIGNMENT_LABELS, assignment_space
from labeler.errors import BadArgumentError, ConflictError, Hint, NotFoundError, UnknownIdError
from labeler.formats.nuggets import (
    FileNugget,
    NuggetFormatError,
    NuggetRecord,
    assignment_line,
    nugget_line,
    read_assignments,
    read_nuggets,
)
from labeler.ids import check_id
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import GRADE, MODEL, PairState, event_order, model_events
from labeler.store import Store
from labeler.validation import IMPORT_SOURCES, choice_problem
from labeler.workbench.answer_labels import (
    NuggetChange,
    answer_labels,
    answer_run_names,
    nuggets_now,
    record_nugget_changes,
)
from labeler.workbench.assessors import check_assessor
from labeler.workbench.nugget_edits import known_topic
from labeler.workbench.setup import now


@dataclass(frozen=True)
class FileImport(JsonResult):
    """The file a nugget or assignment import read, and who its contents are recorded for."""

    path: str
    source: str
    model: str | None = json_field(omit_if_none=True)
    assessor: str = ""


@dataclass(frozen=True)
class NuggetImport(FileImport):
    """What `import_nuggets` logged: new nuggets, and those the workbench held already (logged again: none)."""

    topics: int = 0
    nuggets: int = 0
    unchanged: int = 0


@dataclass(frozen=True)
class AssignmentImport(FileImport):
    """What `import_assignments` logged: assignments per run, and those equal to the assessor's or model's own."""

    runs: tuple[str, ...] = ()
    answers: int = 0
    assignments: int = 0
    unchanged: int = 0


@dataclass(frozen=True)
class NuggetList(JsonResult):
    """The nuggets the log holds now: people's and imported ones, or one model's drafts."""

    topic: str | None = json_field(omit_if_none=True)
    model: str | None = json_field(omit_if_none=True)
    nuggets: tuple[Nugget, ...] = ()


@dataclass(frozen=True)
class NuggetExport(JsonResult):
    """nuggetizer's file as text, and what it holds; answers left out of an assignment file, and why."""

    kind: str
    topics: int
    lines: int
    nuggets: int
    left_out: tuple[str, ...] = ()
    text: str = json_field(omit=True, default="")


# ---------------------------------------------------------------- importing nuggets


def import_nuggets(
    store: Store, path: str | Path, *, assessor: str, source: str = "import", model: str | None = None
) -> NuggetImport:
    """A nuggetizer nugget file into the log, as imported nuggets, or a model's drafts; all or nothing.

    Each topic's nuggets are ranked in file order. A nugget whose text, importance and rank its
    topic holds already (people's for an import, the model's for its drafts) is not logged again,
    so importing a file twice adds nothing.
    """
    assessor = _check_source(store, assessor, source, model)
    origin = DRAFTED if source == MODEL else IMPORTED
    topics = store.topic_ids()
    changes: list[NuggetChange] = []
    seen_topics = unchanged = 0
    for record in read_nuggets(path):
        _require_topic(topics, record, path)
        held = {n.text: n for n in nuggets_now(store, record.qid, model=model)}
        seen_topics += 1
        for rank, nugget in enumerate(record.nuggets, start=1):
            if _held_already(held.get(nugget.text), nugget, rank, record, path):
                unchanged += 1
                continue
            version = NuggetVersion(CREATE, nugget.text, nugget.importance, rank, origin)
            nugget_id = file_nugget_id(record.qid, nugget.text, model)
            changes.append(NuggetChange(record.qid, nugget_id, version, assessor, source, model))
    if changes:
        record_nugget_changes(store, changes)
    return NuggetImport(str(path), source, model, assessor, seen_topics, len(changes), unchanged)


def _held_already(held: Nugget | None, nugget: FileNugget, rank: int, record: NuggetRecord, path: str | Path) -> bool:
    """Whether the topic holds the nugget already; one of its text held with another importance or rank is refused."""
    if held is None:
        return False
    if (held.importance, held.rank) == (nugget.importance, rank):
        return True
    raise ConflictError(
        f"topic {record.qid} holds nugget {held.nugget_id} with this text already, {held.importance} at rank "
        f"{held.rank} (the file has it {nugget.importance} at rank {rank}): two nuggets with one text could not "
        "be told apart",
        path=path,
        line=record.line,
        hints=Hint("list_nuggets"),
    )


def _check_source(store: Store, assessor: str, source: str, model: str | None) -> str:
    problem = choice_problem(source, IMPORT_SOURCES, "source")
    if problem is not None:
        raise BadArgumentError(problem, argument="source")
    if source == MODEL and not (model or "").strip():
        raise BadArgumentError("a model's nuggets or assignments name the model", argument="model")
    if source != MODEL and model is not None:
        raise BadArgumentError("a model's name goes with a model's file only", argument="model")
    if model is not None:
        check_id(model, "model name")
    return check_assessor(store, assessor)


def _require_topic(topics: set[str], record: NuggetRecord, path: str | Path) -> None:
    if record.qid not in topics:
        raise UnknownIdError(
            f"topic {record.qid} is not a topic of the workbench",
            path=path,
            line=record.line,
            hints=Hint("import_topics"),
        )


# ---------------------------------------------------------------- listing


def list_nuggets(store: Store, topic: str | None = None, model: str | None = None) -> NuggetList:
    """A topic's (or every topic's) nuggets now, vital before okay, then by rank; with `model`, that model's drafts."""
    if topic is not None:
        topic = known_topic(store, topic)
    return NuggetList(topic, model, tuple(nuggets_now(store, topic, model=model)))


# ---------------------------------------------------------------- assignments from a file


def import_assignments(
    store: Store, path: str | Path, *, assessor: str, source: str = "import", model: str | None = None
) -> AssignmentImport:
    """A nuggetizer assignment file into the log, as grade events of each run's assignment space; all or nothing.

    The run must be an imported answer run with an answer to the topic; each nugget is matched to one
    of the topic's nuggets by its exact text. An assignment equal to the one the assessor (or the
    model) holds is not logged again.
    """
    assessor = _check_source(store, assessor, source, model)
    topics = store.topic_ids()
    grades: dict[str, list[tuple[str, str, int]]] = {}
    answers = unchanged = 0
    for record in read_assignments(path):
        _require_topic(topics, record, path)
        run = _require_answer(store, record, path)
        held = _held_grades(store, assignment_space(run), record.qid, assessor, model)
        answers += 1
        for nugget_id, grade in _matched(store, record, path):
            if held.get(nugget_id) == grade:
                unchanged += 1
            else:
                grades.setdefault(run, []).append((record.qid, nugget_id, grade))
    time = now()
    with store.transaction():
        for run, rows in grades.items():
            store.append_grades(
                rows, assessor=assessor, time=time, source=source, model=model, unit=assignment_space(run)
            )
    count = sum(len(rows) for rows in grades.values())
    return AssignmentImport(str(path), source, model, assessor, tuple(sorted(grades)), answers, count, unchanged)


def _require_answer(store: Store, record: NuggetRecord, path: str | Path) -> str:
    run = str(record.run_id)
    if not store.has_answer_run(run):
        raise NotFoundError(
            f"answer run {run} is not in the workbench", path=path, line=record.line, hints=Hint("import_answers")
        )
    if store.answer(run, record.qid) is None:
        raise NotFoundError(
            f"answer run {run} has no answer to topic {record.qid}",
            path=path,
            line=record.line,
            hints=Hint("list_answer_runs"),
        )
    return run


def _matched(store: Store, record: NuggetRecord, path: str | Path) -> Iterator[tuple[str, int]]:
    """`(nugget id, grade)` of each of the line's nuggets, matched to the topic's by exact text."""
    by_text = {n.text: n.nugget_id for n in nuggets_now(store, record.qid)}
    for number, nugget in enumerate(record.nuggets, start=1):
        nugget_id = by_text.get(nugget.text)
        if nugget_id is None:
            raise NuggetFormatError(
                f"nugget {number} ({nugget.text[:60]!r}) is not one of topic {record.qid}'s nuggets",
                path=path,
                line=record.line,
                hints=Hint("list_nuggets"),
            )
        yield nugget_id, ASSIGNMENT_GRADES[str(nugget.assignment)]


def _held_grades(store: Store, space: str, topic: str, assessor: str, model: str | None) -> dict[str, int]:
    """`nugget id -> grade` the assessor (or the model) holds now in an assignment space for one topic."""
    if model is None:
        return {
            nugget_id: state.grades[assessor]
            for nugget_id, state in answer_labels(store, space, topic).items()
            if assessor in state.grades
        }
    return _model_grades(store, space, topic, model)


def _model_grades(store: Store, space: str, topic: str, model: str) -> dict[str, int]:
    held: dict[str, int] = {}
    events = (e for e in store.topic_events(space, topic) if e.source == MODEL and e.model == model)
    for event in sorted(model_events(events), key=event_order):
        if event.kind == GRADE and event.grade is not None and event.unit_id is not None:
            held[event.unit_id] = event.grade
    return held


# ---------------------------------------------------------------- exports


def export_nuggets(store: Store) -> NuggetExport:
    """The topics' nuggets as nuggetizer's nugget file: topics in topic order, each topic's nuggets in rank order.

    The query written is the topic's text; a topic without nuggets has no line.
    """
    lines = []
    count = 0
    for topic in store.topics():
        nuggets = in_file_order(nuggets_now(store, topic.topic_id))
        if nuggets:
            lines.append(nugget_line(topic.topic_id, topic.title, [FileNugget(n.text, n.importance) for n in nuggets]))
            count += len(nuggets)
    return NuggetExport("nuggets", len(lines), len(lines), count, text="".join(lines))


def export_assignments(store: Store, runs: Sequence[str] | None = None) -> NuggetExport:
    """People's current assignments as nuggetizer's assignment file: one line per (run, topic), runs in order given.

    A line needs every one of the topic's nuggets assigned with one label: an answer with a nugget
    unassigned, or in conflict, is left out, and named in `left_out`.
    """
    names = answer_run_names(store, runs)
    lines: list[str] = []
    left_out: list[str] = []
    topics: set[str] = set()
    nugget_count = 0
    texts = {t.topic_id: t.title for t in store.topics()}
    for run in names:
        for answer in _answers_in_topic_order(store, run, texts):
            nuggets = in_file_order(nuggets_now(store, answer.topic_id))
            labels = answer_labels(store, assignment_space(run), answer.topic_id)
            problem = _assignment_problem(nuggets, labels)
            if problem is not None:
                left_out.append(f"run {run} topic {answer.topic_id}: {problem}")
                continue
            assigned = tuple(
                FileNugget(n.text, n.importance, ASSIGNMENT_LABELS[int(labels[n.nugget_id].label or 0)])
                for n in nuggets
            )
            record = NuggetRecord(
                0, answer.topic_id, texts.get(answer.topic_id, ""), assigned, run, answer.text, answer.response_length
            )
            lines.append(assignment_line(record))
            topics.add(answer.topic_id)
            nugget_count += len(nuggets)
    return NuggetExport("assignments", len(topics), len(lines), nugget_count, tuple(left_out), "".join(lines))


def in_file_order(nuggets: Iterable[Nugget]) -> list[Nugget]:
    """A topic's nuggets as a file lists them: by rank (an okay nugget may come before a vital one), then id."""
    return sorted(nuggets, key=lambda n: (n.rank, n.nugget_id))


def _answers_in_topic_order(store: Store, run: str, texts: dict[str, str]) -> list[Answer]:
    order = {topic: position for position, topic in enumerate(texts)}
    return sorted(store.answers(run), key=lambda a: (order.get(a.topic_id, len(order)), a.topic_id))


def _assignment_problem(nuggets: Sequence[Nugget], labels: dict[str, PairState]) -> str | None:
    if not nuggets:
        return "the topic has no nuggets"
    conflicts = [n for n in nuggets if n.nugget_id in labels and labels[n.nugget_id].conflict]
    if conflicts:
        return f"{len(conflicts)} of {len(nuggets)} nuggets in conflict"
    missing = [n for n in nuggets if n.nugget_id not in labels or not labels[n.nugget_id].judged]
    if missing:
        return f"{len(missing)} of {len(nuggets)} nuggets not assigned"
    return None

"""A topic's nuggets, from files and by hand, and nuggetizer's files written from what the log holds.

Every change is a nugget version logged through `record_nugget_changes` (one transaction, checked):
an import logs each new nugget of a file, `add_nugget`, `edit_nugget`, `merge_nuggets` and
`delete_nugget` one change each. A person editing a model's draft makes a nugget of their own
(origin `edited`, naming the draft), so drafts and people's nuggets stay apart.

Assignments from a file are grade events in the run's assignment space (`labeler.answers.spaces`),
matched to the topic's nuggets by exact text; exports write nuggetizer's formats from the current
nuggets and people's current labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from labeler.answers.model import Answer
from labeler.answers.nuggets import (
    CREATE,
    DELETE,
    DRAFTED,
    EDIT,
    EDITED,
    IMPORTED,
    MERGE,
    RANK,
    WRITTEN,
    Nugget,
    NuggetVersion,
    new_nugget_id,
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
from labeler.workbench.answer_labels import NuggetChange, answer_labels, nuggets_now, record_nugget_changes
from labeler.workbench.assessors import check_assessor
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
class NuggetEdit(JsonResult):
    """One change made by hand: what it did, and the nuggets as they are after it (the one kept first)."""

    action: str
    topic_id: str
    nuggets: tuple[Nugget, ...]
    changed: bool = True


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
            changes.append(NuggetChange(record.qid, new_nugget_id(), version, assessor, source, model))
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
    """A topic's (or every topic's) nuggets now, in nugget order; with `model`, that model's drafts."""
    if topic is not None:
        topic = check_id(topic, "topic id")
        if store.topic(topic) is None:
            raise NotFoundError(f"topic {topic} is not a topic of the workbench", hints=Hint("list_topics"))
    return NuggetList(topic, model, tuple(nuggets_now(store, topic, model=model)))


# ---------------------------------------------------------------- editing by hand


def add_nugget(
    store: Store, topic: str, text: str, importance: str, *, assessor: str, sources: Sequence[str] = ()
) -> NuggetEdit:
    """A nugget a person writes from scratch, ranked after the topic's others; `sources` the units it came from."""
    topic = _known_topic(store, topic)
    current = nuggets_now(store, topic)
    _refuse_held_text(current, text, None)
    units = tuple(check_id(unit, "unit id") for unit in sources)
    rank = max((n.rank for n in current), default=0) + 1
    version = NuggetVersion(CREATE, text, importance, rank, WRITTEN, sources=units)
    change = NuggetChange(topic, new_nugget_id(), version, assessor)
    return _logged(store, CREATE, topic, [change])


@dataclass(frozen=True)
class _Edits:
    """What an edit gives: a new text, importance or rank (None: kept as it is)."""

    text: str | None
    importance: str | None
    rank: int | None

    def applied(self, version: NuggetVersion) -> NuggetVersion:
        return replace(
            version,
            text=version.text if self.text is None else self.text,
            importance=self.importance or version.importance,
            rank=version.rank if self.rank is None else self.rank,
        )


def edit_nugget(
    store: Store,
    topic: str,
    nugget_id: str,
    *,
    assessor: str,
    text: str | None = None,
    importance: str | None = None,
    rank: int | None = None,
) -> NuggetEdit:
    """A new text, importance or rank for a nugget; a model's draft edited becomes the person's own nugget."""
    edits = _Edits(text, importance, rank)
    if edits == _Edits(None, None, None):
        raise BadArgumentError("nothing to change: give a text, an importance or a rank", argument="text")
    topic = _known_topic(store, topic)
    current = nuggets_now(store, topic)
    nugget = _find(current, nugget_id)
    if nugget is None:
        return _edit_draft(store, topic, nugget_id, assessor, edits)
    if text is not None:
        _refuse_held_text(current, text, nugget.nugget_id)
    version = _version_of(nugget)
    edited = edits.applied(version)
    if edited == version:
        return NuggetEdit(EDIT, topic, (nugget,), changed=False)
    action = EDIT if edited.text != nugget.text else RANK
    change = NuggetChange(topic, nugget.nugget_id, replace(edited, action=action), assessor)
    return _logged(store, action, topic, [change])


def _edit_draft(store: Store, topic: str, draft_id: str, assessor: str, edits: _Edits) -> NuggetEdit:
    """A person's nugget made from a model's draft (origin `edited`); editing the same draft again edits it."""
    draft = _find_draft(store, topic, draft_id)
    current = nuggets_now(store, topic)
    mine = next((n for n in current if n.draft == draft.nugget_id), None)
    if mine is not None:
        return edit_nugget(
            store,
            topic,
            mine.nugget_id,
            assessor=assessor,
            text=edits.text,
            importance=edits.importance,
            rank=edits.rank,
        )
    made = NuggetVersion(CREATE, draft.text, draft.importance, draft.rank, EDITED, sources=draft.sources)
    version = replace(edits.applied(made), draft=draft.nugget_id)
    _refuse_held_text(current, version.text, None)
    return _logged(store, CREATE, topic, [NuggetChange(topic, new_nugget_id(), version, assessor)])


def merge_nuggets(store: Store, topic: str, keep: str, others: Sequence[str], *, assessor: str) -> NuggetEdit:
    """Merge `others` into `keep`: `keep` records what it took in, each other where it went (and leaves the list)."""
    topic = _known_topic(store, topic)
    if not others:
        raise BadArgumentError("name at least one nugget to merge into the one kept", argument="others")
    if keep in others or len(set(others)) != len(others):
        raise BadArgumentError("a nugget is named twice among those merged", argument="others")
    current = nuggets_now(store, topic)
    kept = _require(current, keep, topic)
    merged = [_require(current, other, topic) for other in others]
    taken = tuple(n.nugget_id for n in merged)
    changes = [
        NuggetChange(topic, kept.nugget_id, replace(_version_of(kept), action=MERGE, merged_from=taken), assessor)
    ]
    changes += [
        NuggetChange(topic, n.nugget_id, replace(_version_of(n), action=MERGE, merged_into=kept.nugget_id), assessor)
        for n in merged
    ]
    return _logged(store, MERGE, topic, changes)


def delete_nugget(store: Store, topic: str, nugget_id: str, *, assessor: str) -> NuggetEdit:
    """Remove a nugget from the topic's list (its versions stay in the log)."""
    topic = _known_topic(store, topic)
    nugget = _require(nuggets_now(store, topic), nugget_id, topic)
    change = NuggetChange(topic, nugget.nugget_id, replace(_version_of(nugget), action=DELETE), assessor)
    record_nugget_changes(store, [change])
    return NuggetEdit(DELETE, topic, (nugget,))


def _logged(store: Store, action: str, topic: str, changes: list[NuggetChange]) -> NuggetEdit:
    record_nugget_changes(store, changes)
    after = {n.nugget_id: n for n in nuggets_now(store, topic)}
    return NuggetEdit(action, topic, tuple(after[c.nugget_id] for c in changes if c.nugget_id in after))


def _version_of(nugget: Nugget) -> NuggetVersion:
    """The nugget's latest version as one to log again (action, merges and draft carried as they are)."""
    return NuggetVersion(
        EDIT, nugget.text, nugget.importance, nugget.rank, nugget.origin, sources=nugget.sources, draft=nugget.draft
    )


def _known_topic(store: Store, topic: str) -> str:
    topic = check_id(topic, "topic id")
    if store.topic(topic) is None:
        raise NotFoundError(f"topic {topic} is not a topic of the workbench", hints=Hint("list_topics"))
    return topic


def _find(nuggets: Iterable[Nugget], nugget_id: str) -> Nugget | None:
    return next((n for n in nuggets if n.nugget_id == nugget_id), None)


def _require(nuggets: Sequence[Nugget], nugget_id: str, topic: str) -> Nugget:
    nugget = _find(nuggets, nugget_id)
    if nugget is None:
        raise NotFoundError(f"topic {topic} has no nugget {nugget_id!r}", hints=Hint("list_nuggets"))
    return nugget


def _find_draft(store: Store, topic: str, draft_id: str) -> Nugget:
    for model in sorted({e.model for e in store.topic_events("nuggets", topic) if e.source == MODEL and e.model}):
        draft = _find(nuggets_now(store, topic, model=model), draft_id)
        if draft is not None:
            return draft
    return _require([], draft_id, topic)


def _refuse_held_text(nuggets: Iterable[Nugget], text: str, other_than: str | None) -> None:
    """Two nuggets of a topic with one text could not be told apart (assignments are matched by text)."""
    twin = next((n for n in nuggets if n.text == text and n.nugget_id != other_than), None)
    if twin is not None:
        raise ConflictError(f"nugget {twin.nugget_id} of the topic has this text already")


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
    """The topics' nuggets as nuggetizer's nugget file: topics in topic order, nuggets in nugget order.

    The query written is the topic's text; a topic without nuggets has no line.
    """
    lines = []
    count = 0
    for topic in store.topics():
        nuggets = nuggets_now(store, topic.topic_id)
        if nuggets:
            lines.append(nugget_line(topic.topic_id, topic.title, [FileNugget(n.text, n.importance) for n in nuggets]))
            count += len(nuggets)
    return NuggetExport("nuggets", len(lines), len(lines), count, text="".join(lines))


def export_assignments(store: Store, runs: Sequence[str] | None = None) -> NuggetExport:
    """People's current assignments as nuggetizer's assignment file: one line per (run, topic), runs in order given.

    A line needs every one of the topic's nuggets assigned with one label: an answer with a nugget
    unassigned, or in conflict, is left out, and named in `left_out`.
    """
    names = _export_runs(store, runs)
    lines: list[str] = []
    left_out: list[str] = []
    topics: set[str] = set()
    nugget_count = 0
    texts = {t.topic_id: t.title for t in store.topics()}
    for run in names:
        for answer in _answers_in_topic_order(store, run, texts):
            nuggets = nuggets_now(store, answer.topic_id)
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


def _export_runs(store: Store, runs: Sequence[str] | None) -> list[str]:
    if runs is None:
        return [info.name for info in store.answer_runs() if info.retired is None]
    for run in runs:
        if not store.has_answer_run(run):
            raise BadArgumentError(
                f"answer run {run} is not in the workbench", argument="runs", hints=Hint("list_answer_runs")
            )
    return list(runs)


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

"""Answer runs: importing RAG answers, listing, showing, exporting and retiring them.

An answer run is a file of generated answers (TREC RAG 2024 or 2025 JSONL), imported
whole, checked and never changed, like a ranked run. The units its sentences cite are
units of one unit space of the workbench (documents, or the chunks of a chunking), found
from the ids as a qrels import finds them, or given.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from labeler.answers.model import Answer, AnswerRunInfo
from labeler.errors import (
    BadArgumentError,
    ConflictError,
    Hint,
    LabelerError,
    NotFoundError,
    UnknownIdError,
    argument_hint,
)
from labeler.formats.answers import AnswerReader
from labeler.ids import check_id
from labeler.json_form import JsonResult, json_field
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.validation import ID_NAMES
from labeler.wording import plural
from labeler.workbench.read_labels import unit_space
from labeler.workbench.reading import unit_text
from labeler.workbench.setup import now
from labeler.workbench.unit_spaces import DOC, foreign_ids, missing_units, refuse_foreign, space_of_ids
from labeler.workbench.unknown import unknown_ids_advice


@dataclass(frozen=True)
class AnswerImport(JsonResult):
    """`import_answers`'s result: the answer run as stored, and what its answers hold."""

    name: str
    file: str
    sha256: str
    format: str
    unit: str
    imported: str
    answers: int
    topics: int
    sentences: int
    cited_sentences: int
    citations: int
    unknown_units: int  # cited ids the workbench does not know, accepted as asked


@dataclass(frozen=True)
class AnswerRunRetired(JsonResult):
    """`retire_answer_run`'s result: the run, when and why it was retired, and whether it was retired before."""

    name: str
    retired: str
    reason: str
    already_retired: bool


@dataclass(frozen=True)
class CitedUnit(JsonResult):
    """A unit an answer cites, with its text (`known` False when the workbench does not hold it)."""

    unit_id: str
    doc_id: str
    title: str
    text: str
    known: bool


@dataclass(frozen=True)
class SentenceShown(JsonResult):
    """One sentence of a shown answer: its number (from 1), text and cited unit ids."""

    number: int
    text: str
    citations: tuple[str, ...]


@dataclass(frozen=True)
class AnswerShown(JsonResult):
    """`show_answer`'s result: one answer, its sentences with their citations, and the cited units' texts."""

    run: str
    topic_id: str
    unit: str
    topic_text: str | None = json_field(omit_if_none=True)
    response_length: int | None = json_field(omit_if_none=True)
    sentences: tuple[SentenceShown, ...] = ()
    references: tuple[str, ...] = ()
    cited: tuple[CitedUnit, ...] = ()


@dataclass
class _Read:
    """What reading the file found: the answers, and where each cited id is first cited."""

    answers: list[Answer]
    first_cited: dict[str, int]  # unit id -> the line first citing it


def import_answers(
    store: Store, path: str | Path, name: str, *, unit: str | None = None, allow_unknown: bool = False
) -> AnswerImport:
    """Read, check and store an answer file as the answer run `name`, all or nothing.

    The cited units are units of `unit` (given, or found from the ids); topics and units the
    workbench does not know are refused, naming the line, unless `allow_unknown` (an id that is a
    unit of another space of the workbench is refused all the same).
    """
    path = Path(path)
    name = _free_name(store, name)
    space = unit_space(store, unit) if unit is not None else None
    reader = AnswerReader(path, name)
    read = _read(reader)
    if space is None:
        space = space_of_ids(store, [list(read.first_cited)], "to say which units the answers cite") or DOC
    _refuse_unknown_topics(store, reader, read, allow_unknown)
    missing = missing_units(store, space, list(read.first_cited))
    _refuse_unknown_units(store, reader, read, space, missing, allow_unknown)
    if reader.sha256 is None or reader.format is None:
        raise LabelerError("the answers were not read to their end", path=path)
    count = len(read.answers)
    info = AnswerRunInfo(name, str(path), reader.sha256, reader.format, space, now(), count, count)
    with store.transaction():
        store.insert_answer_run(info, read.answers)
    return _imported(info, read.answers, unknown_units=len(missing))


def _free_name(store: Store, name: str) -> str:
    """The new run's name, an id no answer run has yet (answer runs are immutable)."""
    name = check_id(name, ID_NAMES["run"])
    if store.has_answer_run(name):
        raise ConflictError(
            f"an answer run named {name!r} exists already; answer runs are immutable: import under a new name",
            hints=Hint("list_answer_runs"),
        )
    return name


def _imported(info: AnswerRunInfo, answers: list[Answer], *, unknown_units: int) -> AnswerImport:
    sentences = [s for a in answers for s in a.sentences]
    return AnswerImport(
        name=info.name,
        file=info.file,
        sha256=info.sha256,
        format=info.format,
        unit=info.unit,
        imported=info.imported,
        answers=info.answers,
        topics=info.topics,
        sentences=len(sentences),
        cited_sentences=sum(1 for s in sentences if s.citations),
        citations=sum(len(s.citations) for s in sentences),
        unknown_units=unknown_units,
    )


def _read(reader: AnswerReader) -> _Read:
    answers: list[Answer] = []
    first_cited: dict[str, int] = {}
    for answer in reader:
        answers.append(answer)
        for unit_id in answer.cited_units():
            first_cited.setdefault(unit_id, answer.line)
    return _Read(answers, first_cited)


def _refuse_unknown_topics(store: Store, reader: AnswerReader, read: _Read, allow_unknown: bool) -> None:
    """Answers to topics the workbench lacks (when it has topics) are refused, at the first such line."""
    if allow_unknown or store.topic_count() == 0:
        return
    known = store.topic_ids()
    unknown = [a for a in read.answers if a.topic_id not in known]
    if unknown:
        names = sorted({a.topic_id for a in unknown}, key=topic_sort_key)
        raise UnknownIdError(
            f"{plural(len(names), 'topic')} not in the workbench: {', '.join(names[:5])}"
            f"{' ...' if len(names) > 5 else ''}",
            path=reader.path,
            line=min(a.line for a in unknown),
            hints=(Hint("import_topics"), argument_hint("allow_unknown", why="to accept them")),
        )


def _refuse_unknown_units(
    store: Store, reader: AnswerReader, read: _Read, space: str, missing: list[str], allow_unknown: bool
) -> None:
    """Cited ids that are not units of `space`: refused at the first line citing one, unless accepted."""
    if not missing:
        return
    if allow_unknown:
        foreign = foreign_ids(store, space, missing)
        if foreign:
            line = min(read.first_cited[unit_id] for unit_id in foreign)
            refuse_foreign(store, space, foreign, path=reader.path, line=line)
        return
    line = min(read.first_cited[unit_id] for unit_id in missing)
    where = "the corpus" if space == DOC else f"chunking {space.split(':', 1)[1]!r}"
    advice, hints = unknown_ids_advice(store, space, missing)
    examples = sorted(missing)[:5]
    raise UnknownIdError(
        f"{plural(len(missing), 'cited id')} not in {where}, e.g. {', '.join(examples)}{advice}",
        path=reader.path,
        line=line,
        hints=hints,
    )


def list_answer_runs(store: Store, *, include_retired: bool = False) -> list[AnswerRunInfo]:
    """The answer runs in import order; retired ones only when asked for."""
    return [run for run in store.answer_runs() if include_retired or run.retired is None]


def export_answers(store: Store, name: str) -> Iterator[str]:
    """The run's answers as the lines of the file they came from, in its order, each its canonical JSON.

    Every field of the file is there, those labeler reads and those it does not. An unknown
    name fails here, before the first line.
    """
    store.answer_run(name)
    return (answer.original + "\n" for answer in store.answers_in_file_order(name))


def retire_answer_run(store: Store, name: str, *, reason: str) -> AnswerRunRetired:
    """Leave an answer run out of the default sets (kept whole, still usable by name); recorded once."""
    if not reason.strip():
        raise BadArgumentError("a retirement needs its reason", argument="reason")
    with store.transaction():
        newly = store.retire_answer_run(name, retired=now(), reason=reason)
    info = store.answer_run(name)
    assert info.retired is not None and info.retired_reason is not None
    return AnswerRunRetired(name, info.retired, info.retired_reason, already_retired=not newly)


def show_answer(store: Store, run: str, topic_id: str) -> AnswerShown:
    """One answer: its sentences (numbered from 1) with their citations, and the texts of the units it cites."""
    info = store.answer_run(run)
    answer = store.answer(run, topic_id)
    if answer is None:
        raise NotFoundError(f"answer run {run!r} has no answer to topic {topic_id!r}", hints=Hint("list_answer_runs"))
    cited = []
    for unit_id in answer.cited_units():
        shown = unit_text(store, info.unit, unit_id)
        text = shown.text[shown.span[0] : shown.span[1]] if shown.span else shown.text
        cited.append(CitedUnit(unit_id, shown.doc_id, shown.title, text, shown.known))
    return AnswerShown(
        run=run,
        topic_id=answer.topic_id,
        unit=info.unit,
        topic_text=answer.topic_text,
        response_length=answer.response_length,
        sentences=tuple(
            SentenceShown(number, s.text, s.citations) for number, s in enumerate(answer.sentences, start=1)
        ),
        references=answer.references,
        cited=tuple(cited),
    )

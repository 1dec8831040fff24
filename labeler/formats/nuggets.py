"""nuggetizer's files: a topic's nuggets, and the nuggets an answer was judged to support.

Two JSONL shapes, one object a line, as castorini's nuggetizer writes and reads them:

- nuggets: `{"query", "qid", "nuggets": [{"text", "importance"}]}`, one line per topic;
- assignments: the same plus `"answer_text"`, `"response_length"` and `"run_id"`, and an
  `"assignment"` on each nugget, one line per (topic, run).

`importance` is `vital` or `okay`, `assignment` one of `support`, `partial_support`,
`not_support` (a model that failed writes `failed`: refused, as any other word). `qid` and
`run_id` obey the id rule; a `qid` (nuggets) or (`qid`, `run_id`) pair (assignments) given
twice, or one nugget text given twice on a line, is refused at its line. The keys named
here are read; any other key is ignored (nuggetizer writes none). Every problem is
`file:line: reason`, and the file is read with the limits every importer has
(`labeler.formats.lines`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labeler.answers.nuggets import IMPORTANCE, MAX_TEXT
from labeler.answers.spaces import ASSIGNMENT_GRADES
from labeler.errors import FormatError
from labeler.formats.fields import clean_id, integer_field, json_object, json_type
from labeler.formats.lines import TextLines, data_lines, first_of_each
from labeler.inert import inert_json

NUGGET_KEYS = ("query", "qid", "nuggets")
ASSIGNMENT_KEYS = ("query", "qid", "answer_text", "response_length", "run_id", "nuggets")


class NuggetFormatError(FormatError):
    """A nuggetizer nugget or assignment file that is malformed."""


@dataclass(frozen=True)
class FileNugget:
    """One nugget of a line: its text, importance and (in an assignment file) its assignment."""

    text: str
    importance: str
    assignment: str | None = None


@dataclass(frozen=True)
class NuggetRecord:
    """One line of either file: a topic's nuggets, with the answer they were assigned on in an assignment file."""

    line: int
    qid: str
    query: str
    nuggets: tuple[FileNugget, ...]
    run_id: str | None = None
    answer_text: str | None = None
    response_length: int | None = None


def read_nuggets(path: str | Path) -> Iterator[NuggetRecord]:
    """The lines of a nugget file, checked; a qid given twice is refused at its second line."""
    records = ((r.line, r) for r in _records(path, assignments=False))
    for _, record in first_of_each(records, lambda r: r.qid, "topic", Path(path), NuggetFormatError):
        yield record


def read_assignments(path: str | Path) -> Iterator[NuggetRecord]:
    """The lines of an assignment file, checked; a (qid, run_id) pair given twice is refused at its second line."""
    records = ((r.line, r) for r in _records(path, assignments=True))
    pairs = first_of_each(records, _pair_key, "the answer of", Path(path), NuggetFormatError)
    for _, record in pairs:
        yield record


def _pair_key(record: NuggetRecord) -> str:
    return f"run {record.run_id} to topic {record.qid}"


def _records(path: str | Path, *, assignments: bool) -> Iterator[NuggetRecord]:
    found = False
    for number, text in data_lines(TextLines(path, NuggetFormatError), comments=False):
        row = json_object(text, path=path, line=number, error=NuggetFormatError)
        try:
            yield _record(row, number, assignments=assignments)
        except ValueError as exc:
            raise NuggetFormatError(str(exc), path=path, line=number) from None
        except NuggetFormatError as exc:
            raise NuggetFormatError(exc.reason, path=path, line=number) from None
        found = True
    if not found:
        what = "assignments" if assignments else "nuggets"
        raise NuggetFormatError(f"no {what} found (empty file)", path=path)


def _record(row: dict[str, Any], line: int, *, assignments: bool) -> NuggetRecord:
    keys = ASSIGNMENT_KEYS if assignments else NUGGET_KEYS
    missing = [key for key in keys if key not in row]
    if missing:
        raise ValueError(f"missing key(s) {', '.join(map(repr, missing))} (a line has {', '.join(keys)})")
    record = NuggetRecord(
        line=line,
        qid=clean_id(row["qid"], "qid", path="", line=line, error=NuggetFormatError),
        query=_string(row["query"], "query"),
        nuggets=_nuggets(row["nuggets"], assignments=assignments),
    )
    if not assignments:
        return record
    return NuggetRecord(
        line=line,
        qid=record.qid,
        query=record.query,
        nuggets=record.nuggets,
        run_id=clean_id(row["run_id"], "run_id", path="", line=line, error=NuggetFormatError),
        answer_text=_string(row["answer_text"], "answer_text"),
        response_length=_length(row["response_length"]),
    )


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, found {json_type(value)}")
    return value


def _length(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"response_length must be a whole number, found {json_type(value)}")
    return integer_field(str(value), "response_length", path="", line=0, error=NuggetFormatError)


def _nuggets(value: object, *, assignments: bool) -> tuple[FileNugget, ...]:
    if not isinstance(value, list):
        raise ValueError(f"nuggets must be an array, found {json_type(value)}")
    nuggets = tuple(_nugget(item, number, assignments=assignments) for number, item in enumerate(value, start=1))
    seen: dict[str, int] = {}
    for number, nugget in enumerate(nuggets, start=1):
        if nugget.text in seen:
            raise ValueError(f"nugget {number} has the text of nugget {seen[nugget.text]}: {nugget.text[:60]!r}")
        seen[nugget.text] = number
    return nuggets


def _nugget(item: object, number: int, *, assignments: bool) -> FileNugget:
    where = f"nugget {number}"
    if not isinstance(item, dict):
        raise ValueError(f"{where} must be an object, found {json_type(item)}")
    keys = ("text", "importance", "assignment") if assignments else ("text", "importance")
    missing = [key for key in keys if key not in item]
    if missing:
        raise ValueError(f"{where} lacks {', '.join(map(repr, missing))}")
    text = _text(item["text"], where)
    importance = _word(item["importance"], IMPORTANCE, f"{where}'s importance")
    assignment = _word(item["assignment"], tuple(ASSIGNMENT_GRADES), f"{where}'s assignment") if assignments else None
    return FileNugget(text, importance, assignment)


def _text(value: object, where: str) -> str:
    text = _string(value, f"{where}'s text")
    if not text.strip():
        raise ValueError(f"{where}'s text is empty")
    if len(text) > MAX_TEXT:
        raise ValueError(f"{where}'s text is {len(text):,} characters (at most {MAX_TEXT:,})")
    return text


def _word(value: object, words: Sequence[str], what: str) -> str:
    if isinstance(value, str) and value in words:
        return value
    raise ValueError(f"{what} must be one of {', '.join(map(repr, words))}, not {_shown(value)}")


def _shown(value: object) -> str:
    return repr(value[:40]) if isinstance(value, str) else json_type(value)


def nugget_line(qid: str, query: str, nuggets: Sequence[FileNugget]) -> str:
    """One line of a nugget file (keys in nuggetizer's order), ending in a newline."""
    body = {"query": query, "qid": qid, "nuggets": [{"text": n.text, "importance": n.importance} for n in nuggets]}
    return inert_json(json.dumps(body, ensure_ascii=False)) + "\n"


def assignment_line(record: NuggetRecord) -> str:
    """One line of an assignment file (keys in nuggetizer's order), ending in a newline."""
    body = {
        "query": record.query,
        "qid": record.qid,
        "answer_text": record.answer_text,
        "response_length": record.response_length,
        "run_id": record.run_id,
        "nuggets": [{"text": n.text, "importance": n.importance, "assignment": n.assignment} for n in record.nuggets],
    }
    return inert_json(json.dumps(body, ensure_ascii=False)) + "\n"

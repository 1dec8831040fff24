"""Chunk-to-document mappings: imported from an external chunker, or derived from chunk ids.

Judging chunks needs to know which document each chunk came from. A chunker
may write that mapping out (with character offsets when it knows them); when
it did not, ids such as MS MARCO v2.1's `DOC#CHUNK` segments still name their
parent, and the mapping can be rebuilt from any run or qrels that uses them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labeler.errors import MappingFormatError
from labeler.formats.fields import INT64_MAX, clean_id, column_id, integer_field, json_object, json_type, split_fields
from labeler.formats.lines import TextLines, data_lines, first_of_each
from labeler.models import Chunk

JSON_CHUNK_KEYS = ("chunk_id", "id")
JSON_DOC_KEYS = ("doc_id", "docid", "parent")
HEADER_IDS = {"chunk_id", "id"}
INTEGER = re.compile(r"-?[0-9]+")  # ASCII digits: \d would also take "٣"


def read_mapping(path: str | Path) -> Iterator[tuple[int, Chunk]]:
    """Yield `(line, Chunk)` from JSONL or `chunk_id doc_id [start end]` columns."""
    path = Path(path)
    found = False
    for number, chunk in first_of_each(_chunks(path), lambda chunk: chunk.chunk_id, "chunk", path, MappingFormatError):
        found = True
        yield number, chunk
    if not found:
        raise MappingFormatError("no chunks found", path=path)


def _chunks(path: Path) -> Iterator[tuple[int, Chunk]]:
    """Every chunk of the file as its lines give it, the format told by the first line."""
    is_json = False
    for index, (number, text) in enumerate(data_lines(TextLines(path, MappingFormatError))):
        if index == 0:
            is_json = text.lstrip().startswith("{")
            if not is_json and _header(text, path, number):
                continue
        yield number, _json_chunk(text, path, number) if is_json else _column_chunk(text, path, number)


def _header(text: str, path: Path, number: int) -> bool:
    return split_fields(text, path=path, line=number, error=MappingFormatError)[0].lower() in HEADER_IDS


def _column_chunk(text: str, path: Path, number: int) -> Chunk:
    fields = split_fields(text, path=path, line=number, error=MappingFormatError)
    if len(fields) not in (2, 4):
        raise MappingFormatError(
            f"expected 2 or 4 fields (chunk_id doc_id [start end]), found {len(fields)}", path=path, line=number
        )
    chunk_id, doc_id = (
        clean_id(value, what, path=path, line=number, error=MappingFormatError)
        for value, what in zip(fields[:2], ("chunk id", "document id"), strict=True)
    )
    offsets = [
        _column_offset(value, name, path, number) for value, name in zip(fields[2:], ("start", "end"), strict=False)
    ]
    start, end = offsets or (None, None)
    return _chunk(chunk_id, doc_id, start, end, path=path, line=number)


def _column_offset(value: str, name: str, path: Path, number: int) -> int:
    if not INTEGER.fullmatch(value):
        raise MappingFormatError(f"{name} offset must be an integer, found {value!r}", path=path, line=number)
    return integer_field(value, f"{name} offset", path=path, line=number, error=MappingFormatError)


def _json_chunk(text: str, path: Path, number: int) -> Chunk:
    record = json_object(text, path=path, line=number, error=MappingFormatError)
    ids = []
    for keys, what in ((JSON_CHUNK_KEYS, "chunk id"), (JSON_DOC_KEYS, "document id")):
        key = next((key for key in keys if key in record), None)
        if key is None:
            expected = " or ".join(f'"{key}"' for key in keys)
            raise MappingFormatError(f"expected a {what} key ({expected}), found none", path=path, line=number)
        ids.append(clean_id(record[key], what, path=path, line=number, error=MappingFormatError))
    offsets = [_json_offset(record.get(name), name, path, number) for name in ("start", "end")]
    return _chunk(ids[0], ids[1], *offsets, path=path, line=number)


def _json_offset(value: Any, name: str, path: Path, number: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise MappingFormatError(f'"{name}" must be an integer, found {json_type(value)}', path=path, line=number)
    return value


def _chunk(chunk_id: str, doc_id: str, start: int | None, end: int | None, *, path: Path, line: int) -> Chunk:
    """Check the offsets together: both or neither, not negative, in order."""
    if (start is None) != (end is None):
        given, missing = ("a start", "end") if end is None else ("an end", "start")
        raise MappingFormatError(
            f"chunk {chunk_id} has {given} offset but no {missing} (give both or neither)", path=path, line=line
        )
    if start is not None and end is not None:
        if start < 0 or end < 0:
            raise MappingFormatError(
                f"chunk {chunk_id}: offsets must not be negative, found {start}..{end}", path=path, line=line
            )
        if end < start:
            raise MappingFormatError(f"chunk {chunk_id}: end {end} is before start {start}", path=path, line=line)
        if end > INT64_MAX:
            raise MappingFormatError(f"chunk {chunk_id}: end offset {end} is out of range", path=path, line=line)
    return Chunk(chunk_id, doc_id, start, end)


def parent_of(chunk_id: str, separator: str = "#") -> str | None:
    """The document a chunk id names before its first `separator`, or None if it names none."""
    if not separator:
        raise ValueError("separator must not be empty")
    parent, found, rest = chunk_id.partition(separator)
    return parent if found and parent and rest else None


def derive_mapping(path: str | Path, separator: str = "#") -> Iterator[tuple[int, Chunk]]:
    """Yield `(line, Chunk)` without offsets for each distinct chunk id, first seen first.

    The file is a TREC run, TREC qrels or a list of ids, told apart by the
    first line's field count; every later line must match it, so that a
    stray line is reported instead of read from the wrong column.
    """
    path = Path(path)
    kind: IdFileKind | None = None
    seen: set[str] = set()
    for number, text in data_lines(TextLines(path, MappingFormatError)):
        fields = split_fields(text, path=path, line=number, error=MappingFormatError)
        if kind is None:
            kind = IdFileKind.of(len(fields), path=path, line=number)
        kind.check(len(fields), path=path, line=number)
        chunk_id = column_id(fields[kind.id_field], "chunk id", path=path, line=number, error=MappingFormatError)
        if chunk_id in seen:
            continue
        parent = parent_of(chunk_id, separator)
        if parent is None:
            reason = f"no {separator!r}" if separator not in chunk_id else f"nothing before or after {separator!r}"
            raise MappingFormatError(f"chunk id {chunk_id} does not name its parent ({reason})", path=path, line=number)
        seen.add(chunk_id)
        yield number, Chunk(chunk_id, parent)
    if kind is None:
        raise MappingFormatError("no chunk ids found", path=path)


@dataclass(frozen=True)
class IdFileKind:
    """What a file of chunk ids is, decided once from its first line."""

    name: str
    fields: int  # exact count, or the least count for a run
    id_field: int
    first_line: int

    @classmethod
    def of(cls, count: int, *, path: Path, line: int) -> IdFileKind:
        if count == 1:
            return cls("list of ids", 1, 0, line)
        if count == 4:
            return cls("TREC qrels file", 4, 2, line)
        if count >= 6:
            return cls("TREC run", 6, 2, line)
        raise MappingFormatError(
            f"expected a TREC run (6 fields), TREC qrels (4 fields) or one chunk id per line, found {count} fields",
            path=path,
            line=line,
        )

    def check(self, count: int, *, path: Path, line: int) -> None:
        """Refuse a line whose field count differs from the first line's."""
        is_run = self.name == "TREC run"
        if count == self.fields or (is_run and count > self.fields):
            return
        expected = f"{self.fields} or more fields" if is_run else f"{self.fields} field" + "s" * (self.fields > 1)
        raise MappingFormatError(
            f"expected {expected} like line {self.first_line} (a {self.name}), found {count}",
            path=path,
            line=line,
        )

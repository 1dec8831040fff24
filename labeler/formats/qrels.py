"""TREC qrels in and out.

Reading accepts the 4-column TREC form (`topic iteration unit grade`), BEIR's
`query-id corpus-id score` TSV with its header, and `#` comment lines. Writing
produces the canonical text a snapshot is hashed over: one line per label,
topics in natural order, units in codepoint order, iteration `0`, LF endings,
so every export of a snapshot is byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labeler.errors import QrelsFormatError
from labeler.formats.fields import column_id, integer_field, split_fields
from labeler.formats.lines import TextLines, data_lines

BEIR_HEADER = ("query-id", "corpus-id", "score")


@dataclass(frozen=True)
class QrelsLine:
    line: int
    topic_id: str
    unit_id: str
    grade: int


def read_qrels(path: str | Path) -> Iterator[QrelsLine]:
    """Qrels lines in file order; a repeated (topic, unit) is an error at its second line."""
    lines = TextLines(path, QrelsFormatError)
    seen: dict[tuple[str, str], int] = {}
    found = False
    beir = None
    for number, text in data_lines(lines):
        fields = split_fields(text, path=path, line=number, error=QrelsFormatError)
        if beir is None:
            beir = tuple(f.lower() for f in fields) == BEIR_HEADER
            if beir:
                continue
        if beir:
            if len(fields) != 3:
                raise QrelsFormatError(
                    f"expected 3 fields (query-id corpus-id score), found {len(fields)}", path=path, line=number
                )
            topic_id, unit_id, grade_text = fields
        else:
            if len(fields) != 4:
                raise QrelsFormatError(
                    f"expected 4 fields (topic iteration id grade), found {len(fields)}", path=path, line=number
                )
            topic_id, _, unit_id, grade_text = fields
        topic_id = column_id(topic_id, "topic id", path=path, line=number, error=QrelsFormatError)
        unit_id = column_id(unit_id, "unit id", path=path, line=number, error=QrelsFormatError)
        grade = integer_field(grade_text, "grade", path=path, line=number, error=QrelsFormatError)
        key = (topic_id, unit_id)
        if key in seen:
            raise QrelsFormatError(
                f"topic {topic_id!r} judges {unit_id!r} twice (first at line {seen[key]})", path=path, line=number
            )
        seen[key] = number
        found = True
        yield QrelsLine(number, topic_id, unit_id, grade)
    if not found:
        raise QrelsFormatError("no judgments found (empty qrels)", path=path)


def qrels_topic_key(topic_id: str) -> tuple[int, int, str]:
    """The topic order of canonical qrels: numeric ids as numbers, then the rest as text.

    Frozen, unlike the display order (`topic_sort_key`): a snapshot's hash is
    the SHA-256 of this text, so changing it would make every stored snapshot
    with ids like "q2" and "q10" fail `snapshot verify` (see docs/formats.md).
    """
    return (0, int(topic_id), "") if topic_id.isdigit() else (1, 0, topic_id)


def qrels_sort_key(topic_id: str, unit_id: str) -> tuple[Any, ...]:
    return (*qrels_topic_key(topic_id), unit_id)


def format_qrels(labels: Iterable[tuple[str, str, int]]) -> str:
    """Canonical TREC qrels text for (topic, unit, grade) triples."""
    rows = sorted(labels, key=lambda r: qrels_sort_key(r[0], r[1]))
    return "".join(f"{topic} 0 {unit} {grade}\n" for topic, unit, grade in rows)

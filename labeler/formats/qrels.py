"""TREC qrels in and out.

Reading accepts the 4-column TREC form (`topic iteration unit grade`), BEIR's
`query-id corpus-id score` TSV with its header, and `#` comment lines. Writing
produces the canonical text a snapshot is hashed over: one line per label,
topics in natural order, units in codepoint order, iteration `0`, LF endings,
so every export of a snapshot is byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from labeler.errors import QrelsFormatError
from labeler.formats.fields import OTHER_SPACE, column_id, integer_field, split_fields
from labeler.formats.lines import TextLines
from labeler.ids import MAX_ID_LENGTH

BEIR_HEADER = ("query-id", "corpus-id", "score")


class QrelsLine(NamedTuple):
    """One judgment line (a named tuple: made once per line of a file of millions)."""

    line: int
    topic_id: str
    unit_id: str
    grade: int


def read_qrels(path: str | Path) -> Iterator[QrelsLine]:
    """Qrels lines in file order; a repeated (topic, unit) is an error at its second line.

    Read a block of lines at a time: the white-space rule is one search over a block's text, and a line
    is checked on its own only in a block where that search finds something (the error names its line).
    """
    lines = TextLines(path, QrelsFormatError)
    seen: dict[tuple[str, str], int] = {}
    found = False
    beir = None
    for first, block in lines.batches():
        clean = OTHER_SPACE.search("\n".join(block)) is None
        for number, text in enumerate(block, first):
            if not text.strip() or text.startswith("#"):  # as `data_lines` skips them
                continue
            fields = text.split() if clean else split_fields(text, path=path, line=number, error=QrelsFormatError)
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
            # `column_id`'s fast path, inlined (split() left no white space, so printable is the whole rule)
            if len(topic_id) > MAX_ID_LENGTH or not topic_id.isprintable():
                topic_id = column_id(topic_id, "topic id", path=path, line=number, error=QrelsFormatError)
            if len(unit_id) > MAX_ID_LENGTH or not unit_id.isprintable():
                unit_id = column_id(unit_id, "unit id", path=path, line=number, error=QrelsFormatError)
            if grade_text.isascii() and grade_text.isdigit() and len(grade_text) < 19:  # fits INT64: no range check
                grade = int(grade_text)
            else:
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

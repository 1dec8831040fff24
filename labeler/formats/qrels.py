"""TREC qrels in and out.

Reading accepts the 4-column TREC form (`topic iteration unit grade`), BEIR's
`query-id corpus-id score` TSV with its header, and `#` comment lines. Writing
produces the canonical text a snapshot is hashed over: one line per label,
topics in natural order, units in codepoint order, iteration `0`, LF endings,
so every export of a snapshot is byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from labeler.errors import QrelsFormatError
from labeler.formats.fields import OTHER_SPACE, column_id, integer_field, plain_fields, split_fields
from labeler.formats.lines import TextLines
from labeler.ids import MAX_ID_LENGTH, all_normal

BEIR_HEADER = ("query-id", "corpus-id", "score")


class QrelsLine(NamedTuple):
    """One judgment line (a named tuple: made once per line of a file of millions)."""

    line: int
    topic_id: str
    unit_id: str
    grade: int


class QrelsPart(NamedTuple):
    """Consecutive judgment lines as columns: line numbers, topics, units and grades, in file order."""

    lines: Sequence[int]
    topics: list[str]
    units: list[str]
    grades: list[int]


# Lines checked together, as for runs (`trec_runs.PART_LINES`): a part's text and fields stay in the CPU's cache.
PART_LINES = 2048


def read_qrels(path: str | Path) -> Iterator[QrelsLine]:
    """Qrels lines in file order; a repeated (topic, unit) is an error at its second line."""
    for part in read_qrels_parts(path):
        yield from map(QrelsLine, part.lines, part.topics, part.units, part.grades)


def read_qrels_parts(path: str | Path) -> Iterator[QrelsPart]:
    """The judgment lines of a qrels file, a part of at most `PART_LINES` file lines at a time.

    A part whose lines are all four plain TREC fields with good ids and grades and no repeated pair is
    checked and split into columns by C calls over the part (`_columns`); any other part (a comment, a
    blank line, BEIR's form, anything an error is about) is read line by line (`_line_part`), which
    yields the lines before the first bad one and then raises its error. Both give the same lines.
    Memory: one file block, and a hash of each pair seen so far (for the repeat check, `SeenPairs`).
    """
    return _read_parts(path, SeenPairs(path))


def _read_parts(path: str | Path, seen: SeenPairs) -> Iterator[QrelsPart]:
    lines = TextLines(path, QrelsFormatError)
    state = _ReadState()
    for first, block in lines.batches():
        for offset in range(0, len(block), PART_LINES):
            part = block[offset : offset + PART_LINES] if len(block) > PART_LINES else block
            start = first + offset
            columns = _columns(part, start, seen) if state.beir is False else None
            if columns is None:
                columns, error = _line_part(path, start, part, seen, state)
                if columns.lines:
                    yield columns
                if error is not None:
                    raise error
                continue
            state.found = True
            yield columns
    if not state.found:
        raise QrelsFormatError("no judgments found (empty qrels)", path=path)


class SeenPairs:
    """The (topic, unit) pairs read so far, for the repeat check, as one hash each: not the ids.

    A file of a million judgments held its pairs' ids (hundreds of MB) only to find a repeat.
    Two pairs can share a hash: a hash seen before sends the part line by line, where
    `first_line` confirms it against the file's earlier lines before it is called a repeat.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self.hashes: set[int] = set()

    def new(self, pairs: Iterable[tuple[str, str]]) -> bool:
        """Whether no pair of `pairs` (distinct pairs) can have been seen; if so, they are added."""
        hashes = set(map(hash, pairs))
        if not self.hashes.isdisjoint(hashes):
            return False
        self.hashes |= hashes
        return True

    def first_line(self, pair: tuple[str, str], number: int) -> int | None:
        """The line before `number` that judged `pair`, or None (then it is added as seen)."""
        key = hash(pair)
        if key not in self.hashes:
            self.hashes.add(key)
            return None
        return _first_line(self.path, pair, number)


class _Unchecked(SeenPairs):
    """No repeat check: re-reading lines already checked (`_first_line`)."""

    def new(self, pairs: Iterable[tuple[str, str]]) -> bool:
        return True

    def first_line(self, pair: tuple[str, str], number: int) -> int | None:
        return None


def _first_line(path: str | Path, pair: tuple[str, str], before: int) -> int | None:
    """The first line before `before` that judges `pair` (those lines were read and checked already), or None."""
    try:
        for part in _read_parts(path, _Unchecked(path)):
            for number, topic_id, unit_id in zip(part.lines, part.topics, part.units, strict=True):
                if number >= before:
                    return None
                if (topic_id, unit_id) == pair:
                    return number
    except QrelsFormatError:  # at `before` or after it: not among the lines looked for
        return None
    return None


class _ReadState:
    """What the line-by-line path learns as it reads: the form (None until the first data line) and data seen."""

    def __init__(self) -> None:
        self.beir: bool | None = None
        self.found = False


def _columns(lines: list[str], first: int, seen: SeenPairs) -> QrelsPart | None:
    """A part's columns when every line is four plain fields that pass every check; else None (`seen` untouched).

    Each check is a C call over the part's text or one of its columns, as `trec_runs._columns` does.
    """
    fields = plain_fields(lines, 4, also_not_plain=("\r",))
    if fields is None:
        return None  # blank lines, short lines, lines with extra fields, other separators
    topics, units, grade_texts = fields[0::4], fields[2::4], fields[3::4]
    joined_topics, joined_units, joined_grades = "".join(topics), "".join(units), "".join(grade_texts)
    if (
        "#" in joined_topics  # a comment line, or an id the line-by-line path must look at
        or max(map(len, topics)) > MAX_ID_LENGTH
        or max(map(len, units)) > MAX_ID_LENGTH
        or not joined_topics.isprintable()
        or not joined_units.isprintable()
        or not all_normal(topics, joined_topics)  # an id not in NFC: the line-by-line path stores its NFC form
        or not all_normal(units, joined_units)
        # a negative or huge grade goes line by line (`integer_field`); these fit INT64
        or not joined_grades.isascii()
        or not joined_grades.isdigit()
        or max(map(len, grade_texts)) >= 19
    ):
        return None
    numbers = range(first, first + len(lines))
    pairs = set(zip(topics, units, strict=True))
    if len(pairs) != len(lines) or not seen.new(pairs):
        return None  # a repeated pair (or a hash seen before): the line-by-line path names its lines
    return QrelsPart(numbers, topics, units, list(map(int, grade_texts)))


def _line_part(
    path: str | Path, first: int, block: list[str], seen: SeenPairs, state: _ReadState
) -> tuple[QrelsPart, QrelsFormatError | None]:
    """A part read line by line: its judgment lines up to the first bad one, and that line's error (or None)."""
    part = QrelsPart([], [], [], [])
    numbers, topics, units, grades = part
    assert isinstance(numbers, list)
    clean = OTHER_SPACE.search("\n".join(block)) is None
    try:
        header = _learn_form(path, first, block, clean, state)
        width = 3 if state.beir else 4
        for number, text in enumerate(block, first):
            if not text.strip() or text.startswith("#") or number == header:  # as `data_lines` skips them
                continue
            fields = text.split() if clean else split_fields(text, path=path, line=number, error=QrelsFormatError)
            if len(fields) != width:
                raise _field_count_error(width, len(fields), path, number)
            # BEIR's query-id corpus-id score and TREC's topic iteration id grade: the ids and grade end each line
            topic_id, unit_id, grade_text = fields[0], fields[-2], fields[-1]
            # `column_id`'s fast path, inlined (split() left no white space, so printable is the whole rule)
            if len(topic_id) > MAX_ID_LENGTH or not (topic_id.isascii() and topic_id.isprintable()):
                topic_id = column_id(topic_id, "topic id", path=path, line=number, error=QrelsFormatError)
            if len(unit_id) > MAX_ID_LENGTH or not (unit_id.isascii() and unit_id.isprintable()):
                unit_id = column_id(unit_id, "unit id", path=path, line=number, error=QrelsFormatError)
            if grade_text.isascii() and grade_text.isdigit() and len(grade_text) < 19:  # fits INT64: no range check
                grade = int(grade_text)
            else:
                grade = integer_field(grade_text, "grade", path=path, line=number, error=QrelsFormatError)
            earlier = seen.first_line((topic_id, unit_id), number)
            if earlier is not None:
                raise QrelsFormatError(
                    f"topic {topic_id!r} judges {unit_id!r} twice (first at line {earlier})", path=path, line=number
                )
            state.found = True
            numbers.append(number)
            topics.append(topic_id)
            units.append(unit_id)
            grades.append(grade)
    except QrelsFormatError as exc:
        return part, exc
    return part, None


def _learn_form(path: str | Path, first: int, block: list[str], clean: bool, state: _ReadState) -> int | None:
    """Learns the file's form from its first data line when it is not known yet; the BEIR header's line, or None.

    A file whose first data line is `query-id corpus-id score` is BEIR's three columns; any other is TREC's four.
    Done once, before the part's loop, so the loop reads every line in one form.
    """
    if state.beir is not None:
        return None
    for number, text in enumerate(block, first):
        if not text.strip() or text.startswith("#"):
            continue
        fields = text.split() if clean else split_fields(text, path=path, line=number, error=QrelsFormatError)
        state.beir = tuple(f.lower() for f in fields) == BEIR_HEADER
        return number if state.beir else None
    return None


def _field_count_error(width: int, found: int, path: str | Path, number: int) -> QrelsFormatError:
    """A line with the wrong number of fields, told in its form's words (BEIR's 3 columns or TREC's 4)."""
    if width == 3:
        return QrelsFormatError(f"expected 3 fields (query-id corpus-id score), found {found}", path=path, line=number)
    return QrelsFormatError(f"expected 4 fields (topic iteration id grade), found {found}", path=path, line=number)


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

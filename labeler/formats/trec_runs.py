"""The TREC run format (6 columns: topic Q0 id rank score tag), as trec_eval reads it but stricter.

The fallback format: a file whose first result line no other format claims is
read as TREC. `read_trec_blocks` is the hot loop of a run import, so it parses
and groups in one pass with local names, and every check that only a bad line
fails is a call made on that bad line alone.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

from labeler.errors import RunFormatError
from labeler.formats import arrow_columns
from labeler.formats.fields import INT64_MAX, INT64_MIN, OTHER_SPACE, check_separators, plain_fields
from labeler.formats.run_formats import RUN_FORMATS, RunBlock, RunFormat, RunSource
from labeler.ids import MAX_ID_LENGTH, all_normal, check_id


def read_trec_blocks(source: RunSource) -> Iterator[RunBlock]:
    """Parse and group in one pass, a block of the file's lines at a time.

    A block whose lines are all six plain fields, with good ids and numbers, is checked and split into
    columns by C calls over the whole block (`_columns`); any other block (a comment, a blank line, a
    line with extra fields, anything an error is about) is read line by line (`_line_rows`), which
    raises the error of the first bad line. Both give the same rows, so the same blocks. With pyarrow
    installed, a large file's plain blocks are read by its CSV reader first (`arrow_columns`), with the
    same rows again; what it does not take goes the two ways above.
    """
    path = source.path
    count = 0  # result lines read so far
    block: RunBlock | None = None
    current: str | None = None
    for first, lines, columns, runs in _column_parts(source):
        error = None
        numbers: list[int] | None = None
        if columns is None:
            columns, numbers, error = _line_rows(source, first, lines)
        topics, units, scores, ranks = columns
        size = len(units)
        if runs is None:
            # where the topic changes, found by C calls over the column (a few blocks per file block)
            starts = [0, *itertools.compress(range(1, size), map(operator.ne, topics, topics[1:])), size]
            runs = [topics[begin] for begin in starts[:-1] if begin < size], starts
        topic_ids, starts = runs
        # not strict: an empty part has no topic and one empty run (0, 0)
        for topic_id, (begin, end) in zip(topic_ids, itertools.pairwise(starts), strict=False):
            if topic_id != current:
                if block is not None:
                    source.line_count = count + begin
                    yield block
                current = topic_id
                block = _new_block(topic_id, first + begin if numbers is None else numbers[begin], path)
            assert block is not None
            block.units.extend(units[begin:end])
            block.scores.extend(scores[begin:end])
            block.ranks.extend(ranks[begin:end])
        count += size
        if error is not None:  # raised after the blocks before its line, as a line-at-a-time reader would
            raise error
    source.line_count = count
    if block is not None:
        yield block


# pyarrow (when importable) reads a whole file block (1 MiB, ~30,000 lines) at once, for files of at least
# ARROW_MIN_BYTES. Measured on a quiet machine (benchmarks/bench_arrow.py: a whole import in a fresh process,
# pyarrow's import included, CPU arrow / Python): 3.3 MB 1.93x, 6.7 MB 1.39x, 10.1 MB 1.06x, 16.2 MB 1.02x,
# 20.2 MB 1.02x, 24.3 MB 0.94x, 27 MB 0.80x, 55 MB 0.75x; arrow saves CPU from about 24 MB (~720,000 lines),
# and holds ~80 MB more memory at every size.
ARROW_MIN_BYTES = 24_000_000
ARROW_MIN_LINES = 1024  # a shorter block (a file's last) is not worth arrow's per-call cost


def _column_parts(source: RunSource) -> Iterator[tuple[int, list[str], _Columns | None, arrow_columns.Runs | None]]:
    """The file's lines in parts, with the part's first line number and its columns when read at C speed.

    A file block goes to arrow whole when it can (`arrow_columns`); a block it does not take, or every
    block without pyarrow, is cut into parts of `PART_LINES` for `_columns`. None: the part is to be
    read line by line.
    """
    tags = source.tags
    large = source.lines.size >= ARROW_MIN_BYTES
    for first, lines in source.lines.batches():
        if large and len(lines) >= ARROW_MIN_LINES and (arrow := arrow_columns.reader()) is not None:
            read = arrow(lines, tags)
            if read is not None:
                yield first, lines, *read
                continue
        for part_first, part in _parts(iter(((first, lines),))):
            yield part_first, part, _columns(part, tags), None


# Lines checked together: a few thousand keep a part's text, fields and numbers in the CPU's cache
# (measured: a third faster than the file's 1 MiB blocks whole), and still make few Python calls per line.
PART_LINES = 2048


def _parts(batches: Iterator[tuple[int, list[str]]]) -> Iterator[tuple[int, list[str]]]:
    """The file's blocks of lines cut into parts of at most `PART_LINES` lines, with their first line's number."""
    for first, lines in batches:
        if len(lines) <= PART_LINES:
            yield first, lines
            continue
        for offset in range(0, len(lines), PART_LINES):
            yield first + offset, lines[offset : offset + PART_LINES]


_Columns = arrow_columns.Columns


def _columns(lines: list[str], tags: set[str]) -> _Columns | None:
    """A block's (topics, units, scores, ranks) when every line is six fields that pass every check; else None.

    Every check is a C call over the whole block or one of its columns. The fields are split from the
    block's text at once (strings only: no list per line for the garbage collector to walk), after
    proving that each line holds exactly six. Nothing is recorded unless the whole block passes, so the
    line-by-line path can take it from its start.
    """
    fields = plain_fields(lines, 6)
    if fields is None:
        return None  # blank lines, short lines, lines with text after the sixth field, other separators
    topics, units, rank_texts, score_texts = fields[0::6], fields[2::6], fields[3::6], fields[4::6]
    joined_topics, joined_units = "".join(topics), "".join(units)
    if (
        "#" in joined_topics  # a comment line, or an id the line-by-line path must look at
        or max(map(len, topics)) > MAX_ID_LENGTH
        or max(map(len, units)) > MAX_ID_LENGTH
        or not joined_topics.isprintable()
        or not joined_units.isprintable()
        or not all_normal(topics, joined_topics)  # an id not in NFC: the line-by-line path stores its NFC form
        or not all_normal(units, joined_units)
    ):
        return None
    numbers = "".join(score_texts) + "".join(rank_texts)
    # float() and int() read "٣" as 3 and "1_0" as 10; trec_eval's atof and atol do not
    if "_" in numbers or not numbers.isascii():
        return None
    try:
        scores = list(map(float, score_texts))
        ranks = list(map(int, rank_texts))
    except ValueError:
        return None
    if not all(map(math.isfinite, scores)) or min(ranks) < INT64_MIN or max(ranks) > INT64_MAX:
        return None
    tags.update(fields[5::6])
    return topics, units, scores, ranks


def _line_rows(source: RunSource, first: int, lines: list[str]) -> tuple[_Columns, list[int], RunFormatError | None]:
    """The rows of a block read line by line, with their line numbers, up to the first bad line, and its error."""
    topics: list[str] = []
    units: list[str] = []
    scores: list[float] = []
    ranks: list[int] = []
    numbers: list[int] = []
    try:
        _read_lines(source, first, lines, (topics, units, scores, ranks, numbers))
    except RunFormatError as exc:
        return (topics, units, scores, ranks), numbers, exc
    return (topics, units, scores, ranks), numbers, None


def _read_lines(
    source: RunSource,
    first: int,
    lines: list[str],
    columns: tuple[list[str], list[str], list[float], list[int], list[int]],
) -> None:
    path, tags, isfinite, other_space = source.path, source.tags, math.isfinite, OTHER_SPACE.search
    longest = MAX_ID_LENGTH
    topics, units, scores, ranks, numbers = columns
    current, checked = None, ""  # the line's topic as written, and in NFC
    for number, line in enumerate(lines, first):
        if line.startswith("#"):
            continue
        if other_space(line):
            check_separators(line, path=path, line=number, error=RunFormatError)
        fields = line.split()
        if len(fields) != 6 and _skips(source, fields, number):
            continue
        topic_id, _, unit_id, rank_text, score_text, tag = fields[:6]
        # the id rule's fast path, inlined: split() left no white space, so printable ASCII is all of it
        if len(unit_id) > longest or not (unit_id.isascii() and unit_id.isprintable()):
            unit_id = check_id(unit_id, "unit id", path=path, line=number, error=RunFormatError)
        try:
            # float() and int() read "٣" as 3 and "1_0" as 10; trec_eval's atof and atol do not
            score, rank = float(score_text), int(rank_text)
            numbers_text = score_text + rank_text
            if "_" in numbers_text or not numbers_text.isascii():
                raise ValueError(numbers_text)
        except ValueError:
            _refuse_numbers(score_text, rank_text, path, number)
        if not isfinite(score) or not INT64_MIN <= rank <= INT64_MAX:
            _refuse_numbers(score_text, rank_text, path, number)
        if topic_id != current:  # the id rule at a topic's first line, as a block's first line checks it
            current = topic_id
            checked = _check_topic(topic_id, number, path)
        tags.add(tag)
        topics.append(checked)
        units.append(unit_id)
        scores.append(score)
        ranks.append(rank)
        numbers.append(number)


def _skips(source: RunSource, fields: list[str], number: int) -> bool:
    """A line without six fields: skip it when blank, refuse it when short, count it when longer.

    trec_eval ignores text after the sixth field, and so does labeler, recording how many lines had some.
    """
    if not fields:
        return True
    if len(fields) < 6:
        raise RunFormatError(
            f"expected 6 fields (topic Q0 id rank score tag), found {len(fields)}", path=source.path, line=number
        )
    source.extra_fields_lines += 1
    return False


def _refuse_numbers(score_text: str, rank_text: str, path: Path, number: int) -> NoReturn:
    """Raise the error for the first bad number of a line, the score before the rank."""
    try:
        if not score_text.isascii():
            raise ValueError(score_text)
        score = float(score_text)
    except ValueError:
        raise RunFormatError(f"score {score_text!r} is not a number", path=path, line=number) from None
    if not math.isfinite(score) or "_" in score_text:
        raise RunFormatError(f"score {score_text!r} is not a finite number", path=path, line=number)
    try:
        if not rank_text.isascii() or "_" in rank_text:
            raise ValueError(rank_text)
        rank = int(rank_text)
    except ValueError:
        raise RunFormatError(
            f"rank {rank_text!r} is not an integer (are the columns in order: topic Q0 id rank score tag?)",
            path=path,
            line=number,
        ) from None
    if not INT64_MIN <= rank <= INT64_MAX:
        raise RunFormatError(f"rank {rank_text!r} is out of range (a 64-bit integer)", path=path, line=number)
    # not reached: the hot loop calls this only when one of the checks above fails
    raise RunFormatError(f"score {score_text!r} or rank {rank_text!r} is not valid", path=path, line=number)


def _check_topic(topic_id: str, number: int, path: Path) -> str:
    """The topic id in NFC, once it passed the id rule."""
    if len(topic_id) > MAX_ID_LENGTH or not (topic_id.isascii() and topic_id.isprintable()):
        return check_id(topic_id, "topic id", path=path, line=number, error=RunFormatError)
    return topic_id


def _new_block(topic_id: str, number: int, path: Path) -> RunBlock:
    """The block a topic's first line starts, once its id passed the id rule (one call per block, not per line)."""
    return RunBlock(_check_topic(topic_id, number, path), number)


def trec_line_ids(line: str, path: Path, number: int) -> tuple[str, str | None]:
    """The topic and unit ids of a TREC line (the unit is None on a line too short to have one)."""
    fields = line.split()
    return fields[0], fields[2] if len(fields) > 2 else None


RUN_FORMATS.register(
    "trec",
    RunFormat(
        "trec",
        description="6 columns separated by white space: topic Q0 id rank score tag (text after them ignored)",
        example="301 Q0 FBIS3-10082 1 12.52 bm25",
        detected_by="any file no other format claims (the fallback)",
        detects=lambda line: True,
        read_blocks=read_trec_blocks,
        line_ids=trec_line_ids,
        fallback=True,
    ),
)

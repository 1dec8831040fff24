"""The TREC run format (6 columns: topic Q0 id rank score tag), as trec_eval reads it but stricter.

The fallback format: a file whose first result line no other format claims is
read as TREC. `read_trec_blocks` is the hot loop of a run import, so it parses
and groups in one pass with local names, and every check that only a bad line
fails is a call made on that bad line alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

from labeler.errors import RunFormatError
from labeler.formats.fields import INT64_MAX, INT64_MIN, OTHER_SPACE, check_separators
from labeler.formats.run_formats import RunBlock, RunFormat, RunSource, register_run_format
from labeler.ids import MAX_ID_LENGTH, check_id


def read_trec_blocks(source: RunSource) -> Iterator[RunBlock]:
    """Parse and group in one pass; a line that is not six plain fields takes the slow path."""
    path, tags, isfinite, other_space = source.path, source.tags, math.isfinite, OTHER_SPACE.search
    longest = MAX_ID_LENGTH
    count = 0
    block: RunBlock | None = None
    current = None
    # bound to the current block's lists when its first line is read (every block starts with one)
    add_unit: Callable[[str], None]
    add_score: Callable[[float], None]
    add_rank: Callable[[int], None]
    for number, line in source.lines:
        if line.startswith("#"):
            continue
        if other_space(line):
            check_separators(line, path=path, line=number, error=RunFormatError)
        fields = line.split()
        if len(fields) != 6 and _skips(source, fields, number):
            continue
        topic_id, _, unit_id, rank_text, score_text, tag = fields[:6]
        # the id rule's fast path, inlined: split() left no white space, so printable is the whole rule
        if len(unit_id) > longest or not unit_id.isprintable():
            check_id(unit_id, "unit id", path=path, line=number, error=RunFormatError)
        try:
            # float() and int() read "٣" as 3 and "1_0" as 10; trec_eval's atof and atol do not
            score, rank = float(score_text), int(rank_text)
            numbers = score_text + rank_text
            if "_" in numbers or not numbers.isascii():
                raise ValueError(numbers)
        except ValueError:
            _refuse_numbers(score_text, rank_text, path, number)
        if not isfinite(score) or not INT64_MIN <= rank <= INT64_MAX:
            _refuse_numbers(score_text, rank_text, path, number)
        tags.add(tag)
        count += 1
        if topic_id != current:
            if block is not None:
                source.line_count = count - 1
                yield block
            current = topic_id
            block = _new_block(topic_id, number, path)
            add_unit, add_score, add_rank = block.units.append, block.scores.append, block.ranks.append
        add_unit(unit_id)
        add_score(score)
        add_rank(rank)
    source.line_count = count
    if block is not None:
        yield block


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


def _new_block(topic_id: str, number: int, path: Path) -> RunBlock:
    """The block a topic's first line starts, once its id passed the id rule (one call per block, not per line)."""
    if len(topic_id) > MAX_ID_LENGTH or not topic_id.isprintable():
        check_id(topic_id, "topic id", path=path, line=number, error=RunFormatError)
    return RunBlock(topic_id, number)


def trec_line_ids(line: str, path: Path, number: int) -> tuple[str, str | None]:
    """The topic and unit ids of a TREC line (the unit is None on a line too short to have one)."""
    fields = line.split()
    return fields[0], fields[2] if len(fields) > 2 else None


register_run_format(
    RunFormat(
        "trec",
        description="6 columns separated by white space: topic Q0 id rank score tag (text after them ignored)",
        example="301 Q0 FBIS3-10082 1 12.52 bm25",
        detected_by="any file no other format claims (the fallback)",
        detects=lambda line: True,
        read_blocks=read_trec_blocks,
        line_ids=trec_line_ids,
        fallback=True,
    )
)

"""Reading ranked runs (TREC 6-column or JSONL), strictly and in bounded memory.

A run file is read once, as consecutive per-topic blocks; the caller stores
each block as soon as it ends, so memory holds one topic at a time, not the
whole run. The canonical order of a ranking is trec_eval's: score descending,
ties broken by unit id descending; the file's rank column is kept only as
information. Errors name the file, line and reason.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labeler.errors import RunFormatError
from labeler.formats.fields import (
    INT64_MAX,
    INT64_MIN,
    OTHER_SPACE,
    check_separators,
    clean_id,
    json_object,
    json_type,
)
from labeler.formats.lines import TextLines
from labeler.ids import MAX_ID_LENGTH, check_id

DEDUPE_POLICIES = ("error", "first")


@dataclass
class RunBlock:
    """The lines of one topic that stand together in the file, in file order."""

    topic_id: str
    first_line: int
    units: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Ranking:
    """One topic's ranking in canonical order."""

    topic_id: str
    units: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    dropped_duplicates: int = 0


class DuplicateUnit(Exception):
    """Raised by `canonical_ranking` so the reader can find the offending line."""

    def __init__(self, topic_id: str, unit_id: str):
        super().__init__(f"{topic_id} {unit_id}")
        self.topic_id = topic_id
        self.unit_id = unit_id


def canonical_ranking(block: RunBlock, dedupe: str = "error") -> Ranking:
    """Sort a block the way trec_eval does and apply the duplicate policy.

    With `dedupe="first"` the first occurrence in the file is kept, the later
    ones dropped and counted; with "error" a duplicate raises `DuplicateUnit`.
    """
    units, scores, ranks = block.units, block.scores, block.ranks
    dropped = 0
    if len(set(units)) != len(units):
        if dedupe != "first":
            seen: set[str] = set()
            for unit in units:
                if unit in seen:
                    raise DuplicateUnit(block.topic_id, unit)
                seen.add(unit)
        keep: dict[str, int] = {}
        for index, unit in enumerate(units):
            keep.setdefault(unit, index)
        indexes = sorted(keep.values())
        dropped = len(units) - len(indexes)
        units = [units[i] for i in indexes]
        scores = [scores[i] for i in indexes]
        ranks = [ranks[i] for i in indexes]
    order = sorted(range(len(units)), key=lambda i: (scores[i], units[i]), reverse=True)
    return Ranking(
        block.topic_id,
        tuple(units[i] for i in order),
        tuple(scores[i] for i in order),
        tuple(ranks[i] for i in order),
        dropped,
    )


def merge_blocks(first: RunBlock, later: RunBlock) -> RunBlock:
    """Join two blocks of one topic that stood apart in the file."""
    return RunBlock(
        first.topic_id,
        first.first_line,
        first.units + later.units,
        first.scores + later.scores,
        first.ranks + later.ranks,
    )


class RunReader:
    """Reads a run file as consecutive topic blocks; JSONL when the file starts with `{`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.lines = TextLines(self.path, RunFormatError)
        self.tags: set[str] = set()
        self.line_count = 0
        self.extra_fields_lines = 0
        self.format = self._detect()

    def _detect(self) -> str:
        lines = iter(self.lines)
        try:
            for _, line in lines:
                stripped = line.strip()
                if stripped and not line.startswith("#"):
                    return "jsonl" if stripped.startswith("{") else "trec"
        finally:
            lines.close()
        raise RunFormatError("empty run: no result lines", path=self.path)

    def bytes_read(self) -> int:
        return self.lines.bytes_read()

    def blocks(self) -> Iterator[RunBlock]:
        blocks = self._trec_blocks() if self.format == "trec" else self._group(self._jsonl_rows())
        found = False
        for block in blocks:
            found = True
            yield block
        if not found:
            raise RunFormatError("empty run: no result lines", path=self.path)

    @staticmethod
    def _group(rows: Iterator[tuple[int, str, str, float, int]]) -> Iterator[RunBlock]:
        block: RunBlock | None = None
        for number, topic_id, unit_id, score, rank in rows:
            if block is None or topic_id != block.topic_id:
                if block is not None:
                    yield block
                block = RunBlock(topic_id, number)
            block.units.append(unit_id)
            block.scores.append(score)
            block.ranks.append(rank)
        if block is not None:
            yield block

    def _trec_blocks(self) -> Iterator[RunBlock]:
        """The hot loop of run import: parse and group in one pass, with local names for speed."""
        path, tags, isfinite, other_space = self.path, self.tags, math.isfinite, OTHER_SPACE.search
        longest = MAX_ID_LENGTH
        count = 0
        block: RunBlock | None = None
        current = None
        # bound to the current block's lists when its first line is read (every block starts with one)
        add_unit: Callable[[str], None]
        add_score: Callable[[float], None]
        add_rank: Callable[[int], None]
        for number, line in self.lines:
            if line.startswith("#"):
                continue
            if other_space(line):
                check_separators(line, path=path, line=number, error=RunFormatError)
            fields = line.split()
            if len(fields) != 6:
                if not fields:
                    continue
                if len(fields) < 6:
                    raise RunFormatError(
                        f"expected 6 fields (topic Q0 id rank score tag), found {len(fields)}",
                        path=path,
                        line=number,
                    )
                self.extra_fields_lines += 1  # trec_eval ignores text after the sixth field
            topic_id, _, unit_id, rank_text, score_text, tag = fields[:6]
            # the id rule's fast path, inlined: split() left no white space, so printable is the whole rule
            if len(unit_id) > longest or not unit_id.isprintable():
                check_id(unit_id, "unit id", path=path, line=number, error=RunFormatError)
            try:
                if not score_text.isascii():  # float() reads "٣" as 3.0; trec_eval's atof reads 0
                    raise ValueError(score_text)
                score = float(score_text)
            except ValueError:
                raise RunFormatError(f"score {score_text!r} is not a number", path=path, line=number) from None
            if not isfinite(score) or "_" in score_text:
                raise RunFormatError(f"score {score_text!r} is not a finite number", path=path, line=number)
            try:
                if not rank_text.isascii() or "_" in rank_text:  # int() reads "٣" and "1_0"
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
            tags.add(tag)
            count += 1
            if topic_id != current:
                if len(topic_id) > longest or not topic_id.isprintable():
                    check_id(topic_id, "topic id", path=path, line=number, error=RunFormatError)
                if block is not None:
                    self.line_count = count - 1
                    yield block
                current = topic_id
                block = RunBlock(topic_id, number)
                add_unit, add_score, add_rank = block.units.append, block.scores.append, block.ranks.append
            add_unit(unit_id)
            add_score(score)
            add_rank(rank)
        self.line_count = count
        if block is not None:
            yield block

    def _jsonl_rows(self) -> Iterator[tuple[int, str, str, float, int]]:
        path = self.path
        position: dict[str, int] = {}
        count = 0
        for number, line in self.lines:
            if not line.strip() or line.startswith("#"):
                continue
            row = json_object(line, path=path, line=number, error=RunFormatError)
            topic_id, unit_id = _jsonl_ids(row, path, number)
            score = row.get("score")
            if isinstance(score, bool) or not isinstance(score, (int, float)):
                raise RunFormatError(f"score must be a number, found {json_type(score)}", path=path, line=number)
            try:
                score = float(score)
            except OverflowError:  # an integer too large for a float
                score = math.inf
            if not math.isfinite(score):
                raise RunFormatError(f"score {score!r} is not a finite number", path=path, line=number)
            position[topic_id] = position.get(topic_id, 0) + 1
            rank = row.get("rank", position[topic_id])
            if isinstance(rank, bool) or not isinstance(rank, int):
                raise RunFormatError(f"rank must be an integer, found {json_type(rank)}", path=path, line=number)
            if not INT64_MIN <= rank <= INT64_MAX:
                raise RunFormatError(f"rank {rank} is out of range (a 64-bit integer)", path=path, line=number)
            if "tag" in row or "run" in row:
                self.tags.add(str(row.get("tag", row.get("run"))))
            count += 1
            yield number, topic_id, unit_id, score, rank
        self.line_count = count

    def find_line(self, topic_id: str, unit_id: str | None = None, occurrence: int = 1) -> int | None:
        """The line of the n-th result for a topic (and unit): used only to explain errors."""
        seen = 0
        for number, line in TextLines(self.path, RunFormatError):
            if line.startswith("#") or not line.strip():
                continue
            if self.format == "trec":
                fields = line.split()
                row_topic, row_unit = fields[0], fields[2] if len(fields) > 2 else None
            else:
                row_topic, row_unit = _jsonl_ids(json.loads(line), self.path, number)
            if row_topic == topic_id and (unit_id is None or row_unit == unit_id):
                seen += 1
                if seen == occurrence:
                    return number
        return None

    def first_line_with_unit(self, unit_ids: set[str]) -> tuple[int, str] | None:
        """The first line whose unit id is in a set, for 'unknown id' errors."""
        for number, line in TextLines(self.path, RunFormatError):
            if line.startswith("#") or not line.strip():
                continue
            if self.format == "trec":
                unit = line.split()[2]
            else:
                unit = _jsonl_ids(json.loads(line), self.path, number)[1]
            if unit in unit_ids:
                return number, unit
        return None


TOPIC_KEYS = ("topic", "qid", "query_id", "topic_id")
UNIT_KEYS = ("unit", "docno", "doc_id", "docid", "chunk_id", "id")


def _jsonl_ids(row: dict[str, Any], path: Path, line: int) -> tuple[str, str]:
    """The topic and unit ids of a JSONL result, under any of their usual key names."""
    found = []
    for keys, what in ((TOPIC_KEYS, "topic id"), (UNIT_KEYS, "unit id")):
        key = next((k for k in keys if k in row), None)
        if key is None:
            raise RunFormatError(f"no {what} (one of {', '.join(keys)})", path=path, line=line)
        found.append(clean_id(row[key], what, path=path, line=line, error=RunFormatError))
    return found[0], found[1]

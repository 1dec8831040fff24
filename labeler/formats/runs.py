"""Reading ranked runs (in any registered run format), strictly and in bounded memory.

A run file is read once, as consecutive per-topic blocks; the caller stores
each block as soon as it ends, so memory holds one topic at a time, not the
whole run. The canonical order of a ranking is trec_eval's: score descending,
ties broken by unit id descending; the file's rank column is kept only as
information. Errors name the file, line and reason. The formats themselves
are a registry (`labeler.formats.run_formats`): this module only detects which
one a file is in and hands it the file.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from labeler.errors import RunFormatError

# the built-in formats register themselves on import (TREC is the fallback, tried last)
from labeler.formats import jsonl_runs, trec_runs  # noqa: F401
from labeler.formats.lines import TextLines
from labeler.formats.run_formats import RunBlock, RunFormat, detect_run_format

__all__ = ["DEDUPE_POLICIES", "DuplicateUnit", "Ranking", "RunBlock", "RunReader", "canonical_ranking", "merge_blocks"]

DEDUPE_POLICIES = ("error", "first")


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
    if _in_order(scores, units):  # as most runs are: a pass over the block, no sort
        return Ranking(block.topic_id, tuple(units), tuple(scores), tuple(ranks), dropped)
    # (score, unit) descending, ties kept in file order (a stable sort); the keys are made in C
    keys = list(zip(scores, units, strict=True))
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    if len(order) < 2:  # itemgetter of one index returns the item, not a 1-tuple
        return Ranking(block.topic_id, tuple(units), tuple(scores), tuple(ranks), dropped)
    pick = operator.itemgetter(*order)
    return Ranking(block.topic_id, pick(units), pick(scores), pick(ranks), dropped)


def _in_order(scores: Sequence[float], units: Sequence[str]) -> bool:
    """Whether (score, unit) never rises, by C calls over the columns (no tuple per entry)."""
    if not all(map(operator.ge, scores, scores[1:])):
        return False
    ties = list(map(operator.eq, scores, scores[1:]))
    return all(map(operator.gt, itertools.compress(units, ties), itertools.compress(units[1:], ties)))


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
    """Reads a run file as consecutive topic blocks, in the registered format its first result line shows."""

    def __init__(self, path: str | Path, lines: TextLines | None = None):
        """Read the file at `path`, or `lines` (a stream's, read at most twice), which errors name `path`."""
        self.path = Path(path)
        self.lines = lines if lines is not None else TextLines(self.path, RunFormatError)
        self.tags: set[str] = set()
        self.line_count = 0
        self.extra_fields_lines = 0
        self.run_format = self._detect()
        self.format = self.run_format.name

    def _detect(self) -> RunFormat:
        lines = iter(self.lines)
        try:
            for _, line in lines:
                stripped = line.strip()
                if stripped and not line.startswith("#"):
                    return detect_run_format(stripped)
        finally:
            lines.close()
        raise RunFormatError("empty run: no result lines", path=self.path)

    def bytes_read(self) -> int:
        return self.lines.bytes_read()

    def blocks(self) -> Iterator[RunBlock]:
        found = False
        for block in self.run_format.read_blocks(self):
            found = True
            yield block
        if not found:
            raise RunFormatError("empty run: no result lines", path=self.path)

    def _result_lines(self) -> Iterator[tuple[int, str, str | None]]:
        """`(line, topic id, unit id)` of every result line, read again from the start: only to explain errors."""
        line_ids = self.run_format.line_ids
        for number, line in TextLines(self.path, RunFormatError):
            if line.startswith("#") or not line.strip():
                continue
            topic_id, unit_id = line_ids(line, self.path, number)
            yield number, topic_id, unit_id

    def find_line(self, topic_id: str, unit_id: str | None = None, occurrence: int = 1) -> int | None:
        """The line of the n-th result for a topic (and unit): used only to explain errors."""
        seen = 0
        for number, row_topic, row_unit in self._result_lines():
            if row_topic == topic_id and (unit_id is None or row_unit == unit_id):
                seen += 1
                if seen == occurrence:
                    return number
        return None

    def first_line_with_unit(self, unit_ids: set[str]) -> tuple[int, str] | None:
        """The first line whose unit id is in a set, for 'unknown id' errors."""
        for number, _, unit in self._result_lines():
            if unit is not None and unit in unit_ids:
                return number, unit
        return None

"""An external retriever run as a command: topics in as JSON lines, a TREC (or JSONL) run out.

The command is any program: it reads one `{"id", "title", "description",
"narrative"}` object per line on stdin and prints a run on stdout, which is
read as it is printed (`labeler.external.Program`, through a pipe, never a
file) by the same strict run reader as `labeler runs import`, under the same
limits, and stopped at the first bad line. Every error names the command.
"""

from __future__ import annotations

import bisect
import itertools
import json
import operator
import os
from collections.abc import Iterable
from typing import Any

from labeler.errors import RunFormatError
from labeler.external import Program, command_argv
from labeler.formats.runs import RunBlock, RunReader, merge_blocks
from labeler.formats.stream_lines import StreamLines
from labeler.models import Topic


class CommandRetriever:
    """Runs `command` once for all topics; `blocks` gives its run, one block per topic (split topics merged)."""

    name = "command"
    version = "external"

    def __init__(self, command: str):
        self.command = command.strip()
        self.argv = command_argv(self.command, "retriever", "python my_retriever.py")
        self.output_name = f"output of {self.command!r}"
        self.extra_fields_lines = 0
        self.tags: set[str] = set()

    @property
    def params(self) -> dict[str, Any]:
        return {"command": self.command}

    def blocks(self, topics: Iterable[Topic], *, depth: int, unit: str, db: str | None = None) -> list[RunBlock]:
        """Run the command and read what it prints; raise a `LabelerError` naming it on any failure."""
        stdin = "".join(
            json.dumps(
                {"id": t.topic_id, "title": t.title, "description": t.description, "narrative": t.narrative},
                ensure_ascii=False,
            )
            + "\n"
            for t in topics
        )
        env = {**os.environ, "LABELER_RETRIEVE_DEPTH": str(depth), "LABELER_RETRIEVE_UNIT": unit}
        if db is not None:
            env["LABELER_DB"] = db
        with Program(self.argv, self.command, "retriever", stdin=stdin.encode("utf-8"), env=env) as program:
            entries = ResultLines()
            lines = StreamLines(
                program.stdout,
                RunFormatError,
                max_bytes=program.limits.max_output_bytes,
                rewind_once=True,  # the reader detects the format from the first result line, then reads from the start
                observe=entries.observe,
            )
            try:
                reader = RunReader("output", lines=lines)
                blocks = _read_blocks(reader, entries)
            except RunFormatError as exc:
                # a program that crashed, or ran out of time, is reported as such, not by the half line it left
                if lines.ended:
                    program.check_ended()
                else:
                    program.check()
                raise RunFormatError(exc.reason, path=self.output_name, line=exc.line, hints=exc.hints) from None
            program.finish()
        self.extra_fields_lines = reader.extra_fields_lines
        self.tags = set(reader.tags)
        return list(blocks.values())


class ResultLines:
    """Which line a block's n-th result stands on: the lines not skipped as blank or `#` comments.

    Only the skipped lines' numbers are kept, and only those from the block being read on.
    """

    def __init__(self) -> None:
        self.skipped: list[int] = []

    def observe(self, first: int, lines: list[str]) -> None:
        """Note the blank and comment lines of a batch (by C calls over the batch, no Python call per line)."""
        numbers = itertools.count(first)
        blank = itertools.compress(numbers, map(operator.not_, map(str.strip, lines)))
        comments = itertools.compress(itertools.count(first), map(str.startswith, lines, itertools.repeat("#")))
        found = set(blank).union(comments)
        if found:
            self.skipped.extend(sorted(found))

    def line_of(self, block: RunBlock, index: int) -> int:
        """The line of the block's result at `index` (0-based)."""
        skipped = self.skipped
        at = bisect.bisect_left(skipped, block.first_line)
        line, results = block.first_line, 0
        while True:
            if at < len(skipped) and skipped[at] == line:
                at += 1
            elif results == index:
                return line
            else:
                results += 1
            line += 1

    def forget_before(self, line: int) -> None:
        del self.skipped[: bisect.bisect_left(self.skipped, line)]


def _read_blocks(reader: RunReader, entries: ResultLines) -> dict[str, RunBlock]:
    """The run's blocks by topic (a topic's blocks merged), refusing a unit repeated in a topic as it comes."""
    blocks: dict[str, RunBlock] = {}
    seen: dict[str, set[str]] = {}
    for block in reader.blocks():
        units = seen.setdefault(block.topic_id, set())
        new = set(block.units)
        if len(new) != len(block.units) or not units.isdisjoint(new):
            _refuse_duplicate(block, units, entries)
        units |= new
        entries.forget_before(block.first_line)
        previous = blocks.get(block.topic_id)
        blocks[block.topic_id] = merge_blocks(previous, block) if previous else block
    return blocks


def _refuse_duplicate(block: RunBlock, units: set[str], entries: ResultLines) -> None:
    earlier = set(units)
    for index, unit_id in enumerate(block.units):
        if unit_id in earlier:
            raise RunFormatError(
                f"duplicate id {unit_id!r} in the ranking of topic {block.topic_id!r}",
                line=entries.line_of(block, index),
            )
        earlier.add(unit_id)

"""An external retriever run as a command: topics in as JSON lines, a TREC (or JSONL) run out.

The command is any program: it reads one `{"id", "title", "description",
"narrative"}` object per line on stdin and prints a run on stdout, which is
read by the same strict run reader as `labeler runs import`. Every error
names the command.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from labeler.errors import RunFormatError
from labeler.external import command_argv, run_command
from labeler.formats.runs import RunBlock, RunReader, merge_blocks
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
        """Run the command and read what it printed; raise a `LabelerError` naming it on any failure."""
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
        with tempfile.TemporaryDirectory(prefix="labeler-retrieve-") as folder:
            output = Path(folder) / "run.txt"
            with open(output, "wb") as stdout:
                run_command(self.argv, self.command, "retriever", stdin=stdin.encode("utf-8"), stdout=stdout, env=env)
            try:
                reader = RunReader(output)
                blocks: dict[str, RunBlock] = {}
                for block in reader.blocks():
                    previous = blocks.get(block.topic_id)
                    blocks[block.topic_id] = merge_blocks(previous, block) if previous else block
                for block in blocks.values():
                    _check_duplicates(block, reader)
            except RunFormatError as exc:
                raise RunFormatError(exc.reason, path=self.output_name, line=exc.line, hints=exc.hints) from None
            self.extra_fields_lines = reader.extra_fields_lines
            self.tags = set(reader.tags)
            return list(blocks.values())


def _check_duplicates(block: RunBlock, reader: RunReader) -> None:
    seen: set[str] = set()
    for unit_id in block.units:
        if unit_id in seen:
            raise RunFormatError(
                f"duplicate id {unit_id!r} in the ranking of topic {block.topic_id!r}",
                line=reader.find_line(block.topic_id, unit_id, occurrence=2),
            )
        seen.add(unit_id)

"""An external judge run as a command: pairs in as JSON lines on stdin, answers out as JSON lines on stdout.

The program is run once per batch of pairs. It reads one `{"topic", "unit", "unit_space",
"title", "description", "narrative", "text"}` object a line and prints one `{"topic",
"unit", "grade", "probs"?}` object a line, in any order. For answers it is run the same way
on requests whose `task` is `draft` or `assign` (`labeler.judges.base` has their shapes and
the answers expected). Its answers are read as it prints
them (`labeler.external.Program`), under the reading limits, and checked like a model's
JSONL import as they come; an error names the command, the batch and the answer's line,
and stops the program.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

from labeler.errors import FormatError
from labeler.external import PREFIX, Program, command_argv
from labeler.formats.stream_lines import StreamLines
from labeler.json_form import JsonResult
from labeler.judges.base import JudgePair


class CommandJudge:
    version = "external"

    def __init__(self, command: str):
        self.command = command.strip()
        self.argv = command_argv(self.command, "judge", "python my_judge.py")
        self.name = f"{PREFIX}{Path(self.argv[-1]).name}"
        self.batches = 0

    @property
    def params(self) -> dict[str, Any]:
        return {"command": self.command}

    def answer_source(self) -> str:
        """How errors name where an answer came from: `output of 'CMD' (batch N)`."""
        return f"output of {self.command!r} (batch {self.batches})"

    def judge(self, pairs: Sequence[JudgePair], grades: Sequence[int]) -> Generator[tuple[int, str], None, None]:
        """Run the command on one batch; its output lines as `(line number, text)`, as it prints them.

        The program runs while the caller reads: close the iterator (`contextlib.closing`) to stop it
        at a line the caller refuses. Blank lines are skipped.
        """
        return self.exchange(pairs)

    def exchange(self, requests: Sequence[JsonResult]) -> Generator[tuple[int, str], None, None]:
        """Run the command on one batch of requests (pairs, drafts or assignments), as `judge` does."""
        self.batches += 1
        stdin = "".join(json.dumps(request.to_json(), ensure_ascii=False) + "\n" for request in requests)
        return self._lines(stdin.encode("utf-8"))

    def _lines(self, stdin: bytes) -> Generator[tuple[int, str], None, None]:
        with Program(self.argv, self.command, "judge", stdin=stdin) as program:
            lines = StreamLines(program.stdout, FormatError, max_bytes=program.limits.max_output_bytes)
            try:
                for number, line in lines:
                    if line.strip():
                        yield number, line
            except FormatError as exc:
                if lines.ended:
                    program.check_ended()
                else:
                    program.check()
                raise FormatError(exc.reason, path=self.answer_source(), line=exc.line, hints=exc.hints) from None
            program.finish()

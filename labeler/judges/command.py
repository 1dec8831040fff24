"""An external judge run as a command: pairs in as JSON lines on stdin, answers out as JSON lines on stdout.

The program is run once per batch of pairs. It reads one `{"topic", "unit", "unit_space",
"title", "description", "narrative", "text"}` object a line and prints one `{"topic",
"unit", "grade", "probs"?}` object a line, in any order. The answers are checked like a
model's JSONL import; an error names the command, the batch and the answer's line.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.judges.base import JudgePair

PREFIX = "command:"
STDERR_LINES = 5


class CommandJudge:
    version = "external"

    def __init__(self, command: str):
        self.command = command.strip()
        try:
            self.argv = shlex.split(self.command)
        except ValueError as exc:
            raise LabelerError(f"judge command {self.command!r} cannot be parsed: {exc}") from None
        if not self.argv:
            raise LabelerError("judge 'command:' needs a command, e.g. command:'python my_judge.py'")
        self.name = f"{PREFIX}{Path(self.argv[-1]).name}"
        self.batches = 0

    @property
    def params(self) -> dict[str, Any]:
        return {"command": self.command}

    def answer_source(self) -> str:
        """How errors name where an answer came from: `output of 'CMD' (batch N)`."""
        return f"output of {self.command!r} (batch {self.batches})"

    def judge(self, pairs: Sequence[JudgePair], grades: Sequence[int]) -> list[tuple[int, Any]]:
        """Run the command on one batch; its output lines as `(line number, text)` (checked by the caller)."""
        self.batches += 1
        stdin = "".join(json.dumps(pair.to_json(), ensure_ascii=False) + "\n" for pair in pairs)
        try:
            finished = subprocess.run(self.argv, input=stdin.encode("utf-8"), capture_output=True, check=False)
        except OSError as exc:
            raise LabelerError(f"judge command {self.command!r} could not start: {exc.strerror or exc}") from None
        if finished.returncode != 0:
            tail = finished.stderr.decode("utf-8", "replace").strip().splitlines()[-STDERR_LINES:]
            said = ("; it said: " + " | ".join(tail)) if tail else ""
            raise LabelerError(f"judge command {self.command!r} failed with exit code {finished.returncode}{said}")
        try:
            text = finished.stdout.decode("utf-8")
        except UnicodeDecodeError:
            raise LabelerError(f"{self.answer_source()}: not UTF-8 text") from None
        return [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]

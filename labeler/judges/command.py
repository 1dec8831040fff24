"""An external judge run as a command: pairs in as JSON lines on stdin, answers out as JSON lines on stdout.

The program is run once per batch of pairs. It reads one `{"topic", "unit", "unit_space",
"title", "description", "narrative", "text"}` object a line and prints one `{"topic",
"unit", "grade", "probs"?}` object a line, in any order. The answers are checked like a
model's JSONL import; an error names the command, the batch and the answer's line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.external import PREFIX, command_argv, run_command
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

    def judge(self, pairs: Sequence[JudgePair], grades: Sequence[int]) -> list[tuple[int, Any]]:
        """Run the command on one batch; its output lines as `(line number, text)` (checked by the caller)."""
        self.batches += 1
        stdin = "".join(json.dumps(pair.to_json(), ensure_ascii=False) + "\n" for pair in pairs)
        finished = run_command(self.argv, self.command, "judge", stdin=stdin.encode("utf-8"))
        try:
            text = finished.stdout.decode("utf-8")
        except UnicodeDecodeError:
            raise LabelerError(f"{self.answer_source()}: not UTF-8 text") from None
        return [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]

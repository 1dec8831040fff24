"""Errors that users see.

Every expected failure is a `LabelerError`: the CLI prints it as
``Error: file:line: reason`` and exits 1, in one place, without a traceback.
Keeping the location in structured fields (not baked into the message) lets
the TUI show the same error in a notification and tests match on parts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# What a hint can ask the user to do, in no front end's words. Each front end says it its own way
# (the CLI names a command or a flag, the TUI a key where it has one): labeler/cli/common/hints.py and
# labeler/tui/hints.py render every action here, which tests/test_hints.py checks.
HINT_ACTIONS: dict[str, str] = {
    "set_argument": "give the argument `argument` (with `value` when one is meant)",
    "import_topics": "import the topics",
    "import_corpus": "import the documents",
    "import_runs": "import runs",
    "make_chunking": "make a chunking (chunk the corpus, or import or derive a mapping)",
    "build_pool": "build a pool",
    "list_topics": "look at the topics the workbench holds",
    "list_chunkings": "look at the chunkings the workbench holds",
    "list_runs": "look at the runs the workbench holds",
    "list_pools": "look at the pools the workbench holds",
    "list_answer_runs": "look at the answer runs the workbench holds",
    "import_answers": "import a run's answers",
    "list_nuggets": "look at the nuggets the workbench holds",
    "list_snapshots": "look at the snapshots the workbench holds",
    "list_assignments": "look at the assignment plan",
    "upgrade_workbench": "open the workbench once with this labeler, which upgrades it",
    "init_workbench": "make a new workbench",
    "create_snapshot": "create a snapshot of the labels",
    "assign_assessors": "deal the topics to the assessors named in `value` (comma-separated)",
    "adjudicate": "settle the pairs in conflict",
    "mark_topic": "mark the topic `value` done (reviewed)",
}


@dataclass(frozen=True)
class Hint:
    """What the user can do about an error: an action of `HINT_ACTIONS`, and why, in domain words.

    The services do not know which front end called them, so they say *what* would help
    (`Hint("build_pool")`, `Hint("set_argument", argument="unit", value="doc", why="to score at
    document level")`) and the CLI or the TUI says *how* (`'labeler pool build --depth K'`, `--unit doc`).
    """

    action: str
    argument: str | None = None
    value: str | None = None
    why: str = ""

    def __post_init__(self) -> None:
        if self.action not in HINT_ACTIONS:
            raise ValueError(f"unknown hint action {self.action!r}")
        if (self.action == "set_argument") != (self.argument is not None):
            raise ValueError("a set_argument hint names its argument, and only it does")


def argument_hint(argument: str, value: str | None = None, why: str = "") -> Hint:
    """The hint "give `argument` (`value`)", the commonest one."""
    return Hint("set_argument", argument=argument, value=value, why=why)


class LabelerError(Exception):
    """An expected error: bad data, a failed check, or an impossible request.

    `reason` is in the domain's words: it names no command-line flag and no key. What the user
    can do about it goes in `hints`, which each front end renders; `location_message()` is the
    error without them, the same in every front end.
    """

    def __init__(
        self,
        reason: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        hints: tuple[Hint, ...] | Hint = (),
    ):
        self.reason = reason
        self.path = str(path) if path is not None else None
        self.line = line
        self.hints: tuple[Hint, ...] = (hints,) if isinstance(hints, Hint) else tuple(hints)
        super().__init__(self.location_message())

    def location_message(self) -> str:
        """`file:line: reason`, leaving out what is unknown."""
        parts = []
        if self.path is not None:
            parts.append(self.path)
            if self.line is not None:
                parts.append(str(self.line))
        prefix = ":".join(parts)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class BadArgumentError(LabelerError):
    """A request whose argument is out of range or names nothing: exit code 2, like a usage error.

    `argument` is the service's parameter name (`depth`, `unit`); the CLI shows it as its flag
    (`--depth`) and the TUI as the setting it is. A bad *file* is not a bad argument: its line is
    the location, and that is a `FormatError`.
    """

    def __init__(self, reason: str, *, argument: str, hints: tuple[Hint, ...] | Hint = ()):
        self.argument = argument
        super().__init__(reason, path=argument, hints=hints)


class FormatError(LabelerError):
    """A file that cannot be read as the format it claims to be."""


class RunFormatError(FormatError):
    """A TREC or JSONL run that is malformed."""


class TopicFormatError(FormatError):
    """A topics file that is malformed."""


class CorpusFormatError(FormatError):
    """A corpus file that is malformed."""


class MappingFormatError(FormatError):
    """A chunk mapping file that is malformed."""


class QrelsFormatError(FormatError):
    """A qrels file that is malformed."""


class ScaleFormatError(FormatError):
    """A grade scale file or name that is not valid."""


class UnknownIdError(LabelerError):
    """Ids (topics, documents, chunks) that the workbench does not know."""


class ConflictError(LabelerError):
    """A request that conflicts with what the workbench already holds."""


class NotFoundError(LabelerError):
    """A named thing (run, chunking, pool, snapshot) that does not exist."""


class SchemaVersionError(LabelerError):
    """A workbench written by a newer labeler, or not a labeler workbench at all."""

"""The formats a run file may be in, as a registry: a new format is one module and one registration.

`RunReader` (`labeler.formats.runs`) looks at the file's first result line,
asks each registered format whether it is one of its own (`detects`), and
hands the file to that format's block reader. The reader, the docs' table of
run formats and `runs import --help` read this registry, so none of them names
a format. The built-in formats are `labeler.formats.jsonl_runs` and
`labeler.formats.trec_runs`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from labeler.formats.lines import TextLines
from labeler.registry import Registry


@dataclass
class RunBlock:
    """The lines of one topic that stand together in the file, in file order."""

    topic_id: str
    first_line: int
    units: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)


class RunSource(Protocol):
    """What a format's block reader is given: the file's lines and the counts it keeps while reading."""

    path: Path
    lines: TextLines
    tags: set[str]
    line_count: int
    extra_fields_lines: int


BlockReader = Callable[[RunSource], Iterator[RunBlock]]
LineIds = Callable[[str, Path, int], tuple[str, str | None]]


@dataclass(frozen=True)
class RunFormat:
    """A registered run format.

    `detects(line)` says whether the file's first result line (not blank, not
    a `#` comment, stripped) is in this format; the `fallback` format is the
    one read when no other detects its line. `read_blocks` yields the file's
    topic blocks, validating every line (errors name the file and line);
    `line_ids` gives the topic and unit ids of a result line, used only to
    find the line an error is about. `description`, `example` and
    `detected_by` (how `detects` decides, in words) are the docs' table row.
    """

    name: str
    description: str
    example: str
    detected_by: str
    detects: Callable[[str], bool]
    read_blocks: BlockReader
    line_ids: LineIds
    fallback: bool = False


def _one_fallback(run_format: RunFormat) -> None:
    if run_format.fallback and any(known.fallback for known in RUN_FORMATS.values() if known is not run_format):
        raise ValueError(f"run format {run_format.name!r}: there is a fallback format already")


RUN_FORMATS: Registry[RunFormat] = Registry("run format", check=_one_fallback)
"""The run formats in registration order: `RUN_FORMATS.register(name, RunFormat(name, ...))` (one fallback)."""


def detect_run_format(first_line: str) -> RunFormat:
    """The format of a file whose first result line is `first_line`: the first that detects it, else the fallback."""
    for run_format in RUN_FORMATS.values():
        if not run_format.fallback and run_format.detects(first_line):
            return run_format
    for run_format in RUN_FORMATS.values():
        if run_format.fallback:
            return run_format
    raise LookupError("no fallback run format is registered")

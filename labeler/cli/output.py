"""How the CLI prints: JSON for scripts, rich tables for people, progress bars on terminals.

Data goes to stdout, diagnostics and progress to stderr.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from labeler.workbench import Progress as ProgressCallback


def stdout_console() -> Console:
    """Rich on stdout; when piped, wide enough that tables are never cut to 80 columns."""
    return Console(file=sys.stdout, soft_wrap=True, width=None if sys.stdout.isatty() else 1000)


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def info(message: str) -> None:
    """A diagnostic line for people, on stderr."""
    click.echo(message, err=True)


def table(title: str | None, columns: list[str], rows: list[list[Any]]) -> None:
    """A rich table on stdout; numbers right-aligned."""
    grid = Table(title=title, title_justify="left", show_edge=False, header_style="bold")
    numeric = [all(isinstance(r[i], (int, float)) or r[i] in ("", None, "-") for r in rows) if rows else False
               for i in range(len(columns))]
    for column, is_number in zip(columns, numeric):
        grid.add_column(column, justify="right" if is_number else "left")
    for row in rows:
        grid.add_row(*("-" if v is None else str(v) for v in row))
    stdout_console().print(grid)


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[ProgressCallback | None]:
    """A progress callback drawing a bar on a terminal; None (quiet) when stderr is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    console = Console(file=sys.stderr)
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield update

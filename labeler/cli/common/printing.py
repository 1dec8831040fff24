"""How the CLI prints: JSON for scripts, rich tables for people, progress bars on terminals.

Data goes to stdout, diagnostics and progress to stderr.

Everything printed here may hold user text (run names, titles, notes, messages, paths),
and every function makes it inert: rich reads a `str` as markup (`[/b]` raised
MarkupError, `[red]x[/red]` vanished, `[link=...]` became a live hyperlink), so tables,
titles and bar labels get `rich.text.Text`, never a markup `str`; and control characters
(ESC sequences that retitle or clear the terminal, C1, bidi overrides) are shown as
visible escapes (`labeler.inert`). Commands print only through this module.

rich is imported inside the functions that draw, not at the top: JSON output, `info` and
`Error:` lines need none of it, and `labeler --help` starts faster without it.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import click

from labeler.errors import BadArgumentError
from labeler.inert import inert_json, visible, visible_line

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from labeler.cli.common.context import Env
    from labeler.workbench.setup import Progress as ProgressCallback
    from labeler.workbench.setup import Store


def shown(value: Any) -> Text:
    """`value` as one line of plain text for rich: no markup read, control characters escaped."""
    from rich.text import Text

    return Text("-" if value is None else visible_line(str(value)), end="")


def on_terminal() -> bool:
    """Whether stdout is a terminal (tables then fit its width; piped, they keep one line a row)."""
    return sys.stdout.isatty()


def stdout_console() -> Console:
    """Rich on stdout: on a terminal as wide as it is (or as `COLUMNS` says); piped, 1000 wide.

    Piped output is read by programs and pagers, so its tables are never cut to 80 columns
    (nor wrapped to `COLUMNS`, which some tools export to every child process).
    """
    from rich.console import Console

    return Console(file=sys.stdout, soft_wrap=True, width=None if on_terminal() else 1000)


def emit_json(data: Any) -> None:
    """JSON on stdout. json.dumps escapes C0 controls; DEL, C1 and bidi controls get `\\uXXXX` too.

    The parsed value is the same; the text shown on a terminal can no longer act on it.
    """
    click.echo(inert_json(json.dumps(data, indent=2, ensure_ascii=False)))


def info(message: str) -> None:
    """A diagnostic line for people, on stderr, with control characters escaped."""
    click.echo(visible(message), err=True)


def retired_note(runs_retired: Sequence[str]) -> None:
    """The line saying which retired runs a default run set left out (nothing when none was)."""
    if runs_retired:
        info(f"Left out as retired: {', '.join(runs_retired)} (name them with --runs to include them).")


def error_line(message: str) -> None:
    """The one `Error: ...` line of a failed command, on stderr, on one line."""
    click.echo(f"Error: {visible_line(message)}", err=True)


def _is_number_column(rows: list[list[Any]], index: int) -> bool:
    """Numbers (or blanks) all the way down: the column is right-aligned and never wrapped."""
    return bool(rows) and all(isinstance(r[index], (int, float)) or r[index] in ("", None, "-") for r in rows)


def _fitted(
    width: int,
    columns: list[str],
    rows: list[list[Any]],
    numeric: list[bool],
    *,
    drop: Sequence[str],
    grow: Sequence[str],
) -> tuple[list[int], dict[str, int] | None]:
    """The columns kept in `width` and their widths (None: as they are), saying on stderr which were left out."""
    from labeler.columns import columns_of, fit_columns, kept_columns

    texts = [[shown(v).plain for v in row] for row in rows]
    fitted = fit_columns(
        width + 1,  # no edges: the first and last columns spend their padding but no rule
        columns_of(columns, texts, whole=numeric, drop=drop),
        gap=3,
        grow=grow,
    )
    kept = kept_columns(columns, fitted)
    if len(kept) < len(columns):
        left_out = ", ".join(name for i, name in enumerate(columns) if i not in kept)
        info(f"Left out to fit {width} columns: {left_out} (a wider terminal or --json shows them).")
    return kept, fitted


def table(
    title: str | None,
    columns: list[str],
    rows: list[list[Any]],
    *,
    drop: Sequence[str] = (),
    grow: Sequence[str] = (),
) -> None:
    """A rich table on stdout; numbers right-aligned; every title, header and cell plain text.

    Narrower than the table (a terminal, or `COLUMNS`), the columns named in `drop` are left
    out, least useful first, until it fits (a line on stderr names them), and the others wrap
    between words, the room left going first to the columns named in `grow`: a cell is never
    cut (`labeler.columns`).
    """
    from rich.table import Table

    console = stdout_console()
    numeric = [_is_number_column(rows, i) for i in range(len(columns))]
    kept, fitted = _fitted(console.width, columns, rows, numeric, drop=drop, grow=grow)
    caption = shown(title) if title else None
    if caption is not None:
        caption.end = "\n"  # a title is a line of its own (cells end without one: shown's end="")
    grid = Table(title=caption, title_justify="left", show_edge=False, header_style="bold")
    for i in kept:
        grid.add_column(
            shown(columns[i]),
            justify="right" if numeric[i] else "left",
            overflow="fold",  # a word longer than its column breaks across lines, never behind an ellipsis
            width=None if fitted is None else fitted[columns[i]],
        )
    for row in rows:
        grid.add_row(*(shown(row[i]) for i in kept))
    console.print(grid)


class Reported(Protocol):
    """A use case's typed result: its `--json` form is `to_json()`."""

    def to_json(self) -> dict[str, Any]: ...


Result = TypeVar("Result", bound=Reported)


def print_result(result: Result, as_json: bool, say: Callable[[Result], None]) -> None:
    """A report command's output: the result's JSON for scripts, else `say` puts it in words and tables."""
    if as_json:
        emit_json(result.to_json())
    else:
        say(result)


Item = TypeVar("Item")


def listing(
    items: Sequence[Item],
    as_json: bool,
    columns: list[str],
    row: Callable[[Item], list[Any]],
    *,
    to_json: Callable[[Item], Any] | None = None,
) -> None:
    """What a `... list` command prints: the items as one JSON list for scripts, else a table a row each.

    `to_json` turns a typed item into its JSON form (the items themselves are printed when it is None);
    `row` is called only for the table, so the JSON never depends on how an item is shown.
    """
    if as_json:
        emit_json([to_json(item) for item in items] if to_json else list(items))
        return
    table(None, columns, [row(item) for item in items])


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[ProgressCallback | None]:
    """A progress callback drawing a bar on a terminal; None (quiet) when stderr is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(file=sys.stderr)
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(visible_line(label), total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield update


def refuse_json_without_output(as_json: bool, output: str | None) -> None:
    """An export's `--json` summarizes the file it wrote; without `-o` the export itself is stdout."""
    if as_json and not output:
        raise BadArgumentError(
            "it prints a summary of the file written with -o FILE; without -o the export itself goes to stdout",
            argument="json",
        )


def emit_export(exported: str, name: str | None, fmt: str, path: str, *, text: bool = True) -> None:
    """`export ... -o FILE --json`: what was written, as `labeler.output_files.ExportSummary` says it."""
    from labeler.output_files import summarize_export

    emit_json(summarize_export(exported, name, fmt, path, text=text).to_json())


def text_export(
    env: Env,
    lines_of: Callable[[Store], Iterable[str]],
    *,
    exported: str,
    name: str,
    fmt: str,
    output: str | None,
    force: bool,
    as_json: bool,
    what: str | None = None,
) -> None:
    """An export of text lines to stdout, or to `output` under the output rule (`--json`: what was written).

    `lines_of` gives the lines from the open workbench; it refuses an unknown name before the first
    line, so nothing is written then. The path is checked before the workbench is opened. `what`
    names the thing exported in the line for people (default: `exported`).
    """
    from labeler.output_files import check_output, write_output

    refuse_json_without_output(as_json, output)
    if output:
        check_output(output, workbench=env.db_path, force=force)  # before any work: a bad path changes nothing
    with env.store() as store:
        lines = lines_of(store)
        if not output:
            for line in lines:
                click.echo(line, nl=False)
            return
        written = write_output(output, lines, workbench=env.db_path, force=force)
    if as_json:
        emit_export(exported, name, fmt, output)
    else:
        from labeler.wording import plural

        info(f"Wrote {what or exported} {name!r} to {output} ({plural(written.bytes, 'byte')}).")

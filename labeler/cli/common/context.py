"""What every command needs: the workbench path, opened on demand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from labeler.ids import check_id

if TYPE_CHECKING:
    from labeler.workbench.setup import Store


@dataclass
class Env:
    db_path: str

    def store(self) -> Store:
        from labeler.workbench.setup import open_workbench  # here, not at the top: `labeler --help` needs no store

        return open_workbench(self.db_path)


pass_env = click.make_pass_decorator(Env)

force_option = click.option(
    "--force",
    is_flag=True,
    help="Replace the output file if it exists (never the workbench, never through a symlink; see docs/cli.md).",
)

# The output file of a command that prints to stdout; pair it with `force_option`.
output_option = click.option(
    "-o",
    "--output",
    type=click.Path(),
    default=None,
    help="Write to a new file, not stdout (see the output rule in docs/cli.md).",
)

# The runs a report scores; without it, every run the labels can score (parse it with `comma_list`).
scored_runs_option = click.option(
    "--runs",
    default=None,
    help="Comma-separated run names (default: every run the labels can score; the others are named).",
)

json_option = click.option("--json", "as_json", is_flag=True, help="Print a JSON document (a stable shape).")
export_json_option = click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="With -o: print a JSON summary of the file written (path, bytes, lines, sha256); the export goes to the file.",
)


def comma_list(text: str | None, argument: str, what: str) -> list[str] | None:
    """`A, B,C` as `["A", "B", "C"]`; None (the default set) when nothing was given.

    Every comma list of the CLI is read here, by `labeler.ids.parse_names`: an empty or invalid
    name, or a name given twice, is a bad `argument` (`Error: --runs: run name 'x' is given twice`).
    """
    from labeler.ids import parse_names

    return parse_names(text, what, argument) if text else None


def measure_list(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`--measures`: a measure named twice is refused, like a repeat in any list.

    An unknown measure passes here: the service says what is wrong with it, with the known ones.
    """
    from labeler.ids import refuse_repeats
    from labeler.metrics.names import measure_names

    if value is None:
        return None
    try:
        names = measure_names(value)
    except ValueError:
        return value
    refuse_repeats(names, "measure", "measures")
    return value


def default_assessor() -> str:
    """LABELER_ASSESSOR, else the login name: who is judging when --assessor is not given.

    Either obeys the id rule like a typed --assessor, and a refusal names where the name came from.
    """
    import getpass
    import os

    name = os.environ.get("LABELER_ASSESSOR")
    if name:
        return check_id(name, "assessor name", path="LABELER_ASSESSOR")
    try:
        name = getpass.getuser()
    except Exception:  # no login name (some containers): ask for --assessor instead
        return "unknown"
    return check_id(name, "assessor name", path="the login name (give --assessor)")


Callback = Callable[[click.Context, click.Parameter, object], object]


def checked_id(what: str, check: Callable[..., str] = check_id) -> Callback:
    """A click callback: the value obeys the id rule (`labeler.ids`), else `argument NAME: reason`.

    It raises a `LabelerError`, so the refusal is exit 1 with one `Error:` line, like a bad line
    in a file, before the command opens the workbench; `what` names the id in the reason.
    """

    def callback(ctx: click.Context, param: click.Parameter, value: object) -> object:
        if value is None:
            return value
        return check(value, what, path=_where(param))

    return callback


def checked_ids(what: str) -> Callable[[click.Context, click.Parameter, tuple[str, ...]], tuple[str, ...]]:
    """`checked_id` for an option given several times: each value obeys the id rule."""

    def callback(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(check_id(value, what, path=_where(param)) for value in values)

    return callback


def _where(param: click.Parameter) -> str:
    """How the user gave a value: `argument TOPIC` or `--assessor`."""
    if isinstance(param, click.Argument):
        return f"argument {param.human_readable_name}"
    return max(param.opts, key=len)


assessor_option = click.option(
    "--assessor",
    default=default_assessor,
    show_default="LABELER_ASSESSOR or the login name",
    callback=checked_id("assessor name"),
    help="Who is judging (an id: no spaces or control characters).",
)

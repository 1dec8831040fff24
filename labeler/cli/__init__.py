"""The `labeler` command: parse arguments, call one workbench function, print the result.

Expected errors (`LabelerError`, and an `OSError` naming a file) become
`Error: file:line: reason (hint)` and exit code 1 here, in one place; usage errors
and bad arguments (`BadArgumentError`) exit 2 (click's convention). The words for
flags and commands come from `labeler.cli.hints`.
"""

from __future__ import annotations

import sys

import click

from labeler import __version__
from labeler.cli.context import pass_env
from labeler.cli.hints import cli_message, exit_code
from labeler.cli.output import error_line
from labeler.errors import LabelerError


class LabelerGroup(click.Group):
    """The root group: turns expected errors into one clean line and exit code 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except LabelerError as error:
            error_line(cli_message(error))
            ctx.exit(exit_code(error))
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(1)
        except OSError as error:
            # A safety net: readers and writers report their own I/O failures as LabelerError; one
            # that escapes with a file name is still an expected failure, not a crash.
            if error.filename is None:
                raise
            error_line(f"{error.filename}: {(error.strerror or str(error)).lower()}")
            ctx.exit(1)
        except Exception as error:
            # The machine, not the data: a read-only workbench, a full disk (SQLite's own error, from
            # a write outside the store's transactions, which raise WorkbenchWriteError). Every write is
            # one transaction, rolled back by now, so one line and exit 1 say all there is to say.
            from labeler.workbench.setup import environment_error

            reason = environment_error(error)
            if reason is None:
                raise
            db_path = getattr(ctx.obj, "db_path", None)
            error_line(f"{db_path}: {reason}" if db_path else reason)
            ctx.exit(1)


@click.group(cls=LabelerGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    "db_path",
    envvar="LABELER_DB",
    default="labeler.db",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="The workbench file (or set LABELER_DB).",
)
@click.version_option(__version__, prog_name="labeler")
@click.pass_context
def cli(ctx: click.Context, db_path: str) -> None:
    """labeler: pool runs, judge relevance, version qrels, report scores with their denominators."""
    from labeler.cli.context import Env

    ctx.obj = Env(db_path)


def _register() -> None:
    from labeler.cli import (
        agreement,
        assign,
        corpus,
        coverage,
        demo,
        evaluation,
        judge,
        judgments,
        pools,
        queue,
        runs,
        setup,
        snapshots,
        team,
        topics,
    )
    from labeler.cli import next as next_unit

    for module in (
        setup,
        corpus,
        topics,
        runs,
        pools,
        judgments,
        queue,
        next_unit,
        judge,
        snapshots,
        evaluation,
        coverage,
        team,
        agreement,
        assign,
        demo,
    ):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    cli(prog_name="labeler")


__all__ = ["cli", "main", "pass_env"]

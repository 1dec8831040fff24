"""The `labeler` command: parse arguments, call one workbench function, print the result.

Expected errors (`LabelerError`, and an `OSError` naming a file) become
`Error: file:line: reason (hint)` and exit code 1 here, in one place; usage errors
and bad arguments (`BadArgumentError`) exit 2 (click's convention). The words for
flags and commands come from `labeler.cli.common.hints`.

Each top-level command (or group) is the module of its name, `labeler.cli.NAME`; what several commands
share is in `labeler.cli.common`. The commands are loaded lazily, with click's lazy group (`LazyGroup`):
`labeler --help` lists them from `COMMANDS` without importing any command module, and `labeler next`
imports `labeler.cli.next` (and what it uses), not the TUI, rich, the retrievers or every other use case.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from labeler.cli.common.context import pass_env
from labeler.cli.common.hints import cli_message, exit_code
from labeler.cli.common.printing import error_line
from labeler.errors import LabelerError

NUMBER_TYPES = (click.types.IntParamType, click.types.FloatParamType)


COMMANDS: dict[str, tuple[str, str]] = {
    "agreement": (
        "labeler.cli.agreement.agreement",
        "How far assessors agree on pairs graded by more than one: overlap, Cohen's kappa, Krippendorff's alpha.",
    ),
    "answers": (
        "labeler.cli.answers.answers",
        "Generated RAG answers (TREC RAG 2024 and 2025 JSONL), imported as answer runs.",
    ),
    "assign": (
        "labeler.cli.assign.assign",
        "Assign topics to assessors (round-robin or as given), with an optional planned overlap; see docs/guide.md.",
    ),
    "backup": (
        "labeler.cli.backup.backup",
        "Copy the workbench to a new file DESTINATION while it is in use (SQLite online backup), then check the copy.",
    ),
    "check": (
        "labeler.cli.check.check",
        "Verify the workbench: schema, integrity, keys, guards, log, grades, scale, and every recorded hash.",
    ),
    "compare": (
        "labeler.cli.compare.compare",
        "What changed between two snapshots: labels, relevant sets, scores, and the system ranking.",
    ),
    "corpus": ("labeler.cli.corpus.corpus", "Documents and chunkings (unit mappings)."),
    "coverage": (
        "labeler.cli.coverage.coverage",
        "How well the judgments cover each run, how much each run's score depends on the pool, R's bounds.",
    ),
    "demo": (
        "labeler.cli.demo.demo",
        "The whole workflow on sample_corpus/: corpus, chunks, retrievers, prior labels as v1, a pool, then judging.",
    ),
    "eval": (
        "labeler.cli.eval.eval_",
        "Score runs on a snapshot: every number with its topics, unit, stage, cutoff and snapshot.",
    ),
    "export": ("labeler.cli.export.export", "Export labels, runs and the judgment log for other tools."),
    "init": ("labeler.cli.init.init", "Create the workbench (or upgrade an existing one) and set its grade scale."),
    "judge": (
        "labeler.cli.judge.judge",
        "Judge the pool's unjudged units in the terminal UI (one key per grade); with --answers, RAG answers.",
    ),
    "judgments": ("labeler.cli.judgments.judgments", "Record, import and undo judgments (the append-only log)."),
    "merge": (
        "labeler.cli.merge.merge",
        "Union another workbench's judgment log (OTHER.db) or an exported log (LOG.jsonl) into this one.",
    ),
    "next": (
        "labeler.cli.next.next_",
        "Claim the next unit to judge and print it; asking again gives the same unit until it is judged.",
    ),
    "nuggets": (
        "labeler.cli.nuggets.nuggets",
        "Nuggets of RAG answers: write, import, assign, score and export them.",
    ),
    "pool": ("labeler.cli.pool.pool", "Pool versions: which (topic, unit) pairs get judged."),
    "prelabel": (
        "labeler.cli.prelabel.prelabel",
        "Run a judge over the pool's pairs without a human label; its answers are stored as a model's labels.",
    ),
    "queue": (
        "labeler.cli.queue.queue",
        "The next units to judge for a topic, in the chosen order (units another assessor holds are left out).",
    ),
    "replay": (
        "labeler.cli.replay.replay",
        "Replay judging a pool under each judging order, a snapshot's labels as the assessor: relevant found per "
        "judgment.",
    ),
    "report": (
        "labeler.cli.report.report",
        "A standalone HTML report: recall curves with ceilings, Judged@k, coverage across snapshots, pool bias.",
    ),
    "runs": ("labeler.cli.runs.runs", "Ranked runs of retrievers."),
    "serve": (
        "labeler.cli.serve.serve",
        "Serve the judging UI to browsers (textual-serve); each browser session asks for its assessor name.",
    ),
    "snapshot": ("labeler.cli.snapshot.snapshot", "Immutable, hashed versions of the labels."),
    "status": (
        "labeler.cli.status.status",
        "Per topic: pool size, judged, unjudged, relevant, skipped/unsure, conflicts, outside the pool, review status.",
    ),
    "topics": ("labeler.cli.topics.topics", "Topics: queries with title, description and narrative."),
}
"""Every top-level command: where it is defined (module `labeler.cli.NAME`, then the attribute) and the
first paragraph of its help, all that click shortens into the line `labeler --help` shows. The summary
is kept here so that listing the commands imports none of them; tests/cli/test_startup.py checks it
against each command's own help."""


class LazyGroup(click.Group):
    """click's lazy group ("Lazily Loading Subcommands" in click's docs): a command's module is imported
    when the command is looked up (to run it or show its help), not when the group lists it."""

    def __init__(self, *args: Any, lazy_subcommands: dict[str, tuple[str, str]] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_subcommands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands and cmd_name not in self.commands:
            self.add_command(self._lazy_load(cmd_name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def _lazy_load(self, cmd_name: str) -> click.Command:
        module_name, attribute = self.lazy_subcommands[cmd_name][0].rsplit(".", 1)
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module_name}.{attribute} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, with each summary from the lazy map: the same lines, no command module imported."""
        shown = []
        for name in self.list_commands(ctx):
            loaded = self.commands.get(name)
            if loaded is None and name in self.lazy_subcommands:
                loaded = click.Command(name, help=self.lazy_subcommands[name][1])
            if loaded is not None and not loaded.hidden:
                shown.append((name, loaded))
        if not shown:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in shown)
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown])


class LabelerGroup(LazyGroup):
    """The root group: commands loaded lazily; turns expected errors into one clean line and exit code 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except LabelerError as error:
            error_line(cli_message(error))
            ctx.exit(exit_code(error))
        except click.BadParameter as error:
            # A number outside click's own IntRange or FloatRange: one line naming the flag, exit 2, as
            # the project's ranges say it (`labeler.cli.common.ranges`); other usage errors keep click's form.
            if not (isinstance(error.param, click.Option) and isinstance(error.param.type, NUMBER_TYPES)):
                raise
            error_line(f"{max(error.param.opts, key=len)}: {error.message}")
            ctx.exit(2)
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


def print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`labeler --version`: the version is read here, when asked for, not when the CLI is imported."""
    if not value or ctx.resilient_parsing:
        return
    from labeler import __version__

    click.echo(f"labeler, version {__version__}")
    ctx.exit()


@click.group(cls=LabelerGroup, lazy_subcommands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    "db_path",
    envvar="LABELER_DB",
    default="labeler.db",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="The workbench file (or set LABELER_DB).",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=print_version,
    help="Show the version and exit.",
)
@click.pass_context
def cli(ctx: click.Context, db_path: str) -> None:
    """labeler: pool runs, judge relevance, version qrels, report scores with their denominators."""
    from labeler.cli.common.context import Env

    ctx.obj = Env(db_path)


def main() -> None:
    cli(prog_name="labeler")


__all__ = ["cli", "main", "pass_env"]

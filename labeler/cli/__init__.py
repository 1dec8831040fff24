"""The `labeler` command: parse arguments, call one workbench function, print the result.

Expected errors (`LabelerError`, and an `OSError` naming a file) become
`Error: file:line: reason (hint)` and exit code 1 here, in one place; usage errors
and bad arguments (`BadArgumentError`) exit 2 (click's convention). The words for
flags and commands come from `labeler.cli.hints`.

The commands are loaded lazily (`LazyCommands`): `labeler --help` lists them from `LISTED`
without importing any command module, and `labeler next` imports `labeler.cli.next` (and what
it uses), not the TUI, rich, the retrievers or every other use case. `tests/cli/test_startup.py`
checks that `LISTED` says what the modules define.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, MutableMapping
from typing import NamedTuple

import click

from labeler.cli.context import pass_env
from labeler.cli.hints import cli_message, exit_code
from labeler.cli.output import error_line
from labeler.errors import LabelerError

NUMBER_TYPES = (click.types.IntParamType, click.types.FloatParamType)


class Listed(NamedTuple):
    """A top-level command as `labeler --help` lists it before its module is imported."""

    modules: tuple[str, ...]
    """The `labeler.cli` modules to import: the first defines it, the others add subcommands to it."""
    summary: str
    """The first paragraph of its help: all that click shortens into the line `--help` shows."""


LISTED: dict[str, Listed] = {
    "init": Listed(("setup",), "Create the workbench (or upgrade an existing one) and set its grade scale."),
    "status": Listed(
        ("setup",),
        "Per topic: pool size, judged, unjudged, relevant, skipped/unsure, conflicts, outside the pool, review status.",
    ),
    "corpus": Listed(("corpus",), "Documents and chunkings (unit mappings)."),
    "topics": Listed(("topics", "judgments"), "Topics: queries with title, description and narrative."),
    "runs": Listed(("runs",), "Ranked runs of retrievers."),
    "pool": Listed(("pools",), "Pool versions: which (topic, unit) pairs get judged."),
    "judgments": Listed(("judgments", "team"), "Record, import and undo judgments (the append-only log)."),
    "queue": Listed(
        ("queue",),
        "The next units to judge for a topic, in the chosen order (units another assessor holds are left out).",
    ),
    "next": Listed(
        ("next",), "Claim the next unit to judge and print it; asking again gives the same unit until it is judged."
    ),
    "judge": Listed(("judge",), "Judge the pool's unjudged units in the terminal UI (one key per grade)."),
    "serve": Listed(
        ("judge",),
        "Serve the judging UI to browsers (textual-serve); each browser session asks for its assessor name.",
    ),
    "snapshot": Listed(("snapshots",), "Immutable, hashed versions of the labels."),
    "export": Listed(("export",), "Export labels, runs and the judgment log for other tools."),
    "eval": Listed(
        ("evaluation",),
        "Score runs on a snapshot: every number with its topics, unit, stage, cutoff and snapshot.",
    ),
    "coverage": Listed(
        ("coverage",),
        "How well the judgments cover each run, how much each run's score depends on the pool, R's bounds.",
    ),
    "compare": Listed(
        ("coverage",),
        "What changed between two snapshots: labels, relevant sets, scores, and the system ranking.",
    ),
    "replay": Listed(
        ("replay",),
        "Replay judging a pool under each judging order, a snapshot's labels as the assessor: relevant found per "
        "judgment.",
    ),
    "report": Listed(
        ("coverage",),
        "A standalone HTML report: recall curves with ceilings, Judged@k, coverage across snapshots, pool bias.",
    ),
    "merge": Listed(
        ("team",),
        "Union another workbench's judgment log (OTHER.db) or an exported log (LOG.jsonl) into this one.",
    ),
    "check": Listed(
        ("team",),
        "Verify the workbench: schema, integrity, keys, guards, log, grades, scale, and every recorded hash.",
    ),
    "backup": Listed(
        ("team",),
        "Copy the workbench to a new file DESTINATION while it is in use (SQLite online backup), then check the copy.",
    ),
    "prelabel": Listed(
        ("prelabel",),
        "Run a judge over the pool's pairs without a human label; its answers are stored as a model's labels.",
    ),
    "agreement": Listed(
        ("agreement",),
        "How far assessors agree on pairs graded by more than one: overlap, Cohen's kappa, Krippendorff's alpha.",
    ),
    "assign": Listed(
        ("assign",),
        "Assign topics to assessors (round-robin or as given), with an optional planned overlap; see docs/guide.md.",
    ),
    "demo": Listed(
        ("demo",),
        "The whole workflow on sample_corpus/: corpus, chunks, retrievers, prior labels as v1, a pool, then judging.",
    ),
}
"""Every top-level command, in the order `cli.commands` gives them, and where it is defined."""


class LazyCommands(MutableMapping[str, click.Command]):
    """The root group's commands: every name in `LISTED` is there, its module imported on first use.

    Looking a command up (click does when it runs one or shows its `--help`) imports its modules
    and adds their `COMMANDS`; listing the names, or `peek`, imports nothing. A command added with
    `cli.add_command` (a test's, a plug-in's) is kept as given.
    """

    def __init__(self, listed: dict[str, Listed]) -> None:
        self._listed = listed
        self._loaded: dict[str, click.Command] = {}
        # Names whose every module is imported. A command can be loaded as a side effect of another
        # (`topics` imports the judgments module, which defines `judgments`) before the module that
        # adds its subcommands (`team` adds `judgments export-log`) is: it is complete only then.
        self._complete: set[str] = set()

    def _load(self, name: str) -> None:
        for module in self._listed[name].modules:
            for command in importlib.import_module(f"labeler.cli.{module}").COMMANDS:
                if command.name is not None:
                    self._loaded.setdefault(command.name, command)
        self._complete.add(name)

    def __getitem__(self, name: str) -> click.Command:
        if name in self._listed and name not in self._complete:
            self._load(name)
        return self._loaded[name]

    def peek(self, name: str) -> click.Command:
        """The command if it is loaded, else a stand-in with its summary as help (for `labeler --help`)."""
        if name in self._loaded or name not in self._listed:
            return self[name]
        return click.Command(name, help=self._listed[name].summary)

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._loaded.pop(name, None)
        self._listed = {key: value for key, value in self._listed.items() if key != name}

    def __iter__(self) -> Iterator[str]:
        yield from self._listed
        yield from (name for name in self._loaded if name not in self._listed)

    def __len__(self) -> int:
        return len(self._listed) + sum(1 for name in self._loaded if name not in self._listed)

    def __contains__(self, name: object) -> bool:
        return name in self._listed or name in self._loaded


class LabelerGroup(click.Group):
    """The root group: commands loaded lazily; turns expected errors into one clean line and exit code 1."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.commands = LazyCommands(LISTED)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, from `LazyCommands.peek`: the same lines, no command module imported."""
        commands = self.commands
        if not isinstance(commands, LazyCommands):
            return super().format_commands(ctx, formatter)
        shown = [(name, commands.peek(name)) for name in self.list_commands(ctx)]
        shown = [(name, command) for name, command in shown if not command.hidden]
        if not shown:
            return None
        limit = formatter.width - 6 - max(len(name) for name, _ in shown)
        with formatter.section("Commands"):
            formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown])
        return None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except LabelerError as error:
            error_line(cli_message(error))
            ctx.exit(exit_code(error))
        except click.BadParameter as error:
            # A number outside click's own IntRange or FloatRange: one line naming the flag, exit 2, as
            # the project's ranges say it (`labeler.cli.ranges`); other usage errors keep click's form.
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
    from labeler.cli.context import Env

    ctx.obj = Env(db_path)


def main() -> None:
    cli(prog_name="labeler")


__all__ = ["cli", "main", "pass_env"]

"""`labeler demo`: see the whole product work in one command."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from labeler.cli.common.hints import flag
from labeler.cli.common.printing import info

if TYPE_CHECKING:
    from labeler.workbench.demo import DemoStep


@click.command()
@click.option(
    "--dir",
    "folder",
    default=None,
    type=click.Path(file_okay=False),
    help="Where to build the demo workbench (default: a new folder labeler-demo-DATE here).",
)
@click.option("--no-tui", is_flag=True, help="Print status, coverage and scores instead of opening the judging UI.")
def demo(folder: str | None, no_tui: bool) -> None:
    """The whole workflow on sample_corpus/: corpus, chunks, retrievers, prior labels as v1, a pool, then judging."""
    from labeler.workbench.demo import build_demo, default_demo_dir

    target = Path(folder) if folder else default_demo_dir()
    info(f"Building a demo workbench in {target}; each step is the command you would type:\n")

    db_path = target / "demo.db"

    def say(step: DemoStep) -> None:
        click.echo(f"$ labeler --db {db_path} {command_of(step)}")
        click.echo(f"  {step.outcome}")

    db = str(build_demo(target, say).db)
    interactive = sys.stdout.isatty() and sys.stdin.isatty() and not no_tui
    if not interactive:
        for title, args in (
            ("status", ["status"]),
            # The pool just built reopens every topic v1 reviewed (it holds units nobody judged), so eval and
            # coverage would leave them all out and print nothing but nulls: the demo scores them as they stand,
            # as lower bounds, which is the lesson it is there to show.
            (
                "coverage of the runs by the prior judgments (v1), top 10",
                ["coverage", "--depth", "10", "--no-loro", "--include-reopened"],
            ),
            (
                "scores on v1 as lower bounds (P1 reopened its topics), with their denominators",
                ["eval", "--measures", "R@10 R@100 nDCG@10 AP Judged@10 AnyHit@10", "--include-reopened"],
            ),
            (
                "what each stage kept",
                ["eval", "--measures", "R@5 R@100", "--stages", "fts5,fts5-context", "--include-reopened"],
            ),
        ):
            click.echo(f"\n$ labeler --db {db} {' '.join(args)}   # {title}")
            _run(db, args)
        click.echo(
            f"\nNext: judge the pooled units with\n  labeler --db {db} judge\n"
            f"then 'labeler --db {db} snapshot create -m ...' and 'labeler --db {db} compare v1 v2'."
        )
        return
    info(f"\nOpening the judging UI on {db} (q quits; everything is saved as you go).")
    from labeler.cli.common.context import default_assessor
    from labeler.tui import JudgeRequest, make_app

    make_app(JudgeRequest(db_path=db, assessor=default_assessor())).run()


# The command each demo step stands for, and the arguments it takes by position, not as a flag.
STEP_COMMANDS: dict[str, str] = {
    "init": "init",
    "import_corpus": "corpus import",
    "import_topics": "topics import",
    "chunk_corpus": "corpus chunk",
    "retrieve_run": "runs retrieve",
    "import_judgments": "judgments import",
    "create_snapshot": "snapshot create",
    "build_pool": "pool build",
}
POSITIONAL = {"path"}


def command_of(step: DemoStep) -> str:
    """The command a user would type for a demo step: `pool build --depth 10 --unit doc`."""
    words = [STEP_COMMANDS[step.action]]
    for name, value in step.arguments:
        if name in POSITIONAL:
            words.append(value)
        elif name == "message":
            words.append(f"-m {shlex.quote(value)}")
        else:
            words.append(f"{flag(name)} {value}" if value else flag(name))
    return " ".join(words)


def _run(db: str, args: list[str]) -> None:
    """Run one labeler command in-process, the way the user would type it.

    The root command comes from the running click context rather than an import of `labeler.cli`,
    which imports this module: the package and its commands do not import each other.
    """
    cli = click.get_current_context().find_root().command
    try:
        cli.main(args=["--db", db, *args], prog_name="labeler", standalone_mode=False)
    except SystemExit as exit_:  # a command that reports a failed check exits 1; the demo goes on
        if exit_.code not in (0, None):
            info(f"(exit {exit_.code})")

"""`labeler judge`: the terminal UI."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from labeler.answers.spaces import TASK_KINDS
from labeler.cli.common.context import Env, assessor_option, comma_list, pass_env
from labeler.cli.common.ranges import SEED
from labeler.cli.common.registry_options import order_option
from labeler.cli.next import lease_option
from labeler.errors import BadArgumentError

F = TypeVar("F", bound=Callable[..., Any])


def answers_options(command: F) -> F:
    """`--answers nuggets|support` and `--runs`: judge RAG answers instead of units (`judge`, `serve`)."""
    command = click.option(
        "--runs", default=None, help="With --answers: comma-separated answer runs (default: every active one)."
    )(command)
    return click.option(
        "--answers",
        type=click.Choice(list(TASK_KINDS)),
        default=None,
        help="Judge answers instead of units: nugget assignments (nuggets) or citation support (support).",
    )(command)


@click.command()
@assessor_option
@click.option("--topic", default=None, help="Start on this topic (default: the first unfinished one).")
@order_option()
@click.option(
    "--model",
    default=None,
    help="The model whose recorded labels --order uncertainty ranks by (required with it).",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the random order.")
@click.option("--pool", default=None, help="Pool version to judge (default: the latest).")
@lease_option
@click.option(
    "--stop",
    default="window:10",
    show_default=True,
    metavar="RULE",
    help="Stopping rule shown for the open topic: window[:N] (no relevant unit in the last N judgments), knee[:N].",
)
@click.option("--write-nuggets", is_flag=True, help="Write the topic's nuggets while reading its relevant units.")
@click.option(
    "--drafts-from", default=None, metavar="MODEL", help="With --write-nuggets: show MODEL's drafts to post-edit."
)
@answers_options
@click.option("--ask-assessor", is_flag=True, help="Ask for the assessor's name when the UI opens (labeler serve).")
@click.option(
    "--served",
    is_flag=True,
    hidden=True,
    help="A browser session of labeler serve: write no file, offer exports as downloads.",
)
@click.option(
    "--live-names",
    default=None,
    hidden=True,
    help="A browser session of labeler serve: the folder in which its sessions hold their assessor names.",
)
@pass_env
def judge(
    env: Env,
    assessor: str,
    topic: str | None,
    order: str,
    model: str | None,
    seed: int,
    pool: str | None,
    lease,
    stop: str,
    write_nuggets: bool,
    drafts_from: str | None,
    answers: str | None,
    runs: str | None,
    ask_assessor: bool,
    served: bool,
    live_names: str | None,
) -> None:
    """Judge the pool's unjudged units in the terminal UI (one key per grade); with --answers, RAG answers."""
    from labeler.tui import JudgeRequest, make_app, make_nugget_writing_app
    from labeler.workbench.setup import open_workbench

    check_runs_with_answers(runs, answers)
    open_workbench(env.db_path).close()  # a missing or newer workbench fails here, with a clear message
    if (write_nuggets or drafts_from is not None) and answers is not None:
        raise BadArgumentError("nuggets are written or answers judged, not both at once", argument="answers")
    if write_nuggets or drafts_from is not None:
        make_nugget_writing_app(env.db_path, assessor, topic, drafts_from=drafts_from).run()
        return
    if answers is not None:
        from labeler.tui import make_answers_app

        names = comma_list(runs, "runs", "answer run")
        chosen = tuple(names) if names is not None else None
        make_answers_app(
            env.db_path,
            assessor,
            answers,
            runs=chosen,
            topic=topic,
            lease=lease,
            ask_assessor=ask_assessor,
            live_names=live_names,
        ).run()
        return
    app = make_app(
        JudgeRequest(
            db_path=env.db_path,
            assessor=assessor,
            topic=topic,
            order=order,
            seed=seed,
            pool=pool,
            model=model,
            ask_assessor=ask_assessor,
            served=served,
            lease=lease,
            stop=stop,
            live_names=live_names,
        )
    )
    app.run()


def check_runs_with_answers(runs: str | None, answers: str | None) -> None:
    """`--runs` chooses answer runs: refused without `--answers`."""
    if runs is not None and answers is None:
        raise BadArgumentError("answer runs are judged with --answers nuggets or --answers support", argument="runs")

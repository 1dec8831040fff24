"""`labeler judge`: the terminal UI."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, assessor_option, pass_env
from labeler.cli.common.ranges import SEED
from labeler.cli.common.registry_options import order_option
from labeler.cli.next import lease_option


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
    ask_assessor: bool,
    served: bool,
    live_names: str | None,
) -> None:
    """Judge the pool's unjudged units in the terminal UI (one key per grade)."""
    from labeler.tui import JudgeRequest, make_app, make_nugget_writing_app
    from labeler.workbench.setup import open_workbench

    open_workbench(env.db_path).close()  # a missing or newer workbench fails here, with a clear message
    if write_nuggets or drafts_from is not None:
        make_nugget_writing_app(env.db_path, assessor, topic, drafts_from=drafts_from).run()
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

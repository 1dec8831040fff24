"""`labeler judge`: the terminal UI."""

from __future__ import annotations

import click

from labeler.cli.context import Env, assessor_option, pass_env
from labeler.ordering import ORDERS


@click.command()
@assessor_option
@click.option("--topic", default=None, help="Start on this topic (default: the first unfinished one).")
@click.option("--order", type=click.Choice(ORDERS), default="pool", show_default=True,
              help="Judging order: pool rank, RRF score, Move-to-Front, or seeded random.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the random order.")
@click.option("--pool", default=None, help="Pool version to judge (default: the latest).")
@pass_env
def judge(env: Env, assessor: str, topic: str | None, order: str, seed: int, pool: str | None) -> None:
    """Judge the pool's unjudged units in the terminal UI (one key per grade)."""
    from labeler.tui import make_app
    from labeler.workbench import open_workbench

    open_workbench(env.db_path).close()  # a missing or newer workbench fails here, with a clear message
    app = make_app(env.db_path, assessor=assessor, topic=topic, order=order, seed=seed, pool=pool)
    app.run()


COMMANDS = [judge]

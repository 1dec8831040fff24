"""`labeler queue`: what to judge next, for scripts (the TUI uses the same service)."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, assessor_option, json_option, pass_env
from labeler.cli.common.printing import emit_json, info, table
from labeler.cli.common.ranges import LIMIT, SEED
from labeler.cli.common.registry_options import order_option
from labeler.cli.next import nothing_lines
from labeler.wording import plural


@click.command()
@click.option("--topic", default=None, help="Topic (default: the first topic with work left).")
@assessor_option
@order_option()
@click.option(
    "--model",
    default=None,
    help="The model whose recorded labels --order uncertainty ranks by (required with it).",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the random order.")
@click.option("--pool", default=None, help="Pool version (default: the latest).")
@click.option("--limit", default=20, show_default=True, type=LIMIT, help="How many units to list.")
@json_option
@pass_env
def queue(
    env: Env,
    topic: str | None,
    assessor: str,
    order: str,
    model: str | None,
    seed: int,
    pool: str | None,
    limit: int,
    as_json: bool,
) -> None:
    """The next units to judge for a topic, in the chosen order (units another assessor holds are left out)."""
    from labeler.workbench.queue_view import queue_view

    with env.store() as store:
        result = queue_view(
            store, topic, assessor=assessor, order=order, seed=seed, pool=pool, limit=limit, model=model
        )
    held = result.held_by_others
    held_note = f" ({held} unit(s) held by other assessors)" if held else ""
    if as_json:
        emit_json(result.to_json())
        return
    if not result.next:
        for line in nothing_lines(assessor, result.topic, result.reasons):
            info(line)
        return
    info(f"Topic {result.topic}: {plural(result.remaining, 'unit')} to judge ({order} order){held_note}.")
    table(None, ["#", "unit", "later"], [[n.position, n.unit, "yes" if n.later else ""] for n in result.next])

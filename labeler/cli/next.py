"""`labeler next`: claim the next unit for scripts and remote clients (the judging screen claims the same way)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import Env, assessor_option, json_option, pass_env
from labeler.cli.common.hints import hint_text
from labeler.cli.common.printing import emit_json, info
from labeler.cli.common.ranges import MAX_LEASE_MINUTES, SEED, Real
from labeler.cli.common.registry_options import order_option
from labeler.ids import check_id

if TYPE_CHECKING:
    from labeler.workbench.nothing_left import Reason


def lease_minutes(ctx: click.Context, param: click.Parameter, value: float) -> timedelta:
    """`--lease MINUTES` as a time: its range (above 0, at most thirty days) is checked as it is read."""
    return timedelta(minutes=value)


lease_option = click.option(
    "--lease",
    default=15.0,
    show_default=True,
    type=Real(0, MAX_LEASE_MINUTES, low_open=True),
    callback=lease_minutes,
    metavar="MINUTES",
    help="How long the unit stays yours without a judgment (minutes).",
)


def nothing_lines(assessor: str, topic: str | None, reasons: Sequence[Reason]) -> list[str]:
    """Why there is nothing to judge, in words: one line per reason, each with the commands that would give
    the assessor work."""
    from labeler.workbench.nothing_left import headline

    if not reasons:
        return [f"{headline(assessor, topic)} a moment ago, but a unit is free now: ask again."]
    lines = []
    for i, reason in enumerate(reasons):
        lines.append(f"{headline(assessor, topic)}: {reason.words}." if i == 0 else f"Also: {reason.words}.")
        hints = [hint_text(hint) for hint in reason.hints]
        if hints:
            lines.append("  To change it: " + "; ".join(hints) + ".")
    return lines


def _topic(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    return None if value is None else check_id(value, "topic id", path="--topic")


@click.command("next")
@assessor_option
@click.option("--topic", default=None, callback=_topic, help="Topic (default: topics in natural order).")
@lease_option
@order_option()
@click.option(
    "--model",
    default=None,
    help="The model whose recorded labels --order uncertainty ranks by (required with it).",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the random order.")
@click.option("--pool", default=None, help="Pool version (default: the latest).")
@json_option
@pass_env
def next_(
    env: Env,
    assessor: str,
    topic: str | None,
    lease: timedelta,
    order: str,
    model: str | None,
    seed: int,
    pool: str | None,
    as_json: bool,
) -> None:
    """Claim the next unit to judge and print it; asking again gives the same unit until it is judged."""
    from labeler.workbench.claims import claim_next, next_summary
    from labeler.workbench.queue import current_pool

    title = ""
    nothing = None
    with env.store() as store:
        space = current_pool(store, pool).unit
        claim = claim_next(store, assessor, topic=topic, lease=lease, order=order, seed=seed, pool=pool, model=model)
        if claim is None:  # why, read from the claims and the plan: loaded only when nothing is left
            from labeler.workbench.nothing_left import nothing_left

            nothing = nothing_left(store, assessor, topic=topic, pool=pool)
        elif not as_json:  # the title is for the line printed, not for the JSON document
            from labeler.workbench.reading import unit_text

            title = unit_text(store, claim.unit_space, claim.unit).title
    result = next_summary(claim, topic=topic, unit_space=space, nothing=nothing)
    if as_json:
        emit_json(result.to_json())
        return
    if claim is None:
        for line in nothing_lines(assessor, topic, result.reasons):
            info(line)
        return
    info(
        f"Topic {claim.topic} {claim.unit_space} {claim.unit} ({claim.position} of {claim.remaining} left), "
        f"yours until {claim.lease_until}: {title or '(no title)'}"
    )

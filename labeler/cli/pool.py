"""`labeler pool ...`."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, comma_list, json_option, pass_env
from labeler.cli.common.hints import hint_text
from labeler.cli.common.printing import emit_json, info, listing, progress_bar, retired_note, table
from labeler.cli.common.ranges import DEPTH, MAX_DEPTH, Whole
from labeler.cli.common.registry_options import strategy_option
from labeler.errors import BadArgumentError, LabelerError
from labeler.wording import plural
from labeler.workbench.pools import PoolBuilt, PoolListed, build_pool, list_pools


@click.group()
def pool() -> None:
    """Pool versions: which (topic, unit) pairs get judged."""


def _run_depths(values: tuple[str, ...]) -> dict[str, int]:
    depths = {}
    for value in values:
        name, _, depth = value.partition("=")
        if not name or not depth.isdigit():
            raise LabelerError(f"--run-depth takes RUN=K, not {value!r}")
        if name in depths:
            raise BadArgumentError(f"run {name!r} is given twice", argument="run_depths")
        if not 1 <= int(depth) <= MAX_DEPTH:
            raise BadArgumentError(
                f"{name}: must be a whole number from 1 to {MAX_DEPTH}, not {depth}", argument="run_depths"
            )
        depths[name] = int(depth)
    return depths


@pool.command()
@click.option(
    "--depth",
    required=True,
    type=DEPTH,
    help="Where each ranking pooled is cut: each run's top k (depth), or the fused ranking's top N (rrf).",
)
@click.option("--runs", default=None, help="Comma-separated run names (default: all runs).")
@strategy_option()
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="Pool at this unit; 'doc' pools chunk runs at document level.",
)
@click.option("--run-depth", "run_depths", multiple=True, metavar="RUN=K", help="Per-run depth override (repeatable).")
@click.option("--rrf-k", default=60, show_default=True, type=Whole(0, MAX_DEPTH), help="The k constant of RRF.")
@json_option
@pass_env
def build(
    env: Env,
    depth: int,
    runs: str | None,
    strategy: str,
    unit: str | None,
    run_depths: tuple[str, ...],
    rrf_k: int,
    as_json: bool,
) -> None:
    """Build a new pool version and report what it adds per topic and per run."""
    names = comma_list(runs, "runs", "run name")
    with env.store() as store, progress_bar("pooling") as progress:
        result = build_pool(
            store,
            depth,
            runs=names,
            strategy=strategy,
            unit=unit,
            run_depths=_run_depths(run_depths),
            rrf_k=rrf_k,
            progress=progress,
        )
    if as_json:
        emit_json(result.to_json())
        return
    _unit_line(result)
    since = f" since {result.previous}" if result.previous else ""
    info(
        f"Pool {result.pool} ({result.strategy}, depth {result.depth}, {result.unit}): "
        f"{plural(result.pairs, 'pair')}; {result.added} new{since}, "
        f"{result.added_judged} of them already judged; "
        f"{result.unjudged} left to judge."
    )
    if result.unjudged:
        info(f"About {result.effort_hours} hours of judging left, {result.pace.description}.")
    retired_note(result.runs_retired)
    for run, count in result.params.get("collapsed_chunks", {}).items():
        info(f"Run {run}: {plural(count, 'chunk')} collapsed into their documents (first occurrence keeps the rank).")
    table(
        "per topic",
        ["topic", "pairs", "added", "already judged", "unjudged"],
        [[t, r.pairs, r.added, r.added_judged, r.unjudged] for t, r in result.per_topic.items()],
    )
    table("per run", ["run", "pairs", "unique"], [[run, r.pairs, r.unique] for run, r in result.per_run.items()])


def _unit_line(result: PoolBuilt) -> None:
    """Which unit the pool took and from where, the runs it pooled and left out, and what would change it."""
    if result.unit_from is None:  # given, or the one unit the runs rank: nothing was chosen for the user
        return
    left = [row for row in result.left_out if row.why == "other_unit"]
    said = f"unit {result.unit}, as the previous pool {result.unit_from}; pooled: {', '.join(result.runs)}"
    if left:
        said += f"; runs of other units left out: {', '.join(f'{row.run} ({row.unit})' for row in left)}"
    if result.hints:
        said += " (" + "; or ".join(hint_text(h) for h in result.hints) + ")"
    info(said + ".")


@pool.command("list")
@json_option
@pass_env
def list_(env: Env, as_json: bool) -> None:
    """List pool versions."""
    with env.store() as store:
        result = list_pools(store)
    listing(
        result,
        as_json,
        ["pool", "strategy", "depth", "unit", "runs", "pairs", "created"],
        lambda p: [p.pool, p.strategy, p.depth, p.unit, ",".join(p.runs), p.pairs, p.created[:19]],
        to_json=PoolListed.to_json,
    )

"""`labeler replay`: judging replayed on a snapshot's labels, order by order."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import Env, comma_list, json_option, pass_env
from labeler.cli.common.printing import info, print_result, progress_bar, table
from labeler.cli.common.ranges import DEPTH, SEED
from labeler.inert import visible_line
from labeler.wording import plural

if TYPE_CHECKING:  # the workbench is imported when the command runs, not when the CLI starts
    from labeler.workbench.replay import ReplayResult

MARKERS = "●◆▲■★✚✖◇△□"
CHART_WIDTH = 64
CHART_HEIGHT = 16


def _f(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _n(value: int | None) -> str:
    return "-" if value is None else str(value)


@click.command()
@click.option("--snapshot", default=None, help="Snapshot whose labels stand in for the assessor (default: the latest).")
@click.option(
    "--depth", required=True, type=DEPTH, help="k: the pool's depth (or size N per topic for --strategy rrf)."
)
@click.option("--runs", "pool_runs", required=True, help="Comma-separated runs to pool (their order breaks ties).")
@click.option("--strategy", default="depth", show_default=True, help="Pooling strategy, as `pool build --strategy`.")
@click.option(
    "--orders",
    default=None,
    help="Comma-separated judging orders to replay (default: every registered order); the oracle is always added.",
)
@click.option(
    "--model",
    default=None,
    help="The model whose recorded labels the uncertainty order calibrates as the labels are revealed (needed for it).",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the seeded orders (random).")
@click.option(
    "--measure", default="nDCG@10", show_default=True, help="Measure whose mean over topics ranks the systems for tau."
)
@click.option(
    "--stop",
    default="window:10,knee",
    show_default=True,
    help="Comma-separated stopping rules to score (window:N, knee:N); empty for none.",
)
@click.option(
    "--unjudged-as-nonrelevant",
    is_flag=True,
    help="Keep pool units the snapshot never judged, as non-relevant (flagged); by default they are left out.",
)
@click.option(
    "--score-runs",
    default=None,
    help="Comma-separated systems ranked for tau (default: every run the labels can score).",
)
@json_option
@pass_env
def replay(
    env: Env,
    snapshot: str | None,
    depth: int,
    pool_runs: str,
    strategy: str,
    orders: str | None,
    model: str | None,
    seed: int,
    measure: str,
    stop: str,
    unjudged_as_nonrelevant: bool,
    score_runs: str | None,
    as_json: bool,
) -> None:
    """Replay judging a pool under each judging order, a snapshot's labels as the assessor: relevant found per judgment.

    Per order: the curve (relevant found after n judgments, topics in lockstep), its area as a share of the
    oracle's, judgments to 50/90/95% of the relevant units, the system ranking's tau at 10/25/50/100% of the
    budget, and what each stopping rule saves and loses. Nothing is written to the workbench.
    """
    from labeler.workbench.replay import ReplayRequest
    from labeler.workbench.replay import replay as run_replay

    with env.store() as store, progress_bar("topic replays") as bar:
        result = run_replay(
            store,
            ReplayRequest(
                snapshot=snapshot,
                depth=depth,
                runs=comma_list(pool_runs, "runs", "run name") or [],
                strategy=strategy,
                orders=comma_list(orders, "orders", "judging order"),
                seed=seed,
                measure=measure,
                stop=stop,
                unjudged_as_nonrelevant=unjudged_as_nonrelevant,
                score_runs=comma_list(score_runs, "score_runs", "run name"),
                model=model,
            ),
            progress=None if as_json else bar,
        )
    print_result(result, as_json, _print_replay)


def _print_replay(result: ReplayResult) -> None:
    """What was replayed, the per-order table, the stopping table and the chart of the curves."""
    info(
        f"Snapshot {result.snapshot} ({result.unit}) as the assessor; pool: {result.strategy} to depth {result.depth} "
        f"of {', '.join(result.runs)}, {plural(result.pairs, 'pair')}; {plural(len(result.topics), 'topic')} "
        f"replayed, {plural(result.relevant, 'relevant unit')}. Topics judged in lockstep for the overall curve."
    )
    if result.unjudged:
        how = (
            "kept as non-relevant (--unjudged-as-nonrelevant)"
            if result.unjudged_as_nonrelevant
            else "left out of the replay"
        )
        info(f"Unjudged: {plural(result.unjudged, 'pool unit')} the snapshot never judged, {how}.")
    if result.topics_without_labels:
        info(f"Left out, no label in the snapshot: {plural(len(result.topics_without_labels), 'topic')}.")
    table(
        "orders: relevant units found",
        ["order", "curve share", "to 50%", "to 90%", "to 95%"],
        [
            [name, _f(f.curve_share), _n(f.to_relevant["50"]), _n(f.to_relevant["90"]), _n(f.to_relevant["95"])]
            for name, f in result.orders.items()
        ],
    )
    info(
        f"Kendall's tau of the system ranking ({plural(len(result.systems), 'system')} by mean {result.measure}) "
        "against the full labels, each topic judged to a share of its pool:"
    )
    table(
        None,
        ["order", "10%", "25%", "50%", "100%", "tau_AP 100%"],
        [
            [name, _f(f.tau["10"]), _f(f.tau["25"]), _f(f.tau["50"]), _f(f.tau["100"]), _f(f.tau_ap["100"])]
            for name, f in result.orders.items()
        ],
    )
    if result.rules:
        info("Stopping: each topic stops after the first judgment at which the rule says stop.")
        table(
            None,
            ["order", "rule", "judged", "saved", "lost", "tau", "tau lost", "stopped"],
            [
                [
                    name,
                    s.rule,
                    s.judgments,
                    _f(s.effort_saved),
                    s.relevant_lost,
                    _f(s.tau),
                    _f(s.tau_lost),
                    s.topics_stopped,
                ]
                for name, f in result.orders.items()
                for s in f.stopping.values()
            ],
        )
        info("saved: share of the pool not judged; lost: relevant units not found; stopped: topics the rule stopped.")
    for line in curve_chart(result):
        click.echo(line)


def curve_chart(result: ReplayResult) -> list[str]:
    """The orders' overall curves as text: judgments across, relevant found up, one marker per order."""
    series = [(name, f.curve) for name, f in result.orders.items() if f.curve]
    if not series:
        return []
    x_max = max(points[-1][0] for _, points in series) or 1
    y_max = max(max(found for _, found in points) for _, points in series) or 1
    grid = [[" "] * CHART_WIDTH for _ in range(CHART_HEIGHT)]
    for index, (_, points) in enumerate(reversed(series)):  # the first order (the oracle) drawn last, on top
        marker = MARKERS[(len(series) - 1 - index) % len(MARKERS)]
        for judged, found in points:
            x = round(judged / x_max * (CHART_WIDTH - 1))
            y = round(found / y_max * (CHART_HEIGHT - 1))
            grid[CHART_HEIGHT - 1 - y][x] = marker
    width = len(str(y_max))
    lines = [f"relevant found (of {result.relevant}) after n judgments, topics in lockstep"]
    for row, cells in enumerate(grid):
        label = str(y_max) if row == 0 else ("0" if row == CHART_HEIGHT - 1 else "")
        lines.append(f"{label:>{width}} │{''.join(cells)}")
    lines.append(f"{'':>{width}} └{'─' * CHART_WIDTH}")
    lines.append(f"{'':>{width}}  0{str(x_max):>{CHART_WIDTH - 1}} judgments")
    legend = "  ".join(f"{MARKERS[i % len(MARKERS)]} {name}" for i, (name, _) in enumerate(series))
    lines.append(visible_line(legend))
    return lines

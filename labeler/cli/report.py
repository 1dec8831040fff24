"""`labeler report`: a standalone HTML page of recall curves, Judged@k, coverage across snapshots and pool bias."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import (
    Env,
    comma_list,
    force_option,
    json_option,
    pass_env,
)
from labeler.cli.common.printing import emit_json, info
from labeler.cli.common.ranges import DEPTH, SEED
from labeler.wording import plural

if TYPE_CHECKING:  # the workbench is imported when a command runs, not when the CLI starts
    pass


@click.command()
@click.option(
    "--html",
    "html_path",
    required=True,
    type=click.Path(),
    help="Where to write the page: a new file (see the output rule in docs/cli.md).",
)
@click.option("--snapshot", default=None, help="Snapshot to report on (default: the latest).")
@click.option("--depth", default=10, show_default=True, type=DEPTH, help="k for Judged@k and R@k across snapshots.")
@click.option("--replay-depth", type=DEPTH, default=None, help="Add the judging-order replay of a pool this deep.")
@click.option("--replay-runs", default=None, help="Comma-separated runs the replay pools (with --replay-depth).")
@click.option("--replay-orders", default=None, help="Orders the replay compares (default: every registered order).")
@click.option("--replay-seed", default=0, show_default=True, type=SEED, help="Seed of the replay's seeded orders.")
@click.option(
    "--model",
    default=None,
    metavar="NAME",
    help="The model whose recorded labels a section sets against the human ones.",
)
@force_option
@json_option
@pass_env
def report(
    env: Env,
    html_path: str,
    snapshot: str | None,
    depth: int,
    replay_depth: int | None,
    replay_runs: str | None,
    replay_orders: str | None,
    replay_seed: int,
    model: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """A standalone HTML report: recall curves with ceilings, Judged@k, coverage across snapshots, pool bias."""
    from dataclasses import replace
    from functools import partial

    from labeler.errors import BadArgumentError
    from labeler.output_files import check_output
    from labeler.report import render_report
    from labeler.workbench.report import ModelSection, write_report

    if (replay_depth is None) != (replay_runs is None):
        missing = "replay_runs" if replay_runs is None else "replay_depth"
        raise BadArgumentError("the replay section needs both its depth and its runs", argument=missing)
    check_output(html_path, workbench=env.db_path, force=force)  # before the report is computed
    with env.store() as store:
        replayed = None
        if replay_depth is not None:
            from labeler.workbench.replay import ReplayRequest, replay

            replayed = replay(
                store,
                ReplayRequest(
                    snapshot=snapshot,
                    depth=replay_depth,
                    runs=comma_list(replay_runs, "replay_runs", "run name") or [],
                    orders=comma_list(replay_orders, "replay_orders", "judging order"),
                    seed=replay_seed,
                ),
            )
        model_report = None
        if model is not None:
            from labeler.workbench.agreement import model_agreement_report

            model_report = model_agreement_report(store, model)
        render = partial(render_report, replay=replayed, model=model_report)  # None: no such section
        result = write_report(store, html_path, render=render, snapshot=snapshot, depth=depth, force=force)
    if replayed is not None:
        result = replace(result, replay={name: f.curve_share for name, f in replayed.orders.items()})
    if model_report is not None:
        result = replace(result, model=ModelSection(model_report.model, model_report.pairs))
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"Wrote {result.path} ({plural(result.bytes, 'byte')}): snapshot {result.snapshot}, "
        f"{plural(len(result.runs), 'run')}, {plural(len(result.snapshots_drawn), 'snapshot')} drawn."
    )

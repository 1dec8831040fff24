"""`labeler coverage` and `labeler compare`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from labeler import workbench
from labeler.cli.context import Env, comma_list, force_option, json_option, measure_list, pass_env, scored_runs_option
from labeler.cli.evaluation import (
    JUDGED_ONLY,
    changes_line,
    judged_only_note,
    judged_only_option,
    statistics_options,
)
from labeler.cli.output import emit_json, info, print_result, progress_bar, retired_note, table
from labeler.cli.ranges import DEPTH, SEED
from labeler.cli.snapshots import print_with_label_changes
from labeler.wording import agrees, plural

if TYPE_CHECKING:  # the workbench is imported when a command runs, not when the CLI starts
    from labeler.workbench.coverage_results import CoverageReport, Effort, RepoolStatus, SnapshotComparison


def _f(value, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


@click.command()
@click.option("--snapshot", default=None, help="Snapshot whose labels are checked (default: the latest).")
@click.option("--depth", default=10, show_default=True, type=DEPTH, help="k: the top of each run that is checked.")
@scored_runs_option
@click.option("--unit", default=None, metavar="doc", help="Work at document level (chunk runs and chunk labels).")
@click.option(
    "--measures",
    default=None,
    callback=measure_list,
    help='Leave-one-run-out measures (default "AP nDCG@10 R@10 Bpref").',
)
@click.option("--no-loro", is_flag=True, help="Skip leave-one-run-out (faster on many runs).")
@click.option(
    "--include-reopened",
    is_flag=True,
    help="Count reopened topics among the scored ones, as they stand (lower bounds), as eval does.",
)
@judged_only_option
@json_option
@pass_env
def coverage(
    env: Env,
    snapshot: str | None,
    depth: int,
    runs: str | None,
    unit: str | None,
    measures: str | None,
    no_loro: bool,
    include_reopened: bool,
    judged_only: bool,
    as_json: bool,
) -> None:
    """How well the judgments cover each run, how much each run's score depends on the pool, R's bounds."""
    from labeler.workbench.coverage import CoverageRequest, coverage_report

    names = comma_list(runs, "runs", "run name")
    wanted = measures.replace(",", " ").split() if measures else None
    with env.store() as store, progress_bar("topics") as progress:
        request = CoverageRequest(
            snapshot=snapshot,
            depth=depth,
            runs=names,
            unit=unit,
            measures=wanted,
            loro=not no_loro,
            include_reopened=include_reopened,
            judged_only=judged_only,
        )
        result = coverage_report(store, request, progress)
    print_result(result, as_json, _print_coverage)


def _print_coverage(result: CoverageReport) -> None:
    """The topic sets, per-run coverage, per-topic bounds on R, then what is left to judge."""
    k = result.depth
    every, scored = _topics(result.judged_topics), _topics(result.scored_topics, "scored ")
    info(
        f"Snapshot {result.snapshot} ({result.unit}), top {k} of each run; leave-one-run-out over "
        f"{scored}. Judged@{k} is given over all {every} (the pool's view) and over the {scored} "
        "(the mean labeler eval prints)."
        + (f" Leave-one-run-out scores are {JUDGED_ONLY}." if result.judged_only else "")
    )
    _reopened(result.reopened)
    _print_coverage_runs(result)
    _print_bias(result)
    table(
        "per topic",
        ["topic", "pool", "judged", "relevant (R ≥)", "R estimate", "± SE", "reliable", "saturation"],
        [
            [
                t,
                r.pool,
                r.judged,
                r.r_lower_bound,
                _f(r.r_estimate, 1),
                _f(r.r_se, 1),
                "no" if r.r_unreliable else "yes",
                _f(r.saturation, 3),
            ]
            for t, r in result.topics.items()
        ],
    )
    info(result.r_estimate_warning)
    _not_scored(result.unit, result.runs_not_scored, result.runs_retired)
    info(effort_line(result.effort) + ".")
    if result.pool is not None:
        _print_repool(result.pool)


def _print_coverage_runs(result: CoverageReport) -> None:
    """One row per run: Judged@k both ways, unjudged and unique units, and its first leave-one-run-out figure."""
    k = result.depth
    rows = []
    for run, r in result.runs.items():
        first = next(iter((r.loro or {}).values()), None)
        rows.append(
            [
                run,
                _f(r.judged, 3),
                _f(r.judged_scored, 3),
                r.unjudged,
                _f(r.unjudged_share, 3),
                r.unique,
                r.unique_relevant,
                _f(first["full"]) if first else "-",
                _f(first["without"]) if first else "-",
                _f(first["drop"]) if first else "-",
            ]
        )
    measure = result.ranking.measure or "-"
    table(
        "per run",
        [
            "run",
            f"Judged@{k} over all {_topics(result.judged_topics)}",
            f"Judged@{k} over {result.scored_topics} scored",
            "unjudged",
            "unjudged share",
            "unique",
            "unique relevant",
            f"{measure} full",
            f"{measure} without its unique",
            "drop",
        ],
        rows,
    )


def _print_bias(result: CoverageReport) -> None:
    """Runs scored too low for their unjudged units, runs the pool favours, and how the ranking moves."""
    k = result.depth
    low = [run for run, r in result.runs.items() if r.judged is not None and r.judged < 0.9]
    if low:
        info(
            f"Judged@{k} over all topics below 0.9 for {', '.join(low)}: their scores count unjudged units as not "
            "relevant and are likely too low. Pool them and judge: labeler pool build --depth K."
        )
    from labeler.coverage.bias import favoured_sentence

    ranking = result.ranking
    favoured = favoured_sentence(ranking.measure, ranking.favoured, {run: r.loro for run, r in result.runs.items()})
    if favoured:
        info(favoured)
    if ranking.kendall_tau:
        info(
            "Kendall's tau of the system ranking when each run is left out: "
            + ", ".join(f"{run} {_f(tau, 3)}" for run, tau in ranking.kendall_tau.items())
            + "."
        )


def _print_repool(pool: RepoolStatus) -> None:
    """What is left to judge in the latest pool, the runs it leaves out, and what it added per run."""
    since = f" since {pool.previous}" if pool.previous else ""
    info(
        f"Pool {pool.pool}: {plural(pool.unjudged, 'pair')} left to judge; "
        f"about {pool.effort_hours} hours {pool.pace.description}."
    )
    if pool.runs_not_pooled:
        info(
            f"Not in {pool.pool}: {', '.join(pool.runs_not_pooled)}. Build a new pool to judge what they "
            "found: labeler pool build --depth K."
        )
    table(
        f"what {pool.pool} added{since}",
        ["run", "pool pairs", "unjudged", "new", "new and unjudged"],
        [[run, r.pairs, r.unjudged, r.new, r.new_unjudged] for run, r in pool.per_run.items()],
    )


@click.command()
@click.argument("old")
@click.argument("new")
@click.option("--depth", default=10, show_default=True, type=DEPTH, help="k for Judged@k, R@k and nDCG@k.")
@scored_runs_option
@click.option("--unit", default=None, metavar="doc", help="Compare at document level.")
@click.option(
    "--baseline",
    default=None,
    metavar="RUN",
    help="Compare every other run with RUN on each measure under NEW's labels: paired tests, corrected over "
    "every run and measure, and bootstrap intervals.",
)
@statistics_options
@judged_only_option
@click.option(
    "--changes",
    is_flag=True,
    help="Also list each label added, changed and removed, per topic (JSON: under label_changes).",
)
@json_option
@pass_env
def compare(
    env: Env,
    old: str,
    new: str,
    depth: int,
    runs: str | None,
    unit: str | None,
    baseline: str | None,
    correction: str,
    bootstrap: int,
    seed: int,
    judged_only: bool,
    changes: bool,
    as_json: bool,
) -> None:
    """What changed between two snapshots: labels, relevant sets, scores, and the system ranking.

    With --changes, also each label added, changed and removed, per topic.
    """
    from labeler.workbench.coverage import CompareRequest, compare_report

    names = comma_list(runs, "runs", "run name")
    with env.store() as store, progress_bar("topics") as progress:
        request = CompareRequest(
            old=old,
            new=new,
            depth=depth,
            runs=names,
            unit=unit,
            baseline=baseline,
            correction=correction,
            bootstrap=bootstrap,
            seed=seed,
            judged_only=judged_only,
        )
        result = compare_report(store, request, progress)
        label_changes = workbench.diff_snapshots(store, old, new) if changes else None
    if label_changes is None:
        print_result(result, as_json, _print_comparison)
    else:
        print_with_label_changes(result, label_changes, as_json, _print_comparison)


def _print_comparison(result: SnapshotComparison) -> None:
    """What the labels did, the topics reopened since, the relevant sets that grew, then scores and ranking."""
    old, new, labels = result.old, result.new, result.labels
    info(
        f"{old} -> {new} ({result.unit}, {plural(result.topics, 'topic')}): "
        f"{plural(labels['added'], 'label')} added, "
        f"{labels['changed']} changed, {labels['retracted']} retracted; "
        f"relevant sets grew in {plural(len(result.topics_grown), 'topic')}"
        f"{judged_only_note(result.judged_only)}."
    )
    changes = result.topic_changes
    if changes.get("entered") or changes.get("left"):
        info(
            f"Warning: {old} scored {plural(changes['old_scored'], 'topic')} and {new} scores {result.topics} "
            f"({changes_line(changes['entered'], changes['left'])}): both columns below are over {new}'s topics, "
            f"so the {old} column is not the mean eval gave on {old}."
        )
    reopened = result.reopened_since
    if reopened:
        info(
            f"{plural(len(reopened), 'topic')} reviewed in {old} {agrees(len(reopened), 'was', 'were')} reopened by "
            f"later pools (their {old} scores were over judgments the campaign later found incomplete)."
        )
        table(
            "reopened since " + old,
            ["topic", "pools (units added)", f"status in {new}"],
            [[t, ", ".join(f"{p} +{n}" for p, n in r.pools.items()), r.after] for t, r in reopened.items()],
        )
    _reopened(result.reopened)
    if result.topics_grown:
        table(
            "relevant sets that grew",
            ["topic", "before", "after"],
            [[t, g["before"], g["after"]] for t, g in result.topics_grown.items()],
        )
    _print_scores_before_after(result)
    if result.baseline is not None:
        from labeler.cli.evaluation import print_baseline

        print_baseline(result.baseline, f"under the labels of {result.new} (the newer snapshot)")
    _not_scored(result.unit, result.runs_not_scored, result.runs_retired)


def _print_scores_before_after(result: SnapshotComparison) -> None:
    """Each run's scores on both snapshots, the ranking before and after, and who gained most."""
    rows = []
    for run, r in result.runs.items():
        row = [run]
        for measure in r["before"]:
            row.append(f"{_f(r['before'][measure], 3)} → {_f(r['after'][measure], 3)}")
        rows.append(row)
    first = next(iter(result.runs.values()))
    table(
        f"per run, before → after (means over the {result.topics} topics {result.new} scores, Judged@"
        f"{result.depth} too)",
        ["run", *first["before"]],
        rows,
    )
    ranking = result.ranking
    info(
        f"Ranking by {ranking.measure}: {' > '.join(ranking.before)}  →  {' > '.join(ranking.after)} "
        f"(Kendall's tau {_f(ranking.kendall_tau, 3)}, tau_AP {_f(ranking.tau_ap, 3)})."
    )
    if ranking.gained:
        best = ranking.gained[0]
        info(
            f"Gained most: {best['run']} ({_f(best['before'], 3)} → {_f(best['after'], 3)}): "
            "the new judgments found what the old ones missed."
        )


def _reopened(reopened: dict[str, dict[str, Any]]) -> None:
    """Name the reopened topics left out of the scored ones, with what reopened them."""
    if reopened:
        info(
            "Reopened, left out (their latest pool has unjudged units): "
            + ", ".join(f"{t} by {r['pool']} ({r['unjudged']} unjudged)" for t, r in reopened.items())
            + "."
        )


def _topics(count: int, kind: str = "") -> str:
    """`1 topic`, `43 scored topics`."""
    return f"{count} {kind}topic{'' if count == 1 else 's'}"


def effort_line(effort: Effort) -> str:
    """`judging the N unjudged units of the top k takes about H h at 240/h, the median of ...` (no full stop)."""
    units = f"{effort.unjudged} unjudged unit{'' if effort.unjudged == 1 else 's'}"
    return f"Judging the {units} of the top {effort.depth} takes about {effort.hours} h {effort.pace.description}"


def _not_scored(unit: str, runs_not_scored: list[str], runs_retired: list[str]) -> None:
    """The runs a default run set left out: retired ones, and those that rank other units."""
    retired_note(runs_retired)
    if runs_not_scored:
        info(
            f"Not scored on {unit} labels (they rank other units): {', '.join(runs_not_scored)}; "
            "see them at document level with --unit doc."
        )


COMMANDS = [coverage, compare]


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


COMMANDS.append(report)

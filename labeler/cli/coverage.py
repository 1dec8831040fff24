"""`labeler coverage`: how well the judgments cover each run, and how much each score depends on the pool."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import (
    Env,
    comma_list,
    json_option,
    measure_list,
    pass_env,
    scored_runs_option,
)
from labeler.cli.common.printing import info, print_result, progress_bar, table
from labeler.cli.common.ranges import DEPTH
from labeler.cli.common.scores import fixed, not_scored_note, reopened_note
from labeler.cli.eval import (
    JUDGED_ONLY,
    judged_only_option,
)
from labeler.wording import plural

if TYPE_CHECKING:  # the workbench is imported when a command runs, not when the CLI starts
    from labeler.workbench.coverage_results import CoverageReport, Effort, RepoolStatus


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
    reopened_note(result.reopened)
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
                fixed(r.r_estimate, 1),
                fixed(r.r_se, 1),
                "no" if r.r_unreliable else "yes",
                fixed(r.saturation, 3),
            ]
            for t, r in result.topics.items()
        ],
    )
    info(result.r_estimate_warning)
    not_scored_note(result.unit, result.runs_not_scored, result.runs_retired)
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
                fixed(r.judged, 3),
                fixed(r.judged_scored, 3),
                r.unjudged,
                fixed(r.unjudged_share, 3),
                r.unique,
                r.unique_relevant,
                fixed(first["full"]) if first else "-",
                fixed(first["without"]) if first else "-",
                fixed(first["drop"]) if first else "-",
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
            + ", ".join(f"{run} {fixed(tau, 3)}" for run, tau in ranking.kendall_tau.items())
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


def _topics(count: int, kind: str = "") -> str:
    """`1 topic`, `43 scored topics`."""
    return f"{count} {kind}topic{'' if count == 1 else 's'}"


def effort_line(effort: Effort) -> str:
    """`judging the N unjudged units of the top k takes about H h at 240/h, the median of ...` (no full stop)."""
    units = f"{effort.unjudged} unjudged unit{'' if effort.unjudged == 1 else 's'}"
    return f"Judging the {units} of the top {effort.depth} takes about {effort.hours} h {effort.pace.description}"

"""`labeler eval`: scores with their denominators."""

from __future__ import annotations

import click

from labeler.cli.context import Env, json_option, pass_env
from labeler.cli.output import emit_json, info, progress_bar, retired_note, table
from labeler.wording import plural


def _fmt(value) -> str:
    return "null" if value is None else f"{value:.4f}"


def _denominators(run: dict) -> str:
    topics = run["topics"]
    parts = [f"{plural(topics['scored'], 'topic')} scored"]
    if topics["excluded"]:
        parts.append("excluded: " + ", ".join(f"{n} {reason}" for reason, n in topics["excluded"].items()))
    if topics["not_in_run"]:
        shown = ", ".join(topics["not_in_run_topics"][:8]) + (" ..." if topics["not_in_run"] > 8 else "")
        parts.append(f"{topics['not_in_run']} with no results (scored 0): {shown}")
    if topics["not_in_snapshot"]:
        parts.append(f"{plural(topics['not_in_snapshot'], 'run topic')} not in the snapshot")
    left_out = {t: r for t, r in topics.get("reopened", {}).items() if t not in topics.get("lower_bound", [])}
    if left_out:
        parts.append(
            "reopened, not scored: "
            + ", ".join(f"{t} by {r['pool']} ({r['unjudged']} unjudged)" for t, r in left_out.items())
        )
    units = run["units"]
    if units.get("chunks_collapsed"):
        parts.append(f"{plural(units['chunks_collapsed'], 'chunk')} collapsed to documents")
    if units.get("lower_bound"):
        parts.append(f"document grades from chunk labels, {units['partial_documents']} partly judged (lower bound)")
    return "; ".join(parts)


@click.command("eval")
@click.option("--snapshot", default=None, help="Snapshot to score against (default: the latest).")
@click.option(
    "--runs",
    default=None,
    help="Comma-separated run names (default: every run the labels can score; the others are named).",
)
@click.option(
    "--measures",
    default=None,
    help='Measures, e.g. "P@10 R@100 nDCG@10 AP RR Bpref infAP Judged@10 AnyHit@10 T@5 RBP(p=0.8)".',
)
@click.option("--per-query", is_flag=True, help="Per-topic values as well.")
@click.option("--depth", default=None, type=int, help="Read only the first N results of each ranking (trec_eval -M).")
@click.option("--unit", default=None, metavar="doc", help="Evaluate at document level (chunk runs and chunk labels).")
@click.option(
    "--include-unreviewed",
    is_flag=True,
    help="Also score topics not marked reviewed (when they have a relevant label).",
)
@click.option(
    "--include-reopened",
    is_flag=True,
    help="Also score reopened topics (marked, but the latest pool holds unjudged units): lower bounds.",
)
@click.option(
    "--average",
    type=click.Choice(["reviewed", "trec_eval", "trec_eval_c"]),
    default="reviewed",
    show_default=True,
    help="Topics a mean is over: reviewed topics with relevant labels (labeler), or trec_eval's rule "
    "(topics in labels and run; _c: every labelled topic, like -c) to reproduce its numbers.",
)
@click.option(
    "--stages",
    default=None,
    metavar="A,B,C",
    help="Runs of one system in pipeline order: recall at each stage and what each step lost.",
)
@click.option(
    "--compare",
    nargs=2,
    default=None,
    metavar="RUN_A RUN_B",
    help="Paired comparison: per-topic deltas, wins/ties/losses, randomization and t-test p-values.",
)
@json_option
@pass_env
def eval_(
    env: Env,
    snapshot: str | None,
    runs: str | None,
    measures: str | None,
    per_query: bool,
    depth: int | None,
    unit: str | None,
    include_unreviewed: bool,
    include_reopened: bool,
    average: str,
    stages: str | None,
    compare: tuple[str, str] | None,
    as_json: bool,
) -> None:
    """Score runs on a snapshot: every number with its topics, unit, stage, cutoff and snapshot."""
    from labeler.workbench.evaluation import compare_runs, evaluate_runs

    with env.store() as store:
        if compare:
            result = compare_runs(
                store,
                compare[0],
                compare[1],
                snapshot=snapshot,
                measures=measures,
                depth=depth,
                unit=unit,
                include_unreviewed=include_unreviewed,
                include_reopened=include_reopened,
            )
            if as_json:
                emit_json(result)
            else:
                _print_comparison(result)
            return
        names = [r.strip() for r in runs.split(",") if r.strip()] if runs else None
        stage_names = [r.strip() for r in stages.split(",") if r.strip()] if stages else None
        if stage_names:
            names = list(dict.fromkeys((names or []) + stage_names))
        with progress_bar("runs scored") as progress:
            result = evaluate_runs(
                store,
                snapshot=snapshot,
                runs=names,
                measures=measures,
                per_query=per_query,
                depth=depth,
                unit=unit,
                include_unreviewed=include_unreviewed,
                include_reopened=include_reopened,
                stages=stage_names,
                average=average,
                progress=progress,
            )
    if as_json:
        emit_json(result)
        return
    _print_report(result)


def _print_report(result: dict) -> None:
    depth = f", first {result['depth']} results" if result["depth"] else ""
    info(f"Snapshot {result['snapshot']} ({result['unit']}, relevant from grade {result['threshold']}{depth}).")
    measures = result["measures"]
    rows = []
    for run in result["runs"]:
        rows.append(
            [
                run["run"],
                run["stage"],
                run["unit"],
                run["topics"]["scored"],
                *(_fmt(run["aggregate"][m]) for m in measures),
            ]
        )
    table("scores (mean over the topics scored)", ["run", "stage", "unit", "topics", *measures], rows)
    for run in result["runs"]:
        info(f"{run['run']}: {_denominators(run)}.")
        lower = run["topics"].get("lower_bound")
        if lower:
            detail = ", ".join(f"{t} ({run['topics']['reopened'][t]['unjudged']} unjudged)" for t in lower)
            info(
                f"{run['run']}: the mean is a lower bound for the reopened topics {detail}: "
                "their pool units are not all judged."
            )
    judged = [m for m in measures if m.startswith("Judged@")]
    if judged:
        counts = sorted({run["judged_topics"] for run in result["runs"] if "judged_topics" in run})
        over = " or ".join(map(str, counts)) or "0"
        info(
            f"{', '.join(judged)}: the mean over the {over} scored topic{'' if counts == [1] else 's'}, "
            "like every measure here "
            "(labeler coverage gives it over all the topics the runs rank as well)."
        )
    retired_note(result)
    if result.get("runs_not_scored"):
        info(
            f"Not scored on {result['unit']} labels (they rank other units): {', '.join(result['runs_not_scored'])}; "
            "score them at document level with --unit doc."
        )
    reasons = {reason for run in result["runs"] for reason in run["topics"]["excluded"]}
    if reasons & {"in_progress", "unreviewed"} and result.get("average") == "reviewed":
        info(
            "Topics count once an assessor marks them done: 'labeler topics mark TOPIC reviewed' (d in the "
            "judging UI); --include-unreviewed scores judged topics anyway."
        )
    if "reopened" in reasons and result.get("average") == "reviewed":
        info(
            "Reopened topics count again once their new pool units are judged ('labeler judge'); "
            "--include-reopened scores them as they stand, as lower bounds."
        )
    recall_rows = []
    for run in result["runs"]:
        for k, r in run["recall"].items():
            share = "null" if r["share_of_ceiling"] is None else f"{100 * r['share_of_ceiling']:.1f}%"
            recall_rows.append(
                [run["run"], f"R@{k}", _fmt(r["macro"]), _fmt(r["micro"]), _fmt(r["ceiling"]), share, r["topics"]]
            )
    if recall_rows:
        table(
            "recall with its denominators",
            ["run", "k", "macro (mean of topics)", "micro (pooled)", "ceiling", "share of ceiling", "topics"],
            recall_rows,
        )
    if "stages" in result:
        ks = result["stages"]["k"]
        header = ["run", "stage", *(f"R@{k}" for k in ks), *(f"lost @{k}" for k in ks)]
        table(
            "stages",
            header,
            [
                [
                    row["run"],
                    row["stage"],
                    *(_fmt(row["recall"][k]) for k in ks),
                    *("" if row["lost"][k] is None else _fmt(row["lost"][k]) for k in ks),
                ]
                for row in result["stages"]["rows"]
            ],
        )
    for run in result["runs"]:
        if "per_query" in run:
            table(
                f"{run['run']} per topic",
                ["topic", *measures],
                [[t, *(_fmt(v.get(m)) for m in measures)] for t, v in run["per_query"].items()],
            )


def _print_comparison(result: dict) -> None:
    info(
        f"{result['b']} vs {result['a']} on snapshot {result['snapshot']} ({result['unit']}); "
        "delta = b - a, paired over the topics both score."
    )
    rows = []
    for measure, c in result["measures"].items():
        rows.append(
            [
                measure,
                c["n"],
                _fmt(c["mean_a"]),
                _fmt(c["mean_b"]),
                _fmt(c["mean_delta"]),
                f"{c['wins']}/{c['ties']}/{c['losses']}",
                _fmt(c["randomization_p"]),
                _fmt(c["t_test_p"]),
            ]
        )
    table(None, ["measure", "topics", "a", "b", "delta", "wins/ties/losses", "p (randomization)", "p (t-test)"], rows)


COMMANDS = [eval_]

"""`labeler eval`: scores with their denominators."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, TypeVar

import click

from labeler.cli.common.context import Env, comma_list, json_option, measure_list, pass_env, scored_runs_option
from labeler.cli.common.printing import info, print_result, progress_bar, retired_note, table
from labeler.cli.common.ranges import DEPTH, MAX_BOOTSTRAP, SEED, Whole
from labeler.errors import BadArgumentError
from labeler.wording import plural

if TYPE_CHECKING:  # the workbench is imported when a command runs, not when the CLI starts
    from labeler.workbench.eval_results import BaselineReport, EvalReport, RunComparison, RunScore, StageTable
    from labeler.workbench.model_scoring import LabelsNote
    from labeler.workbench.setup import Store


F = TypeVar("F", bound=Callable[..., Any])


def statistics_options(command: F) -> F:
    """`--correction`, `--bootstrap` and `--seed`: how `--compare` and `--baseline` test (eval and compare)."""
    command = click.option(
        "--seed", default=0, show_default=True, type=SEED, help="Seed of the randomization test and the bootstrap."
    )(command)
    command = click.option(
        "--bootstrap",
        default=1000,
        show_default=True,
        type=Whole(1, MAX_BOOTSTRAP),
        metavar="N",
        help="Bootstrap resamples for the 95% percentile intervals of each mean and of the difference.",
    )(command)
    return click.option(
        "--correction",
        type=click.Choice(["holm", "bonferroni", "none"]),
        default="holm",
        show_default=True,
        help="Multiple-comparison correction over every run and measure compared (adjusted p beside raw p).",
    )(command)


JUDGED_ONLY = "judged-only (condensed lists): each ranking without its unjudged units, as trec_eval -J"


def judged_only_option(command: F) -> F:
    """`--judged-only`: score condensed lists (eval, compare and coverage)."""
    return click.option(
        "--judged-only",
        "judged_only",
        is_flag=True,
        help="Remove the units without a label from each ranking before any measure (trec_eval -J, Sakai's "
        "condensed lists): scores that answer another question, named as such in the output.",
    )(command)


def judged_only_note(judged_only: bool) -> str:
    """`; judged-only (condensed lists) ...` for a heading line, or nothing."""
    return f"; {JUDGED_ONLY}" if judged_only else ""


def _fmt(value: float | None) -> str:
    return "null" if value is None else _places(value, 4)


NOT_RUN = "–"  # a test that could not run (too few topics, no difference at all): JSON says null


def _places(value: float, places: int) -> str:
    """`value` to `places` decimals; a value that rounds to zero is `0.000`, never `-0.000`."""
    shown = f"{value:.{places}f}"
    return shown.lstrip("-") if float(shown) == 0 else shown


def _denominators(run: RunScore) -> str:
    """What one run's means rest on, in one line: scored, excluded, missed, reopened, unit reconciled."""
    topics = run.topics
    parts = [f"{plural(topics.scored, 'topic')} scored"]
    if topics.excluded:
        parts.append("excluded: " + ", ".join(f"{n} {reason}" for reason, n in topics.excluded.items()))
    if topics.not_in_run:
        shown = ", ".join(topics.not_in_run_topics[:8]) + (" ..." if topics.not_in_run > 8 else "")
        parts.append(f"{topics.not_in_run} with no results (scored 0): {shown}")
    if topics.not_in_snapshot:
        parts.append(f"{plural(topics.not_in_snapshot, 'run topic')} not in the snapshot")
    left_out = topics.left_out_reopened()
    if left_out:
        parts.append(
            "reopened, not scored: "
            + ", ".join(f"{t} by {r['pool']} ({r['unjudged']} unjudged)" for t, r in left_out.items())
        )
    units = run.units
    if units.get("chunks_collapsed"):
        parts.append(f"{plural(units['chunks_collapsed'], 'chunk')} collapsed to documents")
    if units.get("lower_bound"):
        parts.append(f"document grades from chunk labels, {units['partial_documents']} partly judged (lower bound)")
    return "; ".join(parts)


@click.command("eval")
@click.option("--snapshot", default=None, help="Snapshot to score against (default: the latest).")
@scored_runs_option
@click.option(
    "--measures",
    default=None,
    callback=measure_list,
    help='Measures, e.g. "P@10 R@100 nDCG@10 AP RR Bpref infAP Judged@10 AnyHit@10 T@5 RBP(p=0.8)".',
)
@click.option("--per-query", is_flag=True, help="Per-topic values as well.")
@click.option("--depth", default=None, type=DEPTH, help="Read only the first N results of each ranking (trec_eval -M).")
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
    help="Paired comparison of two runs (A the baseline), on every measure: per-topic wins/ties/losses, t-test, "
    "randomization and Wilcoxon p-values (corrected over the measures), bootstrap intervals.",
)
@click.option(
    "--baseline",
    default=None,
    metavar="RUN",
    help="Compare every other scored run with RUN on every measure: the tests of --compare, corrected over "
    "every run and measure.",
)
@click.option(
    "--labels",
    type=click.Choice(["human", "model", "combined"]),
    default="human",
    show_default=True,
    help="Labels to score with: the snapshot's human labels, a model judge's (--model), or combined: human where "
    "judged, the model's calibrated label elsewhere, each P@k mean with its prediction-powered 95% interval.",
)
@click.option(
    "--model", default=None, metavar="NAME", help="The model whose recorded labels --labels model|combined reads."
)
@statistics_options
@judged_only_option
@click.option(
    "--runs-parquet",
    "runs_parquet",
    default=None,
    metavar="DIR",
    help="Score the Parquet runs in DIR (`runs export --format parquet`) through DuckDB, not the workbench's runs.",
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
    baseline: str | None,
    labels: str,
    model: str | None,
    correction: str,
    bootstrap: int,
    seed: int,
    judged_only: bool,
    runs_parquet: str | None,
    as_json: bool,
) -> None:
    """Score runs on a snapshot: every number with its topics, unit, stage, cutoff and snapshot."""
    from labeler.workbench.evaluation import EvalRequest, compare_runs, evaluate_runs

    if compare and baseline:
        raise BadArgumentError(
            "compares every run with one baseline; --compare compares one pair: give one of them", argument="baseline"
        )
    if compare and labels != "human":
        raise BadArgumentError("compares two runs on the human labels only; leave --labels out", argument="labels")
    with env.store() as workbench_store, _runs_from(workbench_store, runs_parquet, depth) as store:
        names = stage_names = None
        if not compare:
            names = comma_list(runs, "runs", "run name")
            stage_names = comma_list(stages, "stages", "stage")
            if stage_names:
                names = list(dict.fromkeys((names or []) + stage_names))
        request = EvalRequest(
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
            baseline=baseline,
            correction=correction,
            bootstrap=bootstrap,
            seed=seed,
            labels=labels,
            model=model,
            judged_only=judged_only,
        )
        if compare:
            print_result(compare_runs(store, compare[0], compare[1], request), as_json, _print_comparison)
            return
        with progress_bar("runs scored") as progress:
            result = evaluate_runs(store, request, progress)
    print_result(result, as_json, _print_report)


def _runs_from(store: Store, directory: str | None, depth: int | None) -> AbstractContextManager[Store]:
    """The workbench, or with `--runs-parquet` the workbench whose runs are that directory's Parquet files."""
    if directory is None:
        return nullcontext(store)
    from labeler.workbench.parquet_runs import parquet_runs

    return parquet_runs(store, directory, depth=depth)


def _print_report(result: EvalReport) -> None:
    """The scores table, then what they rest on, then recall, stages and per-topic values."""
    _print_scores(result)
    _print_notes(result)
    _print_recall(result)
    if result.stages is not None:
        _print_stages(result.stages)
    if result.baseline is not None:
        print_baseline(result.baseline, f"on snapshot {result.snapshot}")
    for run in result.runs:
        if run.per_query is not None:
            table(
                f"{run.run} per topic",
                ["topic", *result.measures],
                [[t, *(_fmt(v.get(m)) for m in result.measures)] for t, v in run.per_query.items()],
            )


def _print_scores(result: EvalReport) -> None:
    """The snapshot line and one row of means per run."""
    depth = f", first {result.depth} results" if result.depth else ""
    info(
        f"Snapshot {result.snapshot} ({result.unit}, relevant from grade {result.threshold}{depth})"
        f"{judged_only_note(result.judged_only)}."
    )
    measures = result.measures
    if result.labels is not None:
        _print_labels(result)
    combined = any(run.ci is not None for run in result.runs)
    rows = [
        [
            run.run,
            run.stage,
            run.unit,
            run.topics.scored,
            *([run.human_labels] if combined else []),
            *(_with_interval(run, m) for m in measures),
        ]
        for run in result.runs
    ]
    header = ["run", "stage", "unit", "topics", *(["human labels"] if combined else []), *measures]
    kind = "judged-only (condensed lists) scores" if result.judged_only else "scores"
    table(f"{kind} (mean over the topics scored)", header, rows)


def _with_interval(run: RunScore, measure: str) -> str:
    """A mean, and beside it its prediction-powered interval when it has one."""
    bounds = None if run.ci is None else run.ci.get(measure)
    return _fmt(run.aggregate[measure]) + ("" if bounds is None else f" {_interval(bounds)}")


def _print_labels(result: EvalReport) -> None:
    """Which labels the scores use, and for combined ones what the intervals rest on."""
    labels = result.labels
    if labels is None:
        return
    if labels.labels == "model":
        info(f"Scored with the labels of model {labels.model} alone: no human label is used.")
        return
    calibration = (
        "uncalibrated: its stated probabilities, or its grades where it gave none (fewer than 10 human labels "
        "outside the sample to calibrate on)"
        if labels.fallback
        else f"{labels.method} calibration on {labels.examples} human labels outside the sample"
    )
    info(
        f"Human labels where judged, model {labels.model}'s calibrated labels elsewhere ({calibration}). "
        "P@k: prediction-powered mean and 95% interval over the run's top-k pairs, corrected by the human labels "
        "of the overlap pairs (a seeded random sample); other measures: the combined labels' mean, no interval."
    )
    _print_sample_rule(labels)
    for run in result.runs:
        missing = {m: n for m, n in ((run.ppi or {}).get("sample_unlabelled") or {}).items() if n}
        if missing:
            info(
                f"{run.run}: sample pairs not judged yet: "
                + ", ".join(f"{n} in {m}" for m, n in missing.items())
                + " (the interval is random only if what is unjudged is unrelated to relevance)."
            )


def _print_sample_rule(labels: LabelsNote) -> None:
    """Which topics combined labels score, and why the others are left out."""
    if labels.topic_rule != "sample_judged":
        return
    samples: dict[str, dict[str, int]] = labels.samples or {}
    judged = [t for t, s in samples.items() if 0 < s["pairs"] == s["judged"]]
    partly = {t: s for t, s in samples.items() if s["judged"] < s["pairs"]}
    line = (
        "Topics scored: those whose random sample is judged (every overlap pair of the pool holds a human "
        f"label), reviewed or not, since the model labels the rest: {plural(len(judged), 'topic')}"
    )
    if partly:
        shown = ", ".join(f"{t} ({s['judged']} of {s['pairs']})" for t, s in list(partly.items())[:8])
        line += f"; sample not all judged yet: {shown}" + (" ..." if len(partly) > 8 else "")
    info(line + ". Topics without planned overlap pairs have no sample and are not scored.")


def shown_topics(topics: list[str] | dict[str, str], limit: int = 8) -> str:
    """`a, b (reopened), c ...`: the first topics of a list, a left topic with why it is not scored now."""
    names = [f"{t} ({topics[t]})" if isinstance(topics, dict) else t for t in list(topics)[:limit]]
    return ", ".join(names) + (" ..." if len(topics) > limit else "")


def changes_line(entered: list[str], left: dict[str, str]) -> str:
    """`2 entered (a, b); 1 left (c (reopened))`, the parts that are not empty."""
    parts = [f"{len(entered)} entered ({shown_topics(entered)})"] if entered else []
    if left:
        parts.append(f"{len(left)} left ({shown_topics(left)})")
    return "; ".join(parts)


def _print_topic_changes(result: EvalReport) -> None:
    """The topics that entered or left the scored set since the previous snapshot: one line, or one per run."""
    lines = {}
    for run in result.runs:
        since = run.topics.since
        if since and (since.entered or since.left):
            lines[run.run] = (
                f"the scored topics changed since {since.snapshot} ({since.scored} there, "
                f"{run.topics.scored} here): {changes_line(since.entered, since.left)}"
            )
    if not lines:
        return
    warning = "; a mean that moved since then may have moved only because its topics did."
    if len(set(lines.values())) == 1 and len(lines) == len(result.runs):
        info(f"Warning: {next(iter(lines.values()))}{warning}")
        return
    for name, line in lines.items():
        info(f"Warning: {name}: {line}{warning}")


def _print_notes(result: EvalReport) -> None:
    """Each run's denominators and lower bounds, then what the user can do to score more."""
    _print_topic_changes(result)
    for run in result.runs:
        info(f"{run.run}: {_denominators(run)}.")
        lower = run.topics.lower_bound
        if lower:
            detail = ", ".join(f"{t} ({run.topics.reopened[t]['unjudged']} unjudged)" for t in lower)
            info(
                f"{run.run}: the mean is a lower bound for the reopened topics {detail}: "
                "their pool units are not all judged."
            )
    judged = [m for m in result.measures if m.startswith("Judged@")]
    if judged:
        counts = sorted({run.judged_topics for run in result.runs if run.judged_topics is not None})
        over = " or ".join(map(str, counts)) or "0"
        info(
            f"{', '.join(judged)}: the mean over the {over} scored topic{'' if counts == [1] else 's'}, "
            "like every measure here "
            "(labeler coverage gives it over all the topics the runs rank as well)."
        )
    retired_note(result.runs_retired)
    if result.runs_not_scored:
        info(
            f"Not scored on {result.unit} labels (they rank other units): {', '.join(result.runs_not_scored)}; "
            "score them at document level with --unit doc."
        )
    _print_how_to_score_more(result)


def _print_how_to_score_more(result: EvalReport) -> None:
    """Under labeler's rule, how unreviewed and reopened topics come to count."""
    if result.average != "reviewed":
        return
    reasons = {reason for run in result.runs for reason in run.topics.excluded}
    if reasons & {"in_progress", "unreviewed"}:
        info(
            "Topics count once an assessor marks them done: 'labeler topics mark TOPIC reviewed' (d in the "
            "judging UI); --include-unreviewed scores judged topics anyway."
        )
    if "sample_unjudged" in reasons:
        info("A topic counts under combined labels once its overlap pairs are judged ('labeler judge').")
    if "no_sample" in reasons:
        info(
            "A topic without overlap pairs has no random sample; plan one to score it with combined labels: "
            "labeler assign --assessors A,B --overlap SHARE."
        )
    if "reopened" in reasons:
        info(
            "Reopened topics count again once their new pool units are judged ('labeler judge'); "
            "--include-reopened scores them as they stand, as lower bounds."
        )


def _print_recall(result: EvalReport) -> None:
    """Recall at each k with its denominators: macro, micro, the ceiling and the share of it reached."""
    recall_rows = []
    for run in result.runs:
        for k, r in run.recall.items():
            share = "null" if r["share_of_ceiling"] is None else f"{100 * r['share_of_ceiling']:.1f}%"
            recall_rows.append(
                [run.run, f"R@{k}", _fmt(r["macro"]), _fmt(r["micro"]), _fmt(r["ceiling"]), share, r["topics"]]
            )
    if recall_rows:
        table(
            "recall with its denominators",
            ["run", "k", "macro (mean of topics)", "micro (pooled)", "ceiling", "share of ceiling", "topics"],
            recall_rows,
        )


def _print_stages(stages: StageTable) -> None:
    """Recall at each stage of the pipeline and what each step lost."""
    ks = stages.k
    header = ["run", "stage", *(f"R@{k}" for k in ks), *(f"lost @{k}" for k in ks)]
    table(
        "stages",
        header,
        [
            [
                row.run,
                row.stage,
                *(_fmt(row.recall[k]) for k in ks),
                *("" if row.lost[k] is None else _fmt(row.lost[k]) for k in ks),
            ]
            for row in stages.rows
        ],
    )


def _print_comparison(result: RunComparison) -> None:
    info(
        f"{result.b} vs {result.a} on snapshot {result.snapshot} ({result.unit}, average {result.average})"
        f"{judged_only_note(result.judged_only)}; delta = b - a, paired over the topics both score."
    )
    if result.topic_sets:
        _different_topics(result.a, result.b, result.topic_sets)
    _comparison_table(result.a, {result.b: result.measures})
    _family_line(result.correction, result.bootstrap, "1 pair")


def _different_topics(first: str, second: str, sets: dict[str, list[str]]) -> None:
    """Warn that two runs are scored over different topics, so their paired means are not their reported ones."""
    only = [
        f"{run} alone scores {shown_topics(topics)}"
        for run, topics in ((first, sets["first_only"]), (second, sets["second_only"]))
        if topics
    ]
    info(
        f"Warning: {first} and {second} are scored over different topics ({'; '.join(only)}): the comparison "
        "pairs the topics both score, so its means differ from each run's own mean."
    )


def print_baseline(report: BaselineReport, where: str) -> None:
    """Every run against the baseline, per measure: counts, means with intervals, raw and adjusted p-values."""
    info(f"Against the baseline {report.baseline} {where}; delta = run - baseline, paired over the topics both score.")
    if not report.runs:
        info("No other run to compare with the baseline.")
        return
    for run, sets in report.topic_sets.items():
        _different_topics(report.baseline, run, sets)
    _comparison_table(report.baseline, report.comparisons)
    _family_line(report.correction, report.bootstrap, plural(len(report.runs), "run"))


def _comparison_table(baseline: str, comparisons: dict[str, dict[str, dict[str, Any]]]) -> None:
    """Three narrow tables (means, differences, p-values) rather than one of ten columns: each fits 80 columns."""
    pairs = [(run, measure, c) for run, by_measure in comparisons.items() for measure, c in by_measure.items()]
    table(
        "means, with 95% bootstrap intervals",
        ["run", "measure", "topics", baseline, "run"],
        [
            [
                run,
                measure,
                c["n"],
                _mean_and_interval(c["mean_a"], c["ci"]["mean_a"]),
                _mean_and_interval(c["mean_b"], c["ci"]["mean_b"]),
            ]
            for run, measure, c in pairs
        ],
    )
    table(
        f"differences: run - {baseline}, per topic",
        ["run", "measure", "delta", "improved", "tied", "degraded"],
        [
            [
                run,
                measure,
                _mean_and_interval(c["mean_delta"], c["ci"]["mean_delta"]),
                c["improved"],
                c["tied"],
                c["degraded"],
            ]
            for run, measure, c in pairs
        ],
    )
    table(
        "p-values, two-sided (adjusted in brackets)",
        ["run", "measure", "t-test", "randomization", "Wilcoxon"],
        [
            [run, measure, *(_p(c["tests"][name]) for name in ("t_test", "randomization", "wilcoxon"))]
            for run, measure, c in pairs
        ],
    )


def _mean_and_interval(value: float | None, bounds: list[float] | None) -> str:
    """`0.480 [0.417, 0.548]`: three places, so a mean and its interval fit a narrow column."""
    shown = NOT_RUN if value is None else _places(value, 3)
    return shown if bounds is None else f"{shown} [{_places(bounds[0], 3)}, {_places(bounds[1], 3)}]"


def _interval(bounds: list[float] | None) -> str:
    return "" if bounds is None else f"[{_places(bounds[0], 4)}, {_places(bounds[1], 4)}]"


def _p(test: dict[str, Any]) -> str:
    """`0.0312 (0.0936)`: the p-value, then the adjusted one; `–` for a test that could not run."""
    if test["p"] is None:
        return NOT_RUN
    adjusted = test.get("p_adjusted")
    return _fmt_p(test["p"]) + ("" if adjusted is None else f" ({_fmt_p(adjusted)})")


def _fmt_p(value: float | None) -> str:
    """A p-value to 4 places, or in e-notation below 0.0001 (so a tiny p never reads 0.0000)."""
    if value is None:
        return "null"
    return f"{value:.1e}" if 0 < value < 1e-4 else f"{value:.4f}"


CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "No correction"}


def _family_line(correction: dict[str, Any], bootstrap: dict[str, Any], runs: str) -> None:
    """`Holm over 12 comparisons (4 runs x 3 measures) ...`: the family, the method and the intervals' bootstrap."""
    family = (
        f"{CORRECTION_NAMES[correction['method']]} over {plural(correction['family_size'], 'comparison')} "
        f"({runs} x {plural(correction['measures'], 'measure')}), each test on its own"
    )
    info(
        f"{family}; adjusted p in brackets. Intervals: {int(100 * bootstrap['level'])}% percentile bootstrap, "
        f"{bootstrap['resamples']} resamples, seed {bootstrap['seed']}; randomization: seeded sign flips; "
        "Wilcoxon signed-rank drops zero deltas."
    )

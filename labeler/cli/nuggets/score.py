"""`labeler nuggets score`: answer runs scored by their nuggets and citation support."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import Env, comma_list, json_option, pass_env
from labeler.cli.common.printing import info, print_result, table
from labeler.cli.common.scores import fixed
from labeler.wording import plural

if TYPE_CHECKING:  # the workbench is imported when a command runs, not when the CLI starts
    from labeler.workbench.nugget_scores import NuggetScoresReport, RunNuggetScores


@click.command()
@click.option("--snapshot", default=None, metavar="NAME", help="Score on this snapshot (default: the log now).")
@click.option("--runs", default=None, metavar="R,...", help="Answer runs to score (default: every one not retired).")
@click.option("--baseline", default=None, metavar="RUN", help="Compare every other run with this one, per topic.")
@click.option(
    "--correction",
    type=click.Choice(["holm", "bonferroni", "none"]),
    default="holm",
    show_default=True,
    help="Multiple-comparison correction over every run and score compared with --baseline.",
)
@click.option(
    "--labels",
    type=click.Choice(["people", "combined"]),
    default="people",
    show_default=True,
    help="people's assignments alone, or combined: a model's (--model) corrected by people's random sample.",
)
@click.option("--model", default=None, metavar="NAME", help="The model whose assignments --labels combined reads.")
@json_option
@pass_env
def score(
    env: Env,
    snapshot: str | None,
    runs: str | None,
    baseline: str | None,
    correction: str,
    labels: str,
    model: str | None,
    as_json: bool,
) -> None:
    """Score answer runs: nugget scores per run and topic, with their denominators, and citation support."""
    from labeler.workbench.nugget_scores import NuggetScoreRequest, score_nuggets

    request = NuggetScoreRequest(
        snapshot=snapshot,
        runs=comma_list(runs, "runs", "run"),
        baseline=baseline,
        correction=correction,
        labels=labels,
        model=model,
    )
    with env.store() as store:
        result = score_nuggets(store, request)
    print_result(result, as_json, _say)


def _say(report: NuggetScoresReport) -> None:
    where = "the log now" if report.snapshot == "current" else f"snapshot {report.snapshot}"
    labels = (
        "people's assignments"
        if report.model is None
        else f"people's assignments, and model {report.model}'s corrected by people's random sample"
    )
    info(f"Nugget scores on {where} ({labels}).")
    if not report.runs:
        info("No answer run to score.")
        return
    table(
        "runs: means over the topics scored",
        ["run", "topics", "strict vital", "strict all", "vital", "all", "support P", "support R"],
        [
            [
                r.run,
                r.topics_scored,
                *(fixed(v) for v in (r.strict_vital_score, r.strict_all_score, r.vital_score, r.all_score)),
                fixed(r.support_precision),
                fixed(r.support_recall),
            ]
            for r in report.runs
        ],
    )
    for run in report.runs:
        _say_run(run)
    if report.baseline is not None:
        from labeler.cli.eval import print_baseline

        print_baseline(report.baseline, "on the nugget scores")


def _say_run(run: RunNuggetScores) -> None:
    if run.per_topic:
        table(
            f"{run.run}: per topic (vital / all: the denominators)",
            ["topic", "strict vital", "strict all", "vital", "all", "vital n", "all n"],
            [
                [
                    s.topic,
                    *(fixed(v) for v in (s.strict_vital_score, s.strict_all_score, s.vital_score, s.all_score)),
                    s.vital,
                    s.nuggets,
                ]
                for s in run.per_topic
            ],
        )
    for left in run.left_out:
        unassigned = f" ({plural(left.unassigned, 'nugget')} without a label)" if left.unassigned else ""
        info(f"{run.run}: topic {left.topic} left out: {left.reason}{unassigned}.")
    if run.support_left_out:
        info(f"{run.run}: support left out of {plural(len(run.support_left_out), 'topic')} (cited sentences unjudged).")
    if run.combined is not None:
        e = run.combined.estimate
        info(
            f"{run.run}: strict vital score, prediction-powered: {e.mean:.4f} "
            f"[{e.low:.4f}, {e.high:.4f}] over {plural(run.combined.topics, 'topic')}, "
            f"{plural(e.human_labels, 'assignment')} by people of {e.units} vital pairs."
        )

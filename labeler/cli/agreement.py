"""`labeler agreement`: inter-assessor agreement on the pairs more than one assessor graded."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from labeler.agreement.statistics import METRICS
from labeler.answers.spaces import TASK_KINDS, answer_space
from labeler.cli.common import model_view
from labeler.cli.common.context import Env, comma_list, json_option, pass_env
from labeler.cli.common.deprecation import notice
from labeler.cli.common.printing import emit_json, info, table
from labeler.cli.common.ranges import Whole
from labeler.errors import BadArgumentError
from labeler.wording import plural

if TYPE_CHECKING:
    from labeler.agreement.statistics import AgreementBlock
    from labeler.workbench.agreement import AgreementReport, AnswerAgreementReport

F = TypeVar("F", bound=Callable[..., Any])

HOW_TO_READ = (
    "How to read: overlap is the share of pairs graded alike. Kappa and alpha correct it for chance: 1 is perfect "
    "agreement, 0 what chance alone gives, below 0 systematic disagreement. Landis & Koch (1977) call 0.21-0.40 "
    "fair, 0.41-0.60 moderate, 0.61-0.80 substantial and above 0.80 almost perfect; Krippendorff asks for alpha "
    "of at least 0.800 (0.667 for tentative conclusions). These bands are conventions, not tests: on few pairs, or "
    "when relevant units are rare, kappa swings widely, so read it with the pair count, the overlap and the "
    "relevant overlap."
)


def _reasons(where: str, block: AgreementBlock) -> list[str]:
    """Why the undefined statistics of a block are undefined, one line each."""
    lines = []
    alpha = block.krippendorff_alpha
    if alpha.value is None:
        lines.append(f"{where}: alpha undefined: {alpha.reason}.")
    for key, pair in block.pairs_by_assessors.items():
        kappa = pair.cohen_kappa
        if kappa.value is None:
            lines.append(f"{where}, {key}: kappa undefined: {kappa.reason}.")
    return lines


def _block_row(label: str, block: AgreementBlock) -> list[object]:
    """A row of the per-topic table: the whole set (`all`) and each topic are blocks of one shape."""
    return [
        label,
        block.pairs,
        len(block.assessors),
        model_view.statistic_value(block.overlap),
        model_view.statistic_value(block.binary_overlap),
        model_view.statistic_value(block.krippendorff_alpha),
    ]


def _say_conditions(result: AgreementReport | AnswerAgreementReport) -> None:
    """Which condition the pairs' second judgments were made in and, when more than one, agreement in each."""
    counts = result.conditions
    info(
        f"Second judgments: {counts['blind']} blind (no other label on screen), {counts['shown']} shown "
        f"(another assessor's label on screen), {counts['unrecorded']} unrecorded (imported or added by script)."
    )
    blocks = result.by_condition
    if len(blocks) > 1:
        table(
            "per condition of the second judgment",
            ["condition", "pairs", "overlap", "binary overlap", f"alpha ({result.metric})"],
            [_block_row(name, block)[:2] + _block_row(name, block)[3:] for name, block in blocks.items()],
        )


def model_options(*, hidden: bool) -> Callable[[F], F]:
    """The options of the model report: `agreement model`'s, and hidden on `agreement` for its old spelling."""

    def decorate(function: F) -> F:
        for option in reversed(
            [
                click.option(
                    "--measure",
                    default="nDCG@10",
                    show_default=True,
                    hidden=hidden,
                    help="The measure the runs are ranked by for the Kendall tau.",
                ),
                click.option(
                    "--weights",
                    type=click.Choice(["linear", "quadratic"]),
                    default="quadratic",
                    show_default=True,
                    hidden=hidden,
                    help="The weighted kappa's disagreement weights.",
                ),
                click.option(
                    "--bins",
                    type=Whole(1, 1000),
                    default=10,
                    show_default=True,
                    hidden=hidden,
                    help="Reliability diagram bins.",
                ),
            ]
        ):
            function = option(function)
        return function

    return decorate


UNIT = click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME|nugget:RUN|support:RUN",
    help="Unit space, or an answer space: nugget:RUN (nugget assignments of run RUN's answers) or support:RUN "
    "(their citation support) (default: the latest pool's).",
)
ALL_PAIRS = click.option(
    "--all-pairs",
    is_flag=True,
    help="Every pair graded by two or more, not only the planned overlap pairs (see labeler assign).",
)


@click.group(invoke_without_command=True)
@click.option(
    "--snapshot", default=None, help="Only the unit space and topics of this snapshot (grades still come from the log)."
)
@UNIT
@click.option(
    "--metric",
    type=click.Choice(METRICS),
    default="ordinal",
    show_default=True,
    help="Krippendorff's alpha distance between grades.",
)
@ALL_PAIRS
@click.option(
    "--answers",
    type=click.Choice(list(TASK_KINDS)),
    default=None,
    help="Agreement on answer judgments over answer runs: nugget assignments or citation support.",
)
@click.option("--runs", default=None, metavar="R1,R2,...", help="With --answers: only these answer runs.")
@click.option("--model", default=None, metavar="NAME", hidden=True, help="Deprecated: agreement model NAME.")
@model_options(hidden=True)
@json_option
@pass_env
def agreement(
    env: Env,
    snapshot: str | None,
    unit: str | None,
    metric: str,
    all_pairs: bool,
    answers: str | None,
    runs: str | None,
    model: str | None,
    measure: str,
    weights: str,
    bins: int,
    as_json: bool,
) -> None:
    """How far assessors agree on pairs graded by more than one: overlap, Cohen's kappa, Krippendorff's alpha.

    `agreement model NAME`: how far a model's labels agree with the human labels instead.
    """
    from labeler.workbench.agreement import agreement_report

    if click.get_current_context().invoked_subcommand is not None:
        return
    if answers is not None or runs is not None:
        _answers_report(env, answers, runs, metric, as_json, unit=unit, snapshot=snapshot, model=model)
        return
    if model is not None:
        notice("agreement --model NAME", "agreement model NAME")
        if snapshot is not None:
            raise BadArgumentError(
                "--model compares the log's current human labels with the model's: leave out --snapshot",
                argument="model",
            )
        _model_report(env, model, unit, all_pairs, measure, weights, bins, as_json)
        return
    with env.store() as store:
        result = agreement_report(store, snapshot=snapshot, unit=unit, metric=metric, all_pairs=all_pairs)
    if as_json:
        emit_json(result.to_json())
        return
    summary = result.summary
    scope = f"snapshot {result.snapshot}'s topics, " if result.snapshot else ""
    planned = (
        f", on the {result.planned_overlap} planned overlap pairs (--all-pairs for every pair)"
        if result.planned_overlap is not None
        else ""
    )
    info(
        f"Agreement in {scope}{result.unit}{planned}: {summary.pairs_multi} of {summary.pairs_judged} "
        f"graded pairs were graded by two or more assessors ({', '.join(summary.assessors) or 'none'}); scale "
        f"{result.scale}, {'supported' if answer_space(result.unit) else 'relevant'} from grade {result.threshold}."
    )
    _say_agreement(result)


def _say_agreement(result: AgreementReport | AnswerAgreementReport) -> None:
    """The tables of a report, relevance or answers: per condition, assessor pair, topic, and how to read them."""
    summary = result.summary
    if summary.pairs_multi == 0:
        info(
            "Nothing to compare: have a second assessor grade some of the same pairs "
            "(labeler judge, or labeler judgments add TOPIC UNIT GRADE --assessor NAME)."
        )
        return
    overall = summary.overall
    _say_conditions(result)
    table(
        "per assessor pair, all topics",
        [
            "assessors",
            "pairs",
            "overlap",
            "binary overlap",
            "relevant overlap",
            "kappa",
            "kappa linear",
            "kappa quadratic",
            "binary kappa",
        ],
        [
            [
                key,
                p.pairs,
                model_view.statistic_value(p.overlap),
                model_view.statistic_value(p.binary_overlap),
                model_view.statistic_value(p.relevant_overlap),
                model_view.statistic_value(p.cohen_kappa),
                model_view.statistic_value(p.weighted_kappa_linear),
                model_view.statistic_value(p.weighted_kappa_quadratic),
                model_view.statistic_value(p.binary_kappa),
            ]
            for key, p in overall.pairs_by_assessors.items()
        ],
    )
    rows = [_block_row("all", overall)] + [_block_row(topic, t) for topic, t in summary.topics.items()]
    table("per topic", ["topic", "pairs", "assessors", "overlap", "binary overlap", f"alpha ({result.metric})"], rows)
    table(
        "per topic and assessor pair",
        ["topic", "assessors", "pairs", "overlap", "kappa", "kappa linear", "kappa quadratic"],
        [
            [
                topic,
                key,
                p.pairs,
                model_view.statistic_value(p.overlap),
                model_view.statistic_value(p.cohen_kappa),
                model_view.statistic_value(p.weighted_kappa_linear),
                model_view.statistic_value(p.weighted_kappa_quadratic),
            ]
            for topic, t in summary.topics.items()
            for key, p in t.pairs_by_assessors.items()
        ],
    )
    for line in _reasons("all topics", overall):
        info(line)
    info(HOW_TO_READ)


def _answers_report(
    env: Env, answers: str | None, runs: str | None, metric: str, as_json: bool, **others: str | None
) -> None:
    """`agreement --answers nuggets|support [--runs ...]`: people's agreement on answer judgments over runs."""
    from labeler.workbench.agreement import answer_agreement_report

    if answers is None:
        raise BadArgumentError("names answer runs: give --answers nuggets|support with it", argument="runs")
    for name, value in others.items():
        if value is not None:
            raise BadArgumentError(
                f"reads the answer runs' own spaces: leave out --{name} (or use --unit nugget:RUN alone)",
                argument="answers",
            )
    with env.store() as store:
        result = answer_agreement_report(store, answers, runs=comma_list(runs, "runs", "run name"), metric=metric)
    if as_json:
        emit_json(result.to_json())
        return
    summary = result.summary
    info(
        f"Agreement on {'nugget assignments' if answers == 'nuggets' else 'citation support'} of "
        f"{plural(len(result.runs), 'answer run')} ({', '.join(result.runs) or 'none'}): {summary.pairs_multi} of "
        f"{summary.pairs_judged} judged items were judged by two or more ({', '.join(summary.assessors) or 'none'}); "
        f"scale {result.scale}, supported from grade {result.threshold}."
    )
    if summary.pairs_multi:
        table(
            "per answer run",
            ["run", "items", "assessors", "overlap", "binary overlap", f"alpha ({result.metric})"],
            [_block_row(run, block) for run, block in result.by_run.items()],
        )
    _say_agreement(result)


@agreement.command("model")
@click.argument("name")
@UNIT
@ALL_PAIRS
@model_options(hidden=False)
@json_option
@pass_env
def model(
    env: Env, name: str, unit: str | None, all_pairs: bool, measure: str, weights: str, bins: int, as_json: bool
) -> None:
    """How far model NAME's labels agree with the human labels, on the pairs both labelled.

    Confusion, kappa, per-grade precision and recall, a reliability diagram and the runs' Kendall tau,
    blind and shown second judgments apart.
    """
    _model_report(env, name, unit, all_pairs, measure, weights, bins, as_json)


def _model_report(
    env: Env, name: str, unit: str | None, all_pairs: bool, measure: str, weights: str, bins: int, as_json: bool
) -> None:
    from labeler.workbench.agreement import model_agreement_report

    with env.store() as store:
        report = model_agreement_report(
            store, name, unit=unit, measure=measure, weights=weights, bins=bins, all_pairs=all_pairs
        )
    if as_json:
        emit_json(report.to_json())
    else:
        model_view.say(report)

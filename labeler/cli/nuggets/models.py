"""`labeler nuggets draft` and `labeler nuggets assign`: a judge drafts nuggets, or assigns them to answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from labeler.cli.common.context import Env, comma_list, json_option, pass_env
from labeler.cli.common.printing import emit_json, info
from labeler.cli.common.program_options import program_options
from labeler.cli.common.ranges import Whole
from labeler.wording import plural

JUDGE = click.option(
    "--judge",
    "judge_spec",
    required=True,
    metavar="NAME|command:CMD",
    help="The judge: lexical (built-in, weak), a labeler.judges plug-in, or command:'CMD' (JSON lines in and out).",
)
MODEL = click.option(
    "--model",
    "model_name",
    default=None,
    metavar="NAME",
    help="The model name its work is recorded under (default: the judge's).",
)
TOPICS = click.option("--topics", default=None, metavar="T1,T2,...", help="Only these topics.")


def _run(env: Env, as_json: bool, use_case: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """Run the use case on the workbench; with `--json` print its document and give None, else give the result."""
    with env.store() as store:
        result = use_case(store, *args, **options)
    if as_json:
        emit_json(result.to_json())
        return None
    return result


def _left_out(what: str, topics: tuple[str, ...]) -> str:
    return f" {plural(len(topics), 'topic')} {what}: {', '.join(topics)}." if topics else ""


@click.command()
@program_options
@JUDGE
@TOPICS
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="The unit space whose relevant units the drafts come from (default: the latest pool's).",
)
@MODEL
@click.option(
    "--batch", default=10, show_default=True, type=Whole(1, 1_000), help="Topics sent to the judge at a time."
)
@json_option
@pass_env
def draft(
    env: Env,
    judge_spec: str,
    topics: str | None,
    unit: str | None,
    model_name: str | None,
    batch: int,
    as_json: bool,
) -> None:
    """Have a judge draft nuggets from each topic's relevant units: kept as the model's drafts, apart from the
    topic's nuggets until a person edits one (default topics: every topic with a relevant unit)."""
    from labeler.workbench.nugget_models import draft_nuggets

    topic_ids = comma_list(topics, "topics", "topic id")
    result = _run(
        env, as_json, draft_nuggets, judge_spec, topics=topic_ids, unit=unit, model_name=model_name, batch=batch
    )
    if result is None:
        return
    info(
        f"{result.model}: {plural(result.drafted, 'draft nugget')} for {plural(result.topics, 'topic')} "
        f"from their relevant units ({result.unit})."
        + _left_out("drafted before, skipped", result.already_drafted)
        + _left_out("without a relevant unit", result.without_relevant)
    )


@click.command()
@program_options
@JUDGE
@click.option("--runs", default=None, metavar="R1,R2,...", help="Only these answer runs (default: those not retired).")
@TOPICS
@MODEL
@click.option(
    "--batch", default=10, show_default=True, type=Whole(1, 1_000), help="Answers sent to the judge at a time."
)
@json_option
@pass_env
def assign(
    env: Env,
    judge_spec: str,
    runs: str | None,
    topics: str | None,
    model_name: str | None,
    batch: int,
    as_json: bool,
) -> None:
    """Have a judge assign the topics' nuggets to answer runs' answers: recorded as the model's assignments,
    never counted as people's, shown on the judging screen only when the campaign names the model."""
    from labeler.workbench.nugget_models import assign_nuggets

    names = comma_list(runs, "runs", "run name")
    topic_ids = comma_list(topics, "topics", "topic id")
    result = _run(
        env, as_json, assign_nuggets, judge_spec, runs=names, topics=topic_ids, model_name=model_name, batch=batch
    )
    if result is None:
        return
    info(
        f"{result.model}: {plural(result.assigned, 'assignment')} for {plural(result.answers, 'answer')} of "
        f"{plural(len(result.runs), 'answer run')}; {result.already_assigned} assigned by it before (skipped)."
        + _left_out("without nuggets", result.without_nuggets)
    )

"""`labeler prelabel`: a judge labels the pool's pairs no person has labelled, as a model."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, comma_list, json_option, pass_env
from labeler.cli.common.deprecation import deprecated_option
from labeler.cli.common.printing import emit_json, info, progress_bar
from labeler.cli.common.program_options import program_options
from labeler.cli.common.ranges import Whole
from labeler.wording import plural


@click.command()
@program_options
@click.option(
    "--judge",
    "judge_spec",
    required=True,
    metavar="NAME|command:CMD",
    help="The judge: lexical (built-in, weak), a labeler.judges plug-in, or command:'CMD' (JSON lines in and out).",
)
@click.option(
    "--pool",
    default=None,
    help="Pool version whose pairs are labelled (default: the latest of the one unit space held).",
)
@click.option("--topics", default=None, metavar="T1,T2,...", help="Only these topics (default: the pool's).")
@click.option(
    "--model",
    "model_name",
    default=None,
    metavar="NAME",
    help="The model whose labels it records: the name they are recorded under (default: the judge's).",
)
@deprecated_option("--model-name", "--model", command="prelabel", param="model_name", metavar="NAME")
@click.option(
    "--batch", default=50, show_default=True, type=Whole(1, 10_000), help="Pairs sent to the judge at a time."
)
@json_option
@pass_env
def prelabel(
    env: Env,
    judge_spec: str,
    pool: str | None,
    topics: str | None,
    model_name: str | None,
    batch: int,
    as_json: bool,
) -> None:
    """Run a judge over the pool's pairs without a human label; its answers are stored as a model's labels."""
    from labeler.workbench.prelabel import prelabel as run

    with env.store() as store, progress_bar("prelabelling") as progress:
        result = run(
            store,
            judge_spec,
            pool=pool,
            topics=comma_list(topics, "topics", "topic id"),
            model_name=model_name,
            batch=batch,
            progress=progress,
        )
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"{result.model}: {plural(result.labelled, 'model label')} recorded for {plural(result.topics, 'topic')} "
        f"of pool {result.pool} ({result.unit}); {result.already_labelled} already labelled by it, "
        f"{result.human_labelled} labelled by people (not asked)."
    )

"""`labeler init`: create or upgrade the workbench and set its grade scale."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, json_option, pass_env
from labeler.cli.common.printing import info, print_result
from labeler.cli.common.reading import reading_options
from labeler.workbench.init import WorkbenchInit, init_workbench


@click.command()
@reading_options
@click.option(
    "--scale",
    default=None,
    metavar="NAME|PATH",
    help="Grade scale: default (0-3, threshold 1), binary, trec-dl-passage, or a scale file (JSON or TSV).",
)
@json_option
@pass_env
def init(env: Env, scale: str | None, as_json: bool) -> None:
    """Create the workbench (or upgrade an existing one) and set its grade scale."""
    print_result(init_workbench(env.db_path, scale), as_json, _say_init)


def _say_init(result: WorkbenchInit) -> None:
    verb = "Created" if result.created else "Opened"
    grades = ", ".join(f"{g.value}={g.label}" for g in result.scale.grades)
    info(f"{verb} workbench {result.path} (schema {result.schema_version}).")
    info(f"Scale {result.scale.name}: {grades}; relevant from grade {result.scale.threshold}.")

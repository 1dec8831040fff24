"""`labeler nuggets import` and `nuggets import-assignments`: nuggetizer's files into the log.

Their exports are `labeler export nuggets [--assignments]` (`labeler.cli.export`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from labeler.cli.common.context import Env, assessor_option, checked_id, json_option, pass_env
from labeler.cli.common.printing import emit_json, info
from labeler.cli.common.reading import reading_options
from labeler.validation import IMPORT_SOURCES
from labeler.wording import plural

if TYPE_CHECKING:
    from labeler.workbench.nugget_files import FileImport


def source_options(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--source import|model` and `--model NAME`: who made the file's `what`."""

    def add(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option(
            "--model",
            default=None,
            metavar="NAME",
            callback=checked_id("model name"),
            help=f"The model that made the {what}, with --source model.",
        )(command)
        return click.option(
            "--source",
            type=click.Choice(IMPORT_SOURCES),
            default="import",
            show_default=True,
            help=f"Where the {what} come from: a file of people's (import) or a model's (model).",
        )(command)

    return add


Imported = TypeVar("Imported", bound="FileImport")


def _imported(
    env: Env,
    run: Callable[..., Imported],
    path: str,
    assessor: str,
    source: str,
    model: str | None,
    as_json: bool,
) -> Imported | None:
    """Run an import; with `--json` print its result and return None, else return it to be put in words."""
    with env.store() as store:
        result = run(store, path, assessor=assessor, source=source, model=model)
    if as_json:
        emit_json(result.to_json())
        return None
    return result


@click.command("import")
@reading_options
@click.argument("path", type=click.Path())
@assessor_option
@source_options("nuggets")
@json_option
@pass_env
def import_nuggets(env: Env, path: str, assessor: str, source: str, model: str | None, as_json: bool) -> None:
    """Import nuggetizer's nugget file: one {"qid", "query", "nuggets": [{"text", "importance"}]} a line.

    Each topic's nuggets are ranked in file order; a model's (--source model) are drafts a person
    post-edits, never the topic's nuggets. Nuggets the topic holds already are not logged again.
    """
    from labeler.workbench.nugget_files import import_nuggets as run

    result = _imported(env, run, path, assessor, source, model, as_json)
    if result is None:
        return
    what = f"drafts of model {model}" if model else f"imported, assessor {result.assessor}"
    info(
        f"{path}: {plural(result.nuggets, 'nugget')} logged for {plural(result.topics, 'topic')} ({what}),"
        f" {result.unchanged} held already."
    )


@click.command("import-assignments")
@reading_options
@click.argument("path", type=click.Path())
@assessor_option
@source_options("assignments")
@json_option
@pass_env
def import_assignments(env: Env, path: str, assessor: str, source: str, model: str | None, as_json: bool) -> None:
    """Import nuggetizer's assignment file: each answer's nuggets labelled support, partial_support or not_support.

    The answer runs must be imported and each nugget must be one of its topic's (the same text); the
    labels are grades 2, 1, 0 of the run's assignments. A model's (--source model) never count as people's.
    """
    from labeler.workbench.nugget_files import import_assignments as run

    result = _imported(env, run, path, assessor, source, model, as_json)
    if result is None:
        return
    who = f"model {model}" if model else f"assessor {result.assessor}"
    info(
        f"{path}: {plural(result.assignments, 'assignment')} of {plural(result.answers, 'answer')} recorded"
        f" ({', '.join(result.runs) or 'no run'}), {result.unchanged} unchanged; {who}."
    )

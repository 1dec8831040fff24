"""`labeler runs ...`."""

from __future__ import annotations

import click

from labeler import workbench
from labeler.cli.context import Env, json_option, pass_env
from labeler.cli.output import emit_json, info, progress_bar, table
from labeler.models import STAGES


@click.group()
def runs() -> None:
    """Ranked runs of retrievers."""


@runs.command("import")
@click.argument("path", type=click.Path())
@click.option("--name", required=True, help="The run's name in the workbench.")
@click.option("--unit", default="doc", show_default=True, metavar="doc|chunk:NAME",
              help="What the run ranks: documents, or chunks of a named chunking.")
@click.option("--stage", type=click.Choice(STAGES), default="candidate", show_default=True,
              help="Pipeline stage the ranking comes from.")
@click.option("--dedupe", type=click.Choice(["error", "first"]), default="error", show_default=True,
              help="A repeated id in one topic's ranking: refuse the file, or keep the first occurrence.")
@click.option("--replace", is_flag=True, help="Replace an existing run of this name.")
@click.option("--allow-unknown", is_flag=True, help="Accept topics and ids the workbench does not know.")
@json_option
@pass_env
def import_(env: Env, path: str, name: str, unit: str, stage: str, dedupe: str, replace: bool,
            allow_unknown: bool, as_json: bool) -> None:
    """Import a TREC run (6 columns, .gz ok) or JSONL run; validated, all or nothing."""
    with env.store() as store, progress_bar(f"importing {name}") as progress:
        result = workbench.import_run(store, path, name, unit=unit, stage=stage, dedupe=dedupe, replace=replace,
                                      allow_unknown=allow_unknown, progress=progress)
    if as_json:
        emit_json(result)
        return
    info(f"Run {result['name']!r} ({result['unit']}, {result['stage']}): {result['entries']} results for "
         f"{result['topics']} topics, depth up to {result['depth']}"
         f"{' (replaced)' if result['replaced'] else ''}.")
    if result["policies"].get("duplicates_dropped"):
        info(f"{result['policies']['duplicates_dropped']} duplicate id(s) dropped (kept the first occurrence).")


@runs.command("list")
@json_option
@pass_env
def list_(env: Env, as_json: bool) -> None:
    """List runs with unit, stage, topics, depth and policies."""
    with env.store() as store:
        result = workbench.list_runs(store)
    if as_json:
        emit_json(result)
        return
    table(None, ["run", "unit", "stage", "topics", "results", "depth", "policies"],
          [[r["name"], r["unit"], r["stage"], r["topics"], r["entries"], r["depth"],
            ", ".join(f"{k}={v}" for k, v in sorted(r["policies"].items()) if k != "order")] for r in result])


COMMANDS = [runs]

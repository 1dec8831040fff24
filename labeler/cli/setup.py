"""`labeler init` and `labeler status`."""

from __future__ import annotations

import click

from labeler import workbench
from labeler.cli.context import Env, json_option, pass_env
from labeler.cli.output import emit_json, info, table


@click.command()
@click.option("--scale", default=None, metavar="NAME|PATH",
              help="Grade scale: default (0-3, threshold 1), binary, trec-dl-passage, or a scale file (JSON or TSV).")
@json_option
@pass_env
def init(env: Env, scale: str | None, as_json: bool) -> None:
    """Create the workbench (or upgrade an existing one) and set its grade scale."""
    result = workbench.init_workbench(env.db_path, scale)
    if as_json:
        emit_json(result)
        return
    verb = "Created" if result["created"] else "Opened"
    scale_info = result["scale"]
    grades = ", ".join(f"{g['grade']}={g['label']}" for g in scale_info["grades"])
    info(f"{verb} workbench {result['path']} (schema {result['schema_version']}).")
    info(f"Scale {scale_info['name']}: {grades}; relevant from grade {scale_info['threshold']}.")


@click.command()
@json_option
@pass_env
def status(env: Env, as_json: bool) -> None:
    """What the workbench holds: corpus, chunkings, topics and runs."""
    with env.store() as store:
        result = workbench.status(store)
    if as_json:
        emit_json(result)
        return
    table(None, ["workbench", "scale", "documents", "topics", "runs", "chunkings"],
          [[result["path"], result["scale"], result["documents"], result["topics"], len(result["runs"]),
            len(result["chunkings"])]])
    if result["chunkings"]:
        table("chunkings", ["name", "kind", "documents", "chunks"],
              [[c["name"], c["kind"], c["documents"], c["chunks"]] for c in result["chunkings"]])
    if result["runs"]:
        table("runs", ["name", "unit", "stage", "topics", "entries"],
              [[r["name"], r["unit"], r["stage"], r["topics"], r["entries"]] for r in result["runs"]])


COMMANDS = [init, status]

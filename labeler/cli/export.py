"""`labeler export ...`: one verb for every export (qrels from a snapshot, a run, the judgment log).

The old spellings `runs export` and `judgments export-log` are these commands, registered in their
old groups with a deprecation notice (`labeler.cli.runs`, `labeler.cli.judgments`).
"""

from __future__ import annotations

import sys

import click

from labeler.cli.common.context import (
    Env,
    export_json_option,
    force_option,
    output_option,
    pass_env,
)
from labeler.cli.common.printing import (
    emit_export,
    info,
    refuse_json_without_output,
    text_export,
)
from labeler.wording import agrees, plural
from labeler.workbench.runs import export_run
from labeler.workbench.snapshots import export_qrels


@click.group()
def export() -> None:
    """Export labels, runs and the judgment log for other tools."""


@export.command("qrels")
@click.option("--snapshot", "snapshot_name", default=None, help="Snapshot to export (default: the latest).")
@click.option(
    "--unit", default=None, metavar="doc", help="Lift chunk labels to documents (max grade over judged chunks)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["trec", "jsonl"]),
    default="trec",
    show_default=True,
    help="TREC qrels, or JSONL with provenance (assessor, source, time).",
)
@output_option
@force_option
@export_json_option
@pass_env
def qrels(
    env: Env, snapshot_name: str | None, unit: str | None, fmt: str, output: str | None, force: bool, as_json: bool
) -> None:
    """Write a snapshot's labels, sorted and byte-identical on every export."""
    from labeler.output_files import check_output, write_output

    refuse_json_without_output(as_json, output)
    if output:
        check_output(output, workbench=env.db_path, force=force)  # before any work: a bad path changes nothing
    with env.store() as store:
        result = export_qrels(store, snapshot=snapshot_name, unit=unit, fmt=fmt)
    if output:
        write_output(output, result.text, workbench=env.db_path, force=force)
        if as_json:
            emit_export("qrels", result.snapshot, fmt, output)
        else:
            info(f"Wrote {plural(result.labels, 'label')} of snapshot {result.snapshot} to {output}.")
    else:
        click.echo(result.text, nl=False)
    partial = result.partial_documents
    if partial:
        info(
            f"{plural(len(partial), 'document')} {agrees(len(partial), 'has', 'have')} unjudged chunks: "
            f"{agrees(len(partial), 'its', 'their')} grade is a lower bound "
            f"(e.g. {', '.join(f'{t}/{d}' for t, d in partial[:5])})."
        )


@export.command("run")
@click.argument("name")
@output_option
@force_option
@click.option(
    "--format",
    "format_",
    type=click.Choice(["trec", "parquet"]),
    default="trec",
    show_default=True,
    help="trec: 6 columns, re-imports to the same rankings; parquet: one file for DuckDB "
    "(`eval --runs-parquet`, needs relevance-labeler[parquet] and -o).",
)
@export_json_option
@pass_env
def run(env: Env, name: str, output: str | None, force: bool, format_: str, as_json: bool) -> None:
    """Write a run as a 6-column TREC file that re-imports to the same rankings (or as Parquet)."""
    refuse_json_without_output(as_json, output)
    if format_ == "parquet":
        _export_parquet(env, name, output, force, as_json)
        return
    text_export(
        env,
        lambda store: export_run(store, name),
        exported="run",
        name=name,
        fmt=format_,
        output=output,
        force=force,
        as_json=as_json,
    )


def _export_parquet(env: Env, name: str, output: str | None, force: bool, as_json: bool) -> None:
    from labeler.workbench.parquet_runs import export_run_parquet

    if not output:
        raise click.UsageError("--format parquet writes a file: give it with -o DIR/NAME.parquet")
    with env.store() as store:
        written = export_run_parquet(store, name, output, force=force)
    if as_json:
        emit_export("run", name, "parquet", output, text=False)
        return
    info(f"Wrote run {name!r} to {output} as Parquet ({plural(written.bytes, 'byte')}).")


@export.command("nuggets")
@click.option(
    "--assignments",
    is_flag=True,
    help="nuggetizer's assignment file (one line per answer, people's labels) instead of its nugget file.",
)
@click.option(
    "--runs",
    default=None,
    metavar="R1,R2",
    help="With --assignments: these answer runs, in this order (default: every one not retired).",
)
@output_option
@force_option
@export_json_option
@pass_env
def nuggets(env: Env, assignments: bool, runs: str | None, output: str | None, force: bool, as_json: bool) -> None:
    """Write the topics' nuggets (or the answers' assignments) in nuggetizer's JSONL, which its tools read."""
    from labeler.errors import BadArgumentError
    from labeler.ids import parse_names
    from labeler.output_files import check_output, write_output
    from labeler.workbench.nugget_files import export_assignments, export_nuggets

    refuse_json_without_output(as_json, output)
    if runs is not None and not assignments:
        raise BadArgumentError("chooses the answer runs of an assignment file: give --assignments too", argument="runs")
    names = parse_names(runs, "answer run", "runs") if runs is not None else None
    if output:
        check_output(output, workbench=env.db_path, force=force)  # before any work: a bad path changes nothing
    with env.store() as store:
        result = export_assignments(store, names) if assignments else export_nuggets(store)
    if output:
        write_output(output, result.text, workbench=env.db_path, force=force)
        if as_json:
            emit_export("nuggets", result.kind, "nuggetizer", output)
        else:
            info(f"Wrote {plural(result.lines, 'line')} ({plural(result.nuggets, 'nugget')}) to {output}.")
    else:
        click.echo(result.text, nl=False)
    for reason in result.left_out[:5]:
        info(f"Left out: {reason} (nuggetizer's file needs every nugget of an answer assigned).")
    if len(result.left_out) > 5:
        info(f"... and {plural(len(result.left_out) - 5, 'more answer')} left out.")


@export.command("log")
@output_option
@force_option
@export_json_option
@pass_env
def log(env: Env, output: str | None, force: bool, as_json: bool) -> None:
    """The whole judgment log as JSON lines (for 'labeler merge LOG.jsonl' on another workbench)."""
    from labeler.output_files import check_output, open_output
    from labeler.workbench.team import export_log as lines

    refuse_json_without_output(as_json, output)
    if output:
        check_output(output, workbench=env.db_path, force=force)  # before the workbench is opened
    with env.store() as store:
        if output:
            with open_output(output, workbench=env.db_path, force=force) as handle:
                count = sum(1 for line in lines(store) if handle.write(line))
            if as_json:
                emit_export("log", None, "jsonl", output)
            else:
                info(f"Wrote {plural(count, 'event')} to {output}.")
        else:
            for line in lines(store):
                sys.stdout.write(line)

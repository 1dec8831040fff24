"""`labeler runs ...`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from labeler import workbench
from labeler.cli.context import (
    Env,
    checked_id,
    comma_list,
    export_json_option,
    force_option,
    json_option,
    output_option,
    pass_env,
)
from labeler.cli.deprecation import deprecated_command
from labeler.cli.output import emit_export, emit_json, info, listing, progress_bar, refuse_json_without_output
from labeler.cli.program_options import program_options
from labeler.cli.ranges import DEPTH, Real
from labeler.cli.reading import reading_options
from labeler.cli.registry_options import retriever_option
from labeler.formats.runs import DEDUPE_POLICIES
from labeler.models import STAGES
from labeler.wording import plural
from labeler.workbench.retrieve import RetrieveRequest, retrieve_run

# The new run's name, for both ways of making one (import, retrieve).
name_option = click.option(
    "--name",
    required=True,
    callback=checked_id("run name"),
    help="The run's name in the workbench (an id: no spaces or control characters).",
)


def unit_option(help: str) -> Callable[[Any], Any]:
    """`--unit`, documents unless a chunking is named; `help` says it in the command's words."""
    return click.option("--unit", default="doc", show_default=True, metavar="doc|chunk:NAME", help=help)


def stage_option(help: str) -> Callable[[Any], Any]:
    """`--stage`, the pipeline stage a new run stands for (candidate unless given)."""
    return click.option("--stage", type=click.Choice(STAGES), default="candidate", show_default=True, help=help)


@click.group()
def runs() -> None:
    """Ranked runs of retrievers."""


@runs.command("import")
@reading_options
@click.argument("path", type=click.Path())
@name_option
@unit_option("What the run ranks: documents, or chunks of a named chunking.")
@stage_option("Pipeline stage the ranking comes from.")
@click.option(
    "--dedupe",
    type=click.Choice(DEDUPE_POLICIES),
    default="error",
    show_default=True,
    help="A repeated id in one topic's ranking: refuse the file, or keep the first occurrence.",
)
@click.option("--replace", is_flag=True, help="Replace an existing run of this name.")
@click.option("--allow-unknown", is_flag=True, help="Accept topics and ids the workbench does not know.")
@json_option
@pass_env
def import_(
    env: Env,
    path: str,
    name: str,
    unit: str,
    stage: str,
    dedupe: str,
    replace: bool,
    allow_unknown: bool,
    as_json: bool,
) -> None:
    """Import a TREC run (6 columns, .gz ok) or JSONL run; validated, all or nothing."""
    with env.store() as store, progress_bar(f"importing {name}") as progress:
        result = workbench.import_run(
            store,
            path,
            name,
            unit=unit,
            stage=stage,
            dedupe=dedupe,
            replace=replace,
            allow_unknown=allow_unknown,
            progress=progress,
        )
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"Run {result.name!r} ({result.unit}, {result.stage}): {plural(result.entries, 'result')} for "
        f"{plural(result.topics, 'topic')}, depth up to {result.depth}"
        f"{' (replaced)' if result.replaced else ''}."
    )
    if result.duplicates_dropped:
        info(f"{plural(result.duplicates_dropped, 'duplicate id')} dropped (kept the first occurrence).")


@runs.command("retrieve")
@program_options
@retriever_option()
@name_option
@unit_option("Rank documents, or the chunks of a named chunking.")
@click.option("--depth", type=DEPTH, default=100, show_default=True, help="Results kept per topic.")
@click.option("--topics", "topic_ids", metavar="ID,ID,...", help="Only these topics (default: all).")
@stage_option("Pipeline stage the ranking stands for.")
@click.option(
    "--query",
    "query_fields",
    type=click.Choice(["title", "title+description"]),
    default="title",
    show_default=True,
    help="The topic text used as the query.",
)
@click.option(
    "--mu", type=Real(0, 1e9, low_open=True), help="ql's Dirichlet smoothing mass (default 2000); same as --param mu=X."
)
@click.option(
    "--param",
    "param_items",
    multiple=True,
    metavar="KEY=VALUE",
    help="A retriever parameter (repeatable), e.g. k1=1.2 for bm25s.",
)
@click.option("--replace", is_flag=True, help="Replace an existing run of this name.")
@json_option
@pass_env
def retrieve(
    env: Env,
    retriever: str,
    name: str,
    unit: str,
    depth: int,
    topic_ids: str | None,
    stage: str,
    query_fields: str,
    mu: float | None,
    param_items: tuple[str, ...],
    replace: bool,
    as_json: bool,
) -> None:
    """Make a run with a retriever over the workbench's own corpus and topics; stored like an imported run."""
    params = dict(_param(item) for item in param_items)
    if mu is not None:
        params["mu"] = mu
    topics = comma_list(topic_ids, "topics", "topic id")
    with env.store() as store, progress_bar(f"retrieving {name}") as progress:
        result = retrieve_run(
            store,
            RetrieveRequest(
                retriever=retriever,
                name=name,
                unit=unit,
                depth=depth,
                topics=topics,
                stage=stage,
                query=query_fields,
                params=params,
                replace=replace,
            ),
            progress=progress,
        )
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"Run {result.name!r} ({result.unit}, {result.stage}) by {result.retriever}: "
        f"{plural(result.entries, 'result')} for {plural(result.topics, 'topic')}, depth up to {result.depth}"
        f"{' (replaced)' if result.replaced else ''}."
    )
    if result.topics_without_results:
        info(
            f"No results for {'topic' if len(result.topics_without_results) == 1 else 'topics'} "
            f"{', '.join(result.topics_without_results)}."
        )


def _param(item: str) -> tuple[str, object]:
    """`KEY=VALUE`, the value read as an integer or a number when it is one."""
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise click.BadParameter(f"expected KEY=VALUE, not {item!r}", param_hint="--param")
    for kind in (int, float):
        try:
            return key.strip(), kind(value)
        except ValueError:
            pass
    return key.strip(), value


DIGEST_SHOWN = 12  # hex digits of a run's rankings_sha256 in the table: enough to tell runs apart by eye


@runs.command("list")
@json_option
@pass_env
def list_(env: Env, as_json: bool) -> None:
    """List runs with unit, stage, topics, depth, policies and the digest of their rankings."""
    with env.store() as store:
        result = workbench.list_runs(store)
    listing(
        result,
        as_json,
        ["run", "unit", "stage", "topics", "results", "depth", "policies", "digest", "retired"],
        lambda r: [
            r.name,
            r.unit,
            r.stage,
            r.topics,
            r.entries,
            r.depth,
            ", ".join(f"{k}={v}" for k, v in sorted(r.policies.items()) if k != "order"),
            (r.rankings_sha256 or "-")[:DIGEST_SHOWN],
            r.retired.time[:19] if r.retired else "",
        ],
        to_json=lambda r: r.to_json(),
    )


@runs.command("retire")
@click.argument("name")
@click.option("--reason", default="", help="Why the run leaves the defaults (recorded with it).")
@json_option
@pass_env
def retire(env: Env, name: str, reason: str, as_json: bool) -> None:
    """Leave a run out of the default runs of pool build, eval, coverage and compare (kept; usable by name)."""
    with env.store() as store:
        result = workbench.retire_run(store, name, reason=reason)
    if as_json:
        emit_json(result.to_json())
        return
    if result.already_retired:
        info(f"Run {name!r} was retired already ({result.retired[:19]}).")
    else:
        info(f"Run {name!r} retired: pool build, eval, coverage and compare leave it out unless named with --runs.")


@click.command("run")
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
def export(env: Env, name: str, output: str | None, force: bool, format_: str, as_json: bool) -> None:
    """Write a run as a 6-column TREC file that re-imports to the same rankings (or as Parquet)."""
    from labeler.output_files import check_output, write_output

    refuse_json_without_output(as_json, output)
    if format_ == "parquet":
        _export_parquet(env, name, output, force, as_json)
        return
    if output:
        check_output(output, workbench=env.db_path, force=force)  # before any work: a bad path changes nothing
    with env.store() as store:
        lines = workbench.export_run(store, name)
        if output:
            written = write_output(output, lines, workbench=env.db_path, force=force)
            if as_json:
                emit_export("run", name, format_, output)
            else:
                info(f"Wrote run {name!r} to {output} ({plural(written.bytes, 'byte')}).")
            return
        for line in lines:
            click.echo(line, nl=False)


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


runs.add_command(deprecated_command(export, old="runs export", new="export run"))

COMMANDS = [runs]

"""`labeler runs ...`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from labeler.cli.common.context import (
    Env,
    checked_id,
    checked_ids,
    comma_list,
    json_option,
    pass_env,
)
from labeler.cli.common.deprecation import deprecated_command
from labeler.cli.common.printing import emit_json, info, listing, progress_bar
from labeler.cli.common.program_options import program_options
from labeler.cli.common.ranges import DEPTH, Real
from labeler.cli.common.reading import reading_options
from labeler.cli.common.registry_options import retriever_option
from labeler.cli.export import run as export_run
from labeler.errors import BadArgumentError
from labeler.formats.runs import DEDUPE_POLICIES
from labeler.ids import check_id
from labeler.models import STAGES
from labeler.wording import plural
from labeler.workbench.retrieve import RetrieveRequest, retrieve_run
from labeler.workbench.runs import RunImport, RunImportOptions, import_runs, list_runs, retire_run, run_name_of

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
@click.argument("paths", metavar="PATH...", nargs=-1, required=True, type=click.Path())
@click.option(
    "--name",
    "names",
    multiple=True,
    callback=checked_ids("run name"),
    help="The run's name in the workbench (an id); once per PATH, in order. Default: each file's name without "
    ".gz and a .run/.trec/.txt/.tsv/.res/.jsonl/.json ending.",
)
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
    paths: tuple[str, ...],
    names: tuple[str, ...],
    unit: str,
    stage: str,
    dedupe: str,
    replace: bool,
    allow_unknown: bool,
    as_json: bool,
) -> None:
    """Import TREC runs (6 columns, .gz ok) or JSONL runs; validated, all or nothing (every file or none)."""
    files = list(zip(paths, _run_names(paths, names), strict=True))
    label = f"importing {files[0][1]}" if len(files) == 1 else f"importing {plural(len(files), 'run')}"
    with env.store() as store, progress_bar(label) as progress:
        options = RunImportOptions(unit=unit, stage=stage, dedupe=dedupe, replace=replace, allow_unknown=allow_unknown)
        result = import_runs(store, files, options, progress)
    if as_json:
        emit_json(result.runs[0].to_json() if len(paths) == 1 else result.to_json())
        return
    for run in result.runs:
        _print_import(run)


def _run_names(paths: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
    """`--name` once per path, or each path's own name (`run_name_of`) when none is given."""
    if not names:
        return [check_id(run_name_of(path), "run name taken from the file name", path=path) for path in paths]
    if len(names) != len(paths):
        raise BadArgumentError(
            f"{plural(len(names), 'name')} for {plural(len(paths), 'file')}: give one per file, in order, "
            "or none to name each run after its file",
            argument="name",
        )
    return list(names)


def _print_import(result: RunImport) -> None:
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
        result = list_runs(store)
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
        result = retire_run(store, name, reason=reason)
    if as_json:
        emit_json(result.to_json())
        return
    if result.already_retired:
        info(f"Run {name!r} was retired already ({result.retired[:19]}).")
    else:
        info(f"Run {name!r} retired: pool build, eval, coverage and compare leave it out unless named with --runs.")


runs.add_command(deprecated_command(export_run, old="runs export", new="export run"))

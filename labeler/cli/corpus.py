"""`labeler corpus ...`: documents and chunkings."""

from __future__ import annotations

import json

import click

from labeler.chunking import WINDOW_KINDS
from labeler.cli.common.context import Env, checked_id, json_option, pass_env
from labeler.cli.common.deprecation import deprecated_option
from labeler.cli.common.printing import emit_json, info, listing, print_result, progress_bar
from labeler.cli.common.ranges import MAX_WINDOW, Whole
from labeler.cli.common.reading import reading_options
from labeler.inert import inert_json, visible_line
from labeler.wording import plural
from labeler.workbench.corpus import (
    ChunkingInfo,
    CorpusImport,
    check_chunking_name,
    chunk_corpus,
    chunk_rows,
    derive_chunking,
    import_corpus,
    import_mapping,
    list_chunkings,
)

chunking_name = checked_id("chunking name", check_chunking_name)


@click.group()
def corpus() -> None:
    """Documents and chunkings (unit mappings)."""


@corpus.command("import")
@reading_options
@click.argument("path", type=click.Path())
@click.option("--update", is_flag=True, help="Replace documents whose content changed (the change is recorded).")
@json_option
@pass_env
def import_(env: Env, path: str, update: bool, as_json: bool) -> None:
    """Import documents from JSONL (id/_id, title, text), a BEIR folder, or TSV (id, [title,] text)."""
    with env.store() as store, progress_bar("importing documents") as progress:
        result = import_corpus(store, path, update=update, progress=progress)
    print_result(result, as_json, _say_corpus_import)


def _say_corpus_import(result: CorpusImport) -> None:
    info(
        f"{result.path} ({result.format}): {result.added} added, {result.unchanged} unchanged, "
        f"{result.updated} updated; {plural(result.documents, 'document')} in the workbench."
    )
    for name in result.stale_chunkings:
        info(f"Chunking {name!r} was cut from text that has since changed: make a new chunking.")


@corpus.command()
@click.option(
    "--name", required=True, callback=chunking_name, help="Name of the new chunking (never reused; an id without ':')."
)
@click.option(
    "--size", required=True, type=Whole(1, MAX_WINDOW), help="Window size, in words (or sentences with --by sentences)."
)
@click.option(
    "--chunk-overlap",
    "overlap",
    default=0,
    show_default=True,
    type=Whole(0, MAX_WINDOW),
    help="Words (or sentences) shared by neighbouring windows.",
)
@deprecated_option("--overlap", "--chunk-overlap", command="corpus chunk", param="overlap", type=Whole(0, MAX_WINDOW))
@click.option("--by", type=click.Choice(WINDOW_KINDS), default="words", show_default=True, help="Window unit.")
@json_option
@pass_env
def chunk(env: Env, name: str, size: int, overlap: int, by: str, as_json: bool) -> None:
    """Make a new, immutable chunking of every document (chunk ids DOCID#0, DOCID#1, ...)."""
    with env.store() as store, progress_bar("chunking") as progress:
        result = chunk_corpus(store, name, size=size, overlap=overlap, by=by, progress=progress)
    _print_chunking(result, as_json)


@corpus.command()
@json_option
@pass_env
def chunkings(env: Env, as_json: bool) -> None:
    """List chunkings with their parameters and hash."""
    with env.store() as store:
        result = list_chunkings(store)
    listing(
        result,
        as_json,
        ["name", "kind", "parameters", "documents", "chunks", "hash", "created"],
        lambda c: [c.name, c.kind, _params(c), c.documents, c.chunks, c.hash[:12], c.created[:19]],
        to_json=ChunkingInfo.to_json,
    )


@corpus.command("chunks")
@click.option(
    "--chunking", metavar="NAME", callback=chunking_name, help="The chunking whose chunks to list (required)."
)
@deprecated_option(
    "--name", "--chunking", command="corpus chunks", required=True, metavar="NAME", callback=chunking_name
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="JSON lines, one {chunk_id, doc_id, start, end, text} object a line (streamed).",
)
@pass_env
def chunks(env: Env, chunking: str, as_json: bool) -> None:
    """List a chunking's chunks (id, document, offsets, text) for an outside chunk retriever."""
    with env.store() as store:
        for row in chunk_rows(store, chunking):
            if as_json:
                # vars(row) is row.to_json() for this plain row (tested), at a hundredth of the cost a row
                click.echo(inert_json(json.dumps(vars(row), ensure_ascii=False)))
            else:
                values = (row.chunk_id, row.doc_id, row.start, row.end, row.text)
                click.echo("\t".join(visible_line("-" if v is None else str(v)) for v in values))


@corpus.group()
def mapping() -> None:
    """Chunkings made outside labeler: from a mapping file, or derived from chunk ids."""


@mapping.command("import")
@reading_options
@click.argument("path", type=click.Path())
@click.option("--name", required=True, callback=chunking_name, help="Name of the new chunking (an id without ':').")
@click.option("--allow-unknown", is_flag=True, help="Accept parent documents the corpus does not hold.")
@json_option
@pass_env
def mapping_import(env: Env, path: str, name: str, allow_unknown: bool, as_json: bool) -> None:
    """A chunking from a file of chunk_id, doc_id[, start, end] (TSV/whitespace or JSONL)."""
    with env.store() as store:
        result = import_mapping(store, path, name, allow_unknown=allow_unknown)
    _print_chunking(result, as_json)


@mapping.command("derive")
@reading_options
@click.argument("path", type=click.Path())
@click.option("--name", required=True, callback=chunking_name, help="Name of the new chunking (an id without ':').")
@click.option("--separator", default="#", show_default=True, help="The parent is the part of an id before it.")
@click.option("--allow-unknown", is_flag=True, help="Accept parent documents the corpus does not hold.")
@json_option
@pass_env
def mapping_derive(env: Env, path: str, name: str, separator: str, allow_unknown: bool, as_json: bool) -> None:
    """A chunking from chunk ids that name their parent (MS MARCO v2.1 segments), read from a run, qrels or id list."""
    with env.store() as store:
        result = derive_chunking(store, path, name, separator=separator, allow_unknown=allow_unknown)
    _print_chunking(result, as_json)


def _print_chunking(result: ChunkingInfo, as_json: bool) -> None:
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"Chunking {result.name!r} ({result.kind}, {_params(result)}): {plural(result.chunks, 'chunk')} "
        f"of {plural(result.documents, 'document')}; hash {result.hash[:12]}."
    )


def _params(chunking: ChunkingInfo) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(chunking.params.items()))

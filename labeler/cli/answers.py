"""`labeler answers ...`: generated RAG answers, imported as answer runs."""

from __future__ import annotations

import click

from labeler.cli.common.context import (
    Env,
    checked_id,
    export_json_option,
    force_option,
    json_option,
    output_option,
    pass_env,
)
from labeler.cli.common.printing import emit_json, info, listing, text_export
from labeler.cli.common.reading import reading_options
from labeler.inert import visible
from labeler.wording import plural

DIGEST_SHOWN = 12  # hex digits of a file's sha256 in the table


@click.group()
def answers() -> None:
    """Generated RAG answers (TREC RAG 2024 and 2025 JSONL), imported as answer runs."""


@answers.command("import")
@reading_options
@click.argument("path", metavar="FILE", type=click.Path())
@click.option(
    "--name",
    required=True,
    callback=checked_id("answer run name"),
    help="The answer run's name in the workbench (an id: no spaces or control characters).",
)
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="What the citations cite: documents, or chunks of a named chunking (default: found from the cited ids).",
)
@click.option("--allow-unknown", is_flag=True, help="Accept topics and cited ids the workbench does not know.")
@json_option
@pass_env
def import_(env: Env, path: str, name: str, unit: str | None, allow_unknown: bool, as_json: bool) -> None:
    """Import an answer file (TREC RAG 2024 or 2025 JSONL, .gz ok); validated, all or nothing."""
    from labeler.workbench.answers import import_answers

    with env.store() as store:
        result = import_answers(store, path, name, unit=unit, allow_unknown=allow_unknown)
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"Answer run {result.name!r} ({result.format}, cites {result.unit}): {plural(result.answers, 'answer')}, "
        f"{plural(result.sentences, 'sentence')} ({result.cited_sentences} cited), "
        f"{plural(result.citations, 'citation')}."
    )
    if result.unknown_units:
        info(f"{plural(result.unknown_units, 'cited id')} not in the workbench, accepted as asked.")


@answers.command("list")
@click.option("--all", "include_retired", is_flag=True, help="Retired answer runs too.")
@json_option
@pass_env
def list_(env: Env, include_retired: bool, as_json: bool) -> None:
    """List answer runs: format, unit, answers, topics, file digest and retirement."""
    from labeler.workbench.answers import list_answer_runs

    with env.store() as store:
        result = list_answer_runs(store, include_retired=include_retired)
    listing(
        result,
        as_json,
        ["answer run", "format", "unit", "answers", "topics", "digest", "imported", "retired"],
        lambda r: [
            r.name,
            r.format,
            r.unit,
            r.answers,
            r.topics,
            r.sha256[:DIGEST_SHOWN],
            r.imported[:19],
            (r.retired or "")[:19],
        ],
        to_json=lambda r: r.to_json(),
    )


@answers.command("show")
@click.argument("run")
@click.argument("topic")
@json_option
@pass_env
def show(env: Env, run: str, topic: str, as_json: bool) -> None:
    """Show one answer: its sentences numbered, their citations, and the cited units' texts."""
    from labeler.workbench.answers import show_answer

    with env.store() as store:
        result = show_answer(store, run, topic)
    if as_json:
        emit_json(result.to_json())
        return
    heading = f"Answer of {result.run} to topic {result.topic_id}"
    click.echo(visible(f"{heading}: {result.topic_text}" if result.topic_text else heading))
    for sentence in result.sentences:
        cites = f" [{', '.join(sentence.citations)}]" if sentence.citations else ""
        click.echo(visible(f"{sentence.number}. {sentence.text}{cites}"))
    for unit in result.cited:
        click.echo("")
        if not unit.known:
            click.echo(visible(f"[{unit.unit_id}] (not in the workbench)"))
            continue
        click.echo(visible(f"[{unit.unit_id}] {unit.title}"))
        click.echo(visible(unit.text))


@answers.command("export")
@click.argument("run")
@output_option
@force_option
@export_json_option
@pass_env
def export(env: Env, run: str, output: str | None, force: bool, as_json: bool) -> None:
    """Write an answer run as the JSONL it was imported from: every field of every line, in the file's order."""
    from labeler.workbench.answers import export_answers

    text_export(
        env,
        lambda store: export_answers(store, run),
        exported="answers",
        name=run,
        fmt="jsonl",
        output=output,
        force=force,
        as_json=as_json,
        what="answer run",
    )


@answers.command("retire")
@click.argument("run")
@click.option("--reason", required=True, help="Why the answer run leaves the defaults (recorded with it).")
@json_option
@pass_env
def retire(env: Env, run: str, reason: str, as_json: bool) -> None:
    """Leave an answer run out of the default answer runs (kept whole; usable by name)."""
    from labeler.workbench.answers import retire_answer_run

    with env.store() as store:
        result = retire_answer_run(store, run, reason=reason)
    if as_json:
        emit_json(result.to_json())
        return
    if result.already_retired:
        info(f"Answer run {run!r} was retired already ({result.retired[:19]}).")
    else:
        info(f"Answer run {run!r} retired: listings and scores leave it out unless it is named.")

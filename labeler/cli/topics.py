"""`labeler topics ...`."""

from __future__ import annotations

import click

from labeler import workbench
from labeler.cli.context import Env, json_option, pass_env
from labeler.cli.output import info, listing, print_result
from labeler.cli.reading import reading_options
from labeler.wording import plural
from labeler.workbench.topics import TopicListed, TopicsImport


@click.group()
def topics() -> None:
    """Topics: queries with title, description and narrative."""


@topics.command("import")
@reading_options
@click.argument("path", type=click.Path())
@click.option("--update", is_flag=True, help="Replace topics whose text changed.")
@json_option
@pass_env
def import_(env: Env, path: str, update: bool, as_json: bool) -> None:
    """Import topics from JSONL, a BEIR folder (queries.jsonl), a TREC topic file, or TSV."""
    with env.store() as store:
        result = workbench.import_topics(store, path, update=update)
    print_result(result, as_json, _say_import)


def _say_import(result: TopicsImport) -> None:
    info(
        f"{result.path}: {result.added} added, {result.unchanged} unchanged, {result.updated} updated; "
        f"{plural(result.topics, 'topic')} in the workbench."
    )


@topics.command("list")
@json_option
@pass_env
def list_(env: Env, as_json: bool) -> None:
    """List topics."""
    with env.store() as store:
        result = workbench.list_topics(store)
    listing(
        result,
        as_json,
        ["topic", "title", "description"],
        lambda t: [t.topic_id, t.title, (t.description[:60] + "...") if len(t.description) > 60 else t.description],
        to_json=TopicListed.to_json,
    )


COMMANDS = [topics]

"""`labeler topics ...`: import and list topics, and mark one's review status (`topics mark`)."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, assessor_option, checked_id, json_option, pass_env
from labeler.cli.common.printing import emit_json, info, listing, print_result
from labeler.cli.common.reading import reading_options
from labeler.validation import REVIEW_MARKS
from labeler.wording import plural
from labeler.workbench.record_judgments import mark_topic
from labeler.workbench.topics import TopicListed, TopicsImport, import_topics, list_topics


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
        result = import_topics(store, path, update=update)
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
        result = list_topics(store)
    listing(
        result,
        as_json,
        ["topic", "title", "description"],
        lambda t: [t.topic_id, t.title, (t.description[:60] + "...") if len(t.description) > 60 else t.description],
        to_json=TopicListed.to_json,
    )


@topics.command()
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("status", type=click.Choice(REVIEW_MARKS))
@assessor_option
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="Unit space the mark is for (default: the one the workbench holds, else doc).",
)
@json_option
@pass_env
def mark(env: Env, topic: str, status: str, assessor: str, unit: str | None, as_json: bool) -> None:
    """Set a topic's review status in one unit space: reviewed, no_answer (the corpus holds no answer) or unreviewed."""
    with env.store() as store:
        result = mark_topic(store, topic, status, assessor=assessor, unit=unit)
    if as_json:
        emit_json(result.to_json())
        return
    info(f"Topic {topic} marked {status} ({result.unit}).")

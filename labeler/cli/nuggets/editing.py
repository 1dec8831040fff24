"""`labeler nuggets add | edit | merge | delete | move`: a person's changes to a topic's nuggets, logged as versions.

The same use cases the nugget writing screen's keys run (`labeler.workbench.nugget_edits`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.answers.nuggets import IMPORTANCE
from labeler.cli.common.context import Env, assessor_option, checked_id, checked_ids, json_option, pass_env
from labeler.cli.common.printing import emit_json, info
from labeler.cli.common.ranges import Whole

if TYPE_CHECKING:
    from labeler.workbench.nugget_edits import NuggetEdit

RANK = Whole(1, 1_000_000)


def _say(result: NuggetEdit, as_json: bool, done: str) -> None:
    if as_json:
        emit_json(result.to_json())
        return
    if not result.changed:
        info(f"Nothing changed: topic {result.topic_id}'s nugget already reads so.")
        return
    for nugget in result.nuggets:
        info(f"{done} nugget {nugget.nugget_id} of topic {result.topic_id} ({nugget.importance}, rank {nugget.rank}).")


@click.command("add")
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("text")
@click.option("--importance", type=click.Choice(IMPORTANCE), required=True, help="vital or okay.")
@click.option(
    "--from",
    "sources",
    multiple=True,
    metavar="UNIT",
    callback=checked_ids("unit id"),
    help="A relevant unit the nugget was written from (repeat for several).",
)
@assessor_option
@json_option
@pass_env
def add(
    env: Env, topic: str, text: str, importance: str, sources: tuple[str, ...], assessor: str, as_json: bool
) -> None:
    """Write a nugget for TOPIC from scratch; it is ranked after the topic's other nuggets."""
    from labeler.workbench.nugget_edits import add_nugget

    with env.store() as store:
        result = add_nugget(store, topic, text, importance, assessor=assessor, sources=sources)
    _say(result, as_json, "Added")


@click.command("edit")
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("nugget", callback=checked_id("nugget id"))
@click.option("--text", default=None, help="The nugget's new text.")
@click.option("--importance", type=click.Choice(IMPORTANCE), default=None, help="vital or okay.")
@click.option("--rank", type=RANK, default=None, help="Its new rank among the topic's nuggets of its importance.")
@assessor_option
@json_option
@pass_env
def edit(
    env: Env,
    topic: str,
    nugget: str,
    text: str | None,
    importance: str | None,
    rank: int | None,
    assessor: str,
    as_json: bool,
) -> None:
    """Change a nugget's text, importance or rank; editing a model's draft makes a nugget of your own from it."""
    from labeler.workbench.nugget_edits import edit_nugget

    with env.store() as store:
        result = edit_nugget(store, topic, nugget, assessor=assessor, text=text, importance=importance, rank=rank)
    _say(result, as_json, "Made" if result.action == "create" else "Edited")


@click.command("merge")
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("keep", callback=checked_id("nugget id"))
@click.argument("others", metavar="OTHER...", nargs=-1, required=True, callback=checked_ids("nugget id"))
@assessor_option
@json_option
@pass_env
def merge(env: Env, topic: str, keep: str, others: tuple[str, ...], assessor: str, as_json: bool) -> None:
    """Merge the OTHER nuggets into KEEP: they leave the topic's list, and KEEP records what it took in."""
    from labeler.workbench.nugget_edits import merge_nuggets

    with env.store() as store:
        result = merge_nuggets(store, topic, keep, list(others), assessor=assessor)
    _say(result, as_json, "Merged into")


@click.command("delete")
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("nugget", callback=checked_id("nugget id"))
@assessor_option
@json_option
@pass_env
def delete(env: Env, topic: str, nugget: str, assessor: str, as_json: bool) -> None:
    """Remove a nugget from TOPIC's list (its versions stay in the log)."""
    from labeler.workbench.nugget_edits import delete_nugget

    with env.store() as store:
        result = delete_nugget(store, topic, nugget, assessor=assessor)
    _say(result, as_json, "Deleted")


@click.command("move")
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("nugget", callback=checked_id("nugget id"))
@click.option("--up", "step", flag_value=-1, default=None, help="One place up (toward rank 1).")
@click.option("--down", "step", flag_value=1, default=None, help="One place down.")
@assessor_option
@json_option
@pass_env
def move(env: Env, topic: str, nugget: str, step: int | None, assessor: str, as_json: bool) -> None:
    """Move a nugget one place up or down among TOPIC's nuggets of its importance (they swap ranks)."""
    from labeler.workbench.nugget_edits import move_nugget

    if step is None:
        raise click.UsageError("give --up or --down")
    with env.store() as store:
        result = move_nugget(store, topic, nugget, step, assessor=assessor)
    if as_json:
        emit_json(result.to_json())
        return
    if not result.changed:
        end = "top" if step < 0 else "bottom"
        info(
            f"Nothing changed: nugget {nugget} is at the {end} of topic {result.topic_id}'s nuggets of its importance."
        )
        return
    for shown in result.nuggets:
        info(f"Rank {shown.rank}: nugget {shown.nugget_id} of topic {result.topic_id} ({shown.importance}).")

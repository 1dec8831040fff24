"""`labeler nuggets list`: the topics' nuggets now, or one model's drafts."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, checked_id, json_option, pass_env
from labeler.cli.common.printing import emit_json, info, table


@click.command("list")
@click.option("--topic", default=None, callback=checked_id("topic id"), help="Only this topic's nuggets.")
@click.option(
    "--model", default=None, metavar="NAME", callback=checked_id("model name"), help="This model's drafts instead."
)
@json_option
@pass_env
def list_nuggets(env: Env, topic: str | None, model: str | None, as_json: bool) -> None:
    """List the nuggets: vital before okay, then by rank; who made each one's latest version, and how."""
    from labeler.workbench.nugget_files import list_nuggets as run

    with env.store() as store:
        result = run(store, topic=topic, model=model)
    if as_json:
        emit_json(result.to_json())
        return
    if not result.nuggets:
        info("No nuggets" + (f" of model {model}" if model else "") + (f" for topic {topic}." if topic else "."))
        return
    rows = [
        [n.topic_id, n.nugget_id, n.importance, n.rank, n.origin, n.model or n.assessor, n.versions, n.text]
        for n in result.nuggets
    ]
    columns = ["topic", "nugget", "importance", "rank", "origin", "by", "versions", "text"]
    table(None, columns, rows, drop=["versions", "by", "origin"], grow=["text"])

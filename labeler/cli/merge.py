"""`labeler merge`: union another workbench's judgment log (or an exported one) into this one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import Env, json_option, pass_env
from labeler.cli.common.printing import emit_json, info, table
from labeler.cli.common.reading import reading_options
from labeler.formats.judgment_log import DEFAULT_CLOCK_TOLERANCE
from labeler.wording import agrees, plural

if TYPE_CHECKING:
    from labeler.workbench.team import LabelChange


@click.command()
@reading_options
@click.argument("other", type=click.Path())
@click.option(
    "--allow-future",
    is_flag=True,
    help="Merge events dated further ahead than the tolerance too (listed as flagged), instead of refusing.",
)
@click.option(
    "--clock-tolerance",
    type=float,
    default=DEFAULT_CLOCK_TOLERANCE,
    show_default=True,
    metavar="SECONDS",
    help="How far ahead of this machine's clock an event may be dated.",
)
@json_option
@pass_env
def merge(env: Env, other: str, allow_future: bool, clock_tolerance: float, as_json: bool) -> None:
    """Union another workbench's judgment log (OTHER.db) or an exported log (LOG.jsonl) into this one.

    Every event is checked first (all or nothing); see docs/team.md.
    """
    from labeler.workbench.team import merge as merge_logs

    with env.store() as store:
        result = merge_logs(store, other, clock_tolerance=clock_tolerance, allow_future=allow_future)
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"{result.source} ({result.format}): {plural(result.events, 'event')}, {result.added} added, "
        f"{result.already_present} already here"
        + (f"; assessors {', '.join(result.assessors)}" if result.assessors else "")
        + "."
    )
    if result.future:
        first = result.future[0]
        info(
            f"{plural(len(result.future), 'event')} dated in the future "
            f"{agrees(len(result.future), 'was', 'were')} merged (--allow-future), e.g. "
            f"{first.event_id} at {first.time}: this workbench's clock now runs past them, and other "
            "workbenches merging its log will need --allow-future too."
        )
    if result.new_conflicts:
        info(
            f"{plural(len(result.new_conflicts), 'pair')} now in conflict: 'labeler judgments conflicts' lists them, "
            "'labeler judgments adjudicate' (or the adjudication screen, a, for units) settles them."
        )
    if result.unknown_topics:
        info(f"Events for topics this workbench does not know: {', '.join(result.unknown_topics[:10])}.")
    _changes_table(result.changes)


CHANGES_SHOWN = 50  # label changes the text output lists (--json lists all)


def _changes_table(changes: tuple[LabelChange, ...]) -> None:
    """The pairs whose label the merge changed, from what to what, and whose events did it."""
    if not changes:
        return
    info(f"{plural(len(changes), 'label')} changed:")
    table(
        None,
        ["unit", "topic", "unit id", "before", "after", "by"],
        [
            [
                c.unit,
                c.topic,
                c.unit_id,
                "-" if c.before is None else c.before,
                "conflict" if c.conflict else ("-" if c.after is None else c.after),
                ", ".join(c.assessors),
            ]
            for c in changes[:CHANGES_SHOWN]
        ],
        drop=("unit", "by"),
    )
    if len(changes) > CHANGES_SHOWN:
        info(f"... and {len(changes) - CHANGES_SHOWN} more (--json lists every change).")

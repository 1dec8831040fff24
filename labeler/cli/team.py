"""`labeler merge`, `labeler check`, `labeler backup` and `labeler export log`: working as a team."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from labeler.cli.context import Env, export_json_option, force_option, json_option, output_option, pass_env
from labeler.cli.deprecation import deprecated_command
from labeler.cli.judgments import judgments
from labeler.cli.output import emit_export, emit_json, info, refuse_json_without_output, table
from labeler.cli.reading import reading_options
from labeler.formats.judgment_log import DEFAULT_CLOCK_TOLERANCE
from labeler.wording import agrees, plural

if TYPE_CHECKING:
    from labeler.workbench.check import Head
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
            f"{plural(len(result.new_conflicts), 'pair')} now in conflict: settle them with 'labeler judgments "
            "adjudicate' or the adjudication screen (a)."
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


@click.command()
@json_option
@pass_env
def check(env: Env, as_json: bool) -> None:
    """Verify the workbench: schema, integrity, keys, guards, log, grades, scale, and every recorded hash."""
    from labeler.inert import visible_line
    from labeler.workbench.check import check_file

    result = check_file(env.db_path)
    if as_json:
        emit_json(result.to_json())
    else:
        table(
            None,
            ["check", "result", "detail"],
            [
                [c.check, "ok" if c.ok else "FAILED", c.fine if c.ok else plural(c.problems, 'problem')]
                for c in result.checks
            ],
        )
        for finding in result.findings:
            click.echo(f"FAILED {visible_line(finding)}")
        _print_head(result.head)
    if not result.ok:
        info("The workbench has problems: see above. A backup copy can be checked the same way (--db COPY).")
        sys.exit(1)


def _print_head(head: Head | None) -> None:
    """The file's head, to keep elsewhere: what one file cannot prove about its own end."""
    from labeler.inert import visible_line

    if head is None:
        return
    latest = (
        f"; latest snapshot {visible_line(head.snapshot)}, sealed {head.seal or 'labels only'}" if head.snapshot else ""
    )
    info(f"Head: {plural(head.events, 'event')}, last link {head.link or '-'}{latest}.")


@click.command("log")
@output_option
@force_option
@export_json_option
@pass_env
def export_log(env: Env, output: str | None, force: bool, as_json: bool) -> None:
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


@click.command()
@click.argument("destination", type=click.Path())
@force_option
@json_option
@pass_env
def backup(env: Env, destination: str, force: bool, as_json: bool) -> None:
    """Copy the workbench to a new file DESTINATION while it is in use (SQLite online backup), then check the copy."""
    from labeler.output_files import check_output
    from labeler.workbench.team import backup as backup_workbench

    check_output(destination, workbench=env.db_path, force=force)
    with env.store() as store:
        result = backup_workbench(store, destination, force=force)
    if as_json:
        emit_json(result.to_json())
    else:
        info(
            f"Backed up to {result.path} ({plural(result.bytes, 'byte')}, {plural(result.events, 'event')}, "
            f"{plural(result.snapshots, 'snapshot')}); check {'ok' if result.ok else 'FAILED'}."
        )
    if not result.ok:
        sys.exit(1)


judgments.add_command(deprecated_command(export_log, old="judgments export-log", new="export log"))

COMMANDS = [merge, check, backup]

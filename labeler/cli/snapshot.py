"""`labeler snapshot ...`: immutable, hashed versions of the labels."""

from __future__ import annotations

import sys

import click

from labeler.cli.common.context import Env, json_option, pass_env
from labeler.cli.common.deprecation import deprecated_command
from labeler.cli.common.printing import emit_json, info, listing, table
from labeler.cli.compare import say_label_changes
from labeler.inert import visible_line
from labeler.review import shown_status
from labeler.wording import agrees, plural
from labeler.workbench.snapshot_results import SnapshotSummary
from labeler.workbench.snapshots import (
    conflicts_left_out,
    create_snapshot,
    diff_snapshots,
    list_snapshots,
    show_snapshot,
    verify_snapshots,
)


@click.group()
def snapshot() -> None:
    """Immutable, hashed versions of the labels."""


def _print_summary(result: SnapshotSummary) -> None:
    info(
        f"Snapshot {result.snapshot} ({result.unit}): {plural(result.labels, 'label')} over "
        f"{plural(result.topics, 'topic')}"
        + (f", {plural(result.nuggets or 0, 'nugget')}" if result.nuggets else "")
        + (f", {plural(result.answer_labels, 'answer label')}" if result.answer_labels else "")
        + f"; parent {result.parent or '-'}; sha256 {result.sha256}."
    )


@snapshot.command()
@click.option("-m", "--message", required=True, help="What this version is for.")
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="Unit space to freeze (default: the one space that has labels; required when several do).",
)
@click.option(
    "--allow-unchanged",
    is_flag=True,
    help="Make a new version even when the labels are those of the space's latest snapshot.",
)
@json_option
@pass_env
def create(env: Env, message: str, unit: str | None, allow_unchanged: bool, as_json: bool) -> None:
    """Freeze the current labels as the next version (v1, v2, ...); conflicts are listed and left out."""
    with env.store() as store:
        result = create_snapshot(store, message, unit=unit, allow_unchanged=allow_unchanged)
        conflicts = conflicts_left_out(store, result.snapshot) if result.new else []
    if as_json:
        emit_json(result.to_json())
        return
    if not result.new:
        info(
            f"Labels ({result.unit}) unchanged since {result.unchanged_since}: no snapshot made "
            f"(--allow-unchanged makes one anyway)."
        )
        return
    _print_summary(result)
    if conflicts:
        info(
            f"{plural(len(conflicts), 'pair')} in conflict {agrees(len(conflicts), 'was', 'were')} left out: "
            + ", ".join(f"{t}/{u}" for t, u in conflicts[:10])
            + (" ..." if len(conflicts) > 10 else "")
            + " (resolve with 'labeler judgments adjudicate')."
        )


@snapshot.command("list")
@json_option
@pass_env
def list_(env: Env, as_json: bool) -> None:
    """List snapshots."""
    with env.store() as store:
        result = list_snapshots(store)
    listing(
        result,
        as_json,
        ["snapshot", "created", "unit", "labels", "topics", "conflicts left out", "parent", "message", "sha256"],
        lambda s: [
            s.snapshot,
            s.created[:19],
            s.unit,
            s.labels,
            s.topics,
            s.conflicts_left_out,
            s.parent or "-",
            s.message,
            s.sha256[:12],
        ],
        to_json=lambda s: s.to_json(),
    )


@snapshot.command()
@click.argument("name", required=False)
@json_option
@pass_env
def show(env: Env, name: str | None, as_json: bool) -> None:
    """A snapshot's manifest (default: the latest)."""
    with env.store() as store:
        result = show_snapshot(store, name)
    if as_json:
        emit_json(result.to_json())
        return
    _print_summary(result)
    info(f"Message: {visible_line(result.message)}; created {result.created}.")
    topics = result.manifest["topics"]
    table(
        None,
        ["topic", "labels", "relevant", "not relevant", "pooled-unjudged", "review status"],
        [
            [
                t,
                r["labels"],
                r["relevant"],
                r["nonrelevant"],
                r["pooled_unjudged"],
                shown_status(r["review_status"], r.get("reopened")),
            ]
            for t, r in topics.items()
        ],
    )


@click.command("diff")
@click.argument("old")
@click.argument("new")
@json_option
@pass_env
def diff(env: Env, old: str, new: str, as_json: bool) -> None:
    """Labels added, changed and removed between two snapshots, per topic."""
    with env.store() as store:
        result = diff_snapshots(store, old, new)
    if as_json:
        emit_json(result.to_json())
        return
    say_label_changes(old, new, result)


snapshot.add_command(deprecated_command(diff, old="snapshot diff", new="compare OLD NEW --changes"))


@snapshot.command()
@click.argument("name", required=False)
@json_option
@pass_env
def verify(env: Env, name: str | None, as_json: bool) -> None:
    """Recompute snapshot hashes from their labels and manifests (all snapshots by default); exit 1 on a mismatch."""
    with env.store() as store:
        result = verify_snapshots(store, name)
    if as_json:
        emit_json(result.to_json())
    else:
        for row in result.snapshots:
            only = "; sealed labels only (made before manifests were sealed)" if row.sealed == "labels only" else ""
            info(f"{row.snapshot}: {'ok' if row.ok else 'MISMATCH'} ({row.actual[:16]}){only}")
            for finding in row.findings:
                info(f"  {visible_line(finding)}")
        for finding in result.findings:
            info(visible_line(finding))
    if not result.ok:
        sys.exit(1)

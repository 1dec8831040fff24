"""`labeler snapshot ...` and `labeler export qrels` (registered in `labeler.cli.export`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from labeler import workbench
from labeler.cli.context import Env, export_json_option, force_option, json_option, output_option, pass_env
from labeler.cli.deprecation import deprecated_command
from labeler.cli.output import emit_export, emit_json, info, listing, refuse_json_without_output, table
from labeler.inert import visible_line
from labeler.review import shown_status
from labeler.wording import agrees, plural
from labeler.workbench.snapshot_results import SnapshotDiff, SnapshotSummary

if TYPE_CHECKING:
    from labeler.workbench.coverage_results import SnapshotComparison


@click.group()
def snapshot() -> None:
    """Immutable, hashed versions of the labels."""


def _print_summary(result: SnapshotSummary) -> None:
    info(
        f"Snapshot {result.snapshot} ({result.unit}): {plural(result.labels, 'label')} over "
        f"{plural(result.topics, 'topic')}; parent {result.parent or '-'}; sha256 {result.sha256}."
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
        result = workbench.create_snapshot(store, message, unit=unit, allow_unchanged=allow_unchanged)
        conflicts = workbench.conflicts_left_out(store, result.snapshot) if result.new else []
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
        result = workbench.list_snapshots(store)
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
        result = workbench.show_snapshot(store, name)
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
        result = workbench.diff_snapshots(store, old, new)
    if as_json:
        emit_json(result.to_json())
        return
    say_label_changes(old, new, result)


def say_label_changes(old: str, new: str, result: SnapshotDiff) -> None:
    """The labels added, changed and removed from snapshot `old` to `new`: a count line, then one row per label."""
    info(f"{old} -> {new}: {result.added} added, {result.changed} changed, {result.removed} removed.")
    rows: list[list[object]] = []
    for topic, changes in result.topics.items():
        rows += [[topic, "added", a.unit, "", a.grade] for a in changes.added]
        rows += [[topic, "changed", c.unit, c.before, c.after] for c in changes.changed]
        rows += [[topic, "removed", r.unit, r.grade, ""] for r in changes.removed]
    if rows:
        table(None, ["topic", "change", "unit", "before", "after"], rows)


def print_with_label_changes(
    comparison: SnapshotComparison, changes: SnapshotDiff, as_json: bool, say: Callable[[SnapshotComparison], None]
) -> None:
    """`compare --changes`: the comparison, then the label changes (JSON: the comparison's keys, then label_changes)."""
    if as_json:
        emit_json({**comparison.to_json(), "label_changes": changes.to_json()})
        return
    say(comparison)
    say_label_changes(comparison.old, comparison.new, changes)


snapshot.add_command(deprecated_command(diff, old="snapshot diff", new="compare OLD NEW --changes"))


@snapshot.command()
@click.argument("name", required=False)
@json_option
@pass_env
def verify(env: Env, name: str | None, as_json: bool) -> None:
    """Recompute snapshot hashes from their labels and manifests (all snapshots by default); exit 1 on a mismatch."""
    with env.store() as store:
        result = workbench.verify_snapshots(store, name)
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


@click.command("qrels")
@click.option("--snapshot", "snapshot_name", default=None, help="Snapshot to export (default: the latest).")
@click.option(
    "--unit", default=None, metavar="doc", help="Lift chunk labels to documents (max grade over judged chunks)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["trec", "jsonl"]),
    default="trec",
    show_default=True,
    help="TREC qrels, or JSONL with provenance (assessor, source, time).",
)
@output_option
@force_option
@export_json_option
@pass_env
def export_qrels(
    env: Env, snapshot_name: str | None, unit: str | None, fmt: str, output: str | None, force: bool, as_json: bool
) -> None:
    """Write a snapshot's labels, sorted and byte-identical on every export."""
    from labeler.output_files import check_output, write_output

    refuse_json_without_output(as_json, output)
    if output:
        check_output(output, workbench=env.db_path, force=force)  # before any work: a bad path changes nothing
    with env.store() as store:
        result = workbench.export_qrels(store, snapshot=snapshot_name, unit=unit, fmt=fmt)
    if output:
        write_output(output, result.text, workbench=env.db_path, force=force)
        if as_json:
            emit_export("qrels", result.snapshot, fmt, output)
        else:
            info(f"Wrote {plural(result.labels, 'label')} of snapshot {result.snapshot} to {output}.")
    else:
        click.echo(result.text, nl=False)
    partial = result.partial_documents
    if partial:
        info(
            f"{plural(len(partial), 'document')} {agrees(len(partial), 'has', 'have')} unjudged chunks: "
            f"{agrees(len(partial), 'its', 'their')} grade is a lower bound "
            f"(e.g. {', '.join(f'{t}/{d}' for t, d in partial[:5])})."
        )


COMMANDS = [snapshot]

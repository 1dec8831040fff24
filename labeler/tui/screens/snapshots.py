"""Snapshots: list them, create one with a message, diff two."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from labeler.tui.text import cell, plain

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp


class SnapshotsScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back", id="snapshots.back"),
        Binding("c", "create", "Create snapshot", id="snapshots.create"),
        Binding("space", "mark", "Mark for diff", id="snapshots.mark"),
        Binding("d", "diff", "Diff marked with selected", id="snapshots.diff"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.marked: str | None = None
        self.names: list[str] = []

    @property
    def labeler(self) -> LabelerApp:
        """The app, as the LabelerApp it always is here (Textual types a screen's app as any App)."""
        return cast("LabelerApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static(" Snapshots: c creates one; space marks one, then d diffs it with the selected row.", id="summary")
        yield DataTable(cursor_type="row", zebra_stripes=True, id="snapshots")
        with VerticalScroll(id="diff"):
            yield Static("", markup=False, id="diff-text")  # ids and units, shown as they are
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        from labeler.workbench.snapshots import list_snapshots

        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("snapshot", "created", "unit", "labels", "topics", "conflicts left out", "message", "sha256")
        rows = list_snapshots(self.labeler.store)
        self.names = [r.snapshot for r in rows]
        for r in rows:
            mark = " *" if r.snapshot == self.marked else ""
            table.add_row(
                cell(r.snapshot + mark),
                r.created[:19],
                cell(r.unit),
                r.labels,
                r.topics,
                r.conflicts_left_out,
                cell(r.message),
                r.sha256[:12],
            )

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        return self.names[table.cursor_row] if self.names else None

    def action_create(self) -> None:
        self.labeler.action_create_snapshot(after=self.reload)

    def action_mark(self) -> None:
        self.marked = self.selected()
        self.reload()

    def action_diff(self) -> None:
        from labeler.workbench.snapshots import diff_snapshots

        chosen = self.selected()
        if not self.marked or not chosen or chosen == self.marked:
            self.notify(
                "Mark one snapshot with space, then select another and press d.", severity="warning", markup=False
            )
            return
        result = diff_snapshots(self.labeler.store, self.marked, chosen)
        lines = [f"{self.marked} -> {chosen}: {result.added} added, {result.changed} changed, {result.removed} removed"]
        for topic, changes in result.topics.items():
            for a in changes.added:
                lines.append(f"  topic {topic}: + {a.unit} = {a.grade}")
            for c in changes.changed:
                lines.append(f"  topic {topic}: ~ {c.unit} {c.before} -> {c.after}")
            for r in changes.removed:
                lines.append(f"  topic {topic}: - {r.unit} (was {r.grade})")
        self.query_one("#diff-text", Static).update(plain("\n".join(lines)))

    def action_close(self) -> None:
        self.dismiss(None)

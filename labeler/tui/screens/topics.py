"""`t`: every topic with a progress bar, review status, relevant found and what is left."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from labeler.tui.text import cell, plain
from labeler.wording import plural
from labeler.workbench.status import Status


def progress_bar(done: int, total: int, width: int = 20) -> Text:
    """A text bar, `done` of `total`, for a table cell."""
    filled = round(width * done / total) if total else 0
    bar = Text("█" * filled, style="green")
    bar.append("░" * (width - filled), style="dim")
    bar.append(f" {done}/{total}")
    return bar


class TopicsScreen(Screen[str | None]):
    """Pick a topic to judge; returns its id (or None)."""

    BINDINGS = [
        Binding("escape,t", "close", "Back", id="topics.back"),
        Binding("enter", "choose", "Judge this topic", id="topics.choose"),
    ]

    def __init__(self, status: Status, titles: dict[str, str], current: str | None) -> None:
        super().__init__()
        self.status = status
        self.titles = titles
        self.current = current
        self.topic_ids = list(status.topics)

    def compose(self) -> ComposeResult:
        totals = self.status.totals
        yield Static(
            plain(
                f" Pool {self.status.pool or '-'} ({self.status.unit}): {totals.judged} of "
                f"{totals.pool} judged, {totals.relevant} relevant, "
                f"{plural(totals.conflicts, 'conflict')}"
            ),
            id="summary",
        )
        table: DataTable[str | int | Text] = DataTable(cursor_type="row", zebra_stripes=True)
        table.add_columns("topic", "title", "progress", "relevant", "left", "conflicts", "review status")
        for topic_id, row in self.status.topics.items():
            table.add_row(
                cell(topic_id),
                cell((self.titles.get(topic_id) or "")[:40]),
                progress_bar(row.judged, row.pool),
                row.relevant,
                row.unjudged,
                row.conflicts,
                cell(str(row.review)),
                key=topic_id,
            )
        yield table
        yield Footer()

    def on_mount(self) -> None:
        if self.current in self.topic_ids:
            self.query_one(DataTable).move_cursor(row=self.topic_ids.index(self.current))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.dismiss(event.row_key.value)

    def action_choose(self) -> None:
        table = self.query_one(DataTable)
        if self.topic_ids:
            self.dismiss(self.topic_ids[table.cursor_row])

    def action_close(self) -> None:
        self.dismiss(None)

"""`h`: the assessor's last ten decisions; Enter reopens one."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from labeler.tui.text import cell


class HistoryScreen(ModalScreen[tuple[str, str] | None]):
    """Returns (topic, unit id) of the decision to reopen, or None."""

    DEFAULT_CSS = """
    HistoryScreen { align: center middle; }
    HistoryScreen > Vertical { width: 90; height: auto; max-height: 80%; border: round $accent;
                               background: $surface; padding: 1 2; }
    HistoryScreen DataTable { height: auto; max-height: 20; }
    """
    BINDINGS = [
        Binding("escape,h", "close", "Close", id="history.close"),
        Binding("enter", "reopen", "Reopen", id="history.reopen"),
    ]

    def __init__(self, decisions: list[dict]) -> None:
        super().__init__()
        self.decisions = decisions

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Your last decisions (newest first). Enter reopens one; Escape closes.")
            table: DataTable[str | Text] = DataTable(cursor_type="row", zebra_stripes=True)
            table.add_columns("time", "topic", "unit", "decision", "reason / note")
            for d in self.decisions:
                decision = f"grade {d['grade']}" if d["kind"] in ("grade", "adjudicate") else d["kind"]
                table.add_row(
                    d["time"][11:19],
                    cell(d["topic"]),
                    cell(d["unit_id"]),
                    cell(decision),
                    cell(d["reason"] or d["note"] or ""),
                )
            yield table

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._reopen(event.cursor_row)

    def action_reopen(self) -> None:
        self._reopen(self.query_one(DataTable).cursor_row)

    def _reopen(self, row: int) -> None:
        if 0 <= row < len(self.decisions):
            decision = self.decisions[row]
            self.dismiss((decision["topic"], decision["unit_id"]))

    def action_close(self) -> None:
        self.dismiss(None)

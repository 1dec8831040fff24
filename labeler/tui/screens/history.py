"""`h`: the assessor's last ten decisions; Enter reopens one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label

from labeler.tui.screens.picking import PickScreen
from labeler.tui.text import cell

if TYPE_CHECKING:
    from labeler.judgments.log import Event


class HistoryScreen(PickScreen):
    """Returns (topic, unit id) of the decision to reopen, or None."""

    DEFAULT_CSS = """
    HistoryScreen { align: center middle; }
    HistoryScreen > Vertical { width: 90; max-width: 100%; height: auto; max-height: 80%; border: round $accent;
                               background: $surface; padding: 1 2; }
    HistoryScreen DataTable { height: auto; max-height: 20; }
    """
    BINDINGS = [
        Binding("escape,h", "close", "Close", id="history.close"),
        Binding("enter", "reopen", "Reopen", id="history.reopen"),
    ]

    def __init__(self, decisions: list[Event]) -> None:
        super().__init__()
        self.decisions = decisions
        self.pairs = [(d.topic_id, d.unit_id or "") for d in decisions]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Your last decisions (newest first). Enter reopens one; Escape closes.")
            yield self.pair_table(
                ("time", "topic", "unit", "decision", "reason / note"),
                (
                    (
                        d.time[11:19],
                        cell(d.topic_id),
                        cell(d.unit_id or ""),
                        cell(f"grade {d.grade}" if d.kind in ("grade", "adjudicate") else d.kind),
                        cell(d.reason or d.note or "", wrap=True),
                    )
                    for d in self.decisions
                ),
                wrap="reason / note",
            )

    def action_reopen(self) -> None:
        self.pick_current()

"""`F`: the flagged pairs of the session's unit space, with their label now; Enter opens one to judge."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label

from labeler.tui.screens.picking import PickScreen
from labeler.tui.text import cell
from labeler.workbench.flagged import FlaggedPair


class FlaggedScreen(PickScreen):
    """Returns (topic, unit id) of the flagged pair to open on the judging screen, or None.

    The rows are `labeler.workbench.flagged.flagged_pairs` (what `labeler judgments flagged`
    prints): a flag stays listed after the pair is graded, with the grade beside it.
    """

    DEFAULT_CSS = """
    FlaggedScreen { align: center middle; }
    FlaggedScreen > Vertical { width: 100; max-width: 100%; height: auto; max-height: 80%; border: round $accent;
                               background: $surface; padding: 1 2; }
    FlaggedScreen DataTable { height: auto; max-height: 20; }
    """
    BOX = 100
    BINDINGS = [
        Binding("escape,F", "close", "Close", id="flagged.close"),
        Binding("enter", "open_pair", "Open", id="flagged.open"),
    ]

    def __init__(self, flags: list[FlaggedPair], unit: str) -> None:
        super().__init__()
        self.flags = flags
        self.unit = unit
        self.pairs = [(flag.topic, flag.unit_id) for flag in flags]

    def compose(self) -> ComposeResult:
        with Vertical():
            count = len(self.flags)
            yield Label(
                f"{count} flagged pair{'' if count == 1 else 's'} ({self.unit}). Enter opens one to judge; "
                "Escape closes."
                if count
                else f"No flagged pairs ({self.unit}). Escape closes.",
                markup=False,
            )
            yield self.pair_table(
                ("topic", "unit", "flagged by", "time", "reason", "label now", "state"),
                (
                    (
                        cell(flag.topic),
                        cell(flag.unit_id),
                        cell(flag.assessor),
                        flag.time[:16].replace("T", " "),
                        cell(flag.reason or flag.note or "", wrap=True),
                        "-" if flag.label is None else str(flag.label),
                        flag.state,
                    )
                    for flag in self.flags
                ),
                wrap="reason",
                drop=["time"],
            )

    def action_open_pair(self) -> None:
        self.pick_current()

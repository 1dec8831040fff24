"""`?`: every key of the screen underneath, with what it does."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from labeler.tui.text import shown


def binding_rows(screen: Screen) -> list[tuple[str, str]]:
    """(key, description) for every binding of a screen and the app, in order, without repeats."""
    rows: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for bindings in (screen._bindings, screen.app._bindings):
        for _key, binding in bindings:
            if not binding.description:
                continue
            display = binding.key_display or screen.app.get_key_display(binding)
            row = (display, binding.description)
            if row not in seen:
                seen.add(row)
                rows.append(row)
    return rows


class HelpScreen(ModalScreen[None]):
    """Lists every binding: the footer shows the common ones, this shows all."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 80; height: 80%; border: round $accent; background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding("escape,question_mark,q", "dismiss_help", "Close help")]

    def __init__(self, screen: Screen, title: str) -> None:
        super().__init__()
        self.rows = binding_rows(screen)
        self.title_text = title

    def compose(self) -> ComposeResult:
        # descriptions hold the scale's grade labels: Text, as a Rich Table reads a str as markup
        table = Table(title=Text(self.title_text, style="table.title"), show_edge=False, expand=True)
        table.add_column("key", style="bold")
        table.add_column("what it does")
        for key, description in self.rows:
            table.add_row(Text(shown(key)), Text(shown(description)))
        with VerticalScroll():
            yield Static(table)
            yield Static("\nctrl+p opens the command palette: switch topic, change order, snapshots, export, "
                         "adjudication, history.")

    def action_dismiss_help(self) -> None:
        self.dismiss(None)

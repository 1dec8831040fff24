"""`?`: every key of the screen underneath, with what it does: labeler's keys first, Textual's apart."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from labeler.tui.text import shown

GENERIC_ACTIONS = frozenset({"command_palette"})  # bound by Textual at run time, in no class's BINDINGS


def _textual_bindings(node: DOMNode) -> set[tuple[str, str]]:
    """(key, action) of the bindings Textual's own classes declare for this screen or app."""
    declared: set[tuple[str, str]] = set()
    for cls in type(node).__mro__:
        if "BINDINGS" not in cls.__dict__ or cls.__module__.startswith("labeler."):
            continue
        for item in cls.__dict__["BINDINGS"]:
            binding = item if isinstance(item, Binding) else Binding(*item)
            for key in binding.key.split(","):
                declared.add((key.strip(), binding.action))
    return declared


def binding_rows(screen: Screen) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(labeler's keys, Textual's generic keys) of a screen and the app: (keys, description) rows, in order.

    Read from the live bindings (the screen's, its grade keys included, then the app's), so
    the help cannot fall behind a new key. The keys of one action are one row (`⌫ ^z`).
    """
    own: dict[tuple[str, str], list[str]] = {}
    generic: dict[tuple[str, str], list[str]] = {}
    app = screen.app
    for node in (screen, app):
        textual = _textual_bindings(node)
        for key, binding in node._bindings:
            if not binding.description:
                continue
            is_generic = (key, binding.action) in textual or binding.action in GENERIC_ACTIONS
            keys = (generic if is_generic else own).setdefault((binding.action, binding.description), [])
            display = app.get_key_display(Binding(key, binding.action))
            if display not in keys:
                keys.append(display)
    return (
        [(" ".join(keys), description) for (_, description), keys in own.items()],
        [(" ".join(keys), description) for (_, description), keys in generic.items()],
    )


def _table(title: str, rows: list[tuple[str, str]]) -> Table:
    # descriptions hold the scale's grade labels: Text, as a Rich Table reads a str as markup
    table = Table(title=Text(title, style="table.title"), show_edge=False, expand=True)
    table.add_column("key", style="bold")
    table.add_column("what it does")
    for key, description in rows:
        table.add_row(Text(shown(key)), Text(shown(description)))
    return table


class HelpScreen(ModalScreen[None]):
    """Lists every binding: the footer shows the common ones, this shows all."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 80; max-width: 100%; height: 80%; border: round $accent;
                                  background: $surface; padding: 1 2; }
    """
    BINDINGS = [Binding("escape,question_mark,q", "dismiss_help", "Close help")]

    def __init__(self, screen: Screen, title: str) -> None:
        super().__init__()
        self.rows, self.generic_rows = binding_rows(screen)
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(_table(self.title_text, self.rows), id="own-keys")
            yield Static(
                "\nctrl+p opens the command palette: switch topic, change order, snapshots, export, "
                "adjudication, history.\n"
            )
            yield Static(_table("Generic keys (Textual)", self.generic_rows), id="generic-keys")

    def action_dismiss_help(self) -> None:
        self.dismiss(None)

"""`?`: every key of the screen underneath, with what it does: labeler's keys first, Textual's apart."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from labeler.tui.text import shown


def declared_bindings(node: DOMNode) -> list[tuple[Binding, bool]]:
    """(binding, declared by Textual) of a screen or the app, in the order Textual merges them.

    Read from the public `BINDINGS` of each class (base classes first, as Textual merges them),
    after the keys a labeler screen makes at run time (`dynamic_bindings`: one per grade of the
    scale), and, for the app, Textual's command palette key, which it binds in no `BINDINGS`.
    """
    dynamic = getattr(node, "dynamic_bindings", None)
    bindings: list[tuple[Binding, bool]] = [(b, False) for b in dynamic()] if callable(dynamic) else []
    for cls in reversed(type(node).__mro__):
        for item in cls.__dict__.get("BINDINGS", ()):
            binding = item if isinstance(item, Binding) else Binding(*item)
            bindings.append((binding, not cls.__module__.startswith("labeler.")))
    if isinstance(node, App) and node.ENABLE_COMMAND_PALETTE:
        palette = Binding(node.COMMAND_PALETTE_BINDING, "command_palette", "palette")
        bindings.append((palette, True))
    return bindings


def keys_by_id(screen: Screen) -> dict[str, list[str]]:
    """The keys of each binding id now: a binding with an id may have been remapped by the app's keymap.

    Textual's public `active_bindings` holds the keys after the keymap, one binding per key (a
    key the focused widget also binds shows that widget's binding there, so the declared keys
    stand where an id is not found).
    """
    keys: dict[str, list[str]] = {}
    for key, active in screen.active_bindings.items():
        if active.binding.id is not None:
            keys.setdefault(active.binding.id, []).append(key)
    return keys


def binding_rows(screen: Screen) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(labeler's keys, Textual's generic keys) of a screen and the app: (keys, description) rows, in order.

    Read from the declared bindings (the screen's, its grade keys included, then the app's), so
    the help cannot fall behind a new key. The keys of one action are one row (`⌫ ^z`).
    """
    own: dict[tuple[str, str], list[str]] = {}
    generic: dict[tuple[str, str], list[str]] = {}
    app = screen.app
    remapped = keys_by_id(screen)
    for node in (screen, app):
        for binding, textual in declared_bindings(node):
            if not binding.description:
                continue
            keys = (generic if textual else own).setdefault((binding.action, binding.description), [])
            declared = [key.strip() for key in binding.key.split(",")]
            for key in remapped.get(binding.id, declared) if binding.id is not None else declared:
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
    BINDINGS = [Binding("escape,question_mark,q", "dismiss_help", "Close help", id="help.close")]

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

"""The line under the text: what the unit is, its status, where it sits in the queue, the pace."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from labeler.tui.text import shown


class StatusBar(Static):
    """One line, two when the fields do not fit (a chunk on 80 columns): assessor and order, last, stay in view."""

    DEFAULT_CSS = """
    StatusBar { height: auto; max-height: 2; background: $panel; color: $text; padding: 0 1; }
    """

    _shown: object = None  # the fields shown now: the same again is left alone

    def show(self, fields: list[tuple[str, str]]) -> None:
        if self._shown == fields:
            return
        self._shown = list(fields)
        text = Text()
        for index, (name, value) in enumerate(fields):
            if index:
                text.append(" │ ", style="dim")
            if name:
                text.append(f"{name} ", style="dim")
            text.append(shown(value), style="bold")  # ids, names: user text
        self.update(text)

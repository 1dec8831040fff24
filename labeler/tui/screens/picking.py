"""What the pair-picking modals share: a table a pair a row; Enter returns the pair, Escape None."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual.screen import ModalScreen
from textual.widgets import DataTable


class PickScreen(ModalScreen[tuple[str, str] | None]):
    """A modal listing (topic, unit id) pairs; picking a row dismisses the screen with its pair.

    A subclass sets `pairs` (row i is pair i), builds its table with `pair_table`, and binds
    Enter to an action that calls `pick_current` and Escape to `close`.
    """

    pairs: Sequence[tuple[str, str]] = ()

    @staticmethod
    def pair_table(columns: Sequence[str], rows: Iterable[Sequence[str | Text]]) -> DataTable[str | Text]:
        """The table of the pairs, one row each, in the order of `pairs`."""
        table: DataTable[str | Text] = DataTable(cursor_type="row", zebra_stripes=True)
        table.add_columns(*columns)
        for row in rows:
            table.add_row(*row)
        return table

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._pick(event.cursor_row)

    def pick_current(self) -> None:
        """Return the pair under the cursor (the Enter key)."""
        self._pick(self.query_one(DataTable).cursor_row)

    def _pick(self, row: int) -> None:
        if 0 <= row < len(self.pairs):
            self.dismiss(self.pairs[row])

    def action_close(self) -> None:
        self.dismiss(None)

"""What the pair-picking modals share: a table a pair a row; Enter returns the pair, Escape None."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text
from textual.screen import ModalScreen
from textual.widgets import DataTable

from labeler.columns import columns_of, fit_columns, kept_columns


class PickScreen(ModalScreen[tuple[str, str] | None]):
    """A modal listing (topic, unit id) pairs; picking a row dismisses the screen with its pair.

    A subclass sets `pairs` (row i is pair i), builds its table with `pair_table`, and binds
    Enter to an action that calls `pick_current` and Escape to `close`.
    """

    pairs: Sequence[tuple[str, str]] = ()
    BOX = 90  # the modal's width (its CSS `width`) where the screen is wider; a narrower screen gives it all
    FRAME = 6 + 2  # the modal's border and padding, and the table's scrollbar

    def pair_table(
        self,
        columns: Sequence[str],
        rows: Iterable[Sequence[str | Text]],
        *,
        wrap: str | None = None,
        drop: Sequence[str] = (),
    ) -> DataTable[str | Text]:
        """The table of the pairs, one row each, in the order of `pairs`.

        On a screen too narrow for the table, the `wrap` column (user text: a reason, a note)
        gets the room the others leave and wraps between words in a taller row, and the `drop`
        columns are left out (first named, first out) while the rest do not fit; the other
        columns (ids, decisions, states) are shown whole (`labeler.columns`).
        """
        cells = [list(row) for row in rows]
        texts = [[c.plain if isinstance(c, Text) else str(c) for c in row] for row in cells]
        fitted = fit_columns(
            min(self.BOX, self.app.size.width) - self.FRAME,
            columns_of(columns, texts, whole=[name != wrap for name in columns], drop=drop, header_wraps=False),
            gap=2,
        )
        return _data_table(columns, cells, fitted)

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


def _data_table(
    columns: Sequence[str], cells: list[list[str | Text]], fitted: dict[str, int] | None
) -> DataTable[str | Text]:
    """The table of the columns `fit_columns` kept, at its widths; rows as tall as their wrapped cells once fitted."""
    kept = kept_columns(columns, fitted)
    table: DataTable[str | Text] = DataTable(cursor_type="row", zebra_stripes=True)
    for i in kept:
        table.add_column(columns[i], width=None if fitted is None else fitted[columns[i]])
    for row in cells:
        table.add_row(*(row[i] for i in kept), height=1 if fitted is None else None)
    return table

"""Fitting a table's columns into a width: the CLI's tables and the UI's lists share the rule.

Each column has the width it wants (`natural`: its longest cell or header) and the least width
that shows every cell whole once wrapped between words (`least`: its longest word). A table
that fits at its natural widths is left alone. One that does not first leaves out the columns
marked droppable, least useful first, until its least widths fit; then every column kept gets
its least width and the room left goes to the columns in `grow` order, each up to its natural
width. So no cell is cut: it wraps between words instead. Only when the columns that cannot be
left out do not fit even at their least widths are the widest narrowed, a word then breaking
across lines (a long path), still never cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """A column to fit: its name, its natural and least widths, and when it may be left out.

    `drop` ranks the droppable columns (the lowest is left out first); None keeps the column.
    """

    name: str
    natural: int
    least: int
    drop: int | None = None


def longest_word(texts: Sequence[str]) -> int:
    """The width of the longest word (run of non-spaces) in the texts: the least width that cuts none."""
    return max((len(word) for text in texts for word in text.split()), default=0)


def column_of(
    name: str, cells: Sequence[str], *, drop: int | None = None, whole: bool = False, header_wraps: bool = True
) -> Column:
    """A column from its header and cells; `whole` when a cell may not wrap (a number, a bar).

    `header_wraps=False` for a table whose header is one line (Textual's DataTable): the
    header is then as wide as the column must be.
    """
    natural = max([len(name), *(len(cell) for cell in cells)])
    header = longest_word([name]) if header_wraps else len(name)
    least = max(header, max(map(len, cells), default=0) if whole else longest_word(cells))
    return Column(name, natural, max(least, 1), drop)


def fit_columns(width: int, columns: Sequence[Column], *, gap: int, grow: Sequence[str] = ()) -> dict[str, int] | None:
    """The kept columns' widths (in table order) for a table of `width`, `gap` spent per column.

    None when the table fits as it is (lay it out freely). Otherwise the droppable columns are
    left out, lowest `drop` first, while the least widths of the rest do not fit; the kept
    columns get their least widths, then the room left, in `grow` order (names; the other
    columns after them, in table order), each up to its natural width. When even the columns
    that cannot be dropped do not fit at their least widths, the widest are narrowed, one
    column at a time, until they fit (or every column is 1 wide).
    """
    if sum(c.natural + gap for c in columns) <= width:
        return None
    kept = _kept(width, columns, gap)
    widths = {c.name: c.least for c in kept}
    room = _narrowed(widths, width - sum(c.least + gap for c in kept))
    ordered = sorted(kept, key=lambda c: grow.index(c.name) if c.name in grow else len(grow))  # stable
    for column in ordered:
        more = max(0, min(room, column.natural - column.least))
        widths[column.name] += more
        room -= more
    return widths


def _kept(width: int, columns: Sequence[Column], gap: int) -> list[Column]:
    """The columns left once the droppable ones, lowest `drop` first, are left out while the rest do not fit."""
    kept = list(columns)
    for column in sorted((c for c in columns if c.drop is not None), key=lambda c: c.drop or 0):
        if sum(c.least + gap for c in kept) <= width:
            break
        kept.remove(column)
    return kept


def _narrowed(widths: dict[str, int], room: int) -> int:
    """With no room (`room` < 0), narrow the widest column a column at a time until it fits; the room left."""
    while room < 0 and max(widths.values()) > 1:
        widest = max(widths, key=lambda name: widths[name])
        widths[widest] -= 1
        room += 1
    return room


def columns_of(
    names: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    whole: Sequence[bool],
    drop: Sequence[str] = (),
    header_wraps: bool = True,
) -> list[Column]:
    """`column_of` for each column of a table of text rows; `drop` names the droppable ones, first out first."""
    return [
        column_of(
            name,
            [row[i] for row in rows],
            whole=whole[i],
            header_wraps=header_wraps,
            drop=list(drop).index(name) if name in drop else None,
        )
        for i, name in enumerate(names)
    ]


def kept_columns(names: Sequence[str], fitted: dict[str, int] | None) -> list[int]:
    """The indexes of the columns `fit_columns` kept (all when it left the table as it is)."""
    return [i for i, name in enumerate(names) if fitted is None or name in fitted]

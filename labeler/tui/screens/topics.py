"""`t`: every topic with a progress bar, review status, relevant found and what is left."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from labeler.columns import Column, columns_of, fit_columns
from labeler.tui.text import cell, plain
from labeler.wording import plural
from labeler.workbench.status import Status

BAR = 20  # the progress bar's width when the screen has room for it
TITLE = 40  # the longest title shown; a narrow screen shows less (a title is cropped, a status never)
LEAST_TITLE = 16  # below this a title says too little: a narrower screen leaves the column out
GAP = 2  # a DataTable cell's padding
SCROLLBAR = 2


def progress_bar(done: int, total: int, width: int = BAR) -> Text:
    """A text bar, `done` of `total`, for a table cell; `width` 0 gives the counts alone."""
    filled = round(width * done / total) if total else 0
    bar = Text("█" * filled, style="green")
    bar.append("░" * (width - filled), style="dim")
    bar.append(f" {done}/{total}" if width else f"{done}/{total}")
    return bar


def cropped(text: str, width: int) -> str:
    """`text` in `width` columns, an ellipsis marking what was cut."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def topic_columns(width: int, status: Status, titles: dict[str, str]) -> dict[str, int]:
    """The columns' widths on a screen `width` wide (`labeler.columns`); a column left out has none.

    The review status is never cut (it wraps between words in a taller row); the title is
    cropped to its room, and left out below LEAST_TITLE; the progress bar shrinks, then goes,
    leaving the counts.
    """
    counted = columns_of(
        ("topic", "relevant", "left", "conflicts", "review status"),
        [[t, str(r.relevant), str(r.unjudged), str(r.conflicts), str(r.review)] for t, r in status.topics.items()],
        whole=(True, True, True, True, False),
        header_wraps=False,
    )
    title = max([len("title"), *(len((titles.get(t) or "")[:TITLE]) for t in status.topics)])
    counts = [len(f"{row.judged}/{row.pool}") for row in status.topics.values()]
    progress = Column("progress", max([8, *(BAR + 1 + c for c in counts)]), max([8, *counts]))  # 8: the header
    columns = [counted[0], Column("title", title, min(title, LEAST_TITLE), drop=0), progress, *counted[1:]]
    fitted = fit_columns(width - SCROLLBAR, columns, gap=GAP, grow=["review status", "title", "progress"])
    return fitted if fitted is not None else {c.name: c.natural for c in columns}


class TopicsScreen(Screen[str | None]):
    """Pick a topic to judge; returns its id (or None).

    The table fits the screen's width (`topic_columns`), laid out again when the width changes.
    """

    # the table scrolls, not the screen: the summary stays in view, and one scrollbar takes the room kept for it
    DEFAULT_CSS = "TopicsScreen DataTable { height: 1fr; }"
    BINDINGS = [
        Binding("escape,t", "close", "Back", id="topics.back"),
        Binding("enter", "choose", "Judge this topic", id="topics.choose"),
    ]

    def __init__(self, status: Status, titles: dict[str, str], current: str | None) -> None:
        super().__init__()
        self.status = status
        self.titles = titles
        self.current = current
        self.topic_ids = list(status.topics)
        self.laid_out_for = 0  # the width the table was laid out for

    def compose(self) -> ComposeResult:
        totals = self.status.totals
        yield Static(
            plain(
                f" Pool {self.status.pool or '-'} ({self.status.unit}): {totals.judged} of "
                f"{totals.pool} judged, {totals.relevant} relevant, "
                f"{plural(totals.conflicts, 'conflict')}"
            ),
            id="summary",
        )
        yield self.topic_table(self.laid_out_for or self.app.size.width)
        yield Footer()

    def topic_table(self, width: int) -> DataTable[str | int | Text]:
        """The topics, one row each, in columns that fit `width`."""
        self.laid_out_for = width
        widths = topic_columns(width, self.status, self.titles)
        table: DataTable[str | int | Text] = DataTable(cursor_type="row", zebra_stripes=True)
        for name, column_width in widths.items():
            table.add_column(name, width=column_width, key=name)
        counts = max((len(f"{row.judged}/{row.pool}") for row in self.status.topics.values()), default=0)
        bar = min(BAR, widths["progress"] - counts - 1)
        for topic_id, row in self.status.topics.items():
            review = str(row.review)
            values: dict[str, str | int | Text] = {
                "topic": cell(topic_id),
                "title": cell(cropped((self.titles.get(topic_id) or "")[:TITLE], widths.get("title", 0))),
                "progress": progress_bar(row.judged, row.pool, bar if bar >= 5 else 0),
                "relevant": row.relevant,
                "left": row.unjudged,
                "conflicts": row.conflicts,
                "review status": cell(review, wrap=True),
            }
            wraps = len(review) > widths["review status"]
            table.add_row(*(values[name] for name in widths), key=topic_id, height=None if wraps else 1)
        return table

    def on_mount(self) -> None:
        self.place_cursor()

    async def on_resize(self, event: events.Resize) -> None:
        if event.size.width == self.laid_out_for:
            return
        table = self.query_one(DataTable)
        if self.topic_ids:
            self.current = self.topic_ids[table.cursor_row]
        self.laid_out_for = event.size.width
        await self.recompose()
        self.place_cursor()

    def place_cursor(self) -> None:
        if self.current in self.topic_ids:
            self.query_one(DataTable).move_cursor(row=self.topic_ids.index(self.current))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.dismiss(event.row_key.value)

    def action_choose(self) -> None:
        table = self.query_one(DataTable)
        if self.topic_ids:
            self.dismiss(self.topic_ids[table.cursor_row])

    def action_close(self) -> None:
        self.dismiss(None)

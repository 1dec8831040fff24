"""Adjudication: conflicting labels side by side, with assessors and notes, above the unit's text.

A grade key settles the selected conflict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from labeler.tui.text import cell, shown, shown_lines, topic_terms
from labeler.tui.widgets.unit_view import UnitView
from labeler.workbench.session import JudgingSession
from labeler.workbench.setup import grade_scale

if TYPE_CHECKING:
    from labeler.workbench.reading import Conflict


class AdjudicationScreen(Screen[None]):
    """The unit's text is shown as the judging screen shows it (inert, highlighted): settling needs reading it."""

    DEFAULT_CSS = """
    AdjudicationScreen #conflicts { height: auto; max-height: 30%; }
    AdjudicationScreen #detail { height: auto; max-height: 40%; }
    AdjudicationScreen #unit { height: 1fr; border-top: solid $primary; }
    """
    BINDINGS = [
        Binding("escape", "close", "Back", id="adjudicate.back"),
        Binding("o", "raw_text", "Text as stored", id="adjudicate.raw_text"),
    ]

    def __init__(self, session: JudgingSession) -> None:
        super().__init__()
        self.session = session  # whose unit space is settled, and who settles
        self.scale = grade_scale(session.store)
        self.items: list[Conflict] = []
        self._bindings = BindingsMap.merge([self._bindings, BindingsMap(self.dynamic_bindings())])

    def dynamic_bindings(self) -> list[Binding]:
        """One key per grade of the scale, which settles the selected conflict (keymap id `adjudicate.settle_2`)."""
        return [
            Binding(
                str(grade.value),
                f"settle({grade.value})",
                f"Settle as {shown(grade.label)}",
                id=f"adjudicate.settle_{grade.value}",
            )
            for grade in self.scale.grades
        ]

    def compose(self) -> ComposeResult:
        yield Static(" Conflicts: select one, read the grades and notes, press a grade key to settle it.", id="summary")
        yield DataTable(cursor_type="row", zebra_stripes=True, id="conflicts")
        with VerticalScroll(id="detail"):
            yield Static("", id="detail-text")
        yield UnitView(id="unit")  # under the grades, as wide as they are: a grades table wrapped in half a screen
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        from labeler.workbench.reading import conflicts

        self.items = conflicts(self.session.store, unit=self.session.unit)
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("topic", "unit", "grades")
        for item in self.items:
            table.add_row(
                cell(item.topic),
                cell(item.unit_id),
                cell(", ".join(f"{g.assessor}={g.grade}" for g in item.grades)),
            )
        self.show_detail()

    def selected(self) -> Conflict | None:
        table = self.query_one(DataTable)
        return self.items[table.cursor_row] if self.items and 0 <= table.cursor_row < len(self.items) else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def show_detail(self) -> None:
        item = self.selected()
        detail = self.query_one("#detail-text", Static)
        if item is None:
            detail.update("No conflicts: every pair judged by several assessors agrees.")
            self.query_one(UnitView).show(None, [], message="No unit to read.")
            return
        self.show_text(item)
        # a Rich Table reads str titles and cells as markup: user data goes in as Text
        table = Table(title=Text(f"Topic {shown(item.topic)}, {shown(item.unit_id)}", style="table.title"), expand=True)
        table.add_column("assessor")
        table.add_column("grade")
        table.add_column("kind")
        table.add_column("time")
        table.add_column("note")
        for g in item.grades:
            label = self.scale.label(g.grade) if g.grade in self.scale.values else str(g.grade)
            table.add_row(
                Text(shown(g.assessor)),
                Text(f"{g.grade} ({shown(label)})"),
                Text(g.kind),
                g.time[:19],
                Text(shown_lines(g.note or "")),
            )
        notes = "\n".join(f"{shown(n.assessor)}: {shown_lines(n.note)}" for n in item.notes)
        detail.update(Group(table, Text("Notes:\n" + notes)) if notes else table)

    def show_text(self, item: Conflict) -> None:
        from labeler.workbench.reading import unit_text
        from labeler.workbench.topics import find_topic

        store = self.session.store
        terms, language = topic_terms(find_topic(store, item.topic))
        self.query_one(UnitView).show(unit_text(store, item.unit, item.unit_id), terms, language=language)

    def action_raw_text(self) -> None:
        self.notify(self.query_one(UnitView).toggle_raw(), timeout=1.5, markup=False)

    def action_settle(self, grade: int) -> None:
        from labeler.workbench.record_judgments import adjudicate

        item = self.selected()
        if item is None:
            return
        adjudicate(self.session.store, item.topic, item.unit_id, grade, assessor=self.session.assessor, unit=item.unit)
        self.notify(f"Settled topic {item.topic}, {item.unit_id} as {grade}.", markup=False)
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)

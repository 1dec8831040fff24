"""`N`: writing a topic's nuggets while reading its relevant units, one unit at a time.

Left, the unit's text, read-only, in which a span is selected (shift+arrows, the mouse) and
made a nugget with Enter; right, the topic's nuggets (and a model's drafts, when shown), which
the keys edit, re-rank, merge and delete. Every change is a nugget version in the log, made by the
use cases of `labeler.workbench.nugget_edits` (the CLI's editing commands make the same ones); the
screen only shows what it reads back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Label, Static, TextArea

from labeler.answers.nuggets import Nugget
from labeler.errors import LabelerError
from labeler.tui.hints import tui_message
from labeler.tui.screens.prompt import ChoicePrompt, TextPrompt
from labeler.tui.text import cell, plain, shown, shown_lines
from labeler.workbench import nugget_edits as edits
from labeler.workbench import nugget_writing as writing
from labeler.workbench.nugget_edits import NuggetEdit
from labeler.workbench.nugget_writing import NuggetDesk
from labeler.workbench.setup import Store, open_workbench

WIDTHS = {"*": 1, "importance": 10, "nugget": 0, "origin": 7, "who": 10}
"""Each column's width; the nugget's text takes what the others leave (and wraps)."""
FRAME = sum(WIDTHS.values()) + 2 * len(WIDTHS) + 2  # the columns beside the text, the cells' padding, the scrollbar


class EditPrompt(TextPrompt):
    """A text prompt whose text is edited in place: the cursor at its end, nothing selected (typing adds)."""

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.select_on_focus = False
        field.cursor_position = len(field.value)


class ImportancePrompt(ModalScreen[str | None]):
    """`v` vital or `o` okay; Escape cancels."""

    DEFAULT_CSS = """
    ImportancePrompt { align: center middle; }
    ImportancePrompt > Vertical { width: 60; max-width: 100%; height: auto; border: round $accent;
                                  background: $surface; padding: 1 2; }
    """
    BINDINGS = [
        Binding("v", "choose('vital')", "Vital", id="importance.vital"),
        Binding("o", "choose('okay')", "Okay", id="importance.okay"),
        Binding("escape", "choose('')", "Cancel", id="importance.cancel"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(plain(self.text))
            yield Label("v: vital   o: okay   Escape: cancel", markup=False)

    def action_choose(self, importance: str) -> None:
        self.dismiss(importance or None)


class NuggetWritingScreen(Screen[None]):
    """One topic's relevant units beside its nuggets; keys write, edit, re-rank, merge and delete nuggets."""

    DEFAULT_CSS = """
    NuggetWritingScreen #panes { height: 1fr; }
    NuggetWritingScreen #left { width: 1fr; border-right: solid $primary; }
    NuggetWritingScreen #right { width: 1fr; }
    NuggetWritingScreen #unit-head, NuggetWritingScreen #nugget-head { height: auto; padding: 0 1;
                                                                      background: $boost; }
    NuggetWritingScreen #unit-text { height: 1fr; }
    NuggetWritingScreen #nuggets { height: 1fr; }
    NuggetWritingScreen.compact #panes { layout: vertical; }
    NuggetWritingScreen.compact #left { width: 1fr; height: 1fr; border-right: none;
                                        border-bottom: solid $primary; }
    NuggetWritingScreen.compact #right { height: 1fr; }
    """
    COMPACT_WIDTH = 120

    BINDINGS = [
        Binding("enter", "from_selection", "Selection → nugget", key_display="⏎", id="nuggets.from_selection"),
        Binding("a", "add", "Type a nugget", id="nuggets.add"),
        Binding("right_square_bracket", "unit(1)", "Next unit", key_display="]", id="nuggets.next_unit"),
        Binding("left_square_bracket", "unit(-1)", "Previous unit", key_display="[", id="nuggets.previous_unit"),
        Binding("e", "edit", "Edit", id="nuggets.edit"),
        Binding("v", "importance('vital')", "Vital", show=False, id="nuggets.vital"),
        Binding("o", "importance('okay')", "Okay", show=False, id="nuggets.okay"),
        Binding("plus,equals_sign", "move(-1)", "Rank up", key_display="+", show=False, id="nuggets.up"),
        Binding("minus", "move(1)", "Rank down", key_display="-", show=False, id="nuggets.down"),
        Binding("space", "mark", "Mark for merge", show=False, id="nuggets.mark"),
        Binding("m", "merge", "Merge marked", show=False, id="nuggets.merge"),
        Binding("d", "delete", "Delete", show=False, id="nuggets.delete"),
        Binding("p", "post_edit", "Post-edit draft", show=False, id="nuggets.post_edit"),
        Binding("escape", "close", "Back", id="nuggets.close"),
        Binding("question_mark", "help", "Help", key_display="?", id="nuggets.help"),
    ]

    def __init__(self, store: Store, assessor: str, topic_id: str, *, drafts_from: str | None = None) -> None:
        super().__init__()
        self.store = store
        self.assessor = assessor
        self.topic_id = topic_id
        self.drafts_from = drafts_from
        self.desk: NuggetDesk = writing.nugget_desk(store, topic_id, drafts_from=drafts_from)
        self.at = 0  # the unit shown
        self.marked: set[str] = set()
        self.rows: list[Nugget] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with Vertical(id="left"):
                yield Static(id="unit-head")
                yield TextArea(id="unit-text", read_only=True, soft_wrap=True, show_cursor=True)
            with Vertical(id="right"):
                yield Static(id="nugget-head")
                yield DataTable(id="nuggets", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < self.COMPACT_WIDTH, "compact")
        self.show_unit()
        self.show_nuggets()
        self.query_one(TextArea).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < self.COMPACT_WIDTH, "compact")
        self.call_after_refresh(self.show_nuggets)

    # -- what is shown ------------------------------------------------------------------

    @property
    def unit(self) -> writing.RelevantUnit | None:
        return self.desk.units[self.at] if self.desk.units else None

    def show_unit(self) -> None:
        head, area = self.query_one("#unit-head", Static), self.query_one(TextArea)
        unit = self.unit
        if unit is None:
            head.update(plain(f"Topic {self.topic_id}: no relevant unit yet. Type a nugget with a."))
            area.load_text("")
            return
        count = len(self.desk.units)
        title = f" · {unit.title}" if unit.title else ""
        head.update(plain(f"Unit {self.at + 1}/{count} · {unit.unit_id}{title} · grade {unit.label}"))
        area.load_text(shown_lines(unit.text))
        area.scroll_home(animate=False)

    def show_nuggets(self, keep: str | None = None) -> None:
        table = self.query_one(DataTable)
        current = keep or self.current_id()
        self.rows = list(self.desk.nuggets) + list(self.desk.drafts)
        table.clear(columns=True)
        text_width = max(16, table.size.width - FRAME) if table.size.width else 40
        for label, width in WIDTHS.items():
            table.add_column(label, width=width or text_width)
        for nugget in self.rows:
            table.add_row(*self.row(nugget), height=None)
        ids = [n.nugget_id for n in self.rows]
        if current in ids:
            table.move_cursor(row=ids.index(current))
        self.query_one("#nugget-head", Static).update(plain(self.head_text()))

    def row(self, nugget: Nugget) -> tuple[object, ...]:
        mark = "*" if nugget.nugget_id in self.marked else " "
        who = nugget.model if nugget.model is not None else nugget.assessor
        return (mark, nugget.importance, cell(nugget.text, wrap=True), nugget.origin, cell(who or ""))

    def head_text(self) -> str:
        title = f" ({self.desk.title})" if self.desk.title else ""
        said = f"Topic {self.topic_id}{title}: {len(self.desk.nuggets)} nuggets"
        if self.desk.drafts_from is not None:
            said += f", {len(self.desk.drafts)} drafts of {self.desk.drafts_from}"
        if self.marked:
            said += f", {len(self.marked)} marked"
        return said

    def current(self) -> Nugget | None:
        table = self.query_one(DataTable)
        if not self.rows or table.cursor_row < 0 or table.cursor_row >= len(self.rows):
            return None
        return self.rows[table.cursor_row]

    def current_id(self) -> str | None:
        nugget = self.current() if self.rows else None
        return None if nugget is None else nugget.nugget_id

    def reload(self, keep: str | None = None) -> None:
        self.desk = writing.nugget_desk(self.store, self.topic_id, drafts_from=self.drafts_from)
        self.marked &= {n.nugget_id for n in self.desk.nuggets}
        self.show_nuggets(keep)

    def change(self, work: Callable[[], NuggetEdit], *, done: str, keep: str | None = None) -> None:
        """Run one change of the workbench, show the nuggets after it, and say what it did (or why not).

        The cursor stays on `keep`, else goes to the first nugget the change gives back.
        """
        try:
            made = work()
        except LabelerError as error:
            self.notify(shown_lines(tui_message(error)), severity="error", markup=False)
            return
        self.reload(keep=keep or next((n.nugget_id for n in made.nuggets), None))
        self.notify(done, markup=False)

    # -- writing ------------------------------------------------------------------------

    def action_unit(self, step: int) -> None:
        if self.desk.units:
            self.at = (self.at + step) % len(self.desk.units)
            self.show_unit()

    def sources(self) -> tuple[str, ...]:
        return () if self.unit is None else (self.unit.unit_id,)

    def action_from_selection(self) -> None:
        if self.focused is self.query_one(DataTable):
            self.action_edit()
            return
        selected = self.query_one(TextArea).selected_text
        if not selected.strip():
            self.notify("Select a span of the text first (shift+arrows or the mouse).", markup=False)
            return
        self.ask_new(" ".join(selected.split()))

    def action_add(self) -> None:
        self.ask_new("")

    def ask_new(self, text: str) -> None:
        sources = self.sources()

        def typed(answer: str | None) -> None:
            if answer:
                self.push_screen_importance(answer, sources)

        self.app.push_screen(EditPrompt("The nugget (a short fact):", value=text), typed)

    def push_screen_importance(self, text: str, sources: tuple[str, ...]) -> None:
        def chosen(importance: str | None) -> None:
            if importance:
                self.change(
                    lambda: edits.add_nugget(
                        self.store, self.topic_id, text, importance, assessor=self.assessor, sources=sources
                    ),
                    done=f"A {importance} nugget written.",
                )

        self.app.push_screen(ImportancePrompt(text), chosen)

    # -- the selected nugget --------------------------------------------------------------

    def own(self) -> Nugget | None:
        """The selected nugget if it is a person's; a model's draft is only post-edited."""
        nugget = self.current()
        if nugget is None:
            self.notify("No nugget yet: select a span and press Enter, or type one with a.", markup=False)
            return None
        if nugget.model is not None:
            self.notify(f"A draft of {shown(nugget.model)}: p post-edits it into a nugget of yours.", markup=False)
            return None
        return nugget

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_edit()

    def action_edit(self) -> None:
        nugget = self.own()
        if nugget is None:
            return

        def typed(answer: str | None) -> None:
            if answer and answer != nugget.text:
                self.change(
                    lambda: edits.edit_nugget(
                        self.store, self.topic_id, nugget.nugget_id, assessor=self.assessor, text=answer
                    ),
                    done="Nugget edited.",
                )

        self.app.push_screen(EditPrompt("Edit the nugget:", value=nugget.text), typed)

    def action_importance(self, importance: str) -> None:
        nugget = self.own()
        if nugget is not None and nugget.importance != importance:
            self.change(
                lambda: edits.edit_nugget(
                    self.store, self.topic_id, nugget.nugget_id, assessor=self.assessor, importance=importance
                ),
                done=f"Nugget made {importance}.",
            )

    def action_move(self, step: int) -> None:
        nugget = self.own()
        if nugget is not None:
            self.change(
                lambda: edits.move_nugget(self.store, self.topic_id, nugget.nugget_id, step, assessor=self.assessor),
                done="Rank up." if step < 0 else "Rank down.",
                keep=nugget.nugget_id,
            )

    def action_mark(self) -> None:
        nugget = self.own()
        if nugget is not None:
            self.marked ^= {nugget.nugget_id}
            self.show_nuggets()

    def action_merge(self) -> None:
        keep = self.own()
        if keep is None:
            return
        others = tuple(n.nugget_id for n in self.desk.nuggets if n.nugget_id in self.marked - {keep.nugget_id})
        if not others:
            self.notify("Mark the nuggets to merge with space first, then select the one to keep.", markup=False)
            return

        def confirmed(answer: str | None) -> None:
            if answer == "yes":
                self.change(
                    lambda: edits.merge_nuggets(
                        self.store, self.topic_id, keep.nugget_id, others, assessor=self.assessor
                    ),
                    done=f"Merged {len(others)} into the selected nugget.",
                )

        question = f"Merge {len(others)} marked into: {shown(keep.text)}"
        self.app.push_screen(ChoicePrompt(question, [("yes", "Merge"), ("no", "Cancel")]), confirmed)

    def action_delete(self) -> None:
        nugget = self.own()
        if nugget is None:
            return

        def confirmed(answer: str | None) -> None:
            if answer == "yes":
                self.change(
                    lambda: edits.delete_nugget(self.store, self.topic_id, nugget.nugget_id, assessor=self.assessor),
                    done="Nugget deleted.",
                )

        question = f"Delete: {shown(nugget.text)}"
        self.app.push_screen(ChoicePrompt(question, [("yes", "Delete"), ("no", "Keep it")]), confirmed)

    def action_post_edit(self) -> None:
        draft = self.current()
        if draft is None or draft.model is None:
            self.notify("Select a model's draft to post-edit (drafts are shown when a model is named).", markup=False)
            return

        def typed(answer: str | None) -> None:
            if answer:
                self.change(
                    lambda: edits.edit_nugget(
                        self.store, self.topic_id, draft.nugget_id, assessor=self.assessor, text=answer
                    ),
                    done="Draft post-edited: a nugget of yours, the draft kept apart.",
                )

        mine = next((n for n in self.desk.nuggets if n.draft == draft.nugget_id), None)
        text = draft.text if mine is None else mine.text  # post-editing it again edits your nugget from it
        self.app.push_screen(EditPrompt("Post-edit the draft:", value=text), typed)

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_help(self) -> None:
        from labeler.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self, "Writing nuggets"))


class NuggetWritingApp(App[None]):
    """The nugget writing screen on its own (`labeler judge --write-nuggets`): no pool or queue needed."""

    TITLE = "labeler"
    BINDINGS = [Binding("q", "quit", "Quit", show=False, id="nuggets.quit")]

    def __init__(self, db_path: str | Path, assessor: str, topic_id: str, *, drafts_from: str | None = None) -> None:
        super().__init__()
        self.store = open_workbench(db_path)
        self.screen_made = NuggetWritingScreen(self.store, assessor, topic_id, drafts_from=drafts_from)

    def on_mount(self) -> None:
        self.push_screen(self.screen_made)

    def on_unmount(self) -> None:
        self.store.close()

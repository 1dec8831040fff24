"""The judging screen: topic card and rubric on the left, the unit on the right, one key per grade."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Static

from labeler.errors import Hint
from labeler.judgments.log import NO_ANSWER, REVIEWED
from labeler.ordering import is_seeded
from labeler.tui import gc_policy
from labeler.tui.hints import hint_text
from labeler.tui.screens.leased import LeasedScreen
from labeler.tui.screens.prompt import TextPrompt
from labeler.tui.text import shown, topic_terms
from labeler.tui.widgets.model_label import ModelLabelView
from labeler.tui.widgets.status_bar import StatusBar
from labeler.tui.widgets.topic_card import Provenance, Rubric, RubricLine, StopLine, TopicCard
from labeler.tui.widgets.unit_view import UnitView
from labeler.workbench.nothing_left import NothingLeft, headline, nothing_left
from labeler.workbench.session import JudgingSession
from labeler.workbench.setup import grade_scale
from labeler.workbench.topics import find_topic

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp

# What the empty queue says about new runs, in the screen's words (the pool is built in a shell).
NEW_POOL = hint_text(Hint("build_pool"))


def why_lines(assessor: str, topic: str | None, nothing: NothingLeft) -> list[str]:
    """Why there is nothing to judge, in the screen's words: a line per reason, each with what would help."""
    if not nothing.reasons:
        return [f"{headline(assessor, topic)} a moment ago, but a unit is free now: press → to go on."]
    lines = []
    for i, reason in enumerate(nothing.reasons):
        lines.append(f"{headline(assessor, topic)}: {reason.words}." if i == 0 else f"Also: {reason.words}.")
        if reason.hints:
            lines.append("  → " + "; ".join(hint_text(hint) for hint in reason.hints))
    return lines


class JudgeScreen(LeasedScreen):
    """One key judges, commits and advances; the next unit is ready when the key is pressed."""

    # `compact` (set on resize, below COMPACT_WIDTH x COMPACT_HEIGHT): the rubric on one line under the
    # panes instead of below the topic card, where it scrolled out of view; a narrower topic card; a
    # chunk's document title above the text, which is scrolled to the chunk. (Notifications are kept
    # above the status bar by the app's CSS.)
    DEFAULT_CSS = """
    JudgeScreen #panes { height: 1fr; }
    JudgeScreen #left { width: 38%; min-width: 30; border-right: solid $primary; }
    JudgeScreen #right { width: 1fr; }
    JudgeScreen #rubric-line { display: none; height: auto; max-height: 2; padding: 0 1; background: $boost; }
    JudgeScreen #unit-title { display: none; height: 1; padding: 0 1; text-style: bold; background: $boost; }
    JudgeScreen.compact #left { width: 30%; min-width: 22; }
    JudgeScreen.compact #rubric { display: none; }
    JudgeScreen.compact #rubric-line { display: block; }
    JudgeScreen.compact #unit-title.chunk { display: block; }
    """
    COMPACT_WIDTH = 100
    COMPACT_HEIGHT = 30

    BINDINGS = [
        Binding(
            "s", "skip", "Skip", tooltip="Judge later: the pair comes back at the end of the queue", id="judge.skip"
        ),
        Binding("u", "unsure", "Unsure", tooltip="Cannot judge: give a reason", id="judge.unsure"),
        Binding(
            "f",
            "flag",
            "Flag",
            tooltip="Flag the pair for review, saying why if you like (stays open)",
            show=False,
            id="judge.flag",
        ),
        Binding("n", "note", "Note", show=False, id="judge.note"),
        Binding("backspace,ctrl+z", "undo", "Undo", key_display="⌫", id="judge.undo"),
        Binding("left", "previous", "Previous", key_display="←", id="judge.previous"),
        Binding("right", "next", "Next", key_display="→", id="judge.next"),
        Binding("slash", "search", "Highlight terms", key_display="/", show=False, id="judge.search"),
        Binding("right_square_bracket", "hit(1)", "Next hit", key_display="]", show=False, id="judge.next_hit"),
        Binding("left_square_bracket", "hit(-1)", "Previous hit", key_display="[", show=False, id="judge.previous_hit"),
        Binding(
            "plus,equals_sign", "context(1)", "Widen context", key_display="+", show=False, id="judge.widen_context"
        ),
        Binding("minus", "context(-1)", "Narrow context", key_display="-", show=False, id="judge.narrow_context"),
        Binding("r", "reveal", "Show runs", show=False, id="judge.show_runs"),
        Binding("o", "raw_text", "Text as stored", show=False, id="judge.raw_text"),
        Binding("d", "topic_done", "Topic done", show=False, id="judge.topic_done"),
        Binding("x", "no_answer", "No answer", show=False, id="judge.no_answer"),
        Binding("h", "history", "History", id="judge.history"),
        Binding("F", "flagged", "Flagged pairs", key_display="F", show=False, id="judge.flagged"),
        Binding("t", "topics", "Topics", id="judge.topics"),
        Binding("a", "adjudicate", "Adjudicate", show=False, id="judge.adjudicate"),
        Binding("c", "coverage", "Coverage", show=False, id="judge.coverage"),
        Binding("N", "write_nuggets", "Write nuggets", key_display="N", show=False, id="judge.write_nuggets"),
        Binding("question_mark", "help", "Help", key_display="?", id="judge.help"),
    ]

    def __init__(self, session: JudgingSession) -> None:
        super().__init__()
        self.session = session
        self.scale = grade_scale(session.store)
        self._screen_bindings = self._bindings
        self._bindings = self._with_grades(show=True)
        self.latencies: list[float] = []

    def dynamic_bindings(self, *, show: bool = True) -> list[Binding]:
        """One key per grade of the workbench's scale, described by its label (`show`: in the footer).

        Made at run time, as the scale is the workbench's; each has a keymap id (`judge.grade_2`).
        """
        return [
            Binding(
                str(grade.value),
                f"grade({grade.value})",
                shown(grade.label),
                show=show,
                id=f"judge.grade_{grade.value}",
            )
            for grade in self.scale.grades
        ]

    def _with_grades(self, *, show: bool) -> BindingsMap:
        """The screen's keys with one per grade, first in the footer (`show`: in the footer at all)."""
        return BindingsMap.merge([BindingsMap(self.dynamic_bindings(show=show)), self._screen_bindings])

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with VerticalScroll(id="left"):
                yield TopicCard(id="topic")
                yield Rubric(id="rubric")
                yield ModelLabelView(id="model-label")  # empty and hidden unless the campaign shows a model
                yield Provenance(id="provenance")
            with Vertical(id="right"):
                yield Static(id="unit-title")
                yield UnitView(id="unit")
        yield RubricLine(id="rubric-line")
        yield StopLine(id="stop-line")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Rubric).show(self.scale)
        self.query_one(RubricLine).show(self.scale)
        self.refresh_unit()
        self.call_after_refresh(gc_policy.settle)  # the screen is drawn: the rest of the session is keys
        # the pair shown stays claimed while it is shown (labeler.workbench.claims)
        self.set_interval(self.session.lease.total_seconds() / 3, lambda: self.keep_claim(force=True))

    def on_key(self, event: events.Key) -> None:
        self.session.clock.touch()
        if not self.keep_claim():
            # the pair the key was meant for went to another assessor: the key must not act on the next one
            event.prevent_default()
            event.stop()

    def keep_claim(self, *, force: bool = False) -> bool:
        """Renew the lease on the pair shown; if it was lost to another assessor, show where the session went."""
        return self._renewed(lambda: self.session.keep_claim(force=force), self.refresh_unit)

    def _notice(self) -> None:
        if self.session.notice:
            self.notify(self.session.notice, severity="warning", markup=False)
            self.session.notice = None

    def on_resize(self, event: events.Resize) -> None:
        compact = event.size.width < self.COMPACT_WIDTH or event.size.height < self.COMPACT_HEIGHT
        if compact == self.has_class("compact"):
            return
        self.set_class(compact, "compact")
        # compact: the rubric line shows the grade keys, so the footer has room for skip, undo, help...
        self._bindings = self._with_grades(show=not compact)
        self.query_one(Footer).compact = compact
        self.refresh_bindings()

    # -- drawing ------------------------------------------------------------------

    def refresh_unit(self) -> None:
        """Show the session's current pair: topic card, text, provenance, status bar.

        One batch: the widgets' updates are painted together (`App.batch_update`), and a widget
        whose content is the same as before (the topic card between two pairs of a topic) is not updated.
        """
        with self.app.batch_update():
            self._refresh_unit()

    def _refresh_unit(self) -> None:
        session = self.session
        topic_id = session.topic_id
        topic = find_topic(session.store, topic_id) if topic_id else None
        self.query_one(TopicCard).show(topic_id, topic, session.topic_status())
        terms, language = topic_terms(topic)
        view = self.query_one(UnitView)
        unit = session.view if session.current is not None else None
        self.query_one(ModelLabelView).show(session.model_label if unit is not None else None, self.scale)
        if session.current is None or unit is None:
            view.show(None, terms, message=self._empty_message())
        else:
            view.show(unit, terms, language=language)
            self.query_one(Provenance).show(session.current.contributors)
        self._show_chunk_title()
        self.refresh_status()
        self.query_one(StopLine).show(session.stop_rule.spec, session.stop_decision())
        self._notice()

    def refresh_status(self) -> None:
        session, item = self.session, self.session.current
        bar = self.query_one(StatusBar)
        if item is None:
            bar.show([("", "queue empty"), ("assessor", session.assessor), ("order", session.order)])
            return
        view = session.view  # set whenever a pair is shown
        chunk = view is not None and view.is_chunk
        fields = [("", "chunk" if chunk else "document"), ("", item.unit_id)]
        if view is not None and view.is_chunk:
            fields += [("chunking", view.chunking or "-"), ("parent", view.doc_id or "-")]
        position = session.position
        rate = session.stats.per_hour
        fields += [
            ("", session.pair_status()),
            ("", f"{position.index}/{position.total}" if position else "-"),
            ("left", str(position.remaining) if position else "0"),
            ("", f"{rate:g}/h" if rate else "–/h"),
            ("", session.assessor),
            ("order", f"{session.order}:{session.seed}" if is_seeded(session.order) else session.order),
        ]
        bar.show(fields)

    def _nothing_left(self) -> NothingLeft:
        session = self.session
        return nothing_left(
            session.store, session.assessor, topic=session.topic_id, pool=session.pool_info.name, now=session.now()
        )

    def _empty_message(self) -> str:
        """Why the queue is empty (`labeler.workbench.nothing_left`), what would help, and the keys that go on."""
        topic = self.session.topic_id
        lines = why_lines(self.session.assessor, topic, self._nothing_left())
        if topic is None:
            return "\n".join(lines) + "\n\n• t: pick a topic   • ctrl+p: snapshots, export"
        return "\n".join(lines) + (
            "\n\n• d: mark the topic done (reviewed) and go on to the next one\n"
            "• x: mark it no answer (the corpus holds none)\n"
            "• →: next unfinished topic without marking   • t: pick a topic\n"
            "• ctrl+p: snapshots, export, change order\n"
            f"• new runs? {NEW_POOL}"
        )

    def _after(self, started: float) -> None:
        """Record how long the key took to show the next unit (from the action to the refresh)."""
        self.call_after_refresh(lambda: self.latencies.append(time.perf_counter() - started))

    # -- decisions ------------------------------------------------------------------

    def action_grade(self, grade: int) -> None:
        if self.session.current is None:
            self.notify("Nothing to judge here.", severity="warning", markup=False)
            return
        started = time.perf_counter()
        if self._attempt(lambda: self.session.judge(grade)):
            self.refresh_unit()
            self._after(started)

    def action_skip(self) -> None:
        if self.session.current is not None and self._attempt(self.session.skip):
            self.refresh_unit()

    def action_unsure(self) -> None:
        if self.session.current is None:
            return

        def done(reason: str | None) -> None:
            if reason and self._attempt(lambda: self.session.unsure(reason)):
                self.refresh_unit()

        self.app.push_screen(TextPrompt("Unsure: why can't this be judged?", placeholder="reason"), done)

    def action_flag(self) -> None:
        """Ask why (optional): Enter on an empty line flags without a reason, Escape records nothing."""
        if self.session.current is None:
            return

        def done(reason: str | None) -> None:
            if reason is None or self.session.current is None:
                return
            if self._attempt(lambda: self.session.flag(reason or None)):
                self.notify(f"Flagged {self.session.current.unit_id} for review.", markup=False)
                self.refresh_status()

        self.app.push_screen(
            TextPrompt(
                "Flag for review: why? (Enter with nothing flags without a reason; Escape cancels)",
                placeholder="reason (optional)",
                required=False,
            ),
            done,
        )

    def action_note(self) -> None:
        if self.session.current is None:
            return

        def done(text: str | None) -> None:
            if text and self._attempt(lambda: self.session.note(text)):
                self.notify("Note saved.", markup=False)

        self.app.push_screen(TextPrompt("Note on this pair:"), done)

    def action_undo(self) -> None:
        def undo() -> None:
            event = self.session.undo()
            self.notify(
                f"Undid {event.kind}{f' {event.grade}' if event.grade is not None else ''} "
                f"on {event.unit_id}: reopened.",
                markup=False,
            )

        if self._attempt(undo):
            self.refresh_unit()

    def action_previous(self) -> None:
        self.session.previous_pair()
        self.refresh_unit()

    def action_next(self) -> None:
        """Move on without deciding; on an empty queue, go to the next unfinished topic."""
        if self.session.current is None:
            following = self.session.first_unfinished_topic(after=self.session.topic_id)
            if following is None:
                nothing = nothing_left(
                    self.session.store,
                    self.session.assessor,
                    pool=self.session.pool_info.name,
                    now=self.session.now(),
                )
                self.notify(why_lines(self.session.assessor, None, nothing)[0], markup=False)
                return
            self.session.open_topic(following)
        else:
            self.session.next_pair()
        self.refresh_unit()

    def action_topic_done(self) -> None:
        self._mark(REVIEWED)

    def action_no_answer(self) -> None:
        self._mark(NO_ANSWER)

    def _mark(self, status: str) -> None:
        topic = self.session.topic_id
        if topic is None:
            return
        if self._attempt(lambda: self.session.mark_topic(status)):
            self.notify(f"Topic {topic} marked {status}.", markup=False)
            self.refresh_unit()

    # -- reading ------------------------------------------------------------------------

    def action_search(self) -> None:
        def done(text: str | None) -> None:
            if text:
                view = self.query_one(UnitView)
                view.add_terms(text.split())
                counts = view.counts()
                self.notify(", ".join(f"{t}: {n}" for t, n in counts.items()) or "no terms", markup=False)

        self.app.push_screen(TextPrompt("Highlight terms (space-separated):"), done)

    def action_hit(self, step: int) -> None:
        hit = self.query_one(UnitView).next_hit(step)
        if hit is None:
            self.notify("No highlighted terms in this text.", severity="warning", markup=False)

    def action_context(self, step: int) -> None:
        level = self.query_one(UnitView).widen(step)
        self.notify(f"Context: {level}", timeout=1.5, markup=False)

    def action_raw_text(self) -> None:
        self.notify(self.query_one(UnitView).toggle_raw(), timeout=1.5, markup=False)
        self._show_chunk_title()

    def _show_chunk_title(self) -> None:
        """A chunk's document id and title above the text (compact layout), in the form the text is shown."""
        unit = self.query_one(UnitView).displayed
        chunk = unit is not None and unit.is_chunk
        title = self.query_one("#unit-title", Static)
        title.set_class(chunk, "chunk")
        title.update(Content(shown(f"{unit.doc_id or '-'}: {unit.title or '(no title)'}")) if unit and chunk else "")

    def action_reveal(self) -> None:
        self.query_one(Provenance).toggle_class("visible")

    # -- other screens --------------------------------------------------------------------

    @property
    def labeler_app(self) -> LabelerApp:
        """The app, as the judging app: the screens it opens are its actions (shared with the palette)."""
        from labeler.tui.app import LabelerApp

        app = self.app
        if not isinstance(app, LabelerApp):
            raise TypeError(f"the judging screen runs in the judging app, not in {type(app).__name__}")
        return app

    def action_history(self) -> None:
        self.labeler_app.action_history()

    def action_flagged(self) -> None:
        self.labeler_app.action_flagged()

    def action_topics(self) -> None:
        self.labeler_app.action_topics()

    def action_adjudicate(self) -> None:
        self.labeler_app.action_adjudication()

    def action_coverage(self) -> None:
        self.labeler_app.action_coverage()

    def action_write_nuggets(self) -> None:
        from labeler.tui.screens.nugget_writing import NuggetWritingScreen

        if self.session.topic_id is not None:
            self.app.push_screen(NuggetWritingScreen(self.session.store, self.session.assessor, self.session.topic_id))

    def action_help(self) -> None:
        from labeler.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self, "Judging keys"))

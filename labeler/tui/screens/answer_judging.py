"""The answer judging screens: nugget assignments (the answer beside the topic's nuggets) and citation support.

Answers, nuggets and cited units are user text: drawn as `rich.text.Text` made inert
(`labeler.tui.text.shown_lines`), never read as markup.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

from labeler.answers.model import Answer
from labeler.tui.screens.leased import LeasedScreen
from labeler.tui.screens.prompt import TextPrompt
from labeler.tui.text import shown, shown_lines
from labeler.tui.widgets.model_label import ModelLabelView
from labeler.tui.widgets.status_bar import StatusBar
from labeler.workbench.answer_judging import NUGGET_TASK, AnswerJudgingSession
from labeler.workbench.reading import UnitText

CURRENT_STYLE = "bold black on yellow"
MARKER_STYLE = "bold cyan"
MODEL_STYLE = "italic yellow"


def citation_numbers(answer: Answer) -> dict[str, int]:
    """`unit id -> the number its citations show`: its place in the answer's references (then first cited)."""
    order = list(dict.fromkeys([*answer.references, *answer.cited_units()]))
    return {unit_id: n for n, unit_id in enumerate(order, 1)}


def answer_text(answer: Answer, *, current: int | None = None) -> Text:
    """The answer's sentences with their citations as `[n]` markers; sentence `current` (from 1) highlighted."""
    numbers = citation_numbers(answer)
    text = Text()
    for n, sentence in enumerate(answer.sentences, 1):
        if n > 1:
            text.append(" ")
        if n == current:
            text.append("▶ ", style=CURRENT_STYLE)  # seen without colours too
        text.append(shown_lines(sentence.text), style=CURRENT_STYLE if n == current else "")
        for unit_id in sentence.citations:
            text.append(f" [{numbers[unit_id]}]", style=MARKER_STYLE)
    return text


def cited_text(number: int, view: UnitText) -> Text:
    """A cited unit: its number, id and title, then its text (a chunk's own span of its document)."""
    body = view.text[view.span[0] : view.span[1]] if view.span is not None else view.text
    text = Text()
    text.append(f"[{number}] {shown(view.unit_id)}", style=MARKER_STYLE)
    if view.title:
        text.append(f"  {shown(view.title)}", style="bold")
    text.append("\n")
    text.append(shown_lines(body) if view.known else "(not in the workbench's corpus)")
    return text


class AnswerScreen(LeasedScreen):
    """What both answer screens share: the panes, the status bar, the decision keys, leases.

    A screen's grade keys (`GRADES`: grade -> its name) are made when it is built and come
    first in the footer and the help (`dynamic_bindings`), each with its keymap id
    (`KEYMAP.grade_2`), as the relevance screen's grade keys are.
    """

    DEFAULT_CSS = """
    AnswerScreen #panes { height: 1fr; }
    AnswerScreen #left { width: 1fr; border-right: solid $primary; padding: 0 1; }
    AnswerScreen #right { width: 1fr; padding: 0 1; }
    AnswerScreen .heading { text-style: bold; background: $boost; }
    AnswerScreen #cited { margin-top: 1; }
    """
    BINDINGS = [
        Binding("u,backspace,ctrl+z", "undo", "Undo", key_display="u", id="answers.undo"),
        Binding("s", "skip", "Skip", tooltip="Judge later: the item comes back at the end", id="answers.skip"),
        Binding("n", "note", "Note", id="answers.note"),
        Binding("right", "next", "Next", key_display="→", show=False, id="answers.next"),
        Binding("question_mark", "help", "Help", key_display="?", id="answers.help"),
    ]
    TITLE_WORDS = ""
    KEYMAP = "answers"
    GRADES: ClassVar[dict[int, str]] = {}

    def __init__(self, session: AnswerJudgingSession) -> None:
        super().__init__()
        self.session = session
        self._bindings = BindingsMap.merge([BindingsMap(self.dynamic_bindings()), self._bindings])

    def dynamic_bindings(self) -> list[Binding]:
        """One key per grade of the screen's task, described by the grade's name."""
        return [
            Binding(str(grade), f"grade({grade})", name, id=f"{self.KEYMAP}.grade_{grade}")
            for grade, name in self.GRADES.items()
        ]

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with VerticalScroll(id="left"):
                yield Static(id="left-heading", classes="heading")
                yield Static(id="answer")
                yield Static(id="cited")
            with VerticalScroll(id="right"):
                yield Static(id="right-heading", classes="heading")
                yield ModelLabelView(id="model-label")  # empty and hidden unless the campaign shows a model
                yield Static(id="side")
        yield StatusBar(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_item()
        self.set_interval(self.session.lease.total_seconds() / 3, lambda: self._keep(force=True))

    def on_key(self, event: events.Key) -> None:
        if not self._keep():
            event.prevent_default()  # the item the key was meant for went to another annotator
            event.stop()

    def _keep(self, *, force: bool = False) -> bool:
        return self._renewed(lambda: self.session.keep_claim(force=force), self.refresh_item)

    # -- drawing ----------------------------------------------------------------------

    def refresh_item(self) -> None:
        with self.app.batch_update():
            session = self.session
            if session.current is None or session.answer is None:
                self._show_empty()
            else:
                self.show_item(session.answer)
            self._show_model_label()
            self.refresh_status()
            if session.notice:
                self.notify(session.notice, severity="warning", markup=False)
                session.notice = None

    def _show_empty(self) -> None:
        session = self.session
        runs = ", ".join(session.runs) if session.runs else "every answer run"
        self.query_one("#left-heading", Static).update(self.TITLE_WORDS)
        self.query_one("#answer", Static).update(
            Text(f"Nothing left for {shown(session.assessor)} to judge ({shown(runs)}). Press q to quit.")
        )
        self.query_one("#cited", Static).update("")
        self.query_one("#right-heading", Static).update("")
        self.query_one("#side", Static).update("")

    def show_item(self, answer: Answer) -> None:
        raise NotImplementedError

    def _show_model_label(self) -> None:
        """The shown model's label of the item judged, when the campaign shows a model and it gave one."""
        session, item = self.session, self.session.current
        label = session.model_labels.get(item.item_id) if item is not None and session.answer is not None else None
        self.query_one(ModelLabelView).show(label, session.space.scale)

    def refresh_status(self) -> None:
        session, item = self.session, self.session.current
        bar = self.query_one(StatusBar)
        if item is None:
            bar.show([("", "queue empty"), ("", session.assessor)])
            return
        bar.show(
            [
                ("topic", item.topic_id),
                ("run", item.run),
                ("nugget" if item.task == NUGGET_TASK else "sentence", item.item_id),
                ("", session.item_status() + (" (overlap)" if item.overlap else "")),
                ("left", str(session.remaining)),
                ("", session.assessor),
            ]
        )

    # -- decisions ----------------------------------------------------------------------

    def action_grade(self, grade: int) -> None:
        if self.session.current is None:
            self.notify("Nothing to judge here.", severity="warning", markup=False)
            return
        if self._attempt(lambda: self.session.judge(grade)):
            self.refresh_item()

    def action_skip(self) -> None:
        if self.session.current is not None and self._attempt(self.session.skip):
            self.refresh_item()

    def action_note(self) -> None:
        if self.session.current is None:
            return

        def done(text: str | None) -> None:
            if text and self._attempt(lambda: self.session.note(text)):
                self.notify("Note saved.", markup=False)
                self.refresh_item()

        self.app.push_screen(TextPrompt("Note on this item:"), done)

    def action_undo(self) -> None:
        def undo() -> None:
            event = self.session.undo()
            grade = f" {event.grade}" if event.grade is not None else ""
            self.notify(f"Undid {event.kind}{grade} on {event.unit_id} ({event.unit}).", markup=False)

        if self._attempt(undo):
            self.refresh_item()

    def action_next(self) -> None:
        if self._attempt(self.session.next_item):
            self.refresh_item()

    def action_help(self) -> None:
        from labeler.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self, f"{self.TITLE_WORDS}: keys"))


class NuggetScreen(AnswerScreen):
    """The answer with its citations on the left (a cited unit below it on demand), the topic's nuggets on the right."""

    TITLE_WORDS = "Nugget assignment"
    KEYMAP = "nuggets"
    GRADES: ClassVar[dict[int, str]] = {2: "Support", 1: "Partial", 0: "Not"}
    BINDINGS = [
        Binding(
            "c", "cite", "Cited", tooltip="Show the next cited unit's text (again: the one after)", id="nuggets.cite"
        )
    ]

    def __init__(self, session: AnswerJudgingSession) -> None:
        super().__init__(session)
        self.citation: int | None = None  # the cited unit shown below the answer (its number), None: none

    def show_item(self, answer: Answer) -> None:
        item = self.session.current
        assert item is not None
        self.query_one("#left-heading", Static).update(
            Text(f"Answer of {shown(answer.run)} to topic {shown(answer.topic_id)}: {shown(answer.topic_text or '')}")
        )
        self.query_one("#answer", Static).update(answer_text(answer))
        if self._answer_key != (answer.run, answer.topic_id):
            self.citation, self._answer_key = None, (answer.run, answer.topic_id)
        self._show_citation(answer)
        self.query_one("#right-heading", Static).update("Nuggets (vital first)")
        self.query_one("#side", Static).update(self._nugget_list(item.item_id))

    _answer_key: tuple[str, str] | None = None

    def _nugget_list(self, current: str) -> Text:
        labels = self.session.item_labels()
        words = self.session.labels
        text = Text()
        for nugget in self.session.nuggets():
            here = nugget.nugget_id == current
            label = labels.get(nugget.nugget_id)
            line = Text("▶ " if here else "  ", style=CURRENT_STYLE if here else "")
            line.append(f"{nugget.importance:<5} ", style="bold" if nugget.vital else "dim")
            line.append(shown(nugget.text), style=CURRENT_STYLE if here else "")
            line.append(f"  ({label.words(words) if label else 'unjudged'})", style="dim")
            guess = self.session.model_labels.get(nugget.nugget_id)
            if guess is not None:
                line.append(f"  model {shown(guess.model)}: {words.get(guess.grade, guess.grade)}", style=MODEL_STYLE)
            text.append_text(line)
            text.append("\n")
        return text

    def _show_citation(self, answer: Answer) -> None:
        cited = self.query_one("#cited", Static)
        if self.citation is None:
            cited.update("")
            return
        numbers = {n: unit_id for unit_id, n in citation_numbers(answer).items()}
        cited.update(cited_text(self.citation, self.session.cited_text(numbers[self.citation])))

    def action_cite(self) -> None:
        answer = self.session.answer
        if answer is None:
            return
        numbers = sorted(citation_numbers(answer).values())
        if not numbers:
            self.notify("This answer cites nothing.", severity="warning", markup=False)
            return
        following = [n for n in numbers if self.citation is None or n > self.citation]
        self.citation = following[0] if following else None
        self._show_citation(answer)


class SupportScreen(AnswerScreen):
    """The sentence highlighted in its answer on the left, its first cited unit's text on the right."""

    TITLE_WORDS = "Citation support"
    KEYMAP = "support"
    GRADES: ClassVar[dict[int, str]] = {2: "Full", 1: "Partial", 0: "None"}

    def show_item(self, answer: Answer) -> None:
        item = self.session.current
        assert item is not None
        number = int(item.item_id)
        sentence = answer.sentences[number - 1]
        self.query_one("#left-heading", Static).update(
            Text(f"Answer of {shown(answer.run)} to topic {shown(answer.topic_id)}: {shown(answer.topic_text or '')}")
        )
        self.query_one("#answer", Static).update(answer_text(answer, current=number))
        self.query_one("#cited", Static).update("")
        first = sentence.first_citation
        assert first is not None  # only a sentence with a citation is judged
        self.query_one("#right-heading", Static).update(f"Sentence {number}'s first cited unit")
        self.query_one("#side", Static).update(
            cited_text(citation_numbers(answer)[first], self.session.cited_text(first))
        )


def answer_screen(session: AnswerJudgingSession) -> AnswerScreen:
    """The screen of the session's task."""
    return NuggetScreen(session) if session.task == NUGGET_TASK else SupportScreen(session)

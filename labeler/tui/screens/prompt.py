"""Small modal dialogs: ask for a line of text, or pick one of a few choices."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList


class TextPrompt(ModalScreen[str | None]):
    """Ask for one line of text; Enter returns it, Escape cancels (None).

    With `check` (text -> why it is refused, or None), a refused answer keeps the prompt
    open with the reason under the input, so the user can retype it: an assessor name
    must obey the id rule before anything is recorded under it.
    """

    DEFAULT_CSS = """
    TextPrompt { align: center middle; }
    TextPrompt > Vertical { width: 70; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    TextPrompt #problem { color: $error; height: auto; display: none; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="prompt.cancel")]

    def __init__(
        self,
        question: str,
        *,
        placeholder: str = "",
        value: str = "",
        required: bool = True,
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.value = value
        self.required = required
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            yield Input(value=self.value, placeholder=self.placeholder, id="answer")
            yield Label("", markup=False, id="problem")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        answer = event.value.strip()
        if self.required and not answer:
            self.notify("Type something, or Escape to cancel.", severity="warning", markup=False)
            return
        problem = self.check(answer) if self.check is not None and answer else None
        if problem is not None:
            shown = self.query_one("#problem", Label)
            shown.update(problem)
            shown.display = True
            self.notify(problem, severity="warning", markup=False)
            event.input.select_all()  # typing replaces the refused answer; an arrow key keeps it to edit
            return
        self.dismiss(answer)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoicePrompt(ModalScreen[str | None]):
    """Pick one of a few named choices; Enter picks, Escape cancels."""

    DEFAULT_CSS = """
    ChoicePrompt { align: center middle; }
    ChoicePrompt > Vertical { width: 60; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    ChoicePrompt OptionList { height: auto; max-height: 16; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="choice.cancel")]

    def __init__(self, question: str, choices: list[tuple[str, str]]) -> None:
        super().__init__()
        self.question = question
        self.choices = choices  # (value, label)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, markup=False)
            yield OptionList(*[label for _, label in self.choices], markup=False, id="choices")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index][0])

    def action_cancel(self) -> None:
        self.dismiss(None)

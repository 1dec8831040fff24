"""The one model label the campaign lets the judging screen show, and only when it does (blind by default)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from labeler.scales import GradeScale
from labeler.tui.text import shown

if TYPE_CHECKING:
    from labeler.judgments.model_labels import ModelLabel


def model_label_text(label: ModelLabel, scale: GradeScale) -> Text:
    """`Model NAME: 2 (Highly relevant)` and, when it gave them, its probability per grade (rounded to 2 places)."""
    name = scale.label(label.grade) if label.grade in scale.values else str(label.grade)
    text = Text()
    text.append(f"Model {shown(label.model)}: ", style="bold")
    text.append(f"{label.grade} ({shown(name)})")
    if label.probs:
        text.append("\n p: " + "  ".join(f"{grade}={p:.2f}" for grade, p in sorted(label.probs.items())))
    text.append("\n a model's guess, not a judgment: judge the text", style="italic")
    return text


class ModelLabelView(Static):
    """Hidden, and empty, unless the session shows a model label for the current pair."""

    DEFAULT_CSS = """
    ModelLabelView { padding: 0 1; margin-bottom: 1; border-left: thick $warning; display: none; }
    ModelLabelView.visible { display: block; }
    """

    _shown: object = None  # the label shown now: the same again is left alone

    def show(self, label: ModelLabel | None, scale: GradeScale) -> None:
        if self._shown == (label, scale):
            return
        self._shown = (label, scale)
        self.set_class(label is not None, "visible")
        self.update(model_label_text(label, scale) if label is not None else "")

"""The topic and the grade rubric, always in view while judging."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from labeler.models import Topic
from labeler.scales import GradeScale
from labeler.stopping import StopDecision
from labeler.tui.text import shown, shown_lines


class TopicCard(Static):
    """Title, description and narrative of the topic being judged."""

    DEFAULT_CSS = """
    TopicCard { padding: 0 1; margin-bottom: 1; }
    """

    _shown: object = None  # what the card shows now: the same again is left alone (one key, one pair)

    def show(self, topic_id: str | None, topic: Topic | None, status: str = "") -> None:
        if self._shown == (topic_id, topic, status):
            return
        self._shown = (topic_id, topic, status)
        text = Text()
        if topic_id is None:
            self.update("")
            return
        text.append(f"Topic {shown(topic_id)}", style="bold")
        if status:
            text.append(f"  [{status}]", style="dim")
        text.append("\n")
        if topic is None:
            text.append("(no topic text in the workbench)", style="dim")
        else:
            text.append(shown(topic.title) + "\n", style="bold cyan")
            if topic.description:
                text.append("\n" + shown_lines(topic.description) + "\n")
            if topic.narrative:
                text.append("\n" + shown_lines(topic.narrative) + "\n", style="italic")
        self.update(text)


class StopLine(Static):
    """What the stopping rule says about the open topic: one line, marked when the rule says stop."""

    DEFAULT_CSS = """
    StopLine { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    StopLine.stop { color: $text; background: $warning 30%; text-style: bold; }
    """

    _shown: object = None  # the line shown now: the same again is left alone

    def show(self, spec: str, decision: StopDecision | None) -> None:
        key = (spec, decision)
        if self._shown == key:
            return
        self._shown = key
        self.set_class(decision is not None and decision.stop, "stop")
        self.update(Text(stop_text(spec, decision)))


def stop_text(spec: str, decision: StopDecision | None) -> str:
    """The stop line's words: `Stopping rule window:10: this topic has found no relevant unit in its last 10 ...`."""
    if decision is None:
        return f"Stopping rule {spec}: no topic open"
    counts = f"{decision.judgments} judged, {decision.relevant} relevant"
    if decision.stop and decision.rule == "window":
        last = spec.partition(":")[2]
        return (
            f"Stopping rule {spec}: this topic has found no relevant unit in its last {last} judgments; "
            f"the rule says stop ({counts})"
        )
    if decision.stop:
        return f"Stopping rule {spec}: {decision.reason} ({counts})"
    return f"Stopping rule {spec}: go on ({counts}; {decision.reason})"


class Rubric(Static):
    """One line per grade: its key, label and definition; the relevance threshold marked."""

    DEFAULT_CSS = """
    Rubric { padding: 0 1; }
    """

    def show(self, scale: GradeScale) -> None:
        text = Text()
        text.append(f"Grades ({shown(scale.name)}; relevant from {scale.threshold})\n", style="bold")
        for grade in scale.grades:
            marker = "*" if grade.value >= scale.threshold else " "
            text.append(f" {grade.value}{marker} ", style="bold reverse")
            text.append(f" {shown(grade.label)}", style="bold")
            if grade.definition:
                text.append(f": {shown_lines(grade.definition)}")
            text.append("\n")
        self.update(text)


class RubricLine(Static):
    """The rubric of a small terminal: grade keys and labels on one line (two if they must), no definitions."""

    def show(self, scale: GradeScale) -> None:
        text = Text()
        for index, grade in enumerate(scale.grades):
            if index:
                text.append(" ")
            marker = "*" if grade.value >= scale.threshold else ""  # * relevant, as in the full rubric
            text.append(f" {grade.value}{marker} ", style="bold reverse")
            text.append(f" {shown(grade.label)}")
        self.update(text)


class Provenance(Static):
    """Which runs brought the pair, at which rank: hidden unless asked for (it biases assessors)."""

    DEFAULT_CSS = """
    Provenance { padding: 0 1; color: $text-muted; display: none; }
    Provenance.visible { display: block; }
    """

    _shown: object = None  # the contributors shown now: the same again is left alone

    def show(self, contributors: tuple[tuple[str, int], ...]) -> None:
        if self._shown == contributors:
            return
        self._shown = contributors
        if not contributors:
            self.update("Runs: not in the pool's provenance")
            return
        self.update(Content("Runs: " + ", ".join(f"{shown(run)} #{rank}" for run, rank in contributors)))

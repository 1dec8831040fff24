"""Generated answers as the workbench holds them: sentences that cite units.

An answer file's line is kept whole (`Answer.original`, canonical JSON) so an
export gives back every field it had, including those labeler does not read;
the fields it reads are parsed once, at import (`labeler.formats.answers`).
Citations are resolved to unit ids at import, whichever way the file wrote
them (indices into `references`, or the ids themselves).
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.json_form import JsonResult, json_field


@dataclass(frozen=True)
class Sentence(JsonResult):
    """One sentence of an answer, with the units it cites, in the order the answer gave them."""

    text: str
    citations: tuple[str, ...] = ()

    @property
    def first_citation(self) -> str | None:
        """The unit whose support is judged (only a sentence's first citation is)."""
        return self.citations[0] if self.citations else None


@dataclass(frozen=True)
class Answer(JsonResult):
    """One run's answer to one topic."""

    run: str
    topic_id: str
    sentences: tuple[Sentence, ...]
    references: tuple[str, ...] = ()
    topic_text: str | None = json_field(omit_if_none=True, default=None)
    response_length: int | None = json_field(omit_if_none=True, default=None)
    line: int = json_field(omit=True, default=0)
    original: str = json_field(omit=True, default="")

    @property
    def text(self) -> str:
        """The answer as one text, its sentences joined by spaces."""
        return " ".join(sentence.text for sentence in self.sentences)

    def cited_units(self) -> list[str]:
        """Every unit the answer cites, once each, in first-cited order."""
        seen: dict[str, None] = {}
        for sentence in self.sentences:
            seen.update(dict.fromkeys(sentence.citations))
        return list(seen)


@dataclass(frozen=True)
class AnswerRunInfo(JsonResult):
    """An imported answer run: where it came from and what it holds."""

    name: str
    file: str
    sha256: str
    format: str  # "trec-rag-2024" or "trec-rag-2025"
    unit: str  # the unit space its citations are units of
    imported: str
    answers: int
    topics: int
    retired: str | None = json_field(omit_if_none=True, default=None)
    retired_reason: str | None = json_field(omit_if_none=True, default=None)

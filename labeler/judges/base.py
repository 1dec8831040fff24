"""What a judge is given and what it answers (the command protocol's two JSON shapes).

In: one `JudgePair` per pair, as the JSON object `{"topic", "unit", "unit_space", "title",
"description", "narrative", "text"}`. Out: one answer per pair, `{"topic", "unit", "grade",
"probs": {"0": p, ...}}` (`probs` optional), checked like an import of a model's JSONL
(`labeler.formats.model_jsonl.model_answer`).

A Python judge (built-in or a `labeler.judges` entry point) is an object with
`judge(pairs, grades) -> iterable of answer dicts`, and optionally `fit(examples, grades)`,
called first with the pairs of the same topics that people labelled (`(pair, grade)`), so a
judge can set itself on them (the built-in `lexical` judge fits its thresholds there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from labeler.json_form import JsonResult


@dataclass(frozen=True)
class JudgePair(JsonResult):
    """One pair for a judge: the topic's words and the unit's text."""

    topic: str
    unit: str
    unit_space: str
    title: str
    description: str
    narrative: str
    text: str


class Judge(Protocol):
    def judge(self, pairs: Sequence[JudgePair], grades: Sequence[int]) -> Iterable[dict[str, Any]]: ...

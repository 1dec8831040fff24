"""What a judge is given and what it answers (the command protocol's two JSON shapes).

In: one `JudgePair` per pair, as the JSON object `{"topic", "unit", "unit_space", "title",
"description", "narrative", "text"}`. Out: one answer per pair, `{"topic", "unit", "grade",
"probs": {"0": p, ...}}` (`probs` optional), checked like an import of a model's JSONL
(`labeler.formats.model_jsonl.model_answer`).

A Python judge (built-in or a `labeler.judges` entry point) is an object with
`judge(pairs, grades) -> iterable of answer dicts`, and optionally `fit(examples, grades)`,
called first with the pairs of the same topics that people labelled (`(pair, grade)`), so a
judge can set itself on them (the built-in `lexical` judge fits its thresholds there).

A judge may also work on RAG answers, with two optional methods taking requests and giving
answer dicts as above (a command judge gets the requests as JSON lines, the `task` key saying
which):

- `draft(requests)`: one `DraftRequest` per topic, `{"task": "draft", "topic", "title",
  "description", "narrative", "units": [{"unit", "text"}]}` (the topic's relevant units); one
  answer per topic, `{"topic", "nuggets": [{"text", "importance": "vital"|"okay", "sources"?:
  [unit ids]}]}`, most important first. The nuggets are logged as the model's drafts.
- `assign(requests)`: one `AssignRequest` per answer, `{"task": "assign", "topic", "title",
  "description", "narrative", "run", "answer", "nuggets": [{"nugget", "text", "importance"}]}`
  (`answer` the answer's text); one answer per nugget asked, `{"topic", "nugget", "assignment":
  "support"|"partial_support"|"not_support"}` (nuggetizer's names), logged as the model's
  assignment in the run's `nugget:RUN` space.
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


DRAFT, ASSIGN = "draft", "assign"
"""The `task` of a request about answers (a relevance pair has none)."""


@dataclass(frozen=True)
class UnitText(JsonResult):
    """A relevant unit a draft may come from: its id and the text an assessor reads."""

    unit: str
    text: str


@dataclass(frozen=True)
class DraftRequest(JsonResult):
    """Draft a topic's nuggets from its relevant units."""

    task: str
    topic: str
    title: str
    description: str
    narrative: str
    units: tuple[UnitText, ...]


@dataclass(frozen=True)
class NuggetText(JsonResult):
    """A nugget an answer is checked for: its id, text and importance."""

    nugget: str
    text: str
    importance: str


@dataclass(frozen=True)
class AssignRequest(JsonResult):
    """Say which of a topic's nuggets one run's answer supports."""

    task: str
    topic: str
    title: str
    description: str
    narrative: str
    run: str
    answer: str
    nuggets: tuple[NuggetText, ...]

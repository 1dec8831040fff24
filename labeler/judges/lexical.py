"""The built-in `lexical` judge: term overlap with the topic's title, thresholds fitted on people's labels.

Weak by design, and documented as such: it needs no network and no model, and says only how
many of the title's words the unit contains. Its exact rule (all choices here are labeler's,
not from a paper):

- score s = |T ∩ U| / |T|, T the distinct lowercased word tokens (`\\w+`) of the topic title
  without a short English stop-word list, U those of the unit's text; s = 0 when T is empty.
- grade: thresholds t_1 <= ... <= t_k between the k + 1 grades of the scale; the grade is the
  number of thresholds s reaches. Fitted by quantile matching on the pairs of the same topics
  that people labelled (at least `MIN_EXAMPLES`): t_i is the score quantile at the share of
  examples graded below grade i, so the judge gives each grade about as often as people did.
  With fewer examples, fixed thresholds t_i = i / (k + 1).
- probs: a softmax over grades of -|s - c_g| / `TEMPERATURE`, c_g the mean score of the examples
  people gave grade g (fitted), or the middle of grade g's interval (fixed, or no example of g).

On answers (as weak, and as deterministic):

- draft: the sentences of the topic's relevant units (split after `.`, `!` or `?` followed by
  white space, and at blank lines, so a unit's title is a sentence of its own), each cut to
  `DRAFT_WORDS` words, scored by s above with the sentence as text; the `MAX_DRAFTS` best (ties:
  in the units' order), `vital` when s >= `VITAL_SCORE`, else `okay`, each naming the unit it
  came from. Sentences without a term of the title are left out.
- assign: c = |N ∩ A| / |N|, N the terms of the nugget and A those of the answer's text;
  `support` when c >= `SUPPORT_SHARE`, `partial_support` when c >= `PARTIAL_SHARE`, else
  `not_support` (and `not_support` for a nugget without terms).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from labeler.judges.base import AssignRequest, DraftRequest, JudgePair

MIN_EXAMPLES = 20
TEMPERATURE = 0.1
STOP_WORDS = frozenset(
    "a an and are as at be by do does for from how in is it of on or the to was what when where which who why "
    "with".split()
)
_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
MAX_DRAFTS = 10
DRAFT_WORDS = 40
VITAL_SCORE = 0.5
SUPPORT_SHARE = 0.8
PARTIAL_SHARE = 0.4


def terms(text: str) -> set[str]:
    return {word for word in _WORD.findall(text.lower()) if word not in STOP_WORDS}


def overlap_score(title: str, text: str) -> float:
    """The share of the title's distinct terms that occur in the text (0 when the title has none)."""
    wanted = terms(title)
    return len(wanted & terms(text)) / len(wanted) if wanted else 0.0


class LexicalJudge:
    name = "lexical"
    version = "1"

    def __init__(self) -> None:
        self.thresholds: list[float] | None = None
        self.centres: dict[int, float] = {}
        self.fitted = False

    @property
    def params(self) -> dict[str, Any]:
        return {"min_examples": MIN_EXAMPLES, "temperature": TEMPERATURE}

    def fit(self, examples: Sequence[tuple[JudgePair, int]], grades: Sequence[int]) -> None:
        """Thresholds by quantile matching and grade centres from people's labels (fixed ones when too few)."""
        scale = sorted(grades)
        usable = [(overlap_score(p.title, p.text), g) for p, g in examples if g in scale]
        if len(usable) < MIN_EXAMPLES:
            self.thresholds, self.centres, self.fitted = None, {}, False
            return
        scores = sorted(s for s, _ in usable)
        self.thresholds = [_threshold(scores, sum(1 for _, g in usable if g < grade)) for grade in scale[1:]]
        self.centres = {}
        for grade in scale:
            graded = [s for s, g in usable if g == grade]
            if graded:
                self.centres[grade] = math.fsum(graded) / len(graded)
        self.fitted = True

    def judge(self, pairs: Sequence[JudgePair], grades: Sequence[int]) -> Iterable[dict[str, Any]]:
        scale = sorted(grades)
        thresholds = self.thresholds or [i / len(scale) for i in range(1, len(scale))]
        for pair in pairs:
            score = overlap_score(pair.title, pair.text)
            grade = scale[sum(1 for t in thresholds if score >= t)]
            yield {"topic": pair.topic, "unit": pair.unit, "grade": grade, "probs": self.probs(score, scale)}

    def draft(self, requests: Sequence[DraftRequest]) -> Iterable[dict[str, Any]]:
        """Draft nuggets: the best sentences of each topic's relevant units (module docstring)."""
        return [draft_nuggets(request) for request in requests]

    def assign(self, requests: Sequence[AssignRequest]) -> Iterable[dict[str, Any]]:
        """Assign nuggets by the share of each nugget's terms the answer holds (module docstring)."""
        for request in requests:
            for nugget in request.nuggets:
                yield {
                    "topic": request.topic,
                    "nugget": nugget.nugget,
                    "assignment": assignment(nugget.text, request.answer),
                }

    def probs(self, score: float, scale: Sequence[int]) -> dict[str, float]:
        """Softmax over grades of -|score - centre| / TEMPERATURE (see the module's docstring)."""
        k = len(scale)
        centres = [self.centres.get(g, (i + 0.5) / k) for i, g in enumerate(scale)]
        logits = [-abs(score - c) / TEMPERATURE for c in centres]
        top = max(logits)
        weights = [math.exp(x - top) for x in logits]
        total = math.fsum(weights)
        return {str(g): w / total for g, w in zip(scale, weights, strict=True)}


def draft_nuggets(request: DraftRequest) -> dict[str, Any]:
    """The `MAX_DRAFTS` sentences of the relevant units sharing most terms with the title (module docstring)."""
    scored: list[tuple[float, int, str, str]] = []
    seen: set[str] = set()
    for unit in request.units:
        for sentence in _SENTENCE_END.split(unit.text):
            text = " ".join(sentence.split()[:DRAFT_WORDS])
            score = overlap_score(request.title, text)
            if score > 0 and text.lower() not in seen:
                seen.add(text.lower())
                scored.append((-score, len(scored), text, unit.unit))
    best = sorted(scored)[:MAX_DRAFTS]
    nuggets = [
        {"text": text, "importance": "vital" if -negative >= VITAL_SCORE else "okay", "sources": [unit]}
        for negative, _, text, unit in best
    ]
    return {"topic": request.topic, "nuggets": nuggets}


def assignment(nugget: str, answer: str) -> str:
    """`support`, `partial_support` or `not_support`: the share of the nugget's terms the answer holds."""
    wanted = terms(nugget)
    share = len(wanted & terms(answer)) / len(wanted) if wanted else 0.0
    if share >= SUPPORT_SHARE:
        return "support"
    return "partial_support" if share >= PARTIAL_SHARE else "not_support"


def _threshold(ordered: Sequence[float], below: int) -> float:
    """The least threshold that leaves the `below` lowest of the sorted scores under it (ties go under with them).

    `below` 0: every score reaches it (-inf).
    """
    if below <= 0:
        return -math.inf
    return math.nextafter(ordered[below - 1], math.inf)

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
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from labeler.judges.base import JudgePair

MIN_EXAMPLES = 20
TEMPERATURE = 0.1
STOP_WORDS = frozenset(
    "a an and are as at be by do does for from how in is it of on or the to was what when where which who why "
    "with".split()
)
_WORD = re.compile(r"\w+")


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

    def probs(self, score: float, scale: Sequence[int]) -> dict[str, float]:
        """Softmax over grades of -|score - centre| / TEMPERATURE (see the module's docstring)."""
        k = len(scale)
        centres = [self.centres.get(g, (i + 0.5) / k) for i, g in enumerate(scale)]
        logits = [-abs(score - c) / TEMPERATURE for c in centres]
        top = max(logits)
        weights = [math.exp(x - top) for x in logits]
        total = math.fsum(weights)
        return {str(g): w / total for g, w in zip(scale, weights, strict=True)}


def _threshold(ordered: Sequence[float], below: int) -> float:
    """The least threshold that leaves the `below` lowest of the sorted scores under it (ties go under with them).

    `below` 0: every score reaches it (-inf).
    """
    if below <= 0:
        return -math.inf
    return math.nextafter(ordered[below - 1], math.inf)

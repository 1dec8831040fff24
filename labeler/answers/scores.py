"""Scores of RAG answers: nugget recall (Pradeep et al., SIGIR 2025) and citation support (Thakur et al., 2025).

Nugget scores of one answer (run, topic), as nuggetizer's `calculate_nugget_scores`
computes them, with V the topic's vital nuggets and A all its nuggets:

- `strict_vital_score` = |vital nuggets labelled support| / |V|
- `strict_all_score` = |nuggets labelled support| / |A|
- `vital_score`, `all_score`: the same with 0.5 credit for partial support

A topic whose nuggets are all `okay` has no vital nugget: its vital scores are 0.0,
as nuggetizer gives them (the counts beside each score say so). A run's score is the
mean over the topics scored.

labeler's rule for a missing label (nuggetizer counts anything but support and
partial support as 0): an answer whose nuggets are not all assigned is not scored;
it is left out with the count of nuggets without a label (a pair in conflict has no
label), so a missing label never counts as `not_support`. Topics without nuggets and
topics the run did not answer are left out too, each with its reason.

Citation support of one answer: each sentence's first citation is judged full (1),
partial (0.5) or none (0). Weighted precision = credit / judged (sentence, citation)
pairs; weighted recall = credit / sentences (a sentence without citation earns no
credit). An answer whose cited sentences are not all judged is left out of support,
as for nuggets; one without any citation has no precision (None) and recall 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from labeler.answers.spaces import CREDIT
from labeler.json_form import JsonResult, json_field

NO_NUGGETS = "no nuggets"
NO_ANSWER = "no answer"
UNASSIGNED = "assignments incomplete"
UNJUDGED = "support incomplete"

SUPPORT, PARTIAL = 2, 1
SCORE_NAMES = ("strict_vital_score", "strict_all_score", "vital_score", "all_score")
"""nuggetizer's names of the four nugget scores, in its order."""


@dataclass(frozen=True)
class NuggetScore(JsonResult):
    """One answer's four nugget scores and what they are over (counts of nuggets and of labels)."""

    topic: str
    strict_vital_score: float
    strict_all_score: float
    vital_score: float
    all_score: float
    vital: int  # the topic's vital nuggets: the denominator of the vital scores
    nuggets: int  # all its nuggets: the denominator of the all scores
    supported: int  # nuggets labelled support
    partially_supported: int  # nuggets labelled partial support


@dataclass(frozen=True)
class LeftOut(JsonResult):
    """A topic a run's score is not over, and why (`unassigned`: its nuggets without a label)."""

    topic: str
    reason: str
    unassigned: int | None = json_field(default=None, omit_if_none=True)


@dataclass(frozen=True)
class SupportScore(JsonResult):
    """One answer's citation support: weighted precision over its judged pairs, weighted recall over sentences."""

    topic: str
    precision: float | None
    recall: float
    sentences: int
    judged: int  # (sentence, first citation) pairs judged: every cited sentence
    credit: float


def nugget_score(topic_id: str, importance: Mapping[str, str], labels: Mapping[str, int]) -> NuggetScore | LeftOut:
    """One answer's nugget scores: `importance` nugget id -> vital/okay, `labels` nugget id -> grade (2, 1, 0).

    Left out when the topic has no nuggets or a nugget has no label.
    """
    if not importance:
        return LeftOut(topic_id, NO_NUGGETS)
    unassigned = sum(1 for nugget_id in importance if nugget_id not in labels)
    if unassigned:
        return LeftOut(topic_id, UNASSIGNED, unassigned)
    vital = [labels[n] for n, level in importance.items() if level == "vital"]
    every = [labels[n] for n in importance]
    strict_vital, strict_all = vital.count(SUPPORT), every.count(SUPPORT)
    return NuggetScore(
        topic=topic_id,
        strict_vital_score=_ratio(strict_vital, len(vital)),
        strict_all_score=_ratio(strict_all, len(every)),
        vital_score=_ratio(strict_vital + 0.5 * vital.count(PARTIAL), len(vital)),
        all_score=_ratio(strict_all + 0.5 * every.count(PARTIAL), len(every)),
        vital=len(vital),
        nuggets=len(every),
        supported=strict_all,
        partially_supported=every.count(PARTIAL),
    )


def _ratio(part: float, whole: int) -> float:
    """nuggetizer's division: the sum as it adds it (whole credits, then halves), 0.0 over no nuggets."""
    return part / whole if whole else 0.0


def support_score(topic_id: str, cited: Sequence[bool], labels: Mapping[int, int]) -> SupportScore | LeftOut:
    """One answer's citation support: `cited[i]` whether sentence i + 1 cites, `labels` sentence number -> grade.

    Left out when a cited sentence has no label. Labels of sentences without a citation are ignored.
    """
    numbers = [i for i, cites in enumerate(cited, start=1) if cites]
    unjudged = sum(1 for i in numbers if i not in labels)
    if unjudged:
        return LeftOut(topic_id, UNJUDGED, unjudged)
    credit = math.fsum(CREDIT[labels[i]] for i in numbers)
    return SupportScore(
        topic=topic_id,
        precision=credit / len(numbers) if numbers else None,
        recall=credit / len(cited) if cited else 0.0,
        sentences=len(cited),
        judged=len(numbers),
        credit=credit,
    )


def mean(values: Sequence[float]) -> float | None:
    """The mean of a run's per-topic values (None over no topics): `statistics.mean`, as nuggetizer takes it."""
    from statistics import mean as exact_mean

    return exact_mean(values) if values else None

"""Input checks and small counts shared by the coverage reports.

Every report takes the same plain values (qrels `{topic: {unit: grade}}`,
runs `{run: {topic: [unit, ...]}}` in canonical order, the topics to report
on, a depth and a relevance threshold), so they are checked once, here, with
messages that name the run or topic at fault.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from labeler.metrics.denominators import check_cutoff, check_threshold, check_topics, topic_grades, topic_ranking

QrelsByTopic = dict[str, dict[str, int]]
RunsByName = dict[str, dict[str, list[str]]]

__all__ = [
    "CheckedInputs",
    "check_inputs",
    "check_cutoff",
    "check_qrels",
    "check_runs",
    "check_threshold",
    "check_topics",
    "is_judged",
    "mean",
    "relevant_set",
]


class CheckedInputs(NamedTuple):
    """A report's inputs once checked: the topics in order, the depth, and the grades and rankings of those topics."""

    topics: list[str]
    depth: int
    grades: QrelsByTopic
    rankings: RunsByName


def check_inputs(qrels: Any, runs: Any, *, topics: Sequence[str], depth: int, threshold: int) -> CheckedInputs:
    """Check a report's common inputs in the one order every report refuses them in (topics first, runs last)."""
    ordered = check_topics(topics)
    k = check_cutoff(depth, "depth")
    check_threshold(threshold)
    return CheckedInputs(ordered, k, check_qrels(qrels, ordered), check_runs(runs, ordered))


def check_qrels(qrels: Any, topics: Sequence[str], what: str = "qrels") -> QrelsByTopic:
    """The grades of each given topic (empty when it has none), refusing anything but whole-number grades."""
    if not isinstance(qrels, Mapping):
        raise ValueError(f"{what} must be a mapping {{topic: {{unit: grade}}}}, not {type(qrels).__name__}")
    checked: QrelsByTopic = {}
    for topic in topics:
        grades = qrels.get(topic)
        if grades is not None and not isinstance(grades, Mapping):
            raise ValueError(f"{what}: topic {topic!r} must map units to grades, not {type(grades).__name__}")
        try:
            checked[topic] = dict(topic_grades(qrels, topic))
        except ValueError as error:
            raise ValueError(f"{what}: {error}") from None
    return checked


def check_runs(runs: Any, topics: Sequence[str]) -> RunsByName:
    """Each run's rankings of the given topics, in run order; other topics are dropped.

    Runs must be a non-empty mapping of names to `{topic: [unit, ...]}`; a
    repeated unit is refused because it would count one unit twice. A run that
    does not rank a topic simply has no entry for it (scored as empty).
    """
    if not isinstance(runs, Mapping):
        raise ValueError(f"runs must be a mapping {{run: {{topic: [unit, ...]}}}}, not {type(runs).__name__}")
    if not runs:
        raise ValueError("no runs given")
    checked: RunsByName = {}
    for run, rankings in runs.items():
        if not isinstance(run, str) or not run:
            raise ValueError(f"run names must be non-empty text, not {run!r}")
        if not isinstance(rankings, Mapping):
            raise ValueError(f"run {run!r} must map topics to ranked units, not {type(rankings).__name__}")
        checked[run] = {}
        for topic in topics:
            if topic not in rankings:
                continue
            try:
                checked[run][topic] = topic_ranking(rankings, topic)
            except ValueError as error:
                raise ValueError(f"run {run!r}: {error}") from None
    return checked


def is_judged(grade: int | None) -> bool:
    """trec_eval's rule: judged means a grade of 0 or more; absent and < 0 ("pooled, not judged") are not."""
    return grade is not None and grade >= 0


def relevant_set(grades: Mapping[str, int], threshold: int) -> set[str]:
    """The units graded at or above the threshold."""
    return {unit for unit, grade in grades.items() if grade >= threshold}


def mean(values: Iterable[float]) -> float | None:
    """The arithmetic mean, or None over no values (a mean over zero topics is undefined, never 0)."""
    values = list(values)
    return sum(values) / len(values) if values else None

"""How many relevant units a topic has: the certain lower bound and a capture-recapture estimate.

Recall divides by R, and the judged relevant count is only a lower bound on
it (Zobel, SIGIR 1998). Capture-recapture between runs gives a rough
idea of how many relevant units no run has surfaced yet (Chapman's estimator). The estimate
is reported next to the bound and never replaces R in a measure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from labeler.coverage.inputs import (
    check_inputs,
    relevant_set,
)

DEPENDENCE_WARNING = (
    "capture-recapture assumes runs find relevant units independently; real runs find the same easy units, "
    "which inflates the overlap m and makes the estimate an underestimate of R (Kantor et al. 1999)"
)
# Below this many captured relevant units every pairwise estimate rests on a handful of counts.
MIN_CAPTURED = 5


def _check_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number of 0 or more, not {value!r}")
    return value


def chapman(n1: int, n2: int, m: int) -> dict[str, Any]:
    """Chapman's capture-recapture estimate of a population from two samples, with its standard error.

    R̂_C   = (n1+1)(n2+1)/(m+1) − 1                               (Chapman 1951)
    Var    = (n1+1)(n2+1)(n1−m)(n2−m) / ((m+1)²(m+2))             (Seber 1970)
    SE     = sqrt(Var)
    R̂_LP  = n1·n2/m (Lincoln–Petersen), None when m = 0

    n1 and n2 are the relevant units each sample found and m those found by
    both. Chapman stays finite at m = 0 but is then meaningless (§4.2).
    Worked: chapman(20, 30, 12) gives 49.077, SE 6.29, LP 50.
    """
    n1, n2, m = _check_count("n1", n1), _check_count("n2", n2), _check_count("m", m)
    if m > min(n1, n2):
        raise ValueError(f"m (found by both) cannot exceed n1 or n2: n1={n1}, n2={n2}, m={m}")
    variance = (n1 + 1) * (n2 + 1) * (n1 - m) * (n2 - m) / ((m + 1) ** 2 * (m + 2))
    return {
        "n1": n1,
        "n2": n2,
        "m": m,
        "estimate": (n1 + 1) * (n2 + 1) / (m + 1) - 1,
        "variance": variance,
        "se": math.sqrt(variance),
        "lincoln_petersen": n1 * n2 / m if m else None,
    }


def estimate_relevant(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    topics: Sequence[str],
    depth: int,
    threshold: int,
) -> dict[str, Any]:
    """Per topic: R's hard lower bound and the median Chapman estimate over every pair of runs.

    The lower bound is the topic's judged relevant units (grade >= threshold),
    the one certain statement about R (§4.1). For each pair of runs, n1 and
    n2 are the judged relevant units in each run's top K (K = `depth`) and m
    those in both; pairs with m = 0 are not used (Chapman is meaningless
    there). `chapman` is the median estimate over the pairs used (with an
    even count, the higher middle one, so it belongs to a real pair with an
    SE and leans against the known downward bias), reported with its `pair`,
    n1, n2, m and `se`. `estimate` = max(chapman, lower_bound): the estimate
    never falls below what is certain (`clipped` says when it was raised).

    `unreliable` is True, with `reasons`, when fewer than two runs are given,
    when no pair shares a relevant unit (no pair used; `estimate` is then
    None), or when fewer than 5 relevant units were captured in the runs' top
    K. Every topic carries `warning`: dependence between runs (they find the
    same easy units) makes the estimate an underestimate (Kantor, Kim, Ibraev
    & Atasoy, ASIS 1999).

    Returns {"depth", "threshold", "method", "warning", "topics": {topic: {"lower_bound",
    "captured", "estimate", "chapman", "se", "pair", "n1", "n2", "m", "pairs", "pairs_used",
    "clipped", "unreliable", "reasons", "warning"}}}.
    """
    ordered, k, grades, rankings = check_inputs(qrels, runs, topics=topics, depth=depth, threshold=threshold)

    return {
        "depth": k,
        "threshold": threshold,
        "method": "chapman, median over pairs of runs",
        "warning": DEPENDENCE_WARNING,
        "topics": estimate_topic_rows(grades, rankings, ordered, k, threshold),
    }


def estimate_topic_rows(
    grades: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, Mapping[str, Sequence[str]]],
    ordered: Sequence[str],
    k: int,
    threshold: int,
) -> dict[str, Any]:
    """Each topic's estimate from checked inputs: topics are independent, so batches of them merge by update."""
    report = {}
    for topic in ordered:
        relevant = relevant_set(grades[topic], threshold)
        found = {run: set(by_topic.get(topic, [])[:k]) & relevant for run, by_topic in rankings.items()}
        report[topic] = _topic_estimate(len(relevant), found)
    return report


def _topic_estimate(lower_bound: int, found: Mapping[str, set[str]]) -> dict[str, Any]:
    """One topic's estimate from the relevant units each run found in its top K."""
    pairs = list(combinations(found, 2))
    used = []
    for first, second in pairs:
        overlap = len(found[first] & found[second])
        if overlap:
            used.append(((first, second), chapman(len(found[first]), len(found[second]), overlap)))
    captured = len(set().union(*found.values())) if found else 0

    reasons = []
    if len(found) < 2:
        reasons.append("fewer than two runs")
    elif not used:
        reasons.append("no pair of runs shares a relevant unit (m = 0 for every pair)")
    if captured < MIN_CAPTURED:
        reasons.append(f"only {captured} relevant units captured in the runs' top K (fewer than {MIN_CAPTURED})")

    median = None
    if used:
        # Stable sort: equal estimates keep pair order, so the choice is deterministic.
        ordered = sorted(used, key=lambda item: item[1]["estimate"])
        median = ordered[len(ordered) // 2]
    chapman_value = median[1]["estimate"] if median else None
    return {
        "lower_bound": lower_bound,
        "captured": captured,
        "estimate": max(chapman_value, lower_bound) if chapman_value is not None else None,
        "chapman": chapman_value,
        "se": median[1]["se"] if median else None,
        "pair": list(median[0]) if median else None,
        "n1": median[1]["n1"] if median else None,
        "n2": median[1]["n2"] if median else None,
        "m": median[1]["m"] if median else None,
        "pairs": len(pairs),
        "pairs_used": len(used),
        "clipped": chapman_value is not None and chapman_value < lower_bound,
        "unreliable": bool(reasons),
        "reasons": reasons,
        "warning": DEPENDENCE_WARNING,
    }

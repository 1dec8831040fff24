"""trec_eval's measures computed here, number for number as trec_eval computes them.

`labeler.metrics.standard` used to send every trec_eval measure through
ir_measures and pytrec_eval; building pytrec_eval's dicts and its C pass cost
most of a `labeler eval` and of leave-one-run-out in `labeler coverage`. The
measures below are short loops over the positions of the relevant (or judged,
or positive-gain) units of a ranking, so they are computed here in plain
Python, following trec_eval 10.0's code step by step so that each value is the
same double (tests compare them with ir_measures' pytrec_eval backend on the
conformance data and on random runs and qrels):

- P@k        m_P.c: relevant in the top k / k (k even when the ranking is shorter).
- AP[@k]     m_map.c, m_map_cut.c: sum of (relevant so far)/(rank) over the relevant
             ranks (within k), summed in rank order, / |relevant in the qrels|.
- RR[@k]     m_recip_rank.c: 1/rank of the first relevant unit (within k), else 0.
- Rprec      m_Rprec.c: relevant in the top min(|ranking|, R) / R.
- Success@k  m_success.c: 1 if a relevant unit is in the top k.
- Bpref      m_bpref.c: over the judged units in rank order (grade >= 0; units graded
             < 0 and unjudged ones skipped), 1 − min(nonrel so far, R)/min(N, R) per
             relevant unit, / R; N counts the qrels graded 0 <= g < threshold.
- nDCG[@k]   m_ndcg_cut.c, m_ndcg.c with default gains: gain = grade where > 0,
             discount log2(rank + 1), DCG summed in rank order, ideal DCG from the
             qrels' positive grades sorted high to low (the first k of them), value
             DCG / ideal (0 when the ideal is 0). No threshold.

"Relevant" is grade >= threshold (trec_eval -l); R is the number of qrels so
graded. Rankings come cut at depth and in canonical order (trec_eval's own), so
rank i + 1 is index i. Discounts are `math.log2`, the C library's log2 that
trec_eval calls, and every sum is accumulated left to right as in its loops.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from itertools import compress

from labeler.metrics.names import Measure

NATIVE_FAMILIES = frozenset({"P", "AP", "RR", "Rprec", "Success", "Bpref", "nDCG"})
_BINARY = frozenset({"P", "AP", "RR", "Rprec", "Success"})

_LOG2: list[float] = []


def _discounts(n: int) -> list[float]:
    """log2(i + 2) for i < n (the discount of rank i + 1), grown as longer rankings come."""
    if len(_LOG2) < n:
        _LOG2.extend(math.log2(i + 2) for i in range(len(_LOG2), n))
    return _LOG2


def is_native(measure: Measure) -> bool:
    """Whether `native_scores` computes this measure (the rest of trec_eval's go through ir_measures)."""
    return measure.family in NATIVE_FAMILIES


def native_scores(
    grades: Mapping[str, Mapping[str, int]],
    ranked: Mapping[str, Sequence[str]],
    wanted: Sequence[Measure],
    ordered: Sequence[str],
    threshold: int,
) -> dict[str, dict[str, float]]:
    """{topic: {measure name: value}} for the native measures of `wanted` on every topic of `ordered`.

    Inputs are checked by the caller (`checked_standard_scores`): `grades` and
    `ranked` hold every topic, rankings distinct and cut at depth.
    """
    measures = [m for m in wanted if is_native(m)]
    binary = any(m.family in _BINARY for m in measures)
    graded = any(m.family == "nDCG" for m in measures)
    bpref = any(m.family == "Bpref" for m in measures)
    scores: dict[str, dict[str, float]] = {}
    for topic in ordered:
        ranking = ranked[topic]
        topic_grades = grades[topic]
        n = len(ranking)
        row: dict[str, float] = {}
        relevant_ranks: list[int] = []
        num_rel = 0
        if binary or bpref:
            relevant = {unit for unit, grade in topic_grades.items() if grade >= threshold}
            num_rel = len(relevant)
            if relevant and n:
                relevant_ranks = list(compress(range(n), map(relevant.__contains__, ranking)))
        gains: dict[str, int] = {}
        ideal: list[int] = []
        if graded:
            gains = {unit: grade for unit, grade in topic_grades.items() if grade > 0}
            ideal = sorted(gains.values(), reverse=True)
        for measure in measures:
            family, k = measure.family, measure.cutoff
            if family == "P":
                assert k is not None
                row[measure.name] = bisect_left(relevant_ranks, k) / k
            elif family == "AP":
                row[measure.name] = _ap(relevant_ranks, num_rel, k)
            elif family == "RR":
                first = relevant_ranks[0] if relevant_ranks else None
                row[measure.name] = 0.0 if first is None or (k is not None and first >= k) else 1.0 / (first + 1)
            elif family == "Rprec":
                look = min(n, num_rel)
                row[measure.name] = bisect_left(relevant_ranks, look) / num_rel if look else 0.0
            elif family == "Success":
                assert k is not None
                row[measure.name] = 1.0 if relevant_ranks and relevant_ranks[0] < k else 0.0
            elif family == "Bpref":
                row[measure.name] = _bpref(ranking, topic_grades, threshold, num_rel)
            else:  # nDCG
                row[measure.name] = _ndcg(ranking, gains, ideal, k)
        scores[topic] = row
    return scores


def _ap(relevant_ranks: list[int], num_rel: int, k: int | None) -> float:
    """m_map.c / m_map_cut.c: Σ (j + 1)/(rank) over the relevant ranks (those < k), / R; 0 without any."""
    total = 0.0
    found = 0
    for index in relevant_ranks:
        if k is not None and index >= k:
            break
        found += 1
        total += found / (index + 1)
    return total / num_rel if found else 0.0


def _bpref(ranking: Sequence[str], grades: Mapping[str, int], threshold: int, num_rel: int) -> float:
    """m_bpref.c over the judged units (grade >= 0) in rank order."""
    if not num_rel:
        return 0.0
    num_nonrel = sum(1 for grade in grades.values() if 0 <= grade < threshold)
    denominator = min(num_nonrel, num_rel)
    judged = {unit: grade for unit, grade in grades.items() if grade >= 0}
    nonrel_so_far = 0
    total = 0.0
    for unit in compress(ranking, map(judged.__contains__, ranking)):
        if judged[unit] < threshold:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - (min(nonrel_so_far, num_rel) / denominator)
        else:
            total += 1.0
    return total / num_rel


def _ndcg(ranking: Sequence[str], gains: Mapping[str, int], ideal: list[int], k: int | None) -> float:
    """m_ndcg_cut.c (k given) / m_ndcg.c (whole ranking): DCG / ideal DCG, both summed in rank order."""
    if not ideal:
        return 0.0
    top = ranking if k is None else ranking[:k]
    discount = _discounts(max(len(top), len(ideal) if k is None else min(k, len(ideal))))
    dcg = 0.0
    if gains:
        for index in compress(range(len(top)), map(gains.__contains__, top)):
            dcg += gains[top[index]] / discount[index]
    best = 0.0
    for index, gain in enumerate(ideal if k is None else ideal[:k]):
        best += gain / discount[index]
    return dcg / best if best > 0.0 else dcg

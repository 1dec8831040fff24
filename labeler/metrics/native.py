"""trec_eval's measures computed here, number for number as trec_eval computes them.

Sending every trec_eval measure through ir_measures and pytrec_eval, building
pytrec_eval's dicts and its C pass would cost most of a `labeler eval` and of
leave-one-run-out in `labeler coverage`. The
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
from collections.abc import Iterable, Mapping, Sequence
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
    `ranked` hold every topic, rankings distinct and cut at depth. Each ranking
    is scanned once (at C speed) for the ranks of its judged units; every
    measure then reads only those ranks and grades.
    """
    measures = [m for m in wanted if is_native(m)]
    scores: dict[str, dict[str, float]] = {}
    if not measures:
        return {topic: {} for topic in ordered}
    graded = any(m.family == "nDCG" for m in measures)
    for topic in ordered:
        ranking = ranked[topic]
        topic_grades = grades[topic]
        scores[topic] = topic_scores(
            measures, judged_ranks(ranking, topic_grades), len(ranking), topic_grades.values(), threshold, graded
        )
    return scores


def judged_ranks(ranking: Sequence[str], grades: Mapping[str, int]) -> list[tuple[int, int]]:
    """(index, grade) of each ranked unit that holds a grade (any grade, < 0 too), in rank order."""
    if not grades or not ranking:
        return []
    return [
        (index, grades[ranking[index]]) for index in compress(range(len(ranking)), map(grades.__contains__, ranking))
    ]


def topic_scores(
    measures: Sequence[Measure],
    hits: Sequence[tuple[int, int]],
    num_ret: int,
    qrels_grades: Iterable[int],
    threshold: int,
    graded: bool = True,
) -> dict[str, float]:
    """One topic's native measures from its judged ranks (`judged_ranks`), ranking length and qrels grades."""
    all_grades = list(qrels_grades)
    num_rel = sum(1 for grade in all_grades if grade >= threshold)
    relevant_ranks = [index for index, grade in hits if grade >= threshold]
    ideal = sorted((grade for grade in all_grades if grade > 0), reverse=True) if graded else []
    row: dict[str, float] = {}
    for measure in measures:
        family, k = measure.family, measure.cutoff
        if family == "P":
            row[measure.name] = _precision(relevant_ranks, k)
        elif family == "AP":
            row[measure.name] = _ap(relevant_ranks, num_rel, k)
        elif family == "RR":
            row[measure.name] = _rr(relevant_ranks, k)
        elif family == "Rprec":
            row[measure.name] = _rprec(relevant_ranks, num_ret, num_rel)
        elif family == "Success":
            row[measure.name] = _success(relevant_ranks, k)
        elif family == "Bpref":
            row[measure.name] = _bpref(hits, all_grades, threshold, num_rel)
        else:  # nDCG
            row[measure.name] = _ndcg(hits, ideal, k)
    return row


def _precision(relevant_ranks: list[int], k: int | None) -> float:
    """m_P.c: relevant units in the top k, / k (k is always given: P has no uncut form)."""
    assert k is not None
    return bisect_left(relevant_ranks, k) / k


def _rr(relevant_ranks: list[int], k: int | None) -> float:
    """m_recip_rank.c: 1 / the rank of the first relevant unit (within the top k when cut), else 0."""
    first = relevant_ranks[0] if relevant_ranks else None
    return 0.0 if first is None or (k is not None and first >= k) else 1.0 / (first + 1)


def _rprec(relevant_ranks: list[int], num_ret: int, num_rel: int) -> float:
    """m_Rprec.c: precision at R (the relevant count), reading no further than the ranking's length."""
    look = min(num_ret, num_rel)
    return bisect_left(relevant_ranks, look) / num_rel if look else 0.0


def _success(relevant_ranks: list[int], k: int | None) -> float:
    """m_success.c: 1 when a relevant unit is in the top k, else 0."""
    assert k is not None
    return 1.0 if relevant_ranks and relevant_ranks[0] < k else 0.0


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


def _bpref(hits: Sequence[tuple[int, int]], all_grades: list[int], threshold: int, num_rel: int) -> float:
    """m_bpref.c over the judged units (grade >= 0) in rank order; units graded < 0 are skipped."""
    if not num_rel:
        return 0.0
    denominator = min(sum(1 for grade in all_grades if 0 <= grade < threshold), num_rel)
    nonrel_so_far = 0
    total = 0.0
    for _, grade in hits:
        if grade < 0:
            continue
        if grade < threshold:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - (min(nonrel_so_far, num_rel) / denominator)
        else:
            total += 1.0
    return total / num_rel


def _ndcg(hits: Sequence[tuple[int, int]], ideal: list[int], k: int | None) -> float:
    """m_ndcg_cut.c (k given) / m_ndcg.c (whole ranking): DCG / ideal DCG, both summed in rank order."""
    if not ideal:
        return 0.0
    top_ideal = ideal if k is None else ideal[:k]
    last = hits[-1][0] + 1 if hits else 0
    discount = _discounts(max(last, len(top_ideal)))
    dcg = 0.0
    for index, gain in hits:
        if k is not None and index >= k:
            break
        if gain > 0:
            dcg += gain / discount[index]
    best = 0.0
    for index, gain in enumerate(top_ideal):
        best += gain / discount[index]
    return dcg / best if best > 0.0 else dcg

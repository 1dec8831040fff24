"""labeler's own measures, whose meaning depends on what they divide by.

Recall@k divides by the judged relevant set |G| (never by k), so it is
undefined when |G| = 0 and such a topic is left out of the mean rather than
scored 0. Its report
always carries the macro mean, the pooled (micro) value and the ceiling
min(k, |G|)/|G| that no ranking can beat. T, F and Fe
come from Schwartz, Vasilyev and Sawaya (arXiv 2512.20854), RBP with its residual from Moffat and Zobel (2008).

Everything here is plain Python over plain values, so the formulas can be read
next to their sources and tested on hand-worked numbers. This module also
holds the input checks every metric shares.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from labeler.models import topic_sort_key

Qrels = Mapping[str, Mapping[str, int]]
Rankings = Mapping[str, Sequence[str]]


# ---------------------------------------------------------------- input checks


def check_cutoff(k: Any, what: str = "k") -> int:
    """A cutoff is a whole number of at least 1."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"{what} must be a whole number of at least 1, not {k!r}")
    return k


def check_threshold(threshold: Any) -> int:
    """The lowest relevant grade: a whole number of 0 or more.

    A negative threshold would count "pooled, not judged" rows (grade < 0,
    trec_eval's convention) as relevant, which is never what is meant.
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
        raise ValueError(f"threshold must be a whole number of 0 or more, not {threshold!r}")
    return threshold


def check_depth(depth: Any) -> int | None:
    """`None` reads whole rankings; otherwise a whole number of at least 1 (trec_eval -M)."""
    return None if depth is None else check_cutoff(depth, "depth")


def check_topics(topics: Any) -> list[str]:
    """The caller's topics as distinct strings in `topic_sort_key` order.

    A topic listed twice would silently count twice in every mean, so it is refused.
    """
    if isinstance(topics, str) or not isinstance(topics, Collection):
        raise ValueError(f"topics must be a list of topic ids, not {topics!r}")
    seen: set[str] = set()
    for topic in topics:
        if not isinstance(topic, str):
            raise ValueError(f"topic ids must be text, not {topic!r}")
        if topic in seen:
            raise ValueError(f"topic {topic!r} is listed twice")
        seen.add(topic)
    return sorted(seen, key=topic_sort_key)


def topic_grades(qrels: Qrels, topic: str) -> Mapping[str, int]:
    """One topic's grades (empty when the topic has none), refusing non-integer grades."""
    grades = qrels.get(topic) or {}
    for unit, grade in grades.items():
        if isinstance(grade, bool) or not isinstance(grade, int):
            raise ValueError(f"topic {topic!r}, unit {unit!r}: grade must be a whole number, not {grade!r}")
    return grades


def condensed(ranking: Sequence[str], grades: Mapping[str, int]) -> list[str]:
    """The ranking with its unjudged units removed, the rest in order: trec_eval's -J (Sakai's condensed list).

    Judged means a grade of 0 or more (trec_eval's rule: an absent unit and a
    negative grade, "pooled, not judged", are both removed).
    """
    return [unit for unit in ranking if grades.get(unit, -1) >= 0]


def topic_ranking(rankings: Rankings, topic: str, depth: int | None = None) -> list[str]:
    """One topic's ranking cut at `depth` (empty when missing), refusing repeated units.

    trec_eval stops with an error on a repeated document; a repeat would count
    one hit twice, so it is refused here too.
    """
    ranking = rankings.get(topic) or []
    if isinstance(ranking, str):
        raise ValueError(f"topic {topic!r}: a ranking must be a list of unit ids, not a string")
    ranking = list(ranking)
    if len(set(ranking)) != len(ranking):  # one C-level pass; look for the first repeat only when there is one
        seen: set[str] = set()
        for unit in ranking:
            if unit in seen:
                raise ValueError(f"topic {topic!r}: unit {unit!r} appears twice in the ranking; deduplicate first")
            seen.add(unit)
    return ranking if depth is None else ranking[:depth]


def relevant_units(grades: Mapping[str, int], threshold: int) -> frozenset[str]:
    """G: the units graded at or above the threshold (distinct by construction)."""
    return frozenset(unit for unit, grade in grades.items() if grade >= threshold)


# ---------------------------------------------------------------- per-topic measures


def hits_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> int:
    """n_p: how many of the first k units are relevant."""
    return sum(1 for unit in ranking[:k] if unit in relevant)


def recall_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float | None:
    """Recall@k = |G ∩ top_k| / |G|; None when G is empty (excluded from means, never 0).

    Source: Manning, Raghavan and Schütze, Introduction to IR, ch. 8; the
    denominator is |G|, not k.
    """
    check_cutoff(k)
    if not relevant:
        return None
    return hits_at_k(ranking, relevant, k) / len(relevant)


def any_hit_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float | None:
    """1.0 when at least one relevant unit is in the top k; None when G is empty."""
    check_cutoff(k)
    if not relevant:
        return None
    return 1.0 if hits_at_k(ranking, relevant, k) > 0 else 0.0


def all_hit_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float | None:
    """1.0 when the whole labeled relevant set is in the top k; None when G is empty.

    A topic with |G| > k can never score 1 ("perfect
    recall is unreachable").
    """
    check_cutoff(k)
    if not relevant:
        return None
    return 1.0 if hits_at_k(ranking, relevant, k) == len(relevant) else 0.0


def _check_alpha(alpha: float) -> float:
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be between 0 and 1, not {alpha!r}")
    return alpha


def t_at_k(ranking: Sequence[str], relevant: Collection[str], k: int, alpha: float = 0.5) -> float:
    """T = (1-α)·n_p − α·n_n/K, with n_n = K − n_p (Schwartz et al., eq. 3).

    T does not need N_p = |G|, which is its point, so it is defined for every
    topic (−α when nothing relevant is in the top K). A ranking shorter than K
    keeps the paper's n_n = K − n_p: an empty slot costs as much as an
    irrelevant unit, so stopping early is not a way to avoid the penalty.
    Unjudged units count as negatives, as everywhere in the paper.
    """
    check_cutoff(k)
    _check_alpha(alpha)
    n_p = hits_at_k(ranking, relevant, k)
    n_n = k - n_p
    return (1 - alpha) * n_p - alpha * n_n / k


def f_at_k(ranking: Sequence[str], relevant: Collection[str], k: int, alpha: float = 0.5) -> float | None:
    """F = n_p / (α·K + (1−α)·N_p) (Schwartz et al., eq. 2; van Rijsbergen 1979).

    This is 1 / (α/P + (1−α)/R) with P = n_p/K and R = n_p/N_p, so α = 0.5 is
    the usual F1. It uses N_p = |G| like recall, so it is None when G is empty.
    """
    check_cutoff(k)
    _check_alpha(alpha)
    if not relevant:
        return None
    return hits_at_k(ranking, relevant, k) / (alpha * k + (1 - alpha) * len(relevant))


def fe_at_k(ranking: Sequence[str], relevant: Collection[str], k: int, alpha: float = 0.5) -> float:
    """Fe: F with N_p replaced by the relevant units in the top 2K of the same ranking (Schwartz et al., §2.1).

    N_e = |G ∩ top_2K| is a crude estimate of N_p that needs no knowledge of
    the whole relevant set, so Fe is defined for every topic. Since n_p ≤ N_e,
    the denominator is 0 only when α = 0 and N_e = 0, where n_p = 0 too; that
    0/0 is scored 0 (nothing relevant was retrieved, so nothing was gained).
    """
    check_cutoff(k)
    _check_alpha(alpha)
    n_p = hits_at_k(ranking, relevant, k)
    n_e = hits_at_k(ranking, relevant, 2 * k)
    denominator = alpha * k + (1 - alpha) * n_e
    return n_p / denominator if denominator else 0.0


def rbp(ranking: Sequence[str], grades: Mapping[str, int], threshold: int, p: float = 0.8) -> tuple[float, float]:
    """(RBP, residual) with binary gains (Moffat and Zobel, ACM TOIS 27(1), 2008).

    RBP      = (1−p) · Σ_{i≤d} g_i · p^(i−1),   g_i = 1 when grade ≥ threshold
    residual = p^d + (1−p) · Σ_{i≤d, unjudged} p^(i−1)

    d is the ranking's length (after any depth cut) and a unit is unjudged when
    it is absent from the qrels or graded below 0 (trec_eval's m_rbp_resid.c).
    The residual is how much RBP could still rise if every unjudged unit and
    the whole tail below d were relevant, so the truth lies in
    [RBP, RBP + residual]: the one honest interval under incomplete labels.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, not {p!r}")
    score = 0.0
    unjudged = 0.0
    weight = 1.0  # p^(i-1)
    for unit in ranking:
        grade = grades.get(unit)
        if grade is None or grade < 0:
            unjudged += weight
        elif grade >= threshold:
            score += weight
        weight *= p
    return (1 - p) * score, weight + (1 - p) * unjudged


# ---------------------------------------------------------------- recall over topics


def recall_report(
    qrels: Qrels, rankings: Rankings, topics: Sequence[str], k: int, threshold: int, *, depth: int | None = None
) -> dict[str, Any]:
    """Recall@k over topics with its denominators: macro, micro, ceiling and share of the ceiling.

    macro            = mean over topics of |G ∩ top_k| / |G|         (every topic weighs the same)
    micro            = Σ |G ∩ top_k| / Σ |G|                          (pooled: big topics weigh more)
    ceiling          = mean over topics of min(k, |G|) / |G|          (the best any ranking can do)
    share_of_ceiling = macro / ceiling

    Topics with |G| = 0 are left out and counted in `excluded`; when no topic
    remains every figure is None and `topics` is 0, never a silent 0
    (its mean is undefined too).
    """
    check_cutoff(k)
    check_threshold(threshold)
    depth = check_depth(depth)
    return checked_recall_report(
        check_topics(topics),
        k,
        lambda topic: relevant_units(topic_grades(qrels, topic), threshold),
        lambda topic: topic_ranking(rankings, topic, depth),
    )


def checked_recall_report(
    topics: Sequence[str],
    k: int,
    relevant_of: Callable[[str], frozenset[str]],
    ranking_of: Callable[[str], Sequence[str]],
) -> dict[str, Any]:
    """`recall_report` after its checks, for a caller that has made the same checks already (`evaluate`).

    `topics` comes from check_topics and `k` passed check_cutoff; `relevant_of`
    gives a topic's G, `ranking_of` its checked ranking cut at depth (asked
    only for topics with |G| > 0, as recall_report reads them).
    """
    counts: list[tuple[int, int]] = []
    excluded = 0
    for topic in topics:
        relevant = relevant_of(topic)
        if not relevant:
            excluded += 1
            continue
        counts.append((hits_at_k(ranking_of(topic), relevant, k), len(relevant)))
    return recall_summary(k, counts, excluded)


def recall_summary(k: int, counts: Iterable[tuple[int, int]], excluded: int) -> dict[str, Any]:
    """The Recall@k report from each scored topic's (hits in the top k, |G| > 0), in topic order.

    What `recall_report` sums, split out so that a caller scoring topics a
    batch at a time can keep two integers per topic and sum once at the end,
    giving the same floats as one call over every topic.
    """
    recalls: list[float] = []
    caps: list[float] = []
    hits_total = relevant_total = 0
    for hits, relevant in counts:
        recalls.append(hits / relevant)
        caps.append(min(k, relevant) / relevant)
        hits_total += hits
        relevant_total += relevant
    if not recalls:
        return {
            "k": k,
            "macro": None,
            "micro": None,
            "ceiling": None,
            "share_of_ceiling": None,
            "topics": 0,
            "excluded": excluded,
            "hits": 0,
            "relevant": 0,
        }
    macro = sum(recalls) / len(recalls)
    ceiling = sum(caps) / len(caps)
    return {
        "k": k,
        "macro": macro,
        "micro": hits_total / relevant_total,
        "ceiling": ceiling,
        "share_of_ceiling": macro / ceiling,
        "topics": len(recalls),
        "excluded": excluded,
        "hits": hits_total,
        "relevant": relevant_total,
    }

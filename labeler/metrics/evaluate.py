"""Score rankings against labels, keeping every mean next to the topics it rests on.

`evaluate` is the one entry point the services call: it sends the trec_eval
measures to `standard`, labeler's own measures to `denominators`, and returns
per-topic values, means, how many topics each mean averages, RBP residuals and
the full Recall@k report (macro, micro, ceiling) for every R@k asked for.
A mean over zero topics is None, never 0: a mean is only shown with the
topics it rests on, and no topics is no mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from labeler.metrics import denominators as d
from labeler.metrics.denominators import Qrels, Rankings
from labeler.metrics.names import FAMILIES, Measure, parse_measures, standard_families
from labeler.metrics.standard import checked_standard_scores


@dataclass(frozen=True)
class Evaluation:
    """The scores of one set of rankings on one set of labels.

    per_query  {topic: {measure name: value or None}}, topics in topic_sort_key order
    aggregate  {measure name: mean over the topics whose value is not None, or None}
    counts     {measure name: how many topics that mean rests on}
    residuals  {RBP measure name: mean residual over the same topics, or None}
    per_query_residuals {topic: {RBP measure name: residual}}: each topic's RBP lies in
               [RBP, RBP + residual]
    recall     {k: recall_report(...)} for every k of the R@k measures asked for
    recall_counts {k: {topic: (hits in the top k, |G|), or None without G}}: what `recall` sums,
               kept so that evaluations of topic batches merge exactly (`merge_evaluations`)
    """

    per_query: dict[str, dict[str, float | None]]
    aggregate: dict[str, float | None]
    counts: dict[str, int]
    residuals: dict[str, float | None] = field(default_factory=dict)
    recall: dict[int, dict[str, Any]] = field(default_factory=dict)
    per_query_residuals: dict[str, dict[str, float]] = field(default_factory=dict)
    topics: tuple[str, ...] = ()
    threshold: int = 1
    depth: int | None = None
    measures: tuple[Measure, ...] = ()
    judged_only: bool = False
    recall_counts: dict[int, dict[str, tuple[int, int] | None]] = field(default_factory=dict)


def evaluate(
    qrels: Qrels,
    rankings: Rankings,
    measures: str | Iterable[str | Measure],
    *,
    topics: Sequence[str],
    threshold: int,
    depth: int | None = None,
    judged_only: bool = False,
) -> Evaluation:
    """Score `rankings` (canonical order) against `qrels` on exactly `topics`.

    A topic missing from `rankings` is an empty ranking (0 for most measures,
    as trec_eval -c); a topic with no relevant unit is None for the recall
    family (R@k, AnyHit, AllHit, F) and left out of those means; `depth` reads
    only the first `depth` units of each ranking (trec_eval -M); `judged_only`
    then removes the units without a judgment from each ranking before any
    measure reads it (trec_eval -J, Sakai's condensed lists), so every family
    scores the same condensed ranking.
    """
    wanted = parse_measures(measures)
    d.check_threshold(threshold)
    depth = d.check_depth(depth)
    ordered = d.check_topics(topics)

    grades = {topic: d.topic_grades(qrels, topic) for topic in ordered}
    ranked = {topic: _ranking(rankings, topic, depth, grades[topic], judged_only) for topic in ordered}
    relevant = {topic: d.relevant_units(grades[topic], threshold) for topic in ordered}

    standard = [m for m in wanted if m.family in standard_families()]
    # The inputs are checked above and the rankings cut at depth: the checked entry points do not redo it.
    from_library = (
        checked_standard_scores(grades, ranked, standard, ordered, threshold)
        if standard
        else {topic: {} for topic in ordered}
    )

    # |G ∩ top_k| once per topic and k: R@k's value and the recall report both read it.
    recall_ks = sorted({m.k for m in wanted if m.family == "R"})
    hits = {k: {topic: _hits_at_k(ranked[topic], relevant[topic], k) for topic in ordered} for k in recall_ks}

    per_query: dict[str, dict[str, float | None]] = {}
    per_query_residual: dict[str, dict[str, float]] = {}
    for topic in ordered:
        per_query[topic], per_query_residual[topic] = _topic_row(
            wanted, from_library[topic], hits, topic, ranked[topic], grades[topic], relevant[topic], threshold
        )

    recall_counts = {
        k: {topic: (hits[k][topic], len(relevant[topic])) if relevant[topic] else None for topic in ordered}
        for k in recall_ks
    }
    evaluation = _summarize(wanted, ordered, per_query, per_query_residual, recall_counts, threshold, depth)
    return replace(evaluation, judged_only=judged_only)


def _topic_row(
    wanted: list[Measure],
    from_library: Mapping[str, float],
    hits: Mapping[int, Mapping[str, int]],
    topic: str,
    ranking: list[str],
    grades: Mapping[str, int],
    relevant: frozenset[str],
    threshold: int,
) -> tuple[dict[str, float | None], dict[str, float]]:
    """One topic's value of every measure (in the order asked) and the RBP residuals.

    Each measure comes from where it is computed: the standard code (`from_library`), the R@k hits
    counted once per k, RBP with its residual, or labeler's own measures (`labeler.metrics.denominators`).
    """
    row: dict[str, float | None] = {}
    residual_row: dict[str, float] = {}
    for measure in wanted:
        if measure.name in from_library:
            row[measure.name] = from_library[measure.name]
        elif measure.family == "R":  # recall_at_k: |G ∩ top_k| / |G|, None without G
            row[measure.name] = hits[measure.k][topic] / len(relevant) if relevant else None
        elif _is_rbp(measure):
            row[measure.name], residual_row[measure.name] = d.rbp(ranking, grades, threshold, measure.parameter)
        else:
            row[measure.name] = _seed_measure(measure, ranking, relevant)
    return row, residual_row


def _ranking(
    rankings: Rankings, topic: str, depth: int | None, grades: Mapping[str, int], judged_only: bool
) -> list[str]:
    """One topic's ranking cut at `depth`, then condensed to its judged units when asked (trec_eval -M, then -J)."""
    ranking = d.topic_ranking(rankings, topic, depth)
    return d.condensed(ranking, grades) if judged_only else ranking


def _summarize(
    wanted: list[Measure],
    ordered: Sequence[str],
    per_query: dict[str, dict[str, float | None]],
    per_query_residual: dict[str, dict[str, float]],
    recall_counts: dict[int, dict[str, tuple[int, int] | None]],
    threshold: int,
    depth: int | None,
) -> Evaluation:
    """The means, counts, residual means and recall reports of per-topic values, summed in topic order."""
    aggregate: dict[str, float | None] = {}
    counts: dict[str, int] = {}
    residuals: dict[str, float | None] = {}
    for measure in wanted:
        values = {topic: value for topic in ordered if (value := per_query[topic][measure.name]) is not None}
        scored = list(values)
        counts[measure.name] = len(scored)
        aggregate[measure.name] = _mean(values.values())
        if _is_rbp(measure):
            residuals[measure.name] = _mean(per_query_residual[topic][measure.name] for topic in scored)
    recall = {}
    for k, by_topic in recall_counts.items():
        rows = [by_topic[topic] for topic in ordered]
        recall[k] = d.recall_summary(k, [row for row in rows if row is not None], rows.count(None))
    return Evaluation(
        per_query=per_query,
        aggregate=aggregate,
        counts=counts,
        residuals=residuals,
        recall=recall,
        per_query_residuals=per_query_residual,
        topics=tuple(ordered),
        threshold=threshold,
        depth=depth,
        measures=tuple(wanted),
        recall_counts=recall_counts,
    )


def merge_evaluations(parts: Sequence[Evaluation]) -> Evaluation:
    """One Evaluation of the union of disjoint topic batches: the same numbers as evaluating them together.

    Every mean is a mean of per-topic values and every recall report a sum of
    per-topic counts, so a caller can score a large run a batch of topics at a
    time (holding one batch's rankings) and merge. The parts must come from
    `evaluate` with the same measures, threshold and depth.
    """
    if not parts:
        raise ValueError("no evaluations to merge")
    first = parts[0]
    for part in parts[1:]:
        if (part.measures, part.threshold, part.depth, part.judged_only) != (
            first.measures,
            first.threshold,
            first.depth,
            first.judged_only,
        ):
            raise ValueError(
                "evaluations of different measures, thresholds, depths or judged-only settings cannot be merged"
            )
    seen: set[str] = set()
    for part in parts:
        repeated = seen.intersection(part.topics)
        if repeated:
            raise ValueError(f"topic {sorted(repeated)[0]!r} is in two of the evaluations merged")
        seen.update(part.topics)
    ordered = d.check_topics(list(seen))
    per_query = {t: row for part in parts for t, row in part.per_query.items()}
    residual = {t: row for part in parts for t, row in part.per_query_residuals.items()}
    recall_counts = {
        k: {t: row for part in parts for t, row in part.recall_counts[k].items()} for k in first.recall_counts
    }
    merged = _summarize(
        list(first.measures),
        ordered,
        {t: per_query[t] for t in ordered},
        {t: residual[t] for t in ordered},
        recall_counts,
        first.threshold,
        first.depth,
    )
    return replace(merged, judged_only=first.judged_only)


def _hits_at_k(ranking: list[str], relevant: frozenset[str], k: int) -> int:
    """n_p = |G ∩ top_k| (`denominators.hits_at_k`), counted at C speed: the ranking's units are distinct."""
    return len(relevant.intersection(ranking[:k])) if relevant else 0


def _seed_measure(measure: Measure, ranking: list[str], relevant: frozenset[str]) -> float | None:
    """One topic's value for a measure computed here: the registered family's function (labeler.metrics.names)."""
    compute = FAMILIES.get(measure.family).compute
    if compute is None:
        raise ValueError(f"no implementation for measure {measure.name!r}")
    return compute(measure, ranking, relevant)


def _is_rbp(measure: Measure) -> bool:
    """Whether the measure is scored by `denominators.rbp`, which also gives the residual a report shows beside it."""
    return FAMILIES.get(measure.family).backend == "rbp"


def _mean(values: Iterable[float]) -> float | None:
    """The arithmetic mean, or None for no values (a mean over zero topics is undefined)."""
    values = list(values)
    return sum(values) / len(values) if values else None

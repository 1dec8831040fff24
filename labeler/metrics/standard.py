"""The measures trec_eval also computes, computed by trec_eval's own code.

P@k, nDCG[@k], AP[@k], RR, Rprec, Bpref, infAP and Success@k go through
ir_measures with its pytrec_eval backend (trec_eval's C code), so labeler
agrees with trec_eval to the 4 decimals it prints instead of re-implementing
it. Three things make that agreement hold:

- Order. Rankings arrive in canonical order (score desc, ties by id desc, as
  trec_eval sorts). pytrec_eval re-sorts by score, so it is fed synthetic
  scores len(ranking) − index that strictly decrease with rank and can never
  tie; the original scores never reach it.
- Threshold. Binary measures get `rel=threshold` (trec_eval -l); nDCG takes
  no threshold and uses the grades as gains, a grade < 0 giving gain 0
  (trec_eval and pytrec_eval do the same with -l).
- Topics. The caller chooses the topics, like trec_eval -c: a topic missing
  from the rankings is scored as an empty ranking (0), and a topic with no
  judgments at all is scored 0 as well, the value trec_eval gives a topic
  whose judgments hold nothing relevant (pytrec_eval itself skips topics it
  has no qrels for, so those values are filled in here).
- Topics judged only "pooled, not judged" (every grade < 0) are not handed to
  pytrec_eval either: they have nothing relevant and no positive gain, so
  every measure here is 0, and trec_eval's form_res_rels.c leaves its static
  `num_rel_levels` at the previous topic's value for such a topic, so its
  nDCG then reads past `rel_levels` (seen here as pytrec_eval 0.5 looping
  forever, depending on what was evaluated before).

Two measures are native, with trec_eval's semantics:

- RR@k: the pytrec_eval provider of ir_measures 0.4.3 accepts `RR@k` but
  silently ignores the cutoff (RR@1 of a ranking whose first relevant unit is
  at rank 2 comes back as 0.5), so RR@k is 1/rank of the first relevant unit
  within the top k, else 0.
- Judged@k: trec_eval's `unj.k` counts a unit as judged when its grade is
  ≥ 0 and divides by k; ir_measures' Judged counts −1 rows as judged and
  divides by len(run) for short runs (trec_eval's `unj` code; ir_measures' docs). Here
  Judged@k = |{top_k units graded ≥ 0}| / k, so an empty ranking scores 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from labeler.errors import LabelerError
from labeler.metrics.denominators import (
    Qrels,
    Rankings,
    check_cutoff,
    check_depth,
    check_threshold,
    check_topics,
    topic_grades,
    topic_ranking,
)
from labeler.metrics.names import FAMILIES, Measure, parse_measures, standard_families
from labeler.metrics.native import is_native, native_scores

if TYPE_CHECKING:
    from ir_measures.measures import Measure as LibraryMeasure


def judged_at_k(ranking: Sequence[str], grades: Mapping[str, int], k: int) -> float:
    """Judged@k = |{d ∈ top_k : grade(d) ≥ 0}| / k (trec_eval unj.k = 1 − this for runs of ≥ k units).

    Absent units and grades < 0 ("pooled, not judged") count as unjudged, and
    the denominator stays k for short rankings, so coverage is never inflated
    by a run that stops early.
    """
    check_cutoff(k)
    judged = 0
    for unit in ranking[:k]:
        grade = grades.get(unit)
        if grade is not None and grade >= 0:
            judged += 1
    return judged / k


def rr_at_k(ranking: Sequence[str], relevant: Iterable[str] | frozenset[str], k: int | None = None) -> float:
    """1/rank of the first relevant unit within the top k (the whole ranking when k is None), else 0."""
    relevant = relevant if isinstance(relevant, (set, frozenset)) else set(relevant)
    for rank, unit in enumerate(ranking if k is None else ranking[:k], start=1):
        if unit in relevant:
            return 1.0 / rank
    return 0.0


def _ir_measure(measure: Measure, threshold: int) -> LibraryMeasure:
    """The ir_measures object for one standard measure, named as the family, with rel=threshold unless graded.

    The registry says which: a graded family (nDCG) takes the grades as gains
    and no threshold, every other standard family counts a unit relevant at
    the scale's threshold (trec_eval -l).
    """
    import ir_measures
    from ir_measures.measures import Measure as LibraryMeasure

    family = FAMILIES.get(measure.family)
    obj = getattr(ir_measures.measures, family.name, None)
    if family.backend != "standard" or not isinstance(obj, LibraryMeasure):
        raise ValueError(f"{measure.name} is not computed by trec_eval's code")
    if not family.graded:
        obj = obj(rel=threshold)
    return obj @ measure.cutoff if measure.cutoff is not None else obj


def standard_scores(
    qrels: Qrels,
    rankings: Rankings,
    measures: Iterable[Measure | str] | str,
    *,
    topics: Sequence[str],
    threshold: int,
    depth: int | None = None,
) -> dict[str, dict[str, float]]:
    """Per-topic values {topic: {measure name: value}} for the trec_eval measures and Judged@k.

    Every given topic gets every measure (0 for an empty ranking or a topic
    with no judgments, as with trec_eval -c). RR@k and Judged@k are native
    (see the module docstring); the rest come from pytrec_eval.
    """
    wanted = parse_measures(measures)
    check_threshold(threshold)
    depth = check_depth(depth)
    ordered = check_topics(topics)
    unsupported = [m.name for m in wanted if m.family not in standard_families()]
    if unsupported:
        raise ValueError(f"not a trec_eval measure: {', '.join(unsupported)}")

    grades = {topic: topic_grades(qrels, topic) for topic in ordered}
    ranked = {topic: topic_ranking(rankings, topic, depth) for topic in ordered}
    return checked_standard_scores(grades, ranked, wanted, ordered, threshold)


def checked_standard_scores(
    grades: Mapping[str, Mapping[str, int]],
    ranked: Mapping[str, list[str]],
    wanted: list[Measure],
    ordered: list[str],
    threshold: int,
    *,
    native: bool = True,
) -> dict[str, dict[str, float]]:
    """`standard_scores` after its checks, for a caller that has made the same checks already (`evaluate`).

    `wanted` comes from parse_measures and holds only standard and native
    measures; `ordered` from check_topics; `grades` and `ranked` hold every
    topic of `ordered`, from topic_grades and topic_ranking (cut at depth);
    `threshold` passed check_threshold. Nothing is checked again here.
    The measures `labeler.metrics.native` implements are computed there, the
    others (infAP) by pytrec_eval; `native=False` sends every measure
    pytrec_eval has to it, the reference the tests hold the native code to.
    """
    computed_here = [m for m in wanted if native and is_native(m)]
    scores = native_scores(grades, ranked, computed_here, ordered, threshold)
    by_library = _score_seed_measures(
        scores, grades, ranked, [m for m in wanted if not (native and is_native(m))], ordered, threshold
    )
    if by_library:
        _score_by_library(scores, grades, ranked, by_library, ordered, threshold)
    # Keep each topic's measures in the order they were asked for.
    order = [m.name for m in wanted]
    return {topic: {name: scores[topic][name] for name in order} for topic in ordered}


def _score_seed_measures(
    scores: dict[str, dict[str, float]],
    grades: Mapping[str, Mapping[str, int]],
    ranked: Mapping[str, list[str]],
    measures: list[Measure],
    ordered: list[str],
    threshold: int,
) -> dict[str, LibraryMeasure]:
    """Adds Judged@k and RR@k to `scores` (labeler's definitions in docs/metrics.md, not trec_eval's); returns the rest.

    The rest, by name, are the ir_measures objects pytrec_eval computes.
    """
    by_library: dict[str, LibraryMeasure] = {}
    for measure in measures:
        if measure.family == "Judged":
            for topic in ordered:
                scores[topic][measure.name] = judged_at_k(ranked[topic], grades[topic], measure.k)
        elif measure.family == "RR" and measure.cutoff is not None:
            for topic in ordered:
                relevant = {u for u, g in grades[topic].items() if g >= threshold}
                scores[topic][measure.name] = rr_at_k(ranked[topic], relevant, measure.cutoff)
        else:
            by_library[measure.name] = _ir_measure(measure, threshold)
    return by_library


def _score_by_library(
    scores: dict[str, dict[str, float]],
    grades: Mapping[str, Mapping[str, int]],
    ranked: Mapping[str, list[str]],
    by_library: dict[str, LibraryMeasure],
    ordered: list[str],
    threshold: int,
) -> None:
    """Adds pytrec_eval's values to `scores` (0 for a topic it was not given: see `_pytrec_eval`)."""
    if threshold < 1:
        # pytrec_eval refuses relevance_level 0 with a ValueError (a traceback in the CLI); say it instead.
        raise LabelerError(
            f"{', '.join(by_library)} cannot be computed with a scale whose threshold is 0: trec_eval's code, "
            "which computes it, counts a unit relevant from grade 1 at the least"
        )
    library_scores = _pytrec_eval(grades, ranked, list(by_library.values()))
    for topic in ordered:
        for name, obj in by_library.items():
            scores[topic][name] = library_scores.get((topic, obj), 0.0)


def _pytrec_eval(
    grades: Mapping[str, Mapping[str, int]], ranked: Mapping[str, list[str]], objects: list[LibraryMeasure]
) -> dict[tuple[str, object], float]:
    """{(topic, ir_measures object): value} from pytrec_eval, fed strictly decreasing synthetic scores.

    Only topics with a non-empty ranking and at least one grade >= 0 are
    passed; every measure computed here is 0 for the others.
    """
    import ir_measures

    provider = ir_measures.pytrec_eval
    for obj in objects:
        if not provider.supports(obj):
            raise ValueError(f"ir_measures' pytrec_eval backend cannot compute {obj}")
    # Only topics with a grade >= 0 (see the module docstring on all-negative topics).
    qrels = {topic: dict(g) for topic, g in grades.items() if ranked[topic] and any(grade >= 0 for grade in g.values())}
    if not qrels:
        return {}
    # Unit at index i of a ranking of n gets float(n - i): one shared list of scores, sliced per topic.
    longest = max(len(ranked[topic]) for topic in qrels)
    synthetic = [float(score) for score in range(longest, 0, -1)]
    run = {topic: dict(zip(ranked[topic], synthetic[longest - len(ranked[topic]) :], strict=True)) for topic in qrels}
    return {
        (metric.query_id, metric.measure): float(metric.value) for metric in provider.iter_calc(objects, qrels, run)
    }

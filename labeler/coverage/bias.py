"""Pool bias by leave-one-run-out: how much a run's score rests on units only it brought into the pool.

A run that did not contribute to a pool (a new system) is scored as if its
unique finds were non-relevant. Leaving each pooled run out in turn
simulates that and measures the penalty a new run of similar quality would
pay (Zobel, SIGIR 1998; Buckley, Dimmick, Soboroff & Voorhees, Information
Retrieval 10(6), 2007).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from labeler.coverage.correlation import EQUIVALENT_TAU, compare_rankings
from labeler.coverage.inputs import (
    QrelsByTopic,
    RunsByName,
    check_cutoff,
    check_qrels,
    check_runs,
    check_threshold,
    check_topics,
    mean,
)
from labeler.metrics import Measure, evaluate, judged_at_k, parse_measures
from labeler.metrics.native import is_native, judged_ranks, topic_scores
from labeler.pooling import PoolView, depth_pool, unique_contributions

DEFAULT_LORO_MEASURES = ("AP", "nDCG@10", "R@10", "Bpref")

# When the pool "favours" a run: its leave-one-run-out drop stands out from the other runs' drops.
FAVOURED_FLOOR = 0.01
FAVOURED_FACTOR = 2.0
FAVOURED_RULE = (
    f"a drop of at least {FAVOURED_FLOOR} and at least {FAVOURED_FACTOR:g} times the median drop of the other runs"
)


def favoured_sentence(
    measure: str | None, favoured: Sequence[str], loro: Mapping[str, Mapping[str, Mapping[str, Any]] | None]
) -> str:
    """What the CLI and the report say of the favoured runs, with the rule they were picked by.

    `favoured`: the runs, largest drop first; `loro`: each run's leave-one-run-out figures by
    measure (their `drop` is shown). `The pool favours bm25 (AP drop 0.120): ...`, or that it
    favours none; empty when leave-one-run-out was not run (`measure` None).
    """
    if measure is None:
        return ""
    drops = {run: ((loro.get(run) or {}).get(measure) or {}).get("drop") for run in favoured}
    if not drops:
        return f"The pool favours no run: no {measure} drop stands out ({FAVOURED_RULE})."
    shown = ", ".join(f"{run} ({measure} drop {'-' if d is None else f'{d:.3f}'})" for run, d in drops.items())
    return (
        f"The pool favours {shown}: scored without the units only they found, they lose more than the "
        f"other runs ({FAVOURED_RULE})."
    )


def stands_out(drop: float, others: Sequence[float]) -> bool:
    """Whether a run's leave-one-run-out drop stands out: the pool favours that run (`FAVOURED_RULE`).

    Every pooled run loses a little when its unique units go unjudged (Zobel 1998 found
    about 2% on TREC pools), so a positive drop alone says nothing about one run: what
    matters is a drop well beyond what the other runs lose. The rule compares the drop
    with the median drop of the *other* runs (the median is not moved by one large
    drop, and leaving the run itself out lets two runs be compared), and asks for twice
    it: with drops of 0.03 all round none stands out; with 0.12 against 0.02 and 0.03
    one does. The absolute floor of 0.01 (a hundredth on a 0-1 measure, below the
    precision scores are compared at) keeps a run out when every drop is near zero and
    twice almost nothing is still almost nothing. A run alone has nothing to stand out
    from. The run-to-run spread of drops at TREC scale (a handful to a few dozen runs)
    is too small a sample for quartile fences, which is why the rule uses the median.
    """
    if not others or drop < FAVOURED_FLOOR:
        return False
    ordered = sorted(others)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return drop >= FAVOURED_FACTOR * max(median, 0.0)


def _without_units(grades: QrelsByTopic, removed: Mapping[str, Iterable[str]]) -> QrelsByTopic:
    """The qrels with the given (topic, unit) judgments taken out ("not in pool")."""
    reduced: QrelsByTopic = {}
    for topic, units in grades.items():
        gone = set(removed.get(topic, ()))
        reduced[topic] = {unit: grade for unit, grade in units.items() if unit not in gone}
    return reduced


def leave_out_qrels(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    run: str,
    *,
    topics: Sequence[str],
    depth: int,
) -> QrelsByTopic:
    """qrels^{−run}: the given topics' judgments minus those of the units only `run` brought into the depth-k pool.

    The literature's qrels^{−r} = qrels ∩ Pool_k^{−r} (§2.2, step 2). The two
    agree whenever the judgments came from the depth-k pool of these runs;
    judgments from elsewhere (a deeper pool, runs not given, imported qrels)
    were not `run`'s contribution and are kept, so the drop measures only what
    `run` alone contributed.
    """
    ordered = check_topics(topics)
    k = check_cutoff(depth, "depth")
    rankings = check_runs(runs, ordered)
    if run not in rankings:
        raise ValueError(f"run {run!r} is not among the given runs: {', '.join(rankings)}")
    unique = unique_contributions(depth_pool(rankings, k, fuse=False, distinct=True), list(rankings))
    return _without_units(check_qrels(qrels, ordered), unique[run])


def _change(full: float | None, without: float | None) -> dict[str, float | None]:
    drop = None if full is None or without is None else full - without
    relative = None if drop is None or not full else drop / full
    return {"full": full, "without": without, "drop": drop, "relative_drop": relative}


def leave_one_run_out(
    qrels: Mapping[str, Mapping[str, int]],
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    topics: Sequence[str],
    depth: int,
    threshold: int,
    measures: str | Iterable[str] = DEFAULT_LORO_MEASURES,
    rescore_all: bool = False,
) -> dict[str, Any]:
    """Each run's scores with and without the judgments of the units only it contributed at depth k.

    For each run r (Zobel 1998; Buckley et al. 2007):
      1. qrels^{−r} = qrels minus the judgments of U_k(r), the units of r's top
         k that no other run has in its top k (see `leave_out_qrels`);
      2. score r with qrels^{−r}: drop Δ_r = M_full(r) − M_{−r}(r), relative
         drop Δ_r / M_full(r) (None when M_full(r) is 0), and Judged@k under
         both qrels;
      3. rank the systems with r at its LORO score and the others at their
         full scores (the standard protocol), and compare with the full
         ranking: Kendall's tau-b and tau_AP, one value per left-out run.

    `rescore_all=True` scores every run with qrels^{−r} in step 3 instead:
    removing r's relevant units lowers R, so the others' AP rises (Toy-2:
    A 0.5 → 0.6667, B 0.75 → 1.0 without C), which is why it is not the default.

    Measures are scored by labeler.metrics.evaluate over whole rankings on
    `topics` at `threshold`. Returns
    {"depth", "threshold", "topic_ids", "measures", "rescore_all",
     "runs": {run: {"measures": {m: {"full", "without", "drop", "relative_drop"}},
                    "judged": {same keys}, "removed": {"judgments", "relevant"}}},
     "summary": {m: {"runs_scored", "mean_drop", "max_drop", "max_drop_run",
                     "favoured": [{"run", "full", "without", "drop", "relative_drop"}, ...],
                     "favoured_rule"}},
     "ranking": {m: {"systems", "full": [runs], "without": {run: [runs]},
                     "scores_without": {run: {run: score}}, "kendall_tau": {run: tau},
                     "tau_ap": {run: tau_ap}, "min_kendall_tau", "min_tau_ap",
                     "not_equivalent": [runs whose tau < 0.9]}}}.
    `favoured` lists the runs whose drop stands out from the other runs'
    (`stands_out`: `FAVOURED_RULE`, given as `favoured_rule`), largest drop
    first: the pool favours them, and a new run of their kind would be
    under-scored by about that much more than a run like the others.
    """
    ordered = check_topics(topics)
    k = check_cutoff(depth, "depth")
    check_threshold(threshold)
    if not isinstance(rescore_all, bool):
        raise ValueError(f"rescore_all must be True or False, not {rescore_all!r}")
    names = [measure.name for measure in parse_measures(measures)]
    grades = check_qrels(qrels, ordered)
    rankings: RunsByName = check_runs(runs, ordered)
    rows = loro_topic_rows(
        grades,
        rankings,
        ordered,
        k,
        threshold,
        names,
        depth_pool(rankings, k, fuse=False, distinct=True),
        rescore_all=rescore_all,
    )
    return loro_summary(rows, ordered, k, threshold, names, list(rankings), rescore_all=rescore_all)


def loro_topic_rows(
    grades: QrelsByTopic,
    rankings: RunsByName,
    ordered: Sequence[str],
    k: int,
    threshold: int,
    names: list[str],
    pool: PoolView,
    *,
    rescore_all: bool = False,
    judged_only: bool = False,
) -> dict[str, Any]:
    """Per-topic scores with and without each run's unique judgments, for checked inputs and their depth-k pool.

    With `judged_only` every score is over condensed lists (trec_eval -J): a run left out
    loses its unique units from the rankings as well as from the judgments.

    A measure's value on one topic depends only on that topic's judgments and
    ranking, so leaving run r out changes only the topics where r's unique
    units hold a judgment: only those are scored again (the rest keep their
    full value, the same number the scorer would return). The rows merge
    across batches of topics by dict updates:
    {"full": {run: {topic: {measure: value}}}, "judged": {run: {topic: Judged@k}},
     "without": {left_out: {run: {topic: {measure: value}}}} (changed topics only),
     "judged_without": {left_out: {topic: Judged@k}} (changed topics only),
     "removed": {left_out: {topic: (judgments, relevant)}} (changed topics only)}.
    """
    topics = list(ordered)
    unique = unique_contributions({topic: pool[topic] for topic in topics if topic in pool}, list(rankings))
    measures = parse_measures(names)
    # Each run's judged ranks, found once: the full scores and every left-out rescoring read them.
    hits = (
        {
            run: {topic: judged_ranks(rankings[run].get(topic, []), grades[topic]) for topic in topics}
            for run in rankings
        }
        if _from_judged_ranks(measures) and not judged_only
        else None
    )
    full = {
        run: _per_topic(grades, rankings[run], names, topics, threshold, judged_only)
        if hits is None
        else {
            topic: _judged_rank_row(measures, hits[run][topic], rankings[run], topic, grades[topic], threshold)
            for topic in topics
        }
        for run in rankings
    }
    judged = {run: _judged_row(grades, rankings[run], topics, k) for run in rankings}
    without: dict[str, dict[str, dict[str, dict[str, float | None]]]] = {}
    judged_without: dict[str, dict[str, float]] = {}
    removed: dict[str, dict[str, tuple[int, int]]] = {}
    for left_out in rankings:
        changed = _judged_unique_units(grades, unique[left_out], topics)
        reduced = _without_units({topic: grades[topic] for topic in changed}, changed)
        rescored = list(rankings) if rescore_all else [left_out]
        if hits is None:
            without[left_out] = {
                run: _rescored(reduced, rankings[run], names, threshold, judged_only) for run in rescored
            }
        else:
            without[left_out] = {
                run: {
                    topic: _judged_rank_row(
                        measures,
                        [hit for hit in hits[run][topic] if rankings[run][topic][hit[0]] not in gone],
                        rankings[run],
                        topic,
                        reduced[topic],
                        threshold,
                    )
                    for topic, gone in changed.items()
                }
                for run in rescored
            }
        judged_without[left_out] = _judged_row(reduced, rankings[left_out], list(changed), k)
        removed[left_out] = _removed_counts(grades, changed, threshold)
    return {"full": full, "judged": judged, "without": without, "judged_without": judged_without, "removed": removed}


def _from_judged_ranks(measures: list[Measure]) -> bool:
    """Whether every measure is read from a ranking's judged ranks alone (labeler.metrics.native, and R@k)."""
    return all(is_native(measure) or measure.family == "R" for measure in measures)


def _judged_rank_row(
    measures: list[Measure],
    hits: list[tuple[int, int]],
    ranking: Mapping[str, list[str]],
    topic: str,
    grades: Mapping[str, int],
    threshold: int,
) -> dict[str, float | None]:
    """One topic's values from its judged ranks: the numbers `evaluate` gives (the same code, the same order).

    R@k is |relevant in the top k| / |relevant|, None without a relevant unit, as
    `labeler.metrics.recall_at_k` computes it.
    """
    native = topic_scores(
        [m for m in measures if m.family != "R"],
        hits,
        len(ranking.get(topic, ())),
        grades.values(),
        threshold,
        any(m.family == "nDCG" for m in measures),
    )
    row: dict[str, float | None] = {}
    num_rel = None
    for measure in measures:
        if measure.family != "R":
            row[measure.name] = native[measure.name]
            continue
        if num_rel is None:
            num_rel = sum(1 for grade in grades.values() if grade >= threshold)
        found = sum(1 for index, grade in hits if grade >= threshold and index < measure.k)
        row[measure.name] = found / num_rel if num_rel else None
    return row


def _rescored(
    reduced: QrelsByTopic, ranking: Mapping[str, list[str]], names: list[str], threshold: int, judged_only: bool = False
) -> dict[str, dict[str, float | None]]:
    """One run's values on the changed topics (the keys of `reduced`) under the reduced judgments.

    A run left out without a judged unique unit changes no topic: it gets {}
    without a call to the scorer, which is most runs of a deep pool.
    """
    return _per_topic(reduced, ranking, names, list(reduced), threshold, judged_only) if reduced else {}


def _judged_unique_units(
    grades: QrelsByTopic, unique: Mapping[str, set[str]], topics: Sequence[str]
) -> dict[str, set[str]]:
    """{topic: the run's unique units that hold a judgment}, in topic order, for the topics that have any.

    Only there does leaving the run out change a judgment, so only those
    topics are scored again; a unique unit nobody judged changes nothing.
    """
    changed: dict[str, set[str]] = {}
    for topic in topics:
        gone = {unit for unit in unique.get(topic, ()) if unit in grades[topic]}
        if gone:
            changed[topic] = gone
    return changed


def _judged_row(
    grades: Mapping[str, Mapping[str, int]], ranking: Mapping[str, list[str]], topics: Sequence[str], k: int
) -> dict[str, float]:
    """{topic: Judged@k} of one run's rankings under the given judgments (a topic it does not rank is 0)."""
    return {topic: judged_at_k(ranking.get(topic, []), grades[topic], k) for topic in topics}


def _removed_counts(
    grades: QrelsByTopic, changed: Mapping[str, set[str]], threshold: int
) -> dict[str, tuple[int, int]]:
    """{topic: (judgments removed, relevant among them)}: what the report says leaving the run out cost."""
    return {
        topic: (len(units), sum(1 for unit in units if grades[topic][unit] >= threshold))
        for topic, units in changed.items()
    }


def loro_summary(
    rows: Mapping[str, Any],
    ordered: Sequence[str],
    k: int,
    threshold: int,
    names: list[str],
    runs: Sequence[str],
    *,
    rescore_all: bool = False,
) -> dict[str, Any]:
    """`leave_one_run_out`'s report from the per-topic rows of every topic in `ordered` (in that order)."""
    full = {run: {name: _mean_of(rows["full"][run], ordered, name) for name in names} for run in runs}
    report_runs: dict[str, Any] = {}
    scores_without: dict[str, dict[str, dict[str, float | None]]] = {}
    for left_out in runs:
        changed = rows["without"][left_out]
        own = _means_without(rows["full"][left_out], changed[left_out], ordered, names)
        others = {
            run: (
                own
                if run == left_out
                else _means_without(rows["full"][run], changed[run], ordered, names)
                if rescore_all
                else full[run]
            )
            for run in runs
        }
        scores_without[left_out] = others
        judged_full = rows["judged"][left_out]
        judged_reduced = {**judged_full, **rows["judged_without"][left_out]}
        removed = rows["removed"][left_out].values()
        report_runs[left_out] = {
            "measures": {name: _change(full[left_out][name], own[name]) for name in names},
            "judged": _change(
                mean(judged_full[topic] for topic in ordered), mean(judged_reduced[topic] for topic in ordered)
            ),
            "removed": {"judgments": sum(n for n, _ in removed), "relevant": sum(r for _, r in removed)},
        }

    summary = {name: _summary(name, report_runs) for name in names}
    ranking = {name: _ranking(name, full, scores_without) for name in names}
    return {
        "depth": k,
        "threshold": threshold,
        "topic_ids": list(ordered),
        "measures": names,
        "rescore_all": rescore_all,
        "runs": report_runs,
        "summary": summary,
        "ranking": ranking,
    }


def _per_topic(
    grades: Mapping[str, Mapping[str, int]],
    rankings: Mapping[str, list[str]],
    measures: list[str],
    topics: list[str],
    threshold: int,
    judged_only: bool = False,
) -> dict[str, dict[str, float | None]]:
    """Each topic's value of each measure, scored by labeler.metrics.evaluate (over condensed lists if asked)."""
    return evaluate(grades, rankings, measures, topics=topics, threshold=threshold, judged_only=judged_only).per_query


def _means_without(
    full: Mapping[str, Mapping[str, float | None]],
    changed: Mapping[str, Mapping[str, float | None]],
    ordered: Sequence[str],
    names: list[str],
) -> dict[str, float | None]:
    """Each measure's mean with the changed topics' values in place of their full ones."""
    per_topic = {**full, **changed}
    return {name: _mean_of(per_topic, ordered, name) for name in names}


def _mean_of(per_topic: Mapping[str, Mapping[str, float | None]], ordered: Sequence[str], name: str) -> float | None:
    """The mean of a measure over the topics where it is defined: `evaluate`'s aggregate, summed in topic order."""
    return mean(value for topic in ordered if (value := per_topic[topic][name]) is not None)


def _summary(name: str, report_runs: Mapping[str, Any]) -> dict[str, Any]:
    """Mean and max drop of one measure over runs, and the runs whose drop stands out, largest drop first."""
    rows = [{"run": run, **values["measures"][name]} for run, values in report_runs.items()]
    scored = [row for row in rows if row["drop"] is not None]
    top = max(scored, key=lambda row: row["drop"], default=None)  # first of equal drops, in run order
    return {
        "runs_scored": len(scored),
        "mean_drop": mean(row["drop"] for row in scored),
        "max_drop": top["drop"] if top else None,
        "max_drop_run": top["run"] if top else None,
        "favoured": _favoured(scored),
        "favoured_rule": FAVOURED_RULE,
    }


def _favoured(scored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows whose drop stands out from the other rows' drops (`stands_out`), largest drop first."""
    drops = [row["drop"] for row in scored]
    standing = [row for i, row in enumerate(scored) if stands_out(row["drop"], drops[:i] + drops[i + 1 :])]
    return sorted(standing, key=lambda row: -row["drop"])


def _ranking(
    name: str,
    full: Mapping[str, Mapping[str, float | None]],
    scores_without: Mapping[str, Mapping[str, Mapping[str, float | None]]],
) -> dict[str, Any]:
    """The full ranking by one measure against each left-out run's ranking, with tau-b and tau_AP per run."""
    reference = {run: scores[name] for run, scores in full.items()}
    per_run = {
        left_out: compare_rankings(reference, {run: s[name] for run, s in others.items()})
        for left_out, others in scores_without.items()
    }
    taus = {run: result["kendall_tau"] for run, result in per_run.items()}
    tau_aps = {run: result["tau_ap"] for run, result in per_run.items()}
    defined_taus = [tau for tau in taus.values() if tau is not None]
    defined_tau_aps = [tau for tau in tau_aps.values() if tau is not None]
    baseline = compare_rankings(reference, reference)
    return {
        "systems": baseline["systems"],
        "full": baseline["reference"],
        "without": {run: result["other"] for run, result in per_run.items()},
        "scores_without": {
            left_out: {run: s[name] for run, s in others.items()} for left_out, others in scores_without.items()
        },
        "kendall_tau": taus,
        "tau_ap": tau_aps,
        "min_kendall_tau": min(defined_taus, default=None),
        "min_tau_ap": min(defined_tau_aps, default=None),
        "not_equivalent": [run for run, tau in taus.items() if tau is not None and tau < EQUIVALENT_TAU],
    }

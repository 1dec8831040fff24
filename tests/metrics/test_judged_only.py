"""Judged-only (condensed-list) scores are trec_eval -J's, computed by trec_eval's own C code (pytrec_eval).

Sakai (SIGIR 2007): every unit without a judgment is removed from each ranking before any measure
reads it. The references are `pytrec_eval.RelevanceEvaluator(..., judged_docs_only_flag=True)` on
NIST's conformance files (tests/conformance/trec_eval/) and on TREC DL 2020 with its qrels cut to
the depth-10 pool of its six runs (skipped without ../shared). Values are compared as exact doubles,
as test_native_equals_pytrec_eval does for the default scores.
"""

from __future__ import annotations

import gzip

import pytest
import pytrec_eval
from hypothesis import HealthCheck, given, settings
from support import ROOT
from test_native_equals_pytrec_eval import collections
from test_standard_conformance import CASES, CONFORMANCE, read_qrels, read_run

from labeler.metrics import evaluate, merge_evaluations
from labeler.metrics.denominators import condensed

# labeler name -> trec_eval name, for every family trec_eval computes
TREC_NAMES = {
    "P@5": "P_5",
    "P@10": "P_10",
    "P@30": "P_30",
    "AP": "map",
    "AP@5": "map_cut_5",
    "AP@100": "map_cut_100",
    "RR": "recip_rank",
    "Rprec": "Rprec",
    "Success@1": "success_1",
    "Success@10": "success_10",
    "Bpref": "bpref",
    "nDCG": "ndcg",
    "nDCG@10": "ndcg_cut_10",
    "nDCG@100": "ndcg_cut_100",
    "R@10": "recall_10",
    "R@100": "recall_100",
    "infAP": "infAP",
}
PYTREC_MEASURES = {"P.5,10,30", "map", "map_cut.5,100", "recip_rank", "Rprec", "success.1,10", "bpref", "ndcg"}
PYTREC_MEASURES |= {"ndcg_cut.10,100", "recall.10,100", "infAP"}


def trec_eval_j(qrels, rankings, threshold, depth=None):
    """{topic: {labeler measure: value}} from trec_eval's code with -J (and -M `depth`).

    A topic whose ranking holds no judged unit is left out: trec_eval's code crashes on it
    (`test_a_ranking_with_no_judged_unit_scores_as_an_empty_one` says what labeler gives).
    """
    run = {}
    for topic, units in rankings.items():
        units = units if depth is None else units[:depth]
        if not condensed(units, qrels.get(topic, {})):
            continue
        # scores that keep the ranking's order under trec_eval's sort (score desc, then docno desc)
        run[topic] = {unit: float(len(units) - i) for i, unit in enumerate(units)}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES, threshold, judged_docs_only_flag=True)
    out = evaluator.evaluate(run)
    return {topic: {name: row[trec] for name, trec in TREC_NAMES.items()} for topic, row in out.items()}


def assert_equal_to_trec_eval_j(qrels, rankings, threshold, depth=None):
    expected = trec_eval_j(qrels, rankings, threshold, depth)
    ours = evaluate(
        qrels, rankings, list(TREC_NAMES), topics=list(expected), threshold=threshold, depth=depth, judged_only=True
    )
    assert ours.judged_only
    for topic, row in expected.items():
        for name, value in row.items():
            got = ours.per_query[topic][name]
            if name.startswith("R@") and got is None:  # no relevant unit: labeler leaves it undefined, trec_eval 0
                assert value == 0.0
                continue
            assert got == pytest.approx(value, abs=1e-12, rel=0), (topic, name, got, value)
            if name != "infAP":  # trec_eval's infAP adds 1e-5-scaled terms in its own order: equal to 1e-12
                assert got == value, (topic, name, got, value)
    return ours


@pytest.mark.parametrize("case", list(CASES))
def test_judged_only_equals_trec_eval_j_on_the_conformance_files(case):
    qrels_name, run_name, threshold, depth, _ = CASES[case]
    qrels = read_qrels(CONFORMANCE / qrels_name)
    rankings = {t: units for t, units in read_run(CONFORMANCE / run_name).items() if t in qrels}
    for level in sorted({threshold, 1, 2}):
        ours = assert_equal_to_trec_eval_j(qrels, rankings, level, depth)
        assert ours.per_query
    default = evaluate(qrels, rankings, ["P@10"], topics=list(ours.per_query), threshold=threshold, depth=depth)
    assert default.aggregate != ours.aggregate  # these files rank unjudged units: -J is another question


# 60 small collections (the same generator as the pytrec_eval cross-check): judged, unjudged and missing units at
# every threshold and depth; the DL 2020 case below covers a real pool. More examples only repeat these shapes.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections())
def test_judged_only_equals_trec_eval_j_on_random_inputs(case):
    qrels, rankings, _, threshold, depth = case
    rankings = {t: units for t, units in rankings.items() if qrels.get(t)}
    if rankings:
        assert_equal_to_trec_eval_j(qrels, rankings, threshold, depth)


def test_every_family_reads_the_condensed_ranking():
    """Families trec_eval lacks (RBP, T, F, AnyHit, Judged ...) score exactly the ranking condensed by hand."""
    qrels = {"1": {"a": 2, "b": 0, "c": 1, "d": -1}, "2": {"x": 1}}
    rankings = {"1": ["u", "a", "d", "v", "b", "c", "w"], "2": ["y", "x"]}
    measures = ["RBP(p=0.8)", "T@3", "F@3", "AnyHit@2", "AllHit@3", "Judged@2", "R@2", "P@2", "nDCG@3", "AP"]
    ours = evaluate(qrels, rankings, measures, topics=["1", "2"], threshold=1, judged_only=True)
    by_hand = {t: condensed(units, qrels[t]) for t, units in rankings.items()}
    assert by_hand == {"1": ["a", "b", "c"], "2": ["x"]}
    assert ours.per_query == evaluate(qrels, by_hand, measures, topics=["1", "2"], threshold=1).per_query
    assert ours.per_query["1"]["P@2"] == 0.5 and ours.per_query["2"]["AnyHit@2"] == 1.0


def test_a_ranking_with_no_judged_unit_scores_as_an_empty_one():
    """Condensed to nothing, a ranking scores what an empty ranking scores (trec_eval's code crashes on it)."""
    qrels = {"1": {"a": 1, "b": 0}}
    measures = list(TREC_NAMES)
    ours = evaluate(qrels, {"1": ["x", "y"]}, measures, topics=["1"], threshold=1, judged_only=True)
    assert ours.per_query == evaluate(qrels, {"1": []}, measures, topics=["1"], threshold=1).per_query
    empty = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES, 1).evaluate({"1": {}})["1"]
    assert all(ours.per_query["1"][name] == empty[trec] for name, trec in TREC_NAMES.items())


def test_batches_of_judged_only_scores_merge_but_never_with_default_ones():
    qrels = {"1": {"a": 1}, "2": {"b": 1}}
    rankings = {"1": ["z", "a"], "2": ["b"]}
    whole = evaluate(qrels, rankings, ["P@1"], topics=["1", "2"], threshold=1, judged_only=True)
    parts = [evaluate(qrels, rankings, ["P@1"], topics=[t], threshold=1, judged_only=True) for t in ("1", "2")]
    merged = merge_evaluations(parts)
    assert merged.aggregate == whole.aggregate == {"P@1": 1.0} and merged.judged_only
    default = evaluate(qrels, rankings, ["P@1"], topics=["2"], threshold=1)
    with pytest.raises(ValueError, match="judged-only"):
        merge_evaluations([parts[0], default])


DATA = next(
    (p / "shared" / "data" / "trec-dl-2020" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").exists()),
    ROOT.parent / "shared" / "data" / "trec-dl-2020",
)
DL_RUNS = ("bm25", "bm25-rm3", "tasb", "ada2", "splade-pp-ed", "repllama")


def _dl_run(name: str) -> dict[str, list[str]]:
    """A DL 2020 run in trec_eval's order (score desc, then docno desc)."""
    rows: dict[str, list[tuple[float, str]]] = {}
    with gzip.open(DATA / f"{name}.run.gz", "rt") as lines:
        for line in lines:
            topic, _, unit, _, score, *_ = line.split()
            rows.setdefault(topic, []).append((float(score), unit))
    return {t: [u for _, u in sorted(r, reverse=True)] for t, r in rows.items()}


@pytest.mark.skipif(not DATA.exists(), reason="../shared/data/trec-dl-2020 is absent")
def test_judged_only_equals_trec_eval_j_on_dl2020_with_a_depth_10_pool():
    qrels: dict[str, dict[str, int]] = {}
    with gzip.open(DATA / "qrels.txt.gz", "rt") as lines:
        for line in lines:
            topic, _, unit, grade = line.split()
            qrels.setdefault(topic, {})[unit] = int(grade)
    runs = {name: _dl_run(name) for name in DL_RUNS}
    pool = {(t, u) for ranked in runs.values() for t, units in ranked.items() for u in units[:10]}
    shallow = {t: {u: g for u, g in labels.items() if (t, u) in pool} for t, labels in qrels.items()}
    shallow = {t: labels for t, labels in shallow.items() if labels}
    assert sum(map(len, shallow.values())) < sum(map(len, qrels.values())) / 2  # the cut pool is much smaller
    for ranked in runs.values():
        rankings = {t: units for t, units in ranked.items() if t in shallow}
        for threshold in (1, 2):
            assert len(assert_equal_to_trec_eval_j(shallow, rankings, threshold).per_query) == len(shallow)

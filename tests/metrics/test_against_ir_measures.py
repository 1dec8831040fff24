"""On random small inputs, labeler's trec_eval measures equal ir_measures' own calculation.

ir_measures is given the same canonical order as strictly decreasing scores and
picks its providers by itself; labeler's R@k, RR@k and Judged@k are native, so
for those this is an independent check. Judged@k is checked against the
trec_eval definition written out here (grade ≥ 0 is judged, divide by k).
"""

from __future__ import annotations

import ir_measures
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeler.metrics import evaluate

UNITS = [f"d{i}" for i in range(12)]
TOPICS = ["1", "2", "3", "4"]


@st.composite
def collections(draw):
    """(qrels, rankings, topics, threshold, k, depth): some topics unjudged, some unranked, some short."""
    qrels = {}
    for topic in TOPICS:
        judged = draw(st.lists(st.sampled_from(UNITS), unique=True, max_size=8))
        if judged:
            qrels[topic] = {unit: draw(st.integers(-1, 3)) for unit in judged}
    rankings = {}
    for topic in TOPICS:
        if draw(st.booleans()) or topic == "1":
            rankings[topic] = draw(st.permutations(UNITS).map(lambda p: p[: draw(st.integers(0, len(UNITS)))]))
    topics = draw(st.lists(st.sampled_from(TOPICS), unique=True, min_size=1))
    return qrels, rankings, topics, draw(st.integers(1, 3)), draw(st.integers(1, 6)), draw(
        st.none() | st.integers(1, 12))


def library_values(measure, qrels, rankings, topics, depth):
    """{topic: value} from ir_measures, its providers chosen by itself, 0 where it gives none."""
    run = {}
    for topic in topics:
        ranking = rankings.get(topic, [])[:depth]
        if ranking:
            run[topic] = {unit: float(len(ranking) - index) for index, unit in enumerate(ranking)}
    judged = {topic: grades for topic, grades in qrels.items() if topic in topics}
    values = {topic: 0.0 for topic in topics}
    if run and judged:
        for metric in ir_measures.iter_calc([measure], judged, run):
            values[metric.query_id] = metric.value
    return values


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(collections())
def test_standard_measures_equal_ir_measures(case):
    qrels, rankings, topics, threshold, k, depth = case
    m = ir_measures.measures
    pairs = {
        f"P@{k}": m.P(rel=threshold) @ k,
        f"nDCG@{k}": m.nDCG @ k,
        "nDCG": m.nDCG,
        "AP": m.AP(rel=threshold),
        f"AP@{k}": m.AP(rel=threshold) @ k,
        "RR": m.RR(rel=threshold),
        f"RR@{k}": m.RR(rel=threshold) @ k,
        "Rprec": m.Rprec(rel=threshold),
        f"Success@{k}": m.Success(rel=threshold) @ k,
    }
    evaluation = evaluate(qrels, rankings, list(pairs), topics=topics, threshold=threshold, depth=depth)
    for name, measure in pairs.items():
        expected = library_values(measure, qrels, rankings, topics, depth)
        got = {topic: evaluation.per_query[topic][name] for topic in topics}
        assert got == pytest.approx(expected, abs=1e-9), name


@SETTINGS
@given(collections())
def test_recall_equals_ir_measures_where_defined(case):
    qrels, rankings, topics, threshold, k, depth = case
    evaluation = evaluate(qrels, rankings, [f"R@{k}"], topics=topics, threshold=threshold, depth=depth)
    expected = library_values(ir_measures.measures.R(rel=threshold) @ k, qrels, rankings, topics, depth)
    for topic in topics:
        has_relevant = any(g >= threshold for g in qrels.get(topic, {}).values())
        got = evaluation.per_query[topic][f"R@{k}"]
        # ir_measures (and trec_eval) say 0 for a topic with nothing relevant; labeler leaves it undefined.
        assert got == (pytest.approx(expected[topic]) if has_relevant else None)


@SETTINGS
@given(collections())
def test_judged_follows_trec_eval_semantics(case):
    qrels, rankings, topics, threshold, k, depth = case
    evaluation = evaluate(qrels, rankings, [f"Judged@{k}"], topics=topics, threshold=threshold, depth=depth)
    for topic in topics:
        top = rankings.get(topic, [])[:depth][:k]
        judged = [unit for unit in top if qrels.get(topic, {}).get(unit, -1) >= 0]
        assert evaluation.per_query[topic][f"Judged@{k}"] == len(judged) / k

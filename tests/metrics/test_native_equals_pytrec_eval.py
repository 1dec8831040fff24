"""labeler.metrics.native gives the very doubles trec_eval's own code (pytrec_eval via ir_measures) gives.

Every measure the native code took over (P@k, AP, AP@k, RR, RR@k, Rprec,
Success@k, Bpref, nDCG, nDCG@k) is computed both ways on NIST's conformance
data and on random runs and qrels (hypothesis), and must agree to 1e-12; in
practice they are equal, which is asserted as well.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_standard_conformance import CASES, CONFORMANCE, read_qrels, read_run

from labeler.metrics.denominators import check_topics, topic_grades, topic_ranking
from labeler.metrics.names import parse_measures
from labeler.metrics.native import NATIVE_FAMILIES, is_native
from labeler.metrics.standard import checked_standard_scores

MEASURES = (
    "P@1 P@5 P@10 P@30 AP AP@5 AP@100 RR RR@1 RR@3 Rprec Success@1 Success@5 Success@10 Bpref "
    "nDCG nDCG@1 nDCG@5 nDCG@10 nDCG@100"
)


def both(qrels, rankings, topics, threshold, depth, measures=MEASURES):
    wanted = parse_measures(measures)
    ordered = check_topics(topics)
    grades = {topic: topic_grades(qrels, topic) for topic in ordered}
    ranked = {topic: topic_ranking(rankings, topic, depth) for topic in ordered}
    native = checked_standard_scores(grades, ranked, wanted, ordered, threshold)
    library = checked_standard_scores(grades, ranked, wanted, ordered, threshold, native=False)
    return native, library


def assert_same(native, library):
    assert list(native) == list(library)
    for topic, row in library.items():
        assert list(native[topic]) == list(row)
        for name, value in row.items():
            assert native[topic][name] == pytest.approx(value, abs=1e-12, rel=0), (topic, name)
            assert native[topic][name] == value, (topic, name, native[topic][name], value)


def test_every_taken_over_family_is_checked_here():
    assert {m.family for m in parse_measures(MEASURES)} == NATIVE_FAMILIES
    assert all(is_native(m) for m in parse_measures(MEASURES))
    assert not is_native(parse_measures("infAP")[0])


@pytest.mark.parametrize("case", list(CASES))
def test_native_equals_pytrec_eval_on_conformance_data(case):
    qrels_name, run_name, threshold, depth, all_qrels_topics = CASES[case]
    qrels = read_qrels(CONFORMANCE / qrels_name)
    rankings = read_run(CONFORMANCE / run_name)
    topics = sorted(qrels) if all_qrels_topics else sorted(set(qrels) & set(rankings))
    for level in sorted({threshold, 1, 2, 3}):  # pytrec_eval refuses -l 0
        assert_same(*both(qrels, rankings, topics, level, depth))


UNITS = [f"d{i:02d}" for i in range(40)]
TOPICS = ["1", "2", "3", "4", "5"]


@st.composite
def collections(draw):
    """(qrels, rankings, topics, threshold, depth): unjudged, unranked, all-negative and short topics."""
    qrels = {}
    for topic in TOPICS:
        judged = draw(st.lists(st.sampled_from(UNITS), unique=True, max_size=25))
        if judged:
            qrels[topic] = {unit: draw(st.integers(-2, 4)) for unit in judged}
    rankings = {}
    for topic in TOPICS:
        if draw(st.booleans()) or topic == "1":
            rankings[topic] = draw(st.permutations(UNITS))[: draw(st.integers(0, len(UNITS)))]
    topics = draw(st.lists(st.sampled_from(TOPICS), unique=True, min_size=1))
    return qrels, rankings, topics, draw(st.integers(1, 3)), draw(st.none() | st.integers(1, 40))


# 80 collections over the small fixed topic and unit sets: missing rankings, empty and full ones, every threshold
# and a depth or none; the long sums have their own test below. More examples only repeat these shapes.
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections())
def test_native_equals_pytrec_eval_on_random_inputs(case):
    qrels, rankings, topics, threshold, depth = case
    assert_same(*both(qrels, rankings, topics, threshold, depth))


def test_native_equals_pytrec_eval_on_long_rankings():
    """1000-deep rankings with many relevant units: the long sums where a different order would show."""
    import random

    rng = random.Random(15)
    units = [f"D{i:05d}" for i in range(3000)]
    qrels, rankings = {}, {}
    for topic in map(str, range(40)):
        rankings[topic] = rng.sample(units, 1000)
        qrels[topic] = {unit: rng.choice([0, 0, 1, 2, 3, -1]) for unit in rng.sample(units, 400)}
    for threshold in (1, 2):
        assert_same(*both(qrels, rankings, list(rankings), threshold, None, MEASURES + " nDCG@1000 AP@1000"))


def test_a_threshold_of_0_is_refused_for_what_trec_evals_code_computes_and_scored_natively_otherwise():
    """pytrec_eval raises a bare ValueError at relevance_level 0: infAP says why instead of crashing."""
    import pytest

    from labeler.errors import LabelerError
    from labeler.metrics.standard import standard_scores

    qrels = {"1": {"a": 0, "b": 1}}
    rankings = {"1": ["a", "b"]}
    with pytest.raises(LabelerError, match="infAP cannot be computed with a scale whose threshold is 0"):
        standard_scores(qrels, rankings, ["infAP"], topics=["1"], threshold=0)
    # threshold 0 counts grade 0 as relevant, as trec_eval -l 0 does: both units, so P@2 is 1
    assert standard_scores(qrels, rankings, ["P@2"], topics=["1"], threshold=0)["1"]["P@2"] == 1.0

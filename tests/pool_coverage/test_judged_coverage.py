"""Judged@k, unjudged units and unique contributions per run (pooling_literature.md §1.1, §2.1, §2.3; A2, A11)."""

from __future__ import annotations

import json

import pytest

from labeler.coverage import judged_coverage, leave_out_qrels

# Toy-1 (one topic): d5 is pooled but unjudged (grade -1), d8 is not in the qrels at all.
TOY1_QRELS = {"1": {"d1": 1, "d2": 0, "d3": 1, "d4": 0, "d5": -1, "d6": 1, "d7": 0}}
TOY1_RUN = {"r": {"1": ["d1", "d8", "d2", "d5", "d3", "d4"]}}

# Toy-2: one topic, three runs of five documents, run order A, B, C.
TOY2 = {
    "A": {"1": ["d1", "d2", "d3", "d4", "d5"]},
    "B": {"1": ["d2", "d6", "d1", "d7", "d8"]},
    "C": {"1": ["d9", "d6", "d10", "d2", "d11"]},
}
DEPTH2_QRELS = {"1": {"d1": 1, "d2": 1, "d6": 1, "d9": 1}}  # the depth-2 pool, all relevant
DEPTH3_QRELS = {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d9": 1, "d10": 0}}  # adds d3 = 0, d10 = 0


def test_toy1_judged_at_5_is_trec_eval_semantics_a11():
    report = judged_coverage(TOY1_QRELS, TOY1_RUN, topics=["1"], depth=5, threshold=1)
    run = report["runs"]["r"]
    # top 5 = d1 d8 d2 d5 d3: d1, d2, d3 judged; d8 absent and d5 graded -1 are not -> 3/5 (ir_measures says 0.8).
    assert run["judged"] == pytest.approx(0.6)
    assert run["judged_per_topic"] == {"1": pytest.approx(0.6)}
    assert (run["ranked"], run["unjudged"], run["unjudged_share"]) == (5, 2, pytest.approx(0.4))


def test_toy2_unique_relevant_at_depth_3_a2():
    report = judged_coverage(DEPTH3_QRELS, TOY2, topics=["1"], depth=3, threshold=1)
    runs = report["runs"]
    assert {run: runs[run]["unique_relevant"] for run in runs} == {"A": 0, "B": 0, "C": 1}
    # U_3(A) = {d3} (non-relevant), U_3(B) = {} (d2 is shared with A), U_3(C) = {d9, d10}, of which d9 is relevant.
    assert {run: runs[run]["unique"] for run in runs} == {"A": 1, "B": 0, "C": 2}
    assert runs["A"]["unique_units"] == {"1": ["d3"]}
    assert runs["B"]["unique_units"] == {}
    assert runs["C"]["unique_units"] == {"1": ["d10", "d9"]}
    assert runs["C"]["unique_relevant_units"] == {"1": ["d9"]}


@pytest.mark.parametrize(
    ("qrels", "expected"),
    [
        (DEPTH2_QRELS, 2 / 3),  # C's top 3 = d9 d6 d10: d10 is not judged yet under the depth-2 snapshot
        (DEPTH3_QRELS, 1.0),  # d10 = 0 was added by the depth-3 pool
        ({"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1}}, 1 / 3),  # qrels^{-C}: only d6 is left judged
    ],
)
def test_toy2_run_c_judged_at_3_under_three_qrels(qrels, expected):
    report = judged_coverage(qrels, TOY2, topics=["1"], depth=3, threshold=1)
    assert report["runs"]["C"]["judged"] == pytest.approx(expected)


def test_qrels_without_c_built_by_leave_out_gives_one_third():
    without_c = leave_out_qrels(DEPTH3_QRELS, TOY2, "C", topics=["1"], depth=3)
    assert without_c == {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1}}
    report = judged_coverage(without_c, TOY2, topics=["1"], depth=3, threshold=1)
    assert report["runs"]["C"]["judged"] == pytest.approx(1 / 3)


def test_mean_over_topics_empty_and_short_rankings():
    qrels = {"t1": {"a": 1, "b": 0}, "t2": {"x": 1}}
    runs = {
        # t1: top 2 = a, c -> 1 judged -> 1/2; t2: x alone -> 1 judged, but the denominator stays k = 2 -> 1/2.
        "short": {"t1": ["a", "c", "b"], "t2": ["x"]},
        # t1: empty ranking -> 0; t2 missing -> also empty -> 0.
        "empty": {"t1": []},
    }
    report = judged_coverage(qrels, runs, topics=["t1", "t2"], depth=2, threshold=1)
    short = report["runs"]["short"]
    assert short["judged"] == pytest.approx(0.5)  # (1/2 + 1/2) / 2
    # 3 units in its top 2s (a, c, x); only c is unjudged -> share 1/3, not 1 - judged = 1/2.
    assert (short["ranked"], short["unjudged"], short["unjudged_share"]) == (3, 1, pytest.approx(1 / 3))
    empty = report["runs"]["empty"]
    assert empty["judged"] == 0.0
    assert (empty["ranked"], empty["unjudged"], empty["unjudged_share"]) == (0, 0, None)
    # "short" is the only run, so all of its top-2 units are unique; a (grade 1) and x (grade 1) are relevant.
    assert short["unique"] == 3 and short["unique_relevant"] == 2


def test_topic_summary_counts_the_depth_k_pool():
    # Pool_3 = {d1, d2, d3, d6, d9, d10}: all six judged under depth-3 qrels, four relevant; depth-2 qrels judge 4.
    report = judged_coverage(DEPTH3_QRELS, TOY2, topics=["1"], depth=3, threshold=1)
    assert report["topics"] == {"1": {"pool": 6, "judged": 6, "relevant": 4}}
    report = judged_coverage(DEPTH2_QRELS, TOY2, topics=["1"], depth=3, threshold=1)
    assert report["topics"] == {"1": {"pool": 6, "judged": 4, "relevant": 4}}


def test_threshold_decides_unique_relevant():
    qrels = {"1": {"d9": 1, "d10": 2}}
    # With threshold 2 only d10 counts as relevant among C's unique units.
    report = judged_coverage(qrels, TOY2, topics=["1"], depth=3, threshold=2)
    assert report["runs"]["C"]["unique_relevant_units"] == {"1": ["d10"]}


def test_no_topics_gives_an_undefined_mean_not_zero():
    report = judged_coverage(DEPTH3_QRELS, TOY2, topics=[], depth=3, threshold=1)
    assert report["runs"]["A"]["judged"] is None
    assert report["runs"]["A"]["unjudged_share"] is None


def test_topics_outside_the_list_are_ignored():
    runs = {"A": {"1": ["d1"], "2": ["z"]}, "B": {"2": ["y"]}}
    report = judged_coverage({"1": {"d1": 1}}, runs, topics=["1"], depth=1, threshold=1)
    assert report["runs"]["B"]["unique"] == 0 and report["runs"]["A"]["unique"] == 1


def test_report_is_json_ready():
    json.dumps(judged_coverage(DEPTH3_QRELS, TOY2, topics=["1"], depth=3, threshold=1), allow_nan=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "depth must be a whole number of at least 1"),
        ({"depth": True}, "depth must be"),
        ({"threshold": -1}, "threshold must be a whole number of 0 or more"),
        ({"topics": "1"}, "topics must be a list"),
        ({"topics": ["1", "1"]}, "listed twice"),
        ({"runs": {}}, "no runs given"),
        ({"runs": {"A": ["d1"]}}, "run 'A' must map topics"),
        ({"runs": {"A": {"1": ["d1", "d1"]}}}, "run 'A'.*'d1' appears twice"),
        ({"qrels": {"1": {"d1": "1"}}}, "grade must be a whole number"),
        ({"qrels": {"1": {"d1": 1.5}}}, "grade must be a whole number"),
        ({"qrels": [("1", "d1", 1)]}, "qrels must be a mapping"),
    ],
)
def test_invalid_input_is_refused(kwargs, message):
    arguments = {"qrels": DEPTH3_QRELS, "runs": TOY2, "topics": ["1"], "depth": 3, "threshold": 1} | kwargs
    qrels, runs = arguments.pop("qrels"), arguments.pop("runs")
    with pytest.raises(ValueError, match=message):
        judged_coverage(qrels, runs, **arguments)

"""The Recall@k-vs-k curve with its ceiling (labeler.metrics.recall_report at each k)."""

from __future__ import annotations

import pytest

from labeler.coverage import DEFAULT_RECALL_KS, recall_curve

QRELS = {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d9": 1, "d10": 0}}  # |G| = 4
RUN_C = {"1": ["d9", "d6", "d10", "d2", "d11"]}


def test_run_c_curve_by_hand():
    curve = recall_curve(QRELS, RUN_C, topics=["1"], threshold=1, ks=[5, 1, 3, 2])
    # k: hits (d9 at 1, d6 at 2, d2 at 4) / 4, ceiling min(k, 4)/4.
    assert [point["k"] for point in curve] == [1, 2, 3, 5]
    assert [point["macro"] for point in curve] == [0.25, 0.5, 0.5, 0.75]
    assert [point["ceiling"] for point in curve] == [0.25, 0.5, 0.75, 1.0]
    assert curve[2]["share_of_ceiling"] == pytest.approx(0.5 / 0.75)
    assert curve[3]["micro"] == 0.75


def test_macro_and_micro_differ_and_empty_topics_are_excluded():
    qrels = {"a": {"x": 1}, "b": {"p": 1, "q": 1, "r": 1}, "c": {"n": 0}}
    run = {"a": ["x"], "b": ["p", "z"]}
    point = recall_curve(qrels, run, topics=["a", "b", "c"], threshold=1, ks=[2])[0]
    # a: 1/1, b: 1/3 -> macro 2/3; micro (1 + 1)/(1 + 3) = 1/2; c has no relevant unit and is excluded.
    assert point["macro"] == pytest.approx(2 / 3)
    assert point["micro"] == pytest.approx(0.5)
    # ceiling: a min(2, 1)/1 = 1, b min(2, 3)/3 = 2/3 -> 5/6.
    assert point["ceiling"] == pytest.approx(5 / 6)
    assert (point["topics"], point["excluded"]) == (2, 1)


def test_default_cutoffs_and_no_relevant_anywhere():
    assert DEFAULT_RECALL_KS == (1, 2, 3, 5, 10, 20, 50, 100)
    curve = recall_curve({"t": {"a": 0}}, {"t": ["a"]}, topics=["t"], threshold=1)
    assert len(curve) == 8
    assert all(point["macro"] is None and point["topics"] == 0 for point in curve)


@pytest.mark.parametrize(
    ("ks", "message"),
    [([], "no cutoffs"), ([1, 1], "listed twice"), ([0], "each k must be"), ("5", "must be a list of cutoffs")],
)
def test_invalid_cutoffs_are_refused(ks, message):
    with pytest.raises(ValueError, match=message):
        recall_curve(QRELS, RUN_C, topics=["1"], threshold=1, ks=ks)


def test_invalid_rankings_are_refused():
    with pytest.raises(ValueError, match="rankings must be a mapping"):
        recall_curve(QRELS, ["d1"], topics=["1"], threshold=1)

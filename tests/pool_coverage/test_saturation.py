"""Judging saturation: relevant units found per extra pooled unit over the last depths (§4.3; Zobel 1998)."""

from __future__ import annotations

import json

import pytest

from labeler.coverage import judging_saturation
from labeler.coverage.saturation import default_window

TOY2 = {
    "A": {"1": ["d1", "d2", "d3", "d4", "d5"]},
    "B": {"1": ["d2", "d6", "d1", "d7", "d8"]},
    "C": {"1": ["d9", "d6", "d10", "d2", "d11"]},
}
# The oracle truth, everything judged: relevant = {d1, d2, d4, d6, d9}.
ORACLE = {"1": {f"d{i}": int(i in (1, 2, 4, 6, 9)) for i in range(1, 12)}}
# Pool_d grows 3, 4, 6, 8, 11 (A1 plus d4, d7 at depth 4). Relevant: depth 1 {d1, d2, d9} = 3; depth 2 adds d6 = 4;
# depth 3 adds d3, d10 (non-relevant) = 4; depth 4 adds d4 (relevant), d7 = 5; depth 5 adds d5, d8, d11 = 5.
ORACLE_CURVE = [(1, 3, 3), (2, 4, 4), (3, 6, 4), (4, 8, 5), (5, 11, 5)]


@pytest.mark.parametrize(
    ("window", "new_judgments", "new_relevant", "saturation"),
    [
        (None, 3, 0, 0.0),  # default window for D = 5 is 1: (5 − 5)/(11 − 8)
        (2, 5, 1, 1 / 5),  # (5 − 4)/(11 − 6)
        (3, 7, 1, 1 / 7),  # (5 − 4)/(11 − 4)
        (5, 11, 5, 5 / 11),  # the whole curve, from pool(0) = rel(0) = 0
    ],
)
def test_toy2_oracle_curve_and_windows(window, new_judgments, new_relevant, saturation):
    report = judging_saturation(ORACLE, TOY2, topics=["1"], depth=5, threshold=1, window=window)
    topic = report["topics"]["1"]
    assert topic["curve"] == ORACLE_CURVE
    assert (topic["new_judgments"], topic["new_relevant"]) == (new_judgments, new_relevant)
    assert topic["saturation"] == pytest.approx(saturation)
    assert topic["unjudged_in_window"] == 0


def test_unjudged_units_in_the_window_are_counted():
    # Depth-3 qrels: d4, d5, d7, d8, d11 are not judged; the last two depths add d4, d7, d5, d8, d11.
    qrels = {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d9": 1, "d10": -1}}
    topic = judging_saturation(qrels, TOY2, topics=["1"], depth=5, threshold=1, window=2)["topics"]["1"]
    assert topic["curve"] == [(1, 3, 3), (2, 4, 4), (3, 6, 4), (4, 8, 4), (5, 11, 4)]
    assert topic["saturation"] == 0.0
    assert topic["unjudged_in_window"] == 5
    # d10 (pooled, graded -1) enters at depth 3: counted once the window reaches back to it.
    wide = judging_saturation(qrels, TOY2, topics=["1"], depth=5, threshold=1, window=3)["topics"]["1"]
    assert wide["unjudged_in_window"] == 6


def test_no_new_units_in_the_window_gives_none():
    runs = {"P": {"t": ["a", "b"]}, "Q": {"t": ["a"]}}
    # Pool sizes 1, 2, 2, 2: the last depth adds nothing, so the ratio is undefined.
    topic = judging_saturation({"t": {"a": 1, "b": 1}}, runs, topics=["t"], depth=4, threshold=1)["topics"]["t"]
    assert topic["curve"] == [(1, 1, 1), (2, 2, 2), (3, 2, 2), (4, 2, 2)]
    assert topic["saturation"] is None and topic["new_judgments"] == 0


def test_a_topic_no_run_ranks_has_a_flat_curve():
    report = judging_saturation(ORACLE, TOY2, topics=["1", "2"], depth=2, threshold=1)
    assert report["topics"]["2"]["curve"] == [(1, 0, 0), (2, 0, 0)]
    assert report["topics"]["2"]["saturation"] is None
    json.dumps(report, allow_nan=False)


@pytest.mark.parametrize(("depth", "window"), [(1, 1), (4, 1), (5, 1), (9, 1), (10, 2), (100, 20)])
def test_default_window_is_the_last_fifth_at_least_one(depth, window):
    assert default_window(depth) == window


@pytest.mark.parametrize(
    ("window", "message"),
    [(0, "window must be"), (6, "from 1 to the depth \\(5\\)"), (True, "window must be"), (1.5, "window must be")],
)
def test_invalid_window_is_refused(window, message):
    with pytest.raises(ValueError, match=message):
        judging_saturation(ORACLE, TOY2, topics=["1"], depth=5, threshold=1, window=window)

"""R's lower bound and Chapman's capture-recapture estimate (pooling_literature.md §4.1, §4.2; assertion A16)."""

from __future__ import annotations

import json

import pytest

from labeler.coverage import DEPENDENCE_WARNING, MIN_CAPTURED, chapman, estimate_relevant

TOY2 = {
    "A": {"1": ["d1", "d2", "d3", "d4", "d5"]},
    "B": {"1": ["d2", "d6", "d1", "d7", "d8"]},
    "C": {"1": ["d9", "d6", "d10", "d2", "d11"]},
}
FULL = {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d9": 1, "d10": 0}}


def test_chapman_worked_example_a16():
    result = chapman(20, 30, 12)
    assert result["estimate"] == pytest.approx(49.077, abs=1e-3)  # 21·31/13 − 1
    assert result["variance"] == pytest.approx(39.62, abs=1e-2)  # 21·31·8·18/(13²·14)
    assert result["se"] == pytest.approx(6.29, abs=1e-2)
    assert result["lincoln_petersen"] == pytest.approx(50.0)  # 20·30/12
    assert (result["n1"], result["n2"], result["m"]) == (20, 30, 12)


def test_chapman_without_overlap_has_no_lincoln_petersen():
    result = chapman(3, 4, 0)
    assert result["estimate"] == pytest.approx(19.0)  # 4·5/1 − 1: finite but meaningless
    assert result["lincoln_petersen"] is None
    assert result["variance"] == pytest.approx(4 * 5 * 3 * 4 / (1 * 2))


def test_chapman_with_full_overlap_has_no_variance():
    # Both samples found the same 5: (6·6)/6 − 1 = 5 with variance 0.
    assert chapman(5, 5, 5) == {
        "n1": 5,
        "n2": 5,
        "m": 5,
        "estimate": 5.0,
        "variance": 0.0,
        "se": 0.0,
        "lincoln_petersen": 5.0,
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, 2, 3), "m .* cannot exceed n1 or n2"),
        ((-1, 2, 0), "n1 must be a whole number of 0 or more"),
        ((2, 2.0, 1), "n2 must be"),
        ((2, 2, True), "m must be"),
    ],
)
def test_chapman_refuses_impossible_counts(args, message):
    with pytest.raises(ValueError, match=message):
        chapman(*args)


def test_toy2_median_over_pairs():
    # Relevant in each run's top 5 (judged >= 1 only; d4 is unjudged): A {d1, d2}, B {d2, d6, d1}, C {d9, d6, d2}.
    # A-B: n 2, 3, m 2 -> 3·4/3 − 1 = 3;  A-C: m 1 (d2) -> 3·4/2 − 1 = 5;  B-C: m 2 (d6, d2) -> 4·4/3 − 1 = 13/3.
    # Median 13/3 from B-C, Var = 4·4·1·1/(3²·4) = 4/9 -> SE 2/3.
    topic = estimate_relevant(FULL, TOY2, topics=["1"], depth=5, threshold=1)["topics"]["1"]
    assert topic["chapman"] == pytest.approx(13 / 3)
    assert topic["estimate"] == pytest.approx(13 / 3)
    assert topic["pair"] == ["B", "C"]
    assert (topic["n1"], topic["n2"], topic["m"]) == (3, 3, 2)
    assert topic["se"] == pytest.approx(2 / 3)
    assert (topic["pairs"], topic["pairs_used"]) == (3, 3)
    assert (topic["lower_bound"], topic["captured"]) == (4, 4)
    # Only 4 relevant captured, fewer than 5.
    assert topic["unreliable"] is True
    assert topic["reasons"] == ["only 4 relevant units captured in the runs' top K (fewer than 5)"]
    assert topic["warning"] == DEPENDENCE_WARNING
    assert topic["clipped"] is False


def test_even_number_of_pairs_takes_the_higher_middle_and_skips_pairs_without_overlap():
    runs = {
        "A": {"t": ["r1", "r2", "r3"]},
        "B": {"t": ["r1", "r2", "r4", "r5"]},
        "C": {"t": ["r3", "r6", "r7"]},
    }
    qrels = {"t": {f"r{i}": 1 for i in range(1, 8)}}
    # A-B: n 3, 4, m 2 -> 4·5/3 − 1 = 17/3;  A-C: n 3, 3, m 1 (r3) -> 4·4/2 − 1 = 7;  B-C: m 0, not used.
    # Two pairs used: the higher middle is 7 (A-C), Var = 4·4·2·2/(2²·3) = 16/3.
    topic = estimate_relevant(qrels, runs, topics=["t"], depth=4, threshold=1)["topics"]["t"]
    assert (topic["pairs"], topic["pairs_used"]) == (3, 2)
    assert topic["chapman"] == pytest.approx(7.0)
    assert topic["pair"] == ["A", "C"]
    assert topic["se"] == pytest.approx((16 / 3) ** 0.5)
    # 7 relevant captured (r1..r7), lower bound 7: reliable as far as the counts go, but the warning stays.
    assert (topic["captured"], topic["lower_bound"]) == (7, 7)
    assert topic["unreliable"] is False and topic["reasons"] == []
    assert topic["warning"] == DEPENDENCE_WARNING


def test_the_estimate_never_falls_below_the_lower_bound():
    # Two runs with the same 5 relevant units: Chapman (6·6)/6 − 1 = 5, but 8 units are judged relevant
    # (3 found outside these runs' top K), so the estimate is raised to 8 and says so.
    same = ["a", "b", "c", "d", "e"]
    qrels = {"t": {unit: 1 for unit in [*same, "x", "y", "z"]}}
    topic = estimate_relevant(qrels, {"P": {"t": same}, "Q": {"t": same}}, topics=["t"], depth=5, threshold=1)[
        "topics"
    ]["t"]
    assert topic["chapman"] == pytest.approx(5.0)
    assert topic["lower_bound"] == 8
    assert topic["estimate"] == 8
    assert topic["clipped"] is True


def test_one_run_is_unreliable_and_has_no_estimate():
    topic = estimate_relevant(FULL, {"A": TOY2["A"]}, topics=["1"], depth=5, threshold=1)["topics"]["1"]
    assert topic["estimate"] is None and topic["chapman"] is None and topic["pair"] is None
    assert (topic["pairs"], topic["pairs_used"]) == (0, 0)
    assert topic["lower_bound"] == 4  # still certain
    assert topic["unreliable"] is True
    assert topic["reasons"][0] == "fewer than two runs"


def test_no_overlap_in_any_pair_is_unreliable():
    runs = {"P": {"t": ["a", "b", "c"]}, "Q": {"t": ["d", "e", "f"]}}
    qrels = {"t": {u: 1 for u in "abcdef"}}
    topic = estimate_relevant(qrels, runs, topics=["t"], depth=3, threshold=1)["topics"]["t"]
    assert topic["estimate"] is None
    assert topic["unreliable"] is True
    assert topic["reasons"] == ["no pair of runs shares a relevant unit (m = 0 for every pair)"]
    assert topic["captured"] == 6 >= MIN_CAPTURED


def test_depth_limits_what_each_run_captures():
    # At K = 1: A {d1}, B {d2}, C {d9}: no overlap anywhere.
    topic = estimate_relevant(FULL, TOY2, topics=["1"], depth=1, threshold=1)["topics"]["1"]
    assert topic["pairs_used"] == 0 and topic["captured"] == 3


def test_report_carries_the_warning_and_is_json_ready():
    report = estimate_relevant(FULL, TOY2, topics=["1"], depth=5, threshold=1)
    assert "underestimate" in report["warning"] and "Kantor" in report["warning"]
    json.dumps(report, allow_nan=False)


def test_invalid_input_is_refused():
    with pytest.raises(ValueError, match="depth must be"):
        estimate_relevant(FULL, TOY2, topics=["1"], depth=0, threshold=1)
    with pytest.raises(ValueError, match="no runs given"):
        estimate_relevant(FULL, {}, topics=["1"], depth=3, threshold=1)

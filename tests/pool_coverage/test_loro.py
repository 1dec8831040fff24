"""Leave-one-run-out pool bias on Toy-2 (pooling_literature.md §2.2; assertions A12, A13) and hand-worked cases."""

from __future__ import annotations

import json

import pytest

from labeler.coverage import DEFAULT_LORO_MEASURES, leave_one_run_out, leave_out_qrels
from labeler.coverage.bias import FAVOURED_RULE, favoured_sentence, stands_out

TOY2 = {
    "A": {"1": ["d1", "d2", "d3", "d4", "d5"]},
    "B": {"1": ["d2", "d6", "d1", "d7", "d8"]},
    "C": {"1": ["d9", "d6", "d10", "d2", "d11"]},
}
# The depth-3 pool judged: R = 4 (d1, d2, d6, d9).
FULL = {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d9": 1, "d10": 0}}


@pytest.fixture(scope="module")
def toy2():
    return leave_one_run_out(FULL, TOY2, topics=["1"], depth=3, threshold=1)


def test_default_measures():
    assert DEFAULT_LORO_MEASURES == ("AP", "nDCG@10", "R@10", "Bpref")


def test_qrels_without_each_run():
    # U_3(C) = {d9, d10}; U_3(A) = {d3}; B contributes nothing alone.
    assert leave_out_qrels(FULL, TOY2, "C", topics=["1"], depth=3) == {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1}}
    assert leave_out_qrels(FULL, TOY2, "A", topics=["1"], depth=3) == {
        "1": {"d1": 1, "d2": 1, "d6": 1, "d9": 1, "d10": 0}
    }
    assert leave_out_qrels(FULL, TOY2, "B", topics=["1"], depth=3) == FULL


@pytest.mark.parametrize(
    ("run", "full", "without"),
    [
        ("A", 0.5, 0.5),  # A's unique d3 is non-relevant: P@1 = P@2 = 1, (1 + 1)/4
        ("B", 0.75, 0.75),  # nothing unique: (1 + 1 + 1)/4
        # C: full (1 + 1 + 3/4)/4 = 0.6875; without d9, d10: d6 at 2 and d2 at 4 over R = 3: (1/2 + 2/4)/3 = 1/3
        ("C", 0.6875, 1 / 3),
    ],
)
def test_toy2_average_precision_a12(toy2, run, full, without):
    values = toy2["runs"][run]["measures"]["AP"]
    assert values["full"] == pytest.approx(full)
    assert values["without"] == pytest.approx(without)
    assert values["drop"] == pytest.approx(full - without)


def test_toy2_run_c_bpref_rises_and_judged_falls_a12(toy2):
    c = toy2["runs"]["C"]
    assert c["measures"]["Bpref"]["full"] == pytest.approx(0.625)
    assert c["measures"]["Bpref"]["without"] == pytest.approx(2 / 3)
    assert c["measures"]["Bpref"]["drop"] == pytest.approx(0.625 - 2 / 3)  # negative: bpref ignores unjudged units
    assert c["judged"]["full"] == pytest.approx(1.0)
    assert c["judged"]["without"] == pytest.approx(1 / 3)  # only d6 of d9 d6 d10 stays judged
    assert c["measures"]["AP"]["relative_drop"] == pytest.approx((0.6875 - 1 / 3) / 0.6875)
    assert c["removed"] == {"judgments": 2, "relevant": 1}  # d9 (relevant) and d10


def test_toy2_run_a_own_judged_coverage_falls_too(toy2):
    # The literature's table shows 1.0 for A, which is A's coverage under qrels^{-C}; under its own
    # qrels^{-A} its unique d3 is removed, so d1 d2 d3 -> 2 of 3 judged.
    assert toy2["runs"]["A"]["judged"]["without"] == pytest.approx(2 / 3)
    assert toy2["runs"]["B"]["judged"]["without"] == pytest.approx(1.0)


def test_toy2_max_and_mean_drop_a13(toy2):
    summary = toy2["summary"]["AP"]
    assert summary["max_drop"] == pytest.approx(0.3542, abs=1e-4)
    assert summary["max_drop_run"] == "C"
    assert summary["mean_drop"] == pytest.approx(0.1181, abs=1e-4)  # (0 + 0 + 0.3542) / 3
    assert summary["runs_scored"] == 3
    assert [row["run"] for row in summary["favoured"]] == ["C"]
    assert summary["favoured"][0]["drop"] == pytest.approx(0.6875 - 1 / 3)
    assert toy2["summary"]["Bpref"]["favoured"] == []  # no run loses bpref without its unique units


def test_toy2_kendall_tau_and_tau_ap_a13(toy2):
    ranking = toy2["ranking"]["AP"]
    assert ranking["full"] == ["B", "C", "A"]
    assert ranking["without"]["C"] == ["B", "A", "C"]
    # One discordant pair (A, C) out of three: (2 - 1)/3.
    assert ranking["kendall_tau"] == {"A": 1.0, "B": 1.0, "C": pytest.approx(1 / 3)}
    # tau_AP of B A C against B C A: C(2)/1 = 1 (B above A in both), C(3)/2 = 1/2 (B) -> (2/2)(1.5) - 1.
    assert ranking["tau_ap"] == {"A": 1.0, "B": 1.0, "C": pytest.approx(0.5)}
    assert ranking["min_kendall_tau"] == pytest.approx(1 / 3)
    assert ranking["min_tau_ap"] == pytest.approx(0.5)
    assert ranking["not_equivalent"] == ["C"]
    assert ranking["systems"] == 3
    # Others keep their full scores (the standard protocol).
    assert ranking["scores_without"]["C"] == {"A": 0.5, "B": 0.75, "C": pytest.approx(1 / 3)}


def test_rescoring_everyone_shows_the_side_effect():
    report = leave_one_run_out(FULL, TOY2, topics=["1"], depth=3, threshold=1, measures=["AP"], rescore_all=True)
    # Without C, R falls from 4 to 3: A (1 + 1)/3, B (1 + 1 + 1)/3.
    assert report["ranking"]["AP"]["scores_without"]["C"] == {
        "A": pytest.approx(2 / 3),
        "B": pytest.approx(1.0),
        "C": pytest.approx(1 / 3),
    }
    assert report["ranking"]["AP"]["without"]["C"] == ["B", "A", "C"]
    assert report["ranking"]["AP"]["kendall_tau"]["C"] == pytest.approx(1 / 3)
    # Per-run figures are the left-out run's own and do not change with the option.
    assert report["runs"]["C"]["measures"]["AP"]["without"] == pytest.approx(1 / 3)
    assert report["rescore_all"] is True


def test_judgments_from_outside_the_depth_k_pool_are_kept():
    # x is judged relevant but no run has it in its top 3 (e.g. an imported or deeper judgment):
    # it is nobody's unique contribution, so qrels^{-C} keeps it and only d9, d10 go.
    qrels = {"1": dict(FULL["1"], x=1)}
    assert leave_out_qrels(qrels, TOY2, "C", topics=["1"], depth=3) == {
        "1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "x": 1}
    }
    report = leave_one_run_out(qrels, TOY2, topics=["1"], depth=3, threshold=1, measures=["AP"])
    # R = 5 in full: C (1 + 1 + 3/4)/5 = 0.55; without: R = 4, d6 at 2 and d2 at 4: (1/2 + 2/4)/4 = 0.25.
    assert report["runs"]["C"]["measures"]["AP"]["full"] == pytest.approx(0.55)
    assert report["runs"]["C"]["measures"]["AP"]["without"] == pytest.approx(0.25)


def test_hand_worked_two_topics_recall():
    # Two topics, two runs, depth 2, R@2. Topic t1: P finds p1 (rel) alone, Q finds q1 (rel) alone, both have s (rel).
    # Topic t2: both rank the same units, nothing unique.
    runs = {"P": {"t1": ["p1", "s"], "t2": ["u", "v"]}, "Q": {"t1": ["q1", "s"], "t2": ["v", "u"]}}
    qrels = {"t1": {"p1": 1, "q1": 1, "s": 1}, "t2": {"u": 1, "v": 0}}
    report = leave_one_run_out(qrels, runs, topics=["t1", "t2"], depth=2, threshold=1, measures=["R@2"])
    p = report["runs"]["P"]["measures"]["R@2"]
    # full: t1 2/3 (p1, s of 3), t2 1/1 -> 5/6. Without p1: t1 has R = 2 (q1, s), P finds s -> 1/2; t2 1 -> 3/4.
    assert p["full"] == pytest.approx(5 / 6)
    assert p["without"] == pytest.approx(3 / 4)
    assert p["drop"] == pytest.approx(1 / 12)
    assert p["relative_drop"] == pytest.approx((1 / 12) / (5 / 6))  # 0.1
    # Symmetric for Q, so both drop by 1/12; the mean drop is 1/12 and the first in run order is the max.
    assert report["summary"]["R@2"]["mean_drop"] == pytest.approx(1 / 12)
    assert report["summary"]["R@2"]["max_drop_run"] == "P"
    # P and Q tie at 5/6 in full, so the reference ordering ties its only pair: tau-b's denominator
    # sqrt((n0 - n1)(n0 - n2)) = sqrt((1 - 1)(1 - 0)) is 0 and the coefficient is undefined.
    assert report["ranking"]["R@2"]["kendall_tau"] == {"P": None, "Q": None}
    assert report["ranking"]["R@2"]["min_kendall_tau"] is None


def test_a_single_run_loses_every_judgment():
    runs = {"solo": TOY2["C"]}
    report = leave_one_run_out(FULL, runs, topics=["1"], depth=3, threshold=1, measures=["AP"])
    solo = report["runs"]["solo"]["measures"]["AP"]
    # solo's top 3 (d9 d6 d10) is all its own, so those judgments go; d1, d3 (nobody's top 3) and d2 (solo's
    # rank 4, outside its top 3) stay: qrels^{-solo} = {d1: 1, d2: 1, d3: 0}, R = 2, d2 at rank 4 -> (1/4)/2.
    assert solo["without"] == pytest.approx(1 / 8)
    assert report["ranking"]["AP"]["kendall_tau"] == {"solo": None}  # one system: no correlation


def test_relative_drop_is_none_when_the_full_score_is_zero():
    runs = {"A": {"1": ["n"]}, "B": {"1": ["r"]}}
    report = leave_one_run_out({"1": {"n": 0, "r": 1}}, runs, topics=["1"], depth=1, threshold=1, measures=["AP"])
    assert report["runs"]["A"]["measures"]["AP"] == {"full": 0.0, "without": 0.0, "drop": 0.0, "relative_drop": None}


def test_report_is_json_ready(toy2):
    json.dumps(toy2, allow_nan=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"measures": ["APP"]}, "unknown measure"),
        ({"measures": []}, "no measures given"),
        ({"depth": 0}, "depth must be"),
        ({"threshold": -1}, "threshold must be"),
        ({"topics": ["1", "1"]}, "listed twice"),
        ({"rescore_all": "yes"}, "rescore_all must be True or False"),
    ],
)
def test_invalid_input_is_refused(kwargs, message):
    arguments = {"topics": ["1"], "depth": 3, "threshold": 1} | kwargs
    with pytest.raises(ValueError, match=message):
        leave_one_run_out(FULL, TOY2, **arguments)


def test_leaving_out_an_unknown_run_is_refused():
    with pytest.raises(ValueError, match="run 'D' is not among the given runs: A, B, C"):
        leave_out_qrels(FULL, TOY2, "D", topics=["1"], depth=3)


# Three runs share s; each brings relevant units of its own. EVEN: one each, so every run loses the same;
# ONE_STANDS_OUT: A brings three, B and C one each.
EVEN = {"A": {"1": ["s", "a1"]}, "B": {"1": ["s", "b1"]}, "C": {"1": ["s", "c1"]}}
ONE_STANDS_OUT = {"A": {"1": ["s", "a1", "a2", "a3"]}, "B": {"1": ["s", "b1"]}, "C": {"1": ["s", "c1"]}}


def relevant(runs):
    return {"1": {unit: 1 for ranking in runs.values() for unit in ranking["1"]}}


def test_every_run_losing_alike_is_not_favoured():
    summary = leave_one_run_out(relevant(EVEN), EVEN, topics=["1"], depth=4, threshold=1, measures="AP")["summary"]
    # hand-worked: AP 2/4 with every unit judged, 1/3 without the run's own: each drops 1/6
    assert summary["AP"]["mean_drop"] == pytest.approx(1 / 6) and summary["AP"]["max_drop"] == pytest.approx(1 / 6)
    assert summary["AP"]["favoured"] == []
    assert summary["AP"]["favoured_rule"] == FAVOURED_RULE


def test_a_run_whose_drop_stands_out_is_favoured_and_the_others_are_not():
    report = leave_one_run_out(
        relevant(ONE_STANDS_OUT), ONE_STANDS_OUT, topics=["1"], depth=4, threshold=1, measures="AP"
    )
    drops = {run: row["measures"]["AP"]["drop"] for run, row in report["runs"].items()}
    # A: 4/6 -> 1/3 (R 6 -> 3); B and C: 2/6 -> 1/5 (R 6 -> 5): 1/3 >= 2 x 2/15, 2/15 < 2 x median(1/3, 2/15)
    assert drops == pytest.approx({"A": 1 / 3, "B": 2 / 15, "C": 2 / 15})
    assert [row["run"] for row in report["summary"]["AP"]["favoured"]] == ["A"]


@pytest.mark.parametrize(
    ("drop", "others", "favoured"),
    [
        (0.12, [0.02, 0.03], True),
        (0.05, [0.03, 0.03, 0.02], False),  # under twice the others' median (0.06)
        (0.06, [0.03, 0.03, 0.02], True),  # exactly twice
        (0.009, [0.0, 0.0], False),  # under the floor, however far above the others
        (0.01, [0.0, 0.0], True),
        (0.2, [], False),  # a run alone has nothing to stand out from
        (0.1, [0.0], True),  # two runs: against the other's drop
        (0.02, [-0.05, 0.0], True),  # negative drops (Bpref) count as no drop
    ],
)
def test_the_rule(drop, others, favoured):
    assert stands_out(drop, others) is favoured
    assert "0.01" in FAVOURED_RULE and "2 times the median drop of the other runs" in FAVOURED_RULE


def test_the_sentence_names_the_runs_their_drops_and_the_rule():
    loro = {"A": {"AP": {"drop": 1 / 3}}, "B": {"AP": {"drop": 0.0}}}
    assert favoured_sentence("AP", ["A"], loro) == (
        "The pool favours A (AP drop 0.333): scored without the units only they found, they lose more than the "
        f"other runs ({FAVOURED_RULE})."
    )
    assert favoured_sentence("AP", [], loro) == f"The pool favours no run: no AP drop stands out ({FAVOURED_RULE})."
    assert favoured_sentence(None, [], {}) == ""

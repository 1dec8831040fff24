"""Comparing two snapshots of the judgments from the runs' side (pooling_literature.md §2.4; assertion A14)."""

from __future__ import annotations

import json

import pytest

from labeler.coverage import compare_snapshots

TOY2 = {
    "A": {"1": ["d1", "d2", "d3", "d4", "d5"]},
    "B": {"1": ["d2", "d6", "d1", "d7", "d8"]},
    "C": {"1": ["d9", "d6", "d10", "d2", "d11"]},
}
DEPTH2 = {"1": {"d1": 1, "d2": 1, "d6": 1, "d9": 1}}
DEPTH3 = {"1": {"d1": 1, "d2": 1, "d3": 0, "d6": 1, "d9": 1, "d10": 0}}  # adds d3 = 0 and d10 = 0


@pytest.fixture(scope="module")
def toy2():
    return compare_snapshots(
        DEPTH2, DEPTH3, TOY2, topics=["1"], threshold=1, depth=3, measures=["R@3", "nDCG@3", "AP", "Bpref"]
    )


@pytest.mark.parametrize(("run", "ap"), [("A", 0.5), ("B", 0.75), ("C", 0.6875)])
def test_average_precision_is_unchanged_a14(toy2, run, ap):
    # Both added judgments are non-relevant and R stays 4: AP treats unjudged as non-relevant anyway.
    values = toy2["runs"][run]
    assert values["before"]["AP"] == pytest.approx(ap)
    assert values["after"]["AP"] == pytest.approx(ap)
    assert values["change"]["AP"] == pytest.approx(0.0)


def test_run_c_bpref_falls_and_judged_rises_a14(toy2):
    c = toy2["runs"]["C"]
    # Under depth 2 no non-relevant unit is judged, so bpref = 3/4; under depth 3 d10 (rank 3) sits above d2.
    assert (c["before"]["Bpref"], c["after"]["Bpref"]) == (pytest.approx(0.75), pytest.approx(0.625))
    assert c["change"]["Bpref"] == pytest.approx(-0.125)
    assert (c["before"]["Judged@3"], c["after"]["Judged@3"]) == (pytest.approx(2 / 3), pytest.approx(1.0))
    # Only bpref moves for C; A and B keep bpref.
    assert toy2["runs"]["A"]["change"]["Bpref"] == pytest.approx(0.0)


def test_toy2_labels_topics_and_ranking(toy2):
    assert toy2["measures"] == ["Judged@3", "R@3", "nDCG@3", "AP", "Bpref"]
    assert toy2["labels"] == {"added": 2, "changed": 0, "retracted": 0}
    assert toy2["topics_grown"] == {}  # d3 and d10 are non-relevant
    ranking = toy2["ranking"]
    # R@3: A 2/4, B 3/4, C 2/4 both times; A and C tie and keep run order.
    assert ranking["measure"] == "R@3"
    assert ranking["before"] == ranking["after"] == ["B", "A", "C"]
    assert ranking["kendall_tau"] == pytest.approx(1.0) and ranking["tau_ap"] == pytest.approx(1.0)
    assert ranking["moved"] == {}
    recall = toy2["runs"]["C"]["recall"]["R@3"]
    assert (recall["before"]["macro"], recall["before"]["ceiling"]) == (0.5, 0.75)
    assert recall["change"] == {"macro": 0.0, "micro": 0.0, "ceiling": 0.0}


# A new run N arrives after A and B were pooled at depth 3 and judged; then N's unique units are judged.
NEW_RUNS = {
    "A": {"t": ["a1", "a2", "a3"]},
    "B": {"t": ["a1", "b2", "a3"]},
    "N": {"t": ["n1", "n2", "a1"]},
}
BEFORE = {"t": {"a1": 1, "a2": 0, "a3": 1, "b2": 0}}  # relevant {a1, a3}
AFTER = {"t": {"a1": 1, "a2": 0, "a3": 1, "b2": 0, "n1": 1, "n2": 1}}  # N's unique n1, n2 judged relevant


@pytest.fixture(scope="module")
def new_run():
    return compare_snapshots(BEFORE, AFTER, NEW_RUNS, topics=["t"], threshold=1, depth=3)


def test_new_runs_recall_rises_once_its_unique_units_are_judged(new_run):
    n = new_run["runs"]["N"]
    # Before: N finds a1 of {a1, a3} -> 1/2. After: n1, n2, a1 of {a1, a3, n1, n2} -> 3/4.
    assert (n["before"]["R@3"], n["after"]["R@3"]) == (pytest.approx(0.5), pytest.approx(0.75))
    assert n["change"]["R@3"] == pytest.approx(0.25)
    # Judged@3: only a1 of n1 n2 a1 was judged -> 1/3, then all three.
    assert (n["before"]["Judged@3"], n["after"]["Judged@3"]) == (pytest.approx(1 / 3), pytest.approx(1.0))
    # The ceiling falls as |G| grows past k: min(3, 2)/2 = 1, then min(3, 4)/4 = 3/4.
    assert n["recall"]["R@3"]["change"]["ceiling"] == pytest.approx(-0.25)
    # A and B found both of the old relevant units and none of the new: 2/2 -> 2/4.
    assert new_run["runs"]["A"]["change"]["R@3"] == pytest.approx(-0.5)


def test_new_run_moves_to_the_top(new_run):
    assert new_run["measures"] == ["Judged@3", "R@3", "nDCG@3", "AP"]
    assert new_run["labels"] == {"added": 2, "changed": 0, "retracted": 0}
    assert new_run["topics_grown"] == {"t": {"before": 2, "after": 4, "new": ["n1", "n2"]}}
    ranking = new_run["ranking"]
    assert ranking["measure"] == "R@3"
    assert ranking["before"] == ["A", "B", "N"]  # A and B tie at 1.0 and keep run order; N 0.5
    assert ranking["after"] == ["N", "A", "B"]  # N 0.75; A and B tie at 0.5
    # tau-b: (A, B) tied both times; (A, N) and (B, N) discordant -> (0 − 2)/sqrt((3 − 1)(3 − 1)) = −1.
    assert ranking["kendall_tau"] == pytest.approx(-1.0)
    # tau_AP of N A B against A B N: C(2) = 0 (N is below A in the reference), C(3) = 1 (A above B) ->
    # (2/2)(0/1 + 1/2) − 1 = −0.5.
    assert ranking["tau_ap"] == pytest.approx(-0.5)
    assert ranking["moved"] == {
        "A": {"before": 1, "after": 2},
        "B": {"before": 2, "after": 3},
        "N": {"before": 3, "after": 1},
    }
    assert [(row["run"], row["gain"]) for row in ranking["gained"]] == [
        ("N", pytest.approx(0.25)),
        ("A", pytest.approx(-0.5)),
        ("B", pytest.approx(-0.5)),
    ]
    json.dumps(new_run, allow_nan=False)


def test_judging_an_unjudged_unit_relevant_can_lower_ap_a15():
    # Run a n1 n2 u: a relevant, n1 and n2 non-relevant, u unjudged then relevant.
    # Before: AP = 1/1 over R = 1 -> 1.0. After: (1/1 + 2/4)/2 = 0.75; nDCG@4: (1 + 1/log2(5))/(1 + 1/log2(3)).
    run = {"r": {"q": ["a", "n1", "n2", "u"]}}
    before = {"q": {"a": 1, "n1": 0, "n2": 0}}
    after = {"q": {"a": 1, "n1": 0, "n2": 0, "u": 1}}
    result = compare_snapshots(before, after, run, topics=["q"], threshold=1, depth=4, measures=["AP", "nDCG@4"])
    r = result["runs"]["r"]
    assert (r["before"]["AP"], r["after"]["AP"]) == (pytest.approx(1.0), pytest.approx(0.75))
    assert (r["before"]["nDCG@4"], r["after"]["nDCG@4"]) == (pytest.approx(1.0), pytest.approx(0.8772, abs=1e-4))
    # Without an R@ measure the ranking uses the first measure after Judged@k.
    assert result["ranking"]["measure"] == "AP"


def test_changed_and_retracted_labels_and_unjudged_rows():
    before = {"t": {"a": 1, "b": 0, "c": 2, "d": -1}}
    # a regraded 1 -> 2, b retracted, c unchanged, d (pooled, unjudged) now judged 0, e still unjudged.
    after = {"t": {"a": 2, "c": 2, "d": 0, "e": -1}}
    result = compare_snapshots(before, after, {"r": {"t": ["a", "b"]}}, topics=["t"], threshold=1, depth=2)
    assert result["labels"] == {"added": 1, "changed": 1, "retracted": 1}
    assert result["topics_grown"] == {}  # relevant {a, c} both times


def test_rank_by_can_be_chosen():
    result = compare_snapshots(BEFORE, AFTER, NEW_RUNS, topics=["t"], threshold=1, depth=3, rank_by="Judged@3")
    # Judged@3 before: A 1, B 1, N 1/3; after: all 1 -> N's gain is 2/3.
    assert result["ranking"]["measure"] == "Judged@3"
    assert result["ranking"]["gained"][0] == {
        "run": "N",
        "before": pytest.approx(1 / 3),
        "after": 1.0,
        "gain": pytest.approx(2 / 3),
    }


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rank_by": "P@5"}, "rank_by 'P@5' is not among the measures compared: Judged@3, R@3, nDCG@3, AP"),
        ({"measures": []}, "no measures given"),
        ({"measures": ["XYZ"]}, "unknown measure"),
        ({"depth": 0}, "depth must be"),
        ({"before": {"t": {"a1": "yes"}}}, "before: topic 't', unit 'a1': grade must be a whole number"),
        ({"after": [1]}, "after must be a mapping"),
        ({"runs": {}}, "no runs given"),
    ],
)
def test_invalid_input_is_refused(kwargs, message):
    arguments = {
        "before": BEFORE,
        "after": AFTER,
        "runs": NEW_RUNS,
        "topics": ["t"],
        "threshold": 1,
        "depth": 3,
    } | kwargs
    before, after, runs = arguments.pop("before"), arguments.pop("after"), arguments.pop("runs")
    with pytest.raises(ValueError, match=message):
        compare_snapshots(before, after, runs, **arguments)

"""`labeler agreement` on an empty workbench where two or three assessors graded the same pairs.

Expected numbers are worked by hand in the comments (pooling_literature.md §6 for the binary example).
"""

from __future__ import annotations

import pytest

# pooling_literature.md §6 binary example: ann and bob disagree on d5 and d6 only.
ANN = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
BOB = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0]


def grade(run_cli, topic, unit_id, value, assessor):
    run_cli("judgments", "add", topic, unit_id, value, "--assessor", assessor, "--allow-unknown")


def binary_example(run_cli, topic="1"):
    for i, (a, b) in enumerate(zip(ANN, BOB, strict=True), start=1):
        grade(run_cli, topic, f"d{i}", a, "ann")
        grade(run_cli, topic, f"d{i}", b, "bob")


def three_assessors(run_cli):
    binary_example(run_cli)
    for assessor, value in (("ann", 3), ("bob", 3), ("cat", 2)):
        grade(run_cli, "2", "x", value, assessor)
    grade(run_cli, "2", "y", 1, "cat")  # graded by one assessor: counts nowhere


def value(statistic):
    return statistic["value"]


def test_two_assessors_on_the_binary_example(run_cli):
    binary_example(run_cli)
    result = run_cli.json("agreement")
    assert result["unit"] == "doc" and result["snapshot"] is None and result["metric"] == "ordinal"
    assert result["assessors"] == ["ann", "bob"]
    assert result["pairs_multi"] == 10 and result["pairs_judged"] == 10
    pair = result["overall"]["pairs_by_assessors"]["ann|bob"]
    assert pair["pairs"] == 10
    assert value(pair["overlap"]) == pytest.approx(0.8)
    assert value(pair["cohen_kappa"]) == pytest.approx(0.6)  # A18
    # only grades 0 and 1 occur: every weighting gives plain kappa
    assert value(pair["weighted_kappa_linear"]) == pytest.approx(0.6)
    assert value(pair["weighted_kappa_quadratic"]) == pytest.approx(0.6)
    assert value(pair["relevant_overlap"]) == pytest.approx(4 / 6)
    assert pair["confusion"] == {"grades": [0, 1, 2, 3], "counts": [[4, 1, 0, 0], [1, 4, 0, 0], [0] * 4, [0] * 4]}
    # alpha: o00 = o11 = 8, o01 = o10 = 2; n0 = n1 = 10, n = 20 -> 1 - 19*4 / (2*10*10) = 0.62
    assert result["overall"]["krippendorff_alpha"] == {"value": pytest.approx(0.62), "pairs": 10, "reason": None}
    assert list(result["topics"]) == ["1"]
    assert result["topics"]["1"]["overlap"] == result["overall"]["overlap"]


def test_three_assessors_overall_and_per_topic(run_cli):
    three_assessors(run_cli)
    result = run_cli.json("agreement")
    assert result["assessors"] == ["ann", "bob", "cat"]
    assert result["pairs_judged"] == 12 and result["pairs_multi"] == 11
    overall = result["overall"]
    # x graded 3, 3, 2: one of its three assessor pairs agrees -> (8 + 1/3) / 11 = 25/33
    assert value(overall["overlap"]) == pytest.approx(25 / 33)
    assert value(overall["binary_overlap"]) == pytest.approx(9 / 11)  # x: all three say relevant
    # o00 = o11 = 8, o01 = o10 = 2, and from x (m = 3, weight 1/2): o33 = o32 = o23 = 1.
    # n0 = n1 = 10, n2 = 1, n3 = 2, n = 23. Ordinal δ²: 01 100, 02 240.25, 03 289, 12 30.25, 13 49, 23 2.25.
    # Σ o δ² = 4*100 + 2*2.25 = 404.5; Σ n_c n_k δ² = 2*19469.5 = 38939 -> α = 1 - 22*404.5/38939
    assert value(overall["krippendorff_alpha"]) == pytest.approx(30040 / 38939)
    ann_bob = overall["pairs_by_assessors"]["ann|bob"]
    assert ann_bob["pairs"] == 11
    # marginals both {0: 5, 1: 5, 3: 1}: p_o = 9/11, p_e = 51/121 -> κ = 48/70
    assert value(ann_bob["cohen_kappa"]) == pytest.approx(48 / 70)
    # linear: observed Σ|i-j| = 2, expected Σ r_i c_j |i-j| = 25+25+15+15+10+10 = 100 -> 1 - 11*2/100
    assert value(ann_bob["weighted_kappa_linear"]) == pytest.approx(0.78)
    # quadratic: expected 25+25+45+45+20+20 = 180 -> 1 - 22/180
    assert value(ann_bob["weighted_kappa_quadratic"]) == pytest.approx(158 / 180)
    # relevant at grade 1: both {6 of 11}: p_o = 9/11, p_e = (36 + 25)/121 -> 38/60
    assert value(ann_bob["binary_kappa"]) == pytest.approx(38 / 60)
    assert value(ann_bob["relevant_overlap"]) == pytest.approx(5 / 7)
    ann_cat = overall["pairs_by_assessors"]["ann|cat"]
    assert ann_cat["pairs"] == 1
    assert value(ann_cat["overlap"]) == 0.0
    assert value(ann_cat["cohen_kappa"]) == 0.0  # (3, 2): p_o = 0, p_e = 0
    assert ann_cat["binary_kappa"]["value"] is None  # both say relevant on the one pair: 0/0
    assert "expected disagreement is 0" in ann_cat["binary_kappa"]["reason"]
    assert sorted(overall["pairs_by_assessors"]) == ["ann|bob", "ann|cat", "bob|cat"]
    assert list(result["topics"]) == ["1", "2"]
    topic = result["topics"]["2"]
    assert topic["pairs"] == 1 and topic["assessors"] == ["ann", "bob", "cat"]
    # x alone: n2 = 1, n3 = 2, n = 3; Σ o δ² = 2*2.25, Σ n n δ² = 2*2*2.25 -> 1 - 2*4.5/9 = 0
    assert value(topic["krippendorff_alpha"]) == pytest.approx(0.0)
    assert topic["pairs_by_assessors"]["ann|bob"]["cohen_kappa"]["value"] is None  # one pair, same grade
    assert value(result["topics"]["1"]["krippendorff_alpha"]) == pytest.approx(0.62)


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        # nominal: Σ o [c≠k] = 4 + 2 = 6; Σ n_c n_k [c≠k] = 23² - (100+100+1+4) = 324 -> 1 - 22*6/324
        ("nominal", 192 / 324),
        # interval: Σ o (c-k)² = 4 + 2 = 6; Σ n_c n_k (c-k)² = 2*(100 + 40 + 180 + 10 + 80 + 2) = 824 -> 1 - 132/824
        ("interval", 692 / 824),
    ],
)
def test_metric_option(run_cli, metric, expected):
    three_assessors(run_cli)
    result = run_cli.json("agreement", "--metric", metric)
    assert result["metric"] == metric
    assert value(result["overall"]["krippendorff_alpha"]) == pytest.approx(expected)


def test_only_latest_real_grades_of_assessors_count(run_cli, write):
    grade(run_cli, "1", "d1", 2, "ann")
    grade(run_cli, "1", "d1", 3, "bob")
    run_cli("judgments", "adjudicate", "1", "d1", "3", "--assessor", "lead")  # an adjudicator is no assessor
    grade(run_cli, "1", "d2", 0, "ann")
    grade(run_cli, "1", "d2", 1, "ann")  # replaces ann's 0
    grade(run_cli, "1", "d2", 1, "bob")
    qrels = write("pooled.qrels", "1 0 d1 -1\n1 0 d2 -1\n")  # pooled, not judged: not a grade
    run_cli("judgments", "import", qrels, "--assessor", "dan", "--allow-unknown")
    result = run_cli.json("agreement")
    assert result["assessors"] == ["ann", "bob"]
    assert result["pairs_multi"] == 2
    pair = result["overall"]["pairs_by_assessors"]["ann|bob"]
    assert value(pair["overlap"]) == pytest.approx(0.5)
    # ann (2, 1), bob (3, 1): p_o = 1/2, p_e = 1/4 -> κ = 1/3
    assert value(pair["cohen_kappa"]) == pytest.approx(1 / 3)


def test_nothing_to_compare(run_cli):
    grade(run_cli, "1", "d1", 1, "ann")
    result = run_cli.json("agreement")
    assert result["pairs_multi"] == 0 and result["pairs_judged"] == 1
    assert result["overall"]["krippendorff_alpha"] == {
        "value": None,
        "pairs": 0,
        "reason": "no pair was graded by two or more assessors",
    }
    assert result["topics"] == {}
    human = run_cli("agreement")
    assert "Nothing to compare" in human.stderr


def test_snapshot_restricts_to_its_topics_but_reads_the_log(run_cli):
    binary_example(run_cli, topic="1")
    run_cli("snapshot", "create", "-m", "first round")
    binary_example(run_cli, topic="3")  # a topic the snapshot does not know
    result = run_cli.json("agreement", "--snapshot", "v1")
    assert result["snapshot"] == "v1" and result["unit"] == "doc"
    assert list(result["topics"]) == ["1"]
    # v1 left out the two conflicting pairs; agreement still counts them from the log
    assert result["pairs_multi"] == 10
    assert value(result["overall"]["pairs_by_assessors"]["ann|bob"]["cohen_kappa"]) == pytest.approx(0.6)
    assert list(run_cli.json("agreement")["topics"]) == ["1", "3"]
    assert list(run_cli.json("agreement", "--snapshot", "current")["topics"]) == ["1", "3"]


def test_unknown_snapshot_or_unit_space_is_an_error(run_cli):
    binary_example(run_cli)
    missing = run_cli("agreement", "--snapshot", "v9", expect=1)
    assert missing.stderr.startswith("Error:") and "v9" in missing.stderr
    no_chunking = run_cli("agreement", "--unit", "chunk:nope", expect=2)
    assert no_chunking.stderr.startswith("Error: --unit: no chunking named 'nope'")


def test_human_output(run_cli):
    three_assessors(run_cli)
    result = run_cli("agreement")
    assert "per assessor pair" in result.stdout and "per topic" in result.stdout
    assert "ann|bob" in result.stdout and "0.6857" in result.stdout  # κ = 48/70
    assert "11 of 12 graded pairs" in result.stderr
    assert "Landis & Koch" in result.stderr

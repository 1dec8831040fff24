"""Agreement statistics on small hand-worked cases, the undefined cases and bad input."""

from __future__ import annotations

import pytest

from labeler.agreement.statistics import (
    ConfusionMatrix,
    Statistic,
    agreement_block,
    binary_agreement,
    cohen_kappa,
    compare_assessors,
    confusion_matrix,
    krippendorff_alpha,
    mean_pairwise_agreement,
    percent_agreement,
    relevant_overlap,
    summarize_agreement,
)


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # p_o = 3/4; p_e = (2/4)(1/4) + (2/4)(3/4) = 1/2 -> (3/4 - 1/2) / (1/2) = 0.5
        ([1, 1, 0, 0], [1, 0, 0, 0], 0.5),
        # complete disagreement with balanced marginals: p_o = 0, p_e = 1/2 -> -1
        ([1, 0], [0, 1], -1.0),
        # each assessor constant, but different: p_o = 0, p_e = 0 -> 0 (defined)
        ([1, 1], [0, 0], 0.0),
        # one assessor constant: p_o = 2/3, p_e = 1 * 2/3 -> 0 (defined)
        ([1, 1, 1], [1, 0, 1], 0.0),
    ],
)
def test_plain_kappa_by_hand(first, second, expected):
    assert cohen_kappa(first, second).value == pytest.approx(expected)


def test_weighted_kappa_counts_the_scale_grades_nobody_gave():
    # Pairs (0,1), (1,3), (3,3). On the scale 0-3 (positions = grades), linear weights:
    # observed Σ|i-j| = 1 + 2 + 0 = 3; rows A {0:1, 1:1, 3:1}, columns B {1:1, 3:2};
    # expected Σ r_i c_j |i-j| = (1 + 6) + (0 + 4) + (2 + 0) = 13 -> κ = 1 - 3*3/13 = 4/13.
    first, second = [0, 1, 3], [1, 3, 3]
    assert cohen_kappa(first, second, weights="linear", categories=[0, 1, 2, 3]).value == pytest.approx(4 / 13)
    # Without the scale, grade 2 is not a step: positions 0, 1, 2 for grades 0, 1, 3:
    # observed 1 + 1 + 0 = 2; expected (1 + 4) + 2 + 1 = 8 -> κ = 1 - 3*2/8 = 1/4.
    assert cohen_kappa(first, second, weights="linear").value == pytest.approx(0.25)
    # Quadratic, on the scale: observed 1 + 4 = 5; expected (1 + 18) + 8 + 4 = 31 -> 1 - 15/31 = 16/31.
    assert cohen_kappa(first, second, weights="quadratic", categories=range(4)).value == pytest.approx(16 / 31)


def test_weighted_kappas_equal_plain_kappa_on_two_grades():
    first, second = [1, 1, 0, 0, 1], [1, 0, 0, 0, 1]
    plain = cohen_kappa(first, second).value
    assert cohen_kappa(first, second, weights="linear").value == pytest.approx(plain)
    assert cohen_kappa(first, second, weights="quadratic").value == pytest.approx(plain)


def test_alpha_with_a_missing_rater_by_hand():
    # Unit 1 (m=3) grades 0, 0, 1: ordered pairs (0,0)x2, (0,1)x2, (1,0)x2, each 1/2 -> o00 = o01 = o10 = 1.
    # Unit 2 (m=2) grades 1, 1: o11 = 2. Unit 3 has one grade: not pairable.
    # n0 = 2, n1 = 3, n = 5; nominal: D_o ∝ o01 + o10 = 2, D_e ∝ 2*n0*n1 = 12 -> α = 1 - (5-1)*2/12 = 1/3.
    units = [{"a": 0, "b": 0, "c": 1}, {"a": 1, "b": 1}, {"a": 0}]
    alpha = krippendorff_alpha(units, metric="nominal")
    assert alpha.value == pytest.approx(1 / 3)
    assert alpha.pairs == 2


def test_alpha_is_the_same_for_every_metric_on_two_values():
    # Units (1,1), (2,2), (1,2): o11 = o22 = 2, o12 = o21 = 1; n1 = n2 = 3, n = 6.
    # Nominal: α = 1 - 5*2/18 = 4/9. With two values every metric's δ² is one constant, which cancels.
    units = [[1, 1], [2, 2], [1, 2]]
    for metric in ("nominal", "ordinal", "interval"):
        assert krippendorff_alpha(units, metric=metric).value == pytest.approx(4 / 9)


def test_ordinal_alpha_uses_ranks_not_distances():
    # Grade 3 far from 0 and 1 matters to the interval metric but not the ordinal one (which only counts
    # the values in between): moving 3 to 30 changes interval alpha, not ordinal alpha.
    near = [[0, 1], [1, 3], [3, 3], [0, 0]]
    far = [[0, 1], [1, 30], [30, 30], [0, 0]]
    assert krippendorff_alpha(near).value == pytest.approx(krippendorff_alpha(far).value)
    assert krippendorff_alpha(near, metric="interval").value != pytest.approx(
        krippendorff_alpha(far, metric="interval").value
    )


def test_mean_pairwise_agreement_with_three_assessors():
    # (2, 2, 3): one of three assessor pairs agrees -> 1/3; (1, 1): 1; (0,) not pairable -> mean 2/3.
    result = mean_pairwise_agreement([[2, 2, 3], [1, 1], [0]])
    assert result.value == pytest.approx(2 / 3)
    assert result.pairs == 2


def test_binary_agreement_and_relevant_overlap_use_the_threshold():
    first, second = [0, 1, 2, 3], [1, 2, 2, 0]
    assert percent_agreement(first, second).value == pytest.approx(1 / 4)
    # threshold 2: relevant A {3rd, 4th}, B {2nd, 3rd}: same verdict on 1st and 3rd -> 2/4; overlap 1/3
    assert binary_agreement(first, second, 2).value == pytest.approx(2 / 4)
    assert relevant_overlap(first, second, 2).value == pytest.approx(1 / 3)
    # threshold 1: A {2,3,4}, B {1,2,3} -> verdicts agree on 2nd and 3rd; overlap 2/4
    assert binary_agreement(first, second, 1).value == pytest.approx(2 / 4)
    assert relevant_overlap(first, second, 1).value == pytest.approx(2 / 4)


def test_confusion_matrix_rows_are_the_first_assessor():
    matrix = confusion_matrix([0, 0, 2], [0, 1, 2], categories=[0, 1, 2, 3])
    assert matrix == ConfusionMatrix([0, 1, 2, 3], [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]])


@pytest.mark.parametrize(
    ("statistic", "reason"),
    [
        (cohen_kappa([], []), "no pair was graded by both"),
        (cohen_kappa([2, 2, 2], [2, 2, 2]), "expected disagreement is 0"),  # p_e = 1: 0/0, not 1.0
        (cohen_kappa([2], [2], weights="quadratic"), "expected disagreement is 0"),
        (percent_agreement([], []), "no pair was graded by both"),
        (relevant_overlap([0, 0], [0, 0], 1), "neither assessor graded any pair relevant"),
        (krippendorff_alpha([[3, 3], [3, 3, 3]]), "expected disagreement is 0"),  # no variation: 0/0, not 1.0
        (krippendorff_alpha([[1], [2], {}]), "no pair was graded by two or more"),
        (krippendorff_alpha([]), "no pair was graded by two or more"),
        (mean_pairwise_agreement([[1]]), "no pair was graded by two or more"),
    ],
)
def test_undefined_cases_are_none_with_a_reason(statistic, reason):
    assert statistic.value is None
    assert reason in statistic.reason


def test_undefined_keeps_the_pair_count():
    assert cohen_kappa([2, 2, 2], [2, 2, 2]).pairs == 3
    assert krippendorff_alpha([[3, 3], [3, 3, 3], [1]]).pairs == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cohen_kappa([1, 2], [1]), "must be paired"),
        (lambda: cohen_kappa([1], [1], weights="cubic"), "weights must be"),
        (lambda: krippendorff_alpha([[1, 2]], metric="ratio"), "metric must be one of"),
        (lambda: krippendorff_alpha([[1, 2.5]]), "must be an integer"),
        (lambda: percent_agreement([True], [1]), "must be an integer"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_compare_assessors_uses_only_pairs_both_graded():
    units = [{"ann": 1, "bob": 1}, {"ann": 0, "bob": 1}, {"ann": 1, "cat": 0}, {"bob": 0}]
    result = compare_assessors(units, "ann", "bob", threshold=1, categories=[0, 1])
    assert result.pairs == 2
    assert result.overlap == Statistic(0.5, 2, None)
    # ann (1, 0), bob (1, 1): p_o = 1/2, p_e = (1/2)(1) = 1/2 -> κ = 0
    assert result.cohen_kappa.value == pytest.approx(0.0)
    assert result.confusion == ConfusionMatrix([0, 1], [[0, 1], [0, 1]])


def test_agreement_block_with_three_assessors():
    units = [{"ann": 2, "bob": 2, "cat": 3}, {"ann": 1, "bob": 1}, {"cat": 0}]
    block = agreement_block(units, threshold=1, categories=range(4))
    assert block.pairs == 2
    assert block.assessors == ["ann", "bob", "cat"]
    assert block.overlap.value == pytest.approx(2 / 3)  # (1/3 + 1) / 2
    assert block.binary_overlap.value == pytest.approx(1.0)  # all relevant
    assert sorted(block.pairs_by_assessors) == ["ann|bob", "ann|cat", "bob|cat"]
    assert block.pairs_by_assessors["ann|cat"].pairs == 1
    # ann|bob on (2,2), (1,1): perfect agreement with variation -> κ = 1
    assert block.pairs_by_assessors["ann|bob"].cohen_kappa.value == pytest.approx(1.0)


def test_summarize_agreement_per_topic_and_overall():
    grades = {
        "10": {"d1": {"ann": 1, "bob": 0}, "d2": {"ann": 0, "bob": 0}},
        "2": {"d1": {"ann": 3, "bob": 3}, "d2": {"ann": 2}},
        "3": {"d1": {"cat": 1}},  # no pair with two grades: not in "topics"
    }
    summary = summarize_agreement(grades, threshold=1, categories=range(4))
    assert summary.pairs_judged == 5
    assert summary.pairs_multi == 3
    assert summary.assessors == ["ann", "bob"]  # cat graded no shared pair
    assert list(summary.topics) == ["2", "10"]  # numeric topic ids in numeric order
    assert summary.overall.overlap.value == pytest.approx(2 / 3)
    assert summary.topics["10"].overlap == Statistic(0.5, 2, None)
    # topic 2 has one shared pair, graded 3 and 3: alpha has no variation to work with
    assert summary.topics["2"].krippendorff_alpha.value is None
    # overall ann|bob on (1,0), (0,0), (3,3): rows {0:1, 1:1, 3:1}, columns {0:2, 3:1}; p_o = 2/3,
    # p_e = (1*2 + 1*1)/9 = 1/3 -> κ = (2/3 - 1/3) / (2/3) = 1/2
    assert summary.overall.pairs_by_assessors["ann|bob"].cohen_kappa.value == pytest.approx(0.5)


def test_nothing_to_compare():
    summary = summarize_agreement({"q1": {"d1": {"ann": 1}}}, threshold=1)
    assert summary.pairs_multi == 0
    assert summary.topics == {}
    assert summary.overall.krippendorff_alpha == Statistic(None, 0, "no pair was graded by two or more assessors")
    assert summary.overall.pairs_by_assessors == {}

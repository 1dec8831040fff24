"""Agreement statistics against the literature's worked numbers (pooling_literature.md §6, A18; Krippendorff 2011)."""

from __future__ import annotations

import pytest

from labeler.agreement.statistics import cohen_kappa, krippendorff_alpha, percent_agreement, relevant_overlap

# §6 binary example, 10 units.
BINARY_A = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
BINARY_B = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0]
# §6 graded example, 0-3, 10 units; g3 is a third rater with two missing grades (None).
G1 = [0, 1, 2, 3, 3, 2, 1, 0, 2, 3]
G2 = [0, 1, 2, 3, 2, 2, 0, 0, 3, 3]
G3 = [0, None, 2, 3, 3, None, 1, 0, 2, 2]


def test_binary_example_kappa_is_0_6():
    # A18: p_o = 0.8, p_e = 0.5*0.5 + 0.5*0.5 = 0.5 -> (0.8 - 0.5) / (1 - 0.5) = 0.6.
    assert percent_agreement(BINARY_A, BINARY_B).value == pytest.approx(0.8)
    kappa = cohen_kappa(BINARY_A, BINARY_B)
    assert kappa.value == pytest.approx(0.6)
    assert kappa.pairs == 10 and kappa.reason is None


def test_binary_example_voorhees_overlap_is_4_of_6():
    # Relevant sets {1..5} and {1..4, 6}: 4 in both, 6 in either.
    assert relevant_overlap(BINARY_A, BINARY_B, threshold=1).value == pytest.approx(4 / 6)


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        (None, 0.5946),  # §6 table: κ (unweighted)
        ("linear", 0.7656),  # κ (linear)
        ("quadratic", 0.8872),  # κ (quadratic)
    ],
)
def test_graded_example_kappas(weights, expected):
    assert cohen_kappa(G1, G2, weights=weights, categories=[0, 1, 2, 3]).value == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        ("nominal", 0.6122),  # §6 table: α nominal
        ("ordinal", 0.8647),  # A18: α ordinal
        ("interval", 0.8927),  # α interval
    ],
)
def test_graded_example_alphas(metric, expected):
    alpha = krippendorff_alpha(list(zip(G1, G2, strict=True)), metric=metric)
    assert alpha.value == pytest.approx(expected, abs=5e-5)
    assert alpha.pairs == 10


def test_graded_example_with_a_third_rater_missing_two_grades():
    # §6: adding g3 (two grades missing) gives α ordinal = 0.8592; every unit still has >= 2 grades.
    alpha = krippendorff_alpha(list(zip(G1, G2, G3, strict=True)), metric="ordinal")
    assert alpha.value == pytest.approx(0.8592, abs=5e-5)
    assert alpha.pairs == 10


# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C: 4 observers, 12 units,
# values 1-5, missing data; unit 12 has a single value and is not pairable. (Also the doctest of the
# `krippendorff` package; its published values are 0.743, 0.815 and 0.849.)
KRIPPENDORFF_2011 = [
    {"A": 1, "B": 1, "D": 1},
    {"A": 2, "B": 2, "C": 3, "D": 2},
    {"A": 3, "B": 3, "C": 3, "D": 3},
    {"A": 3, "B": 3, "C": 3, "D": 3},
    {"A": 2, "B": 2, "C": 2, "D": 2},
    {"A": 1, "B": 2, "C": 3, "D": 4},
    {"A": 4, "B": 4, "C": 4, "D": 4},
    {"A": 1, "B": 1, "C": 2, "D": 1},
    {"A": 2, "B": 2, "C": 2, "D": 2},
    {"B": 5, "C": 5, "D": 5},
    {"C": 1, "D": 1},
    {"B": 3},
]


@pytest.mark.parametrize(("metric", "expected"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_krippendorff_2011_example(metric, expected):
    alpha = krippendorff_alpha(KRIPPENDORFF_2011, metric=metric)
    assert round(alpha.value, 3) == expected
    assert alpha.pairs == 11  # unit 12 (one value) is left out

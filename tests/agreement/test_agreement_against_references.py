"""Kappa and alpha against independent implementations on random grades.

scikit-learn's `cohen_kappa_score` and the `krippendorff` package (both in the `test` extra) are
the references; without them these tests are skipped.
"""

from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.agreement.statistics import cohen_kappa, krippendorff_alpha


# The references are imported by the tests that use them, not when the module is collected: under
# pytest-xdist every worker collects every module, and scikit-learn's import alone takes seconds.
@pytest.fixture(scope="module")
def metrics():
    return pytest.importorskip("sklearn.metrics")


@pytest.fixture(scope="module")
def krippendorff():
    return pytest.importorskip("krippendorff")


@pytest.fixture(scope="module")
def np():
    return pytest.importorskip("numpy")


SCALE = [0, 1, 2, 3]


@st.composite
def paired_grades(draw):
    n = draw(st.integers(min_value=1, max_value=25))
    grade = st.sampled_from(SCALE)
    return draw(st.lists(grade, min_size=n, max_size=n)), draw(st.lists(grade, min_size=n, max_size=n))


@st.composite
def reliability_data(draw):
    """Units x raters, None where a rater did not grade the unit."""
    raters = draw(st.integers(min_value=2, max_value=4))
    units = draw(st.integers(min_value=1, max_value=15))
    grade = st.one_of(st.none(), st.sampled_from(SCALE))
    return [draw(st.lists(grade, min_size=raters, max_size=raters)) for _ in range(units)]


@settings(max_examples=150, deadline=None)
@given(paired_grades(), st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_matches_scikit_learn(metrics, grades, weights):
    first, second = grades
    ours = cohen_kappa(first, second, weights=weights, categories=SCALE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 warns there; here it is None with a reason
        expected = metrics.cohen_kappa_score(first, second, labels=SCALE, weights=weights)
    if ours.value is None:
        assert math.isnan(expected), ours.reason
    else:
        assert ours.value == pytest.approx(expected, abs=1e-9)
    assert ours.pairs == len(first)


@settings(max_examples=150, deadline=None)
@given(reliability_data(), st.sampled_from(["nominal", "ordinal", "interval"]))
def test_alpha_matches_the_krippendorff_package(krippendorff, np, units, metric):
    ours = krippendorff_alpha(units, metric=metric)
    pairable = sum(1 for unit in units if sum(g is not None for g in unit) >= 2)
    assert ours.pairs == pairable
    matrix = np.array([[np.nan if g is None else g for g in unit] for unit in units], dtype=float).T
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = krippendorff.alpha(reliability_data=matrix, value_domain=SCALE, level_of_measurement=metric)
    except ValueError:  # the package refuses data with no unit graded twice
        assert pairable == 0
        assert ours.value is None
        return
    if ours.value is None:
        assert math.isnan(expected), ours.reason
    else:
        assert ours.value == pytest.approx(float(expected), abs=1e-9)

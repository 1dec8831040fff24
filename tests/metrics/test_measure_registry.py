"""A seed measure is one function plus one registration: parsing, messages and `evaluate` then know it."""

from __future__ import annotations

import pytest

from labeler.metrics import evaluate
from labeler.metrics.names import (
    MeasureFamily,
    known_families,
    measure_family,
    parse_measure,
    register_family,
    unregister_family,
)

QRELS = {"1": {"d1": 1, "d2": 0}, "2": {"d3": 0}}
RUNS = {"1": ["d2", "d1"], "2": ["d3"]}


@pytest.fixture
def first_hit():
    """Toy: 1 when the first relevant unit is within the top k, None for a topic with nothing relevant."""

    def compute(measure, ranking, relevant):
        if not relevant:
            return None
        return 1.0 if relevant.intersection(ranking[: measure.cutoff]) else 0.0

    register_family(MeasureFamily("FirstHit", aliases=("FH",), recall=True, compute=compute))
    yield
    unregister_family("FirstHit")


def test_the_built_in_families_read_as_before():
    assert known_families() == (
        "P@k, R@k, nDCG[@k], AP[@k], RR[@k], Rprec, Bpref, infAP, Success@k, Judged@k, AnyHit@k, AllHit@k, "
        "T[(alpha=a)]@k, F[(alpha=a)]@k, Fe[(alpha=a)]@k, RBP[(p=p)]"
    )


def test_a_registered_family_is_parsed_listed_and_computed(first_hit):
    assert known_families().endswith(", FirstHit@k")
    assert parse_measure("fh@2").family == "FirstHit"
    with pytest.raises(ValueError, match="FirstHit needs a cutoff"):
        parse_measure("FirstHit")
    result = evaluate(QRELS, RUNS, "FirstHit@1 FirstHit@2", topics=["1", "2"], threshold=1)
    assert result.per_query["1"] == {"FirstHit@1": 0.0, "FirstHit@2": 1.0}
    assert result.per_query["2"] == {"FirstHit@1": None, "FirstHit@2": None}
    assert result.counts == {"FirstHit@1": 1, "FirstHit@2": 1}
    assert measure_family(parse_measure("FirstHit@1").family).recall


def test_an_unregistered_family_is_unknown_again(first_hit):
    unregister_family("FirstHit")
    with pytest.raises(ValueError, match="unknown measure 'FirstHit@1'"):
        parse_measure("FirstHit@1")
    register_family(MeasureFamily("FirstHit", compute=lambda m, r, rel: None))  # for the fixture to remove


@pytest.mark.parametrize(
    ("family", "message"),
    [
        (MeasureFamily("ap", compute=lambda m, r, rel: 0.0), "'ap' is already registered"),
        (MeasureFamily("Mean", aliases=("MRR",), compute=lambda m, r, rel: 0.0), "'MRR' is already registered"),
        (MeasureFamily("Nothing"), "has no function"),
        (MeasureFamily("Odd", cutoff="sometimes", compute=lambda m, r, rel: 0.0), "cutoff must be"),
    ],
)
def test_a_bad_registration_is_refused(family, message):
    with pytest.raises(ValueError, match=message):
        register_family(family)
    assert family.name not in known_families()

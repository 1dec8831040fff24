"""A measure family is one function plus one registration: parsing, messages, `evaluate` and the docs list know it.

The toy families below are registered by the tests themselves, parsed and
scored through `evaluate` with no other edit, listed by `FAMILIES.values()`
with their docs line, then unregistered.
"""

from __future__ import annotations

import pytest

from labeler.metrics import evaluate
from labeler.metrics.names import FAMILIES, MeasureFamily, known_families, parse_measure

QRELS = {"1": {"d1": 1, "d2": 0}, "2": {"d3": 0}}
RUNS = {"1": ["d2", "d1"], "2": ["d3"]}
DOCS = {"description": "a toy", "example": "Toy@1", "source": "this test"}


def _first_hit(measure, ranking, relevant):
    """Toy: 1 when a relevant unit is within the top k, None for a topic with nothing relevant."""
    if not relevant:
        return None
    return 1.0 if relevant.intersection(ranking[: measure.k]) else 0.0


@pytest.fixture
def first_hit():
    family = FAMILIES.register(
        "FirstHit",
        MeasureFamily(
            "FirstHit",
            aliases=("FH",),
            recall=True,
            compute=_first_hit,
            description="1 when a relevant unit is in the top k",
            example="FirstHit@5",
            source="a toy of tests/metrics/test_measure_registry.py",
        ),
    )
    yield family
    FAMILIES.unregister("FirstHit")


@pytest.fixture
def weighted_hit():
    """Toy with a parameter: alpha times the share of the top k that is relevant (its default 0.5)."""

    def compute(measure, ranking, relevant):
        top = ranking[: measure.k]
        return measure.parameter * sum(1 for unit in top if unit in relevant) / measure.k

    FAMILIES.register(
        "WHit",
        MeasureFamily("WHit", param="alpha", default=0.5, compute=compute, **{**DOCS, "example": "WHit(alpha=0.2)@3"}),
    )
    yield
    FAMILIES.unregister("WHit")


@pytest.fixture
def num_ret():
    """Toy computed by trec_eval's code: ir_measures' NumRet (relevant units retrieved), one registration."""
    FAMILIES.register(
        "NumRet", MeasureFamily("NumRet", cutoff="none", backend="standard", **{**DOCS, "example": "NumRet"})
    )
    yield
    FAMILIES.unregister("NumRet")


def test_the_built_in_families_read_as_before():
    assert known_families() == (
        "P@k, R@k, nDCG[@k], AP[@k], RR[@k], Rprec, Bpref, infAP, Success@k, Judged@k, AnyHit@k, AllHit@k, "
        "T[(alpha=a)]@k, F[(alpha=a)]@k, Fe[(alpha=a)]@k, RBP[(p=p)]"
    )


def test_every_built_in_family_carries_its_docs_line():
    families = FAMILIES.values()
    assert [f.name for f in families] == [
        *("P", "R", "nDCG", "AP", "RR", "Rprec", "Bpref", "infAP", "Success", "Judged"),
        *("AnyHit", "AllHit", "T", "F", "Fe", "RBP"),
    ]
    for family in families:
        assert family.description and family.source
        assert parse_measure(family.example).family == family.name
    rbp = FAMILIES.get("RBP")
    assert (rbp.spelling, rbp.example) == ("RBP[(p=p)]", "RBP(p=0.8)")
    assert rbp.source.startswith("Moffat & Zobel")


def test_a_registered_family_is_parsed_listed_and_computed(first_hit):
    assert known_families().endswith(", FirstHit@k")
    assert FAMILIES.values()[-1] is first_hit
    assert (first_hit.spelling, first_hit.example) == ("FirstHit@k", "FirstHit@5")
    assert parse_measure("fh@2").family == "FirstHit"
    with pytest.raises(ValueError, match="FirstHit needs a cutoff"):
        parse_measure("FirstHit")
    result = evaluate(QRELS, RUNS, "FirstHit@1 FirstHit@2", topics=["1", "2"], threshold=1)
    assert result.per_query["1"] == {"FirstHit@1": 0.0, "FirstHit@2": 1.0}
    assert result.per_query["2"] == {"FirstHit@1": None, "FirstHit@2": None}
    assert result.counts == {"FirstHit@1": 1, "FirstHit@2": 1}
    assert result.aggregate == {"FirstHit@1": 0.0, "FirstHit@2": 1.0}
    assert FAMILIES.get(parse_measure("FirstHit@1").family).recall


def test_an_unregistered_family_is_unknown_again(first_hit):
    FAMILIES.unregister("FirstHit")
    with pytest.raises(ValueError, match="unknown measure 'FirstHit@1'"):
        parse_measure("FirstHit@1")
    assert "FirstHit" not in [f.name for f in FAMILIES.values()]
    FAMILIES.register("FirstHit", first_hit)  # for the fixture to remove


def test_a_family_with_a_parameter_gets_its_default_its_value_and_its_range(weighted_hit):
    assert FAMILIES.get("WHit").spelling == "WHit[(alpha=a)]@k"
    assert parse_measure("WHit(alpha=0.2)@2").alpha == 0.2
    result = evaluate(QRELS, RUNS, "WHit@2 WHit(alpha=0.2)@2", topics=["1"], threshold=1)
    assert result.per_query["1"] == {"WHit@2": 0.25, "WHit(alpha=0.2)@2": pytest.approx(0.1)}
    with pytest.raises(ValueError, match="alpha must be between 0 and 1"):
        parse_measure("WHit(alpha=2)@2")
    with pytest.raises(ValueError, match="WHit takes only alpha="):
        parse_measure("WHit(p=0.5)@2")


def test_a_trec_eval_family_is_one_registration(num_ret):
    qrels = {"1": {"d1": 1, "d2": 0, "d3": 1}}
    result = evaluate(qrels, {"1": ["d2", "d1"]}, "NumRet P@2", topics=["1"], threshold=1)
    assert result.per_query["1"] == {"NumRet": 1.0, "P@2": 0.5}
    with pytest.raises(ValueError, match="NumRet takes no @cutoff"):
        parse_measure("NumRet@5")


@pytest.mark.parametrize(
    ("family", "message"),
    [
        (MeasureFamily("ap", compute=_first_hit, **DOCS), "'ap' is already registered"),
        (MeasureFamily("Mean", aliases=("MRR",), compute=_first_hit, **DOCS), "'MRR' is already registered"),
        (MeasureFamily("Nothing", **DOCS), "has no function"),
        (MeasureFamily("Odd", cutoff="sometimes", compute=_first_hit, **DOCS), "cutoff must be"),
        (MeasureFamily("Odd", param="beta", compute=_first_hit, **DOCS), "parameter must be one of alpha, p"),
        (MeasureFamily("Odd", backend="elsewhere", **DOCS), "backend must be standard, rbp or seed"),
        (MeasureFamily("Toy", compute=_first_hit), "has no description or example or source for the docs"),
        (MeasureFamily("Toy", compute=_first_hit, **{**DOCS, "source": " "}), "has no source for the docs"),
        (MeasureFamily("Toy", compute=_first_hit, **{**DOCS, "example": "P@10"}), "example 'P@10' does not parse"),
        (MeasureFamily("Toy", compute=_first_hit, **{**DOCS, "example": "Toy"}), "example 'Toy' does not parse"),
    ],
)
def test_a_bad_registration_is_refused(family, message):
    before = FAMILIES.values()
    with pytest.raises(ValueError, match=message):
        FAMILIES.register(family.name, family)
    assert FAMILIES.values() == before
    assert family.name not in known_families()

"""Query likelihood with Dirichlet smoothing: hand-worked scores on the six-document corpus (see conftest)."""

from __future__ import annotations

import math

import pytest
from conftest import DOCUMENTS

from labeler.retrievers.ql import QueryLikelihood, words


def indexed(mu: float = 2000.0) -> QueryLikelihood:
    retriever = QueryLikelihood(mu=mu)
    retriever.index(DOCUMENTS.items())
    return retriever


def test_words_are_lowercase_without_stopwords_or_stemming():
    assert words("The Dogs, and a DOG's garden!") == ["dogs", "dog", "s", "garden"]


def test_scores_match_the_formula_worked_by_hand():
    # mu = 10, |C| = 22, cf(chase) = cf(mice) = 2, so mu * P(t|C) = 10 * 2/22 = 0.90909.
    # d1 (|d| = 3, chase 1, mice 1): 2 * ln((1 + 0.90909) / 13)                     = 2 * -1.91832 = -3.83664
    # d5 (|d| = 3, mice 1):          ln(0.90909 / 13) + ln(1.90909 / 13)  = -2.66026 + -1.91832 = -4.57858
    # d3 (|d| = 4, chase 1):         ln(1.90909 / 14) + ln(0.90909 / 14)  = -1.99243 + -2.73437 = -4.72680
    # The shorter d5 beats d3 with the same single match; d2, d4, d6 hold neither word and are not ranked.
    hits = indexed(mu=10).search("chase mice", 10)
    assert [unit for unit, _ in hits] == ["d1", "d5", "d3"]
    assert [score for _, score in hits] == pytest.approx([-3.83664, -4.57858, -4.72680], abs=1e-5)


def test_default_mu_rewards_the_repeated_word():
    # mu = 2000, cf(cats) = 4: background 363.636; d2 (tf 2, |d| 6) ln(365.636/2006) = -1.70226
    # beats d1 (tf 1, |d| 3) ln(364.636/2003) = -1.70350 and d3 (tf 1, |d| 4) ln(364.636/2004) = -1.70400.
    hits = indexed().search("cats", 10)
    assert [unit for unit, _ in hits] == ["d2", "d1", "d3"]
    assert hits[0][1] == pytest.approx(math.log(365.6363636 / 2006), abs=1e-7)


def test_no_stemming_so_dog_does_not_find_dogs():
    assert [unit for unit, _ in indexed().search("dog", 10)] == ["d6"]


def test_unknown_and_stop_words_find_nothing():
    retriever = indexed()
    assert retriever.search("unicorns", 10) == []
    assert retriever.search("the and of", 10) == []
    assert [unit for unit, _ in retriever.search("unicorns chase", 10)] == ["d1", "d3"]  # the unknown word is left out


def test_k_cuts_after_the_canonical_order():
    assert [unit for unit, _ in indexed(mu=10).search("chase mice", 2)] == ["d1", "d5"]


def test_ties_are_broken_by_unit_id_descending():
    retriever = QueryLikelihood()
    retriever.index([("a", "red fish"), ("c", "red fish"), ("b", "red fish")])
    assert [unit for unit, _ in retriever.search("fish", 2)] == ["c", "b"]


@pytest.mark.parametrize("mu", [0, -5, float("inf"), float("nan"), "big", True])
def test_mu_must_be_a_positive_number(mu):
    with pytest.raises(ValueError, match="mu must be a positive number"):
        QueryLikelihood(mu=mu)


def test_the_cli_run_has_the_hand_worked_order_and_records_mu(hand_cli, stored_units):
    result = hand_cli.json("runs", "retrieve", "--retriever", "ql", "--name", "ql10", "--mu", "10")
    assert stored_units("ql10", "3") == ["d1", "d5", "d3"]
    assert result["policies"]["retriever_params"]["mu"] == 10.0
    assert result["policies"]["retriever"] == "ql"

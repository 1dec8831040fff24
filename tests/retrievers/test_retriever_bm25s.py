"""The bm25s retriever: BM25 with bm25s's tokenizer, English stopwords and optional stemming."""

from __future__ import annotations

import pytest
from conftest import DOCUMENTS

from labeler.errors import LabelerError
from labeler.retrievers import bm25s_retriever
from labeler.retrievers.bm25s_retriever import BM25SRetriever


def indexed(**params) -> BM25SRetriever:
    retriever = BM25SRetriever(**params)
    retriever.index(DOCUMENTS.items())
    return retriever


def test_the_repeated_word_wins_and_units_without_it_are_not_ranked():
    # "cats": d2 holds it twice (5 tokens without stopwords), d1 once in 3 tokens, d3 once in 4.
    hits = indexed(stemmer="none").search("cats", 10)
    assert [unit for unit, _ in hits] == ["d2", "d1", "d3"]
    assert all(score > 0 for _, score in hits)


def test_without_stemming_dog_does_not_find_dogs():
    assert [unit for unit, _ in indexed(stemmer="none").search("dog", 10)] == ["d6"]


def test_with_stemming_dog_finds_dogs_and_the_shorter_unit_first():
    pytest.importorskip("Stemmer")
    retriever = indexed(stemmer="english")
    # d6 "dog sleeps garden" (3 tokens) before d3 "dogs chase cats park" (4 tokens): same tf, shorter unit.
    assert [unit for unit, _ in retriever.search("dog", 10)] == ["d6", "d3"]
    assert retriever.params["stemmer"] == "english" and "PyStemmer" in retriever.version


def test_auto_stemming_is_recorded_as_what_was_used(monkeypatch):
    monkeypatch.setattr(bm25s_retriever, "pystemmer_available", lambda: False)
    retriever = BM25SRetriever()
    assert retriever.params["stemmer"] == "none" and "PyStemmer" not in retriever.version
    with pytest.raises(LabelerError, match="stemmer=english needs PyStemmer"):
        BM25SRetriever(stemmer="english")


@pytest.mark.parametrize("method", ["bm25l", "bm25+"])
def test_variants_that_score_every_unit_still_rank_only_matching_ones(method):
    # BM25L and BM25+ add a score for absent words, so every unit scores above 0; d6 alone holds "dog".
    assert [unit for unit, _ in indexed(stemmer="none", method=method).search("dog", 10)] == ["d6"]


def test_stopwords_and_unknown_words_find_nothing():
    retriever = indexed()
    assert retriever.search("the and of", 10) == []
    assert retriever.search("unicorns", 10) == []


def test_ties_are_broken_by_unit_id_descending_before_the_cut():
    retriever = BM25SRetriever(stemmer="none")
    retriever.index([("a", "red fish"), ("c", "red fish"), ("b", "red fish"), ("d", "blue whale")])
    assert [unit for unit, _ in retriever.search("fish", 2)] == ["c", "b"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"k1": -1}, "k1 must be a number 0 or more"),
        ({"b": "high"}, "b must be a number 0 or more"),
        ({"stemmer": "porter"}, "stemmer must be one of auto, english, none"),
        ({"method": "okapi"}, "method must be one of lucene, robertson, atire, bm25l, bm25+"),
        ({"k1": float("nan")}, "k1 must be a number 0 or more"),
    ],
)
def test_bad_parameters_are_refused(params, message):
    with pytest.raises(ValueError, match=message):
        BM25SRetriever(**params)


def test_the_cli_passes_parameters_and_records_them(hand_cli, stored_units):
    result = hand_cli.json(
        "runs", "retrieve", "--retriever", "bm25s", "--name", "b", "--param", "k1=0.9", "--param", "stemmer=none"
    )
    params = result["policies"]["retriever_params"]
    assert (params["k1"], params["b"], params["stemmer"], params["stopwords"]) == (0.9, 0.75, "none", "en")
    assert result["policies"]["retriever_version"].startswith("bm25s ")
    assert stored_units("b", "1") == ["d2", "d1", "d3"]


def test_an_unknown_parameter_names_the_ones_it_takes(hand_cli):
    result = hand_cli("runs", "retrieve", "--retriever", "bm25s", "--name", "b", "--mu", "5", expect=1)
    assert "retriever 'bm25s' takes no parameter mu (it takes k1, b, method, stemmer)" in result.stderr

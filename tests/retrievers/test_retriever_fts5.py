"""The fts5 retriever: BM25 by SQLite FTS5 through the store, with sanitized queries."""

from __future__ import annotations

import sqlite3

import pytest

from labeler.store import Store
from labeler.store.search_rows import fts5_query


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cats", '"cats"'),
        ("Cats chase CATS", '"cats" OR "chase"'),  # case-folded, repeated words once
        (
            'cats: "AND" (NOT) mice*^',
            '"cats" OR "and" OR "not" OR "mice"',
        ),  # syntax characters and keywords dropped/quoted
        ("café au lait", '"café" OR "au" OR "lait"'),  # words are Unicode words
        ("-- ?! ()", None),  # nothing to search for
    ],
)
def test_queries_are_quoted_terms_ored(text, expected):
    assert fts5_query(text) == expected


@pytest.mark.parametrize("title", ['"', 'a"b', "NEAR(a b)", "x AND", "*", "col:term", "a OR", "(((", "^start"])
def test_no_title_causes_an_fts5_syntax_error(db_path, title):
    with Store(db_path) as store:
        store.build_unit_search([("d1", 'a b x term start col near " and or')])
        store.search_units(title, 10)  # raises sqlite3.OperationalError on a syntax error


def test_bm25_is_negated_so_higher_is_better(db_path):
    with Store(db_path) as store:
        store.build_unit_search(
            [
                ("d1", "cats chase mice"),
                ("d2", "mice eat cheese"),
                ("d3", "dogs bark"),
                ("d4", "birds sing"),
                ("d5", "fish swim"),
            ]
        )
        hits = store.search_units("chase mice", 10)
        assert [unit for unit, _ in hits] == ["d1", "d2"]  # d1 has both words
        assert hits[0][1] > hits[1][1] > 0


def test_porter_stemming_and_ties_by_unit_id_descending(hand_cli, stored_units):
    hand_cli("runs", "retrieve", "--retriever", "fts5", "--name", "fts")
    # "dog" finds d3 ("dogs", stemmed) and d6 ("dog"): one match each in six-token texts, an exact tie.
    assert stored_units("fts", "2") == ["d6", "d3"]
    # "chase mice": d1 holds both words, then d5 (mice, rarer in a 3-token text) before d3 (chase, 6 tokens).
    assert stored_units("fts", "3") == ["d1", "d5", "d3"]


def test_punctuation_in_a_title_is_searched_as_words(hand_cli, stored_units):
    hand_cli("runs", "retrieve", "--retriever", "fts5", "--name", "fts")
    assert stored_units("fts", "4")[:2] == ["d1", "d5"]  # cats and mice; "and", "not", "near", "x" match little


def test_the_index_is_temporary(hand_cli, db_path):
    hand_cli("runs", "retrieve", "--retriever", "fts5", "--name", "fts")
    with sqlite3.connect(db_path) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master")]
    assert not [name for name in names if "search" in name or "fts" in name]


def test_fts5_takes_no_parameters(hand_cli):
    result = hand_cli("runs", "retrieve", "--retriever", "fts5", "--name", "f", "--mu", "10", expect=1)
    assert "retriever 'fts5' takes no parameters" in result.stderr

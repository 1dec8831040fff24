"""A hand-made six-document workbench for the retriever tests.

QL words (lowercase, stopwords out, no stemming) and lengths:
  d1 cats chase mice (3)                 d4 garden roses tulips (3)
  d2 cats sleep all day cats purr (6)    d5 mice eat cheese (3)
  d3 dogs chase cats park (4)            d6 dog sleeps garden (3)
Collection: 22 words; cf(cats) = 4, cf(chase) = 2, cf(mice) = 2, cf(dog) = 1.
"""

from __future__ import annotations

import json

import pytest

DOCUMENTS = {
    "d1": "cats chase mice",
    "d2": "cats sleep all day and cats purr",
    "d3": "dogs chase cats in the park",
    "d4": "the garden has roses and tulips",
    "d5": "mice eat cheese",
    "d6": "a dog sleeps in the garden",
}
TOPICS = [
    {"id": "1", "title": "cats"},
    {"id": "2", "title": "dog", "description": "roses in a garden"},
    {"id": "3", "title": "chase mice"},
    {"id": "4", "title": 'cats: "AND" (NOT) mice*^ -NEAR/2 {x}'},  # FTS5 syntax everywhere
    {"id": "5", "title": "unicorns"},  # in no document
]


@pytest.fixture
def corpus_file(write):
    return write("corpus.jsonl", "".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in DOCUMENTS.items()))


@pytest.fixture
def topics_file(write):
    return write("topics.jsonl", "".join(json.dumps(t) + "\n" for t in TOPICS))


@pytest.fixture
def hand_cli(run_cli, corpus_file, topics_file):
    """The CLI on a workbench holding the six documents, the five topics and a 3-word chunking `w3`."""
    run_cli("corpus", "import", corpus_file)
    run_cli("topics", "import", topics_file)
    run_cli("corpus", "chunk", "--name", "w3", "--size", "3")
    return run_cli


@pytest.fixture
def stored_units(db_path):
    """stored_units(run, topic) -> the unit ids the workbench holds for that ranking, in canonical order."""
    from labeler.store import Store

    def _units(run: str, topic: str) -> list[str]:
        with Store(db_path) as store:
            stored = store.ranking(run, topic)
            return list(stored.units) if stored else []

    return _units

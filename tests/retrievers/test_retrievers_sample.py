"""On the sample corpus the three built-in retrievers really differ: their top 10s overlap, but only partly."""

from __future__ import annotations

from itertools import combinations

import pytest
from support import SAMPLE

from labeler.store import Store

RETRIEVERS = ("fts5", "bm25s", "ql")


@pytest.fixture
def sample_runs(run_cli, db_path):
    run_cli("corpus", "import", SAMPLE / "corpus.jsonl")
    run_cli("topics", "import", SAMPLE / "topics.jsonl")
    for retriever in RETRIEVERS:
        run_cli("runs", "retrieve", "--retriever", retriever, "--name", retriever, "--depth", "10")
    with Store(db_path) as store:
        return {retriever: store.ranked_units(retriever) for retriever in RETRIEVERS}


def mean_jaccard(a: dict[str, list[str]], b: dict[str, list[str]]) -> float:
    topics = sorted(set(a) | set(b))
    values = []
    for topic in topics:
        left, right = set(a.get(topic, [])), set(b.get(topic, []))
        values.append(len(left & right) / len(left | right) if left | right else 1.0)
    return sum(values) / len(values)


def test_each_pair_of_retrievers_overlaps_partly(sample_runs):
    for first, second in combinations(RETRIEVERS, 2):
        overlap = mean_jaccard(sample_runs[first], sample_runs[second])
        assert 0 < overlap < 1, f"{first} vs {second}: mean Jaccard of top 10s is {overlap}"


def test_each_retriever_ranks_every_topic_it_can(sample_runs):
    for retriever, rankings in sample_runs.items():
        assert len(rankings) == 18, retriever
        assert all(1 <= len(units) <= 10 for units in rankings.values()), retriever


def test_narrow_topics_find_their_one_relevant_document_near_the_top(sample_runs):
    truth: dict[str, set[str]] = {}
    for line in (SAMPLE / "truth.qrels").read_text().splitlines():
        topic, _, doc, grade = line.split()
        if int(grade) > 0:
            truth.setdefault(topic, set()).add(doc)
    for topic in ("2", "5", "8", "12", "14", "16"):  # narrow: exactly one relevant document, named in its title
        for retriever, rankings in sample_runs.items():
            assert truth[topic] & set(rankings[topic][:3]), (retriever, topic, rankings[topic][:3])

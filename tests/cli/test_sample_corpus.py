"""The shipped sample corpus loads end to end: corpus, chunkings, topics (JSONL and TREC), runs, qrels."""

from __future__ import annotations

import json

import pytest
from support import SAMPLE

from labeler.store import Store


@pytest.fixture
def loaded(run_cli):
    run_cli("corpus", "import", SAMPLE / "corpus.jsonl")
    run_cli("topics", "import", SAMPLE / "topics.jsonl")
    return run_cli


def test_sample_corpus_meets_its_brief():
    docs = [json.loads(line) for line in (SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(docs) >= 150 and len({d["subject"] for d in docs}) >= 6
    assert sum(len(d["text"].split()) >= 400 for d in docs) >= 10  # long enough for 4+ chunks of 100 words
    topics = [json.loads(line) for line in (SAMPLE / "topics.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(topics) >= 15 and all(t["description"] and t["narrative"] for t in topics)
    relevant: dict[str, int] = {}
    for line in (SAMPLE / "truth.qrels").read_text().splitlines():
        topic, _, _, grade = line.split()
        relevant[topic] = relevant.get(topic, 0) + (int(grade) >= 1)
    counts = [relevant.get(t["id"], 0) for t in topics]
    assert max(counts) >= 8 and counts.count(1) >= 3 and counts.count(0) >= 1  # broad, narrow, no answer


def test_corpus_topics_and_chunking_load(loaded):
    status = loaded.json("status")
    assert status["documents"] == 171 and len(status["topics"]) == 18
    chunking = loaded.json("corpus", "chunk", "--name", "w100", "--size", "100", "--chunk-overlap", "20")
    assert chunking["documents"] == 171 and chunking["chunks"] > 171
    with Store(loaded.db) as store:
        longest = max(store.iter_documents(), key=lambda d: len(d.text.split()))
        assert len(store.chunks_of("w100", longest.doc_id)) >= 4
    sentences = loaded.json(
        "corpus", "chunk", "--name", "s5", "--size", "5", "--chunk-overlap", "1", "--by", "sentences"
    )
    assert sentences["chunks"] > 171


def test_trec_topic_file_matches_the_jsonl_topics(loaded, tmp_path):
    from support import Cli

    from labeler.workbench.init import init_workbench

    other = tmp_path / "trec.db"
    init_workbench(other)
    trec = Cli(other).json("topics", "import", SAMPLE / "topics.trec")
    assert trec["added"] == 18
    assert Cli(other).json("topics", "list") == loaded.json("topics", "list")


def test_hand_made_runs_and_prior_qrels_import(loaded, write):
    truth = [line.split() for line in (SAMPLE / "truth.qrels").read_text().splitlines()]
    lines = [f"{t} Q0 {d} {i} {100 - i} hand\n" for i, (t, _, d, _) in enumerate(truth, 1)]
    run = loaded.json("runs", "import", write("hand.run", "".join(lines)), "--name", "hand")
    assert run["entries"] == len(truth)
    prior = loaded.json("judgments", "import", SAMPLE / "prior.qrels", "--assessor", "prior")
    assert prior["judgments"] == len((SAMPLE / "prior.qrels").read_text().splitlines())
    unknown = loaded("runs", "import", write("bad.run", "1 Q0 no-such-doc 1 1 x\n"), "--name", "bad", expect=1)
    assert "bad.run:1: 1 id not in the corpus, e.g. no-such-doc" in unknown.stderr

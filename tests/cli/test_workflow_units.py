"""Chunk runs pooled at chunk or document level, orders through the queue, chunk labels lifted to documents."""

from __future__ import annotations

import pytest

CORPUS = "d1\tone two three four five six\nd2\tseven eight nine ten\nd3\televen twelve\n"
# chunks of 2 words: d1#0 d1#1 d1#2, d2#0 d2#1, d3#0
CHUNK_RUN = "1 Q0 d1#1 1 9 c\n1 Q0 d2#0 2 8 c\n1 Q0 d1#0 3 7 c\n1 Q0 d3#0 4 6 c\n1 Q0 d1#2 5 5 c\n"
DOC_RUN = "1 Q0 d3 1 9 d\n1 Q0 d2 2 8 d\n"


@pytest.fixture
def chunked(run_cli, write):
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run_cli("runs", "import", write("c.run", CHUNK_RUN), "--name", "chunks", "--unit", "chunk:w2")
    run_cli("runs", "import", write("d.run", DOC_RUN), "--name", "docs")
    return run_cli


def test_mixed_units_need_an_explicit_pool_unit(chunked):
    assert "pass --unit doc" in chunked("pool", "build", "--depth", "3", expect=1).stderr


def test_chunk_runs_pool_at_document_level_first_occurrence_wins(chunked):
    result = chunked.json("pool", "build", "--depth", "3", "--unit", "doc")
    # chunks -> d1 d2 d1 d3 d1 -> collapsed d1 d2 d3 (2 chunks collapsed); top 3 = d1 d2 d3; docs top 3 = d3 d2
    assert result["unit"] == "doc" and result["pairs"] == 3
    assert result["params"]["collapsed_chunks"] == {"chunks": 2}
    assert result["per_run"] == {"chunks": {"pairs": 3, "unique": 1}, "docs": {"pairs": 2, "unique": 0}}


def test_chunk_level_pool_and_lifting_labels_to_documents(chunked):
    result = chunked.json("pool", "build", "--depth", "3", "--runs", "chunks")
    assert result["unit"] == "chunk:w2" and result["pairs"] == 3
    for unit, grade in (("d1#1", 2), ("d2#0", 0), ("d1#0", 3)):
        chunked("judgments", "add", "1", unit, str(grade), "--assessor", "ann")
    chunked("snapshot", "create", "-m", "chunks")
    assert chunked("export", "qrels").stdout == "1 0 d1#0 3\n1 0 d1#1 2\n1 0 d2#0 0\n"
    lifted = chunked("export", "qrels", "--unit", "doc")
    assert lifted.stdout == "1 0 d1 3\n1 0 d2 0\n"
    # d1 has an unjudged chunk (d1#2) and d2 one (d2#1): their grades are lower bounds
    assert "2 documents have unjudged chunks" in lifted.stderr
    assert chunked.json("snapshot", "show")["manifest"]["chunking"]["name"] == "w2"


def test_rrf_pool_and_orders(chunked):
    result = chunked.json("pool", "build", "--depth", "2", "--strategy", "rrf", "--unit", "doc")
    # RRF over docs: d3 = 1/63 + 1/61 = 0.032266 > d2 = 2/62 = 0.032258 > d1 = 1/61 -> top 2 = d3, d2
    assert set(result["per_topic"]) == {"1"} and result["pairs"] == 2
    orders = {
        o: [i["unit"] for i in chunked.json("queue", "--topic", "1", "--order", o)["next"]]
        for o in ("pool", "rrf", "mtf")
    }
    assert orders["rrf"] == ["d3", "d2"]
    assert sorted(orders["pool"]) == ["d2", "d3"] and sorted(orders["mtf"]) == ["d2", "d3"]
    first = chunked.json("queue", "--topic", "1", "--order", "random", "--seed", "7")
    assert first["seed"] == 7 and first == chunked.json("queue", "--topic", "1", "--order", "random", "--seed", "7")


def test_judgments_in_one_chunking_do_not_leak_into_another(chunked):
    chunked("corpus", "chunk", "--name", "w3", "--size", "3")
    chunked("judgments", "add", "1", "d1#0", "3", "--assessor", "ann", "--unit", "chunk:w2")
    chunked("snapshot", "create", "-m", "w3 labels", "--unit", "chunk:w3")
    assert chunked("export", "qrels").stdout == ""


def judge_chunks_as_v1(chunked):
    """A chunk-level pool of the chunk run, its three units judged (d1#1 2, d2#0 0, d1#0 3), topic 1 done, v1."""
    chunked("pool", "build", "--depth", "3", "--runs", "chunks")
    for unit, grade in (("d1#1", 2), ("d2#0", 0), ("d1#0", 3)):
        chunked("judgments", "add", "1", unit, str(grade), "--assessor", "ann")
    chunked("topics", "mark", "1", "reviewed", "--assessor", "ann")
    chunked("snapshot", "create", "-m", "v1")


def test_coverage_and_compare_on_chunk_labels_leave_document_runs_out_and_name_them(chunked):
    judge_chunks_as_v1(chunked)
    chunked("judgments", "add", "1", "d3#0", "1", "--assessor", "ann")
    chunked("topics", "mark", "1", "reviewed", "--assessor", "ann")  # judged after the mark: marked again
    chunked("snapshot", "create", "-m", "v2")

    coverage = chunked.json("coverage", "--depth", "3")
    assert list(coverage["runs"]) == ["chunks"] and coverage["runs_not_scored"] == ["docs"]
    # chunks' top 3 (d1#1 d2#0 d1#0) all judged
    assert coverage["runs"]["chunks"]["judged"] == 1.0
    assert "Not scored on chunk:w2 labels (they rank other units): docs" in chunked("coverage", "--depth", "3").stderr
    compared = chunked.json("compare", "v1", "v2", "--depth", "3")
    assert list(compared["runs"]) == ["chunks"] and compared["runs_not_scored"] == ["docs"]
    # asked for by name, a document run is still refused with what to do instead
    refused = chunked("coverage", "--runs", "docs", expect=1).stderr
    assert "ranks documents but snapshot v2 labels chunk:w2" in refused and "--unit doc" in refused
    # at document level every run is scored: chunk labels lifted, chunk runs collapsed
    lifted = chunked.json("coverage", "--depth", "2", "--unit", "doc")
    assert set(lifted["runs"]) == {"chunks", "docs"} and lifted["runs_not_scored"] == []


def test_eval_on_chunk_labels_leaves_document_runs_out_and_names_them(chunked):
    judge_chunks_as_v1(chunked)
    scores = chunked.json("eval", "--measures", "R@3 P@3")
    assert [r["run"] for r in scores["runs"]] == ["chunks"] and scores["runs_not_scored"] == ["docs"]
    # relevant d1#1, d1#0 both in chunks' top 3: R@3 = 1, P@3 = 2/3
    assert scores["runs"][0]["aggregate"] == {"R@3": 1.0, "P@3": 2 / 3}
    assert "Not scored on chunk:w2 labels (they rank other units): docs" in chunked("eval").stderr
    assert "--unit doc" in chunked("eval", "--runs", "docs", expect=1).stderr
    lifted = chunked.json("eval", "--unit", "doc", "--measures", "R@3")
    assert [r["run"] for r in lifted["runs"]] == ["chunks", "docs"] and lifted["runs_not_scored"] == []

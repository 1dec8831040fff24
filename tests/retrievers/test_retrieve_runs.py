"""`labeler runs retrieve`: runs stored like imported ones, deterministic, over documents or chunks."""

from __future__ import annotations

import pytest
from support import dump

from labeler.models import Unit
from labeler.store import Store
from labeler.workbench.retrieve import RetrieveRequest, retrieve_run, unit_texts
from labeler.workbench.runs import import_run

RETRIEVERS = ["fts5", "bm25s", "ql"]


@pytest.mark.parametrize("retriever", RETRIEVERS)
def test_the_same_retriever_gives_the_same_run_twice(hand_cli, db_path, retriever):
    first = hand_cli.json("runs", "retrieve", "--retriever", retriever, "--name", "a")
    second = hand_cli.json("runs", "retrieve", "--retriever", retriever, "--name", "b")
    assert first["source_sha256"] == second["source_sha256"]
    with Store(db_path) as store:
        assert store.rankings("a") == store.rankings("b")


@pytest.mark.parametrize("retriever", RETRIEVERS)
def test_a_run_is_stored_like_an_imported_one(hand_cli, db_path, write, retriever):
    result = hand_cli.json("runs", "retrieve", "--retriever", retriever, "--name", "made", "--depth", "2")
    with Store(db_path) as store:
        made = store.rankings("made")
        trec = "".join(
            f"{topic} Q0 {unit} {rank} {score!r} x\n"
            for topic, ranking in made.items()
            for rank, (unit, score) in enumerate(zip(ranking.units, ranking.scores, strict=True), 1)
        )
        import_run(store, write("made.trec", trec), "imported")
        imported = store.rankings("imported")
    assert {t: (r.units, r.scores) for t, r in made.items()} == {t: (r.units, r.scores) for t, r in imported.items()}
    assert result["depth"] == 2 and result["topics"] == 4  # topic 5 (unicorns) finds nothing
    assert result["topics_without_results"] == ["5"]
    policies = result["policies"]
    assert policies["retriever"] == retriever and policies["retriever_version"]
    assert (policies["order"], policies["query"], policies["depth"]) == ("score desc, id desc (trec_eval)", "title", 2)
    assert result["source"] == f"retriever:{retriever}"
    listed = {r["name"]: r for r in hand_cli.json("runs", "list")}
    assert listed["made"]["policies"] == policies


@pytest.mark.parametrize("retriever", RETRIEVERS)
def test_chunk_runs_rank_chunks_by_their_own_text(hand_cli, stored_units, retriever):
    result = hand_cli.json("runs", "retrieve", "--retriever", retriever, "--name", "c", "--unit", "chunk:w3")
    assert result["unit"] == "chunk:w3"
    # d2 in 3-word chunks: "cats sleep all" | "day and cats" | "purr": only d2#0 and d2#1 hold "cats".
    units = stored_units("c", "1")
    assert set(units) == {"d1#0", "d2#0", "d2#1", "d3#0"}
    assert stored_units("c", "3")[0] == "d1#0"  # "cats chase mice" is one chunk with both words


def test_chunk_text_is_the_span_of_the_document_text(hand_cli, db_path):
    with Store(db_path) as store:
        texts = dict(unit_texts(store, Unit("chunk", "w3")))
        assert texts["d2#0"] == "cats sleep all" and texts["d2#2"] == "purr"
        for chunk_id, text in texts.items():
            chunk = store.chunk("w3", chunk_id)
            assert text == store.document(chunk.doc_id).text[chunk.start : chunk.end]
        assert dict(unit_texts(store, Unit("doc")))["d1"] == "cats chase mice"  # no title: the text alone


def test_topics_and_query_fields_choose_what_is_asked(hand_cli, stored_units):
    result = hand_cli.json("runs", "retrieve", "--retriever", "ql", "--name", "t", "--topics", "2, 3")
    assert result["topics"] == 2
    assert stored_units("t", "1") == []
    assert stored_units("t", "2") == ["d6"]
    hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "td", "--topics", "2", "--query", "title+description")
    # "dog roses in a garden": d4 (roses, garden) and d6 (dog, garden) now; d6 still first.
    assert stored_units("td", "2") == ["d6", "d4"]


def test_names_are_immutable_unless_replaced(hand_cli, db_path):
    hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "r")
    before = dump(db_path)
    result = hand_cli("runs", "retrieve", "--retriever", "fts5", "--name", "r", expect=1)
    assert "a run named 'r' exists already" in result.stderr
    assert dump(db_path) == before
    replaced = hand_cli.json("runs", "retrieve", "--retriever", "fts5", "--name", "r", "--replace", "--stage", "rerank")
    assert replaced["replaced"] is True and replaced["stage"] == "rerank"
    assert replaced["policies"]["retriever"] == "fts5"


def test_the_plain_output_says_what_was_made(hand_cli):
    result = hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "r", "--depth", "1")
    assert "Run 'r' (doc, candidate) by ql: 4 results for 4 topics, depth up to 1." in result.stderr
    assert "No results for topic 5." in result.stderr


def test_progress_is_reported_per_topic(hand_cli, db_path):
    calls = []
    with Store(db_path) as store:
        retrieve_run(
            store, RetrieveRequest(retriever="ql", name="p"), progress=lambda done, total: calls.append((done, total))
        )
    assert calls == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]

"""`snapshot create` picks the unit space that has labels, refuses to guess, and does not repeat its parent."""

from __future__ import annotations

import sqlite3

import pytest
from support import dump

CORPUS = "d1\tone two three four\nd2\tfive six seven eight\n"
CHUNK_RUN = "1 Q0 d1#0 1 9 c\n1 Q0 d2#1 2 8 c\n"


@pytest.fixture
def chunk_pool_after_doc_labels(run_cli, write):
    """The demo's trap: document labels exist, then a chunk pool is built (the latest pool is chunk:w2)."""
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    for topic, doc in (("1", "d1"), ("1", "d2"), ("2", "d1")):
        run_cli("judgments", "add", topic, doc, "1", "--assessor", "ann", "--unit", "doc")
    run_cli("runs", "import", write("c.run", CHUNK_RUN), "--name", "chunks", "--unit", "chunk:w2")
    run_cli("pool", "build", "--depth", "2", "--runs", "chunks")
    return run_cli


def snapshot_rows(db) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT name, unit, parent FROM snapshots ORDER BY snapshot_id").fetchall()


def test_without_unit_the_one_space_with_labels_is_frozen_not_the_latest_pools(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    result = cli.json("snapshot", "create", "-m", "docs")
    assert (result["unit"], result["labels"], result["new"]) == ("doc", 3, True)
    assert snapshot_rows(cli.db) == [("v1", "doc", None)]


def test_several_spaces_with_labels_are_listed_and_nothing_is_made(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    cli("judgments", "add", "1", "d1#0", "2", "--assessor", "ann", "--unit", "chunk:w2")
    before = dump(cli.db)
    result = cli("snapshot", "create", "-m", "which?", expect=1)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert "doc (3 labels)" in lines[0] and "chunk:w2 (1 label)" in lines[0] and "--unit" in lines[0]
    assert dump(cli.db) == before


def test_unit_given_is_frozen_as_told(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    cli("judgments", "add", "1", "d1#0", "2", "--assessor", "ann", "--unit", "chunk:w2")
    result = cli.json("snapshot", "create", "-m", "chunks", "--unit", "chunk:w2")
    assert (result["snapshot"], result["unit"], result["labels"]) == ("v1", "chunk:w2", 1)


def test_a_snapshot_identical_to_its_parent_is_not_made_again(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    cli("snapshot", "create", "-m", "v1")
    before = dump(cli.db)
    result = cli("snapshot", "create", "-m", "again")
    assert "unchanged since v1" in result.stderr and result.stdout == ""
    assert dump(cli.db) == before
    shape = cli.json("snapshot", "create", "-m", "again")
    assert (shape["new"], shape["unchanged_since"], shape["snapshot"], shape["unit"]) == (False, "v1", "v1", "doc")
    assert snapshot_rows(cli.db) == [("v1", "doc", None)]


def test_allow_unchanged_makes_one_anyway(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    cli("snapshot", "create", "-m", "v1")
    result = cli.json("snapshot", "create", "-m", "same labels", "--allow-unchanged")
    assert (result["new"], result["snapshot"], result["parent"]) == (True, "v2", "v1")
    assert snapshot_rows(cli.db) == [("v1", "doc", None), ("v2", "doc", "v1")]


def test_the_parent_is_the_latest_snapshot_of_the_same_space(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    cli("snapshot", "create", "-m", "docs")
    cli("judgments", "add", "1", "d1#0", "2", "--assessor", "ann", "--unit", "chunk:w2")
    cli("snapshot", "create", "-m", "chunks", "--unit", "chunk:w2")
    # the doc labels did not change since v1, although v2 (chunks) came after it
    assert "unchanged since v1" in cli("snapshot", "create", "-m", "docs again", "--unit", "doc").stderr
    cli("judgments", "add", "2", "d2", "0", "--assessor", "ann", "--unit", "doc")
    cli("snapshot", "create", "-m", "more docs", "--unit", "doc")
    assert snapshot_rows(cli.db) == [("v1", "doc", None), ("v2", "chunk:w2", None), ("v3", "doc", "v1")]


def test_a_changed_grade_is_a_change(chunk_pool_after_doc_labels):
    cli = chunk_pool_after_doc_labels
    cli("snapshot", "create", "-m", "v1")
    cli("judgments", "add", "1", "d1", "2", "--assessor", "ann", "--unit", "doc")
    assert cli.json("snapshot", "create", "-m", "v2")["snapshot"] == "v2"


def test_snapshot_show_lists_topics_in_natural_order(run_cli):
    for topic in ("q10", "10", "q2", "2", "100"):
        run_cli("judgments", "add", topic, "d1", "1", "--assessor", "ann")
    run_cli("snapshot", "create", "-m", "mixed ids")
    order = ["2", "10", "100", "q2", "q10"]
    assert list(run_cli.json("snapshot", "show")["manifest"]["topics"]) == order
    table = run_cli("snapshot", "show").stdout
    assert [line.split()[0] for line in table.splitlines() if line.split() and line.split()[0] in order] == order

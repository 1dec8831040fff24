"""`pool build` without --unit over runs of several units: the previous pool's unit, said aloud, or a refusal."""

from __future__ import annotations

import pytest
from badinput.badinput_support import Unchanged

CORPUS = "d1\tone two three four five six\nd2\tseven eight nine ten\nd3\televen twelve\n"
CHUNK_RUN = "1 Q0 d1#1 1 9 c\n1 Q0 d2#0 2 8 c\n1 Q0 d1#0 3 7 c\n"
DOC_RUN = "1 Q0 d3 1 9 d\n1 Q0 d2 2 8 d\n"


@pytest.fixture
def mixed(run_cli, write):
    """A document run and a chunk run (chunking w2), as in the demo, and no pool yet."""
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run_cli("runs", "import", write("c.run", CHUNK_RUN), "--name", "chunks", "--unit", "chunk:w2")
    run_cli("runs", "import", write("d.run", DOC_RUN), "--name", "docs")
    return run_cli


def test_a_previous_chunk_pool_gives_the_unit_and_the_output_says_so(mixed):
    mixed("pool", "build", "--depth", "2", "--runs", "chunks")
    result = mixed("pool", "build", "--depth", "3")
    out = result.stdout + result.stderr
    assert "unit chunk:w2, as the previous pool P1" in out
    assert "runs of other units left out: docs" in out
    p2 = mixed.json("pool", "list")[-1]
    assert p2["pool"] == "P2" and p2["unit"] == "chunk:w2" and p2["runs"] == ["chunks"] and p2["pairs"] == 3


def test_a_previous_document_pool_pools_every_run_at_document_level(mixed):
    mixed("pool", "build", "--depth", "2", "--unit", "doc")
    result = mixed.json("pool", "build", "--depth", "3")
    assert result["unit"] == "doc" and result["unit_from"] == "P1" and result["runs"] == ["chunks", "docs"]
    assert result["runs_left_out"] == []


def test_no_previous_pool_and_mixed_units_is_refused_and_changes_nothing(mixed, db_path):
    with Unchanged(db_path):
        result = mixed("pool", "build", "--depth", "3", expect=1)
    assert "chunk:w2, doc" in result.stderr and "pass --unit" in result.stderr
    assert mixed.json("pool", "list") == []


def test_an_explicit_unit_still_wins_over_the_previous_pool(mixed):
    mixed("pool", "build", "--depth", "2", "--runs", "chunks")
    result = mixed.json("pool", "build", "--depth", "3", "--unit", "doc")
    assert result["unit"] == "doc" and result["unit_from"] is None and result["runs"] == ["chunks", "docs"]
    text = mixed("pool", "build", "--depth", "3", "--unit", "doc")
    assert "as the previous pool" not in text.stdout + text.stderr

"""A document campaign and a chunk campaign on one workbench (the sample corpus): every command that writes,
given no unit, lands in the right space or refuses with the choices, and no id is ever filed in a space it
is not a unit of, whatever the path (unknown ids accepted included).
"""

from __future__ import annotations

import json

import pytest
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_no_crash, assert_refused, invoke
from support import SAMPLE

from labeler.store import Store

CHOICES = "(pass --unit doc|chunk:w30 "


@pytest.fixture
def campaign(run_cli, db_path):
    """Documents pooled (P1) and judged from NIST-style qrels, then a chunk pool (P2) at chunking w30."""
    run_cli("corpus", "import", str(SAMPLE / "corpus.jsonl"))
    run_cli("topics", "import", str(SAMPLE / "topics.jsonl"))
    run_cli("corpus", "chunk", "--name", "w30", "--size", "30")
    run_cli("corpus", "chunk", "--name", "spare", "--size", "50")  # nothing in it: holds no space
    for name, retriever, unit in (("bm25", "fts5", "doc"), ("ql", "ql", "doc"), ("cbm25", "fts5", "chunk:w30")):
        run_cli("runs", "retrieve", "--retriever", retriever, "--name", name, "--unit", unit, "--depth", "20")
    run_cli("pool", "build", "--depth", "5", "--unit", "doc")
    run_cli("judgments", "import", str(SAMPLE / "truth.qrels"), "--assessor", "nist", "--reviewed")
    run_cli("pool", "build", "--depth", "3", "--runs", "cbm25")
    return run_cli


def refused(result, fragment: str) -> None:
    """Exit 1, one `Error:` line holding `fragment`, nothing on stdout."""
    assert_no_crash(result)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1 and result.stdout == ""
    assert fragment in result.stderr, result.stderr


def spaces_of(db) -> dict[str, int]:
    """How many pair events each unit space holds."""
    with Store(db) as store:
        return {space: sum(1 for _ in store.unit_events(space)) for space in store.unit_spaces()}


def assert_every_id_in_its_space(db) -> None:
    """The invariant: every pair event's id is a unit of the space it is filed in."""
    with Store(db) as store:
        for space in store.unit_spaces():
            ids = {e.unit_id for e in store.unit_events(space) if e.unit_id is not None}
            if space == "doc":
                assert not store.missing_documents(ids), space
            else:
                assert not store.missing_chunks(space.split(":", 1)[1], ids), space


def test_the_document_qrels_went_to_doc_without_a_unit(campaign, db_path):
    assert spaces_of(db_path) == {"doc": 138}
    assert_every_id_in_its_space(db_path)


def test_qrels_of_chunk_ids_go_to_their_chunking(campaign, write, db_path):
    pairs = campaign.json("queue", "--pool", "P2", "--limit", "3")["next"]
    path = write("chunks.qrels", "".join(f"1 0 {p['unit']} 1\n" for p in pairs))
    result = campaign.json("judgments", "import", path, "--assessor", "ann")
    assert result["unit"] == "chunk:w30" and result["judgments"] == 3
    assert_every_id_in_its_space(db_path)


def test_document_qrels_forced_into_the_chunk_space_are_refused_even_as_unknown(campaign, db_path):
    qrels = SAMPLE / "truth.qrels"
    args = ["judgments", "import", qrels, "--assessor", "nist", "--unit", "chunk:w30", "--allow-unknown"]
    with Unchanged(db_path):
        result = invoke(db_path, args)
    assert_refused(result, qrels, 1, "122 ids are documents of this workbench (unit doc), not chunks of w30")
    assert "(pass --unit doc to file them there)" in result.stderr


def test_qrels_mixing_documents_and_chunks_are_refused_with_the_choices(campaign, write, db_path):
    path = write("mixed.qrels", "1 0 agri-001 1\n1 0 agri-001#0 1\n")
    with Unchanged(db_path):
        result = invoke(db_path, ["judgments", "import", path, "--assessor", "ann"])
    refused(result, "the ids are units of 2 unit spaces: 1 document (doc), 1 chunk of w30 (chunk:w30)")
    assert CHOICES in result.stderr


def test_one_judgment_goes_to_the_space_of_its_id(campaign, db_path):
    campaign("judgments", "add", "1", "agri-001", "2", "--assessor", "ann")
    campaign("judgments", "add", "1", "agri-001#0", "1", "--assessor", "ann")
    campaign("judgments", "add", "1", "agri-001#1", "--kind", "flag", "--reason", "odd", "--assessor", "ann")
    campaign("judgments", "adjudicate", "1", "agri-001#0", "2", "--assessor", "lead")
    log = campaign.json("judgments", "log", "--limit", "4")
    assert [(e["unit_id"], e["unit"]) for e in log] == [
        ("agri-001#0", "chunk:w30"),
        ("agri-001#1", "chunk:w30"),
        ("agri-001#0", "chunk:w30"),
        ("agri-001", "doc"),
    ]
    undone = campaign.json("judgments", "undo", "--assessor", "ann")
    assert undone["unit"] == "chunk:w30"
    assert_every_id_in_its_space(db_path)


def test_an_id_of_no_space_is_refused_with_the_choices_even_as_unknown(campaign, db_path):
    with Unchanged(db_path):
        result = invoke(db_path, ["judgments", "add", "1", "nowhere", "1", "--assessor", "ann", "--allow-unknown"])
    refused(result, "the workbench holds 2 unit spaces: doc (2 runs, 1 pool, 138 labels), chunk:w30 (1 run,")
    assert CHOICES in result.stderr


def test_a_document_id_is_never_a_chunk_through_allow_unknown(campaign, db_path):
    args = ["judgments", "add", "1", "agri-001", "1", "--assessor", "ann", "--unit", "chunk:w30", "--allow-unknown"]
    with Unchanged(db_path):
        result = invoke(db_path, args)
    refused(result, "1 id is a document of this workbench (unit doc), not a chunk of w30 (pass --unit doc")
    adjudicate = ["judgments", "adjudicate", "1", "agri-001", "2", "--assessor", "lead", "--unit", "chunk:w30"]
    with Unchanged(db_path):
        assert invoke(db_path, adjudicate).exit_code == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["topics", "mark", "1", "reviewed", "--assessor", "ann"], "to say which space the mark is for"),
        (["assign", "--assessors", "ann,bob"], "to say which pool's topics to assign"),
        (["snapshot", "create", "-m", "both"], "labels exist in 2 unit spaces"),
    ],
)
def test_writes_with_nothing_to_go_by_are_refused_with_the_choices(campaign, db_path, args, fragment):
    campaign("judgments", "add", "1", "agri-001#0", "1", "--assessor", "ann")  # labels in both spaces
    with Unchanged(db_path):
        result = invoke(db_path, args)
    refused(result, fragment)
    assert "--unit" in result.stderr
    if args[0] != "snapshot":
        assert "doc (2 runs, 1 pool, 138 labels), chunk:w30 (1 run, 1 pool, 1 label)" in result.stderr


def test_the_same_writes_with_a_unit_land_there(campaign):
    campaign("topics", "mark", "1", "reviewed", "--assessor", "ann", "--unit", "chunk:w30")
    (mark,) = campaign.json("judgments", "log", "--limit", "1")
    assert (mark["kind"], mark["unit"]) == ("review", "chunk:w30")
    assert campaign.json("assign", "--assessors", "ann,bob", "--unit", "chunk:w30")["pool"] == "P2"
    assert campaign.json("snapshot", "create", "-m", "docs", "--unit", "doc")["unit"] == "doc"


def test_prelabel_without_a_pool_names_each_space_latest_pool(campaign, db_path):
    with Unchanged(db_path):
        result = invoke(db_path, ["prelabel", "--judge", "lexical"])
    assert "(pass --pool P1|P2 to say which pool's pairs to label)" in result.stderr and result.exit_code == 1
    result = campaign.json("prelabel", "--judge", "lexical", "--pool", "P2")
    assert result["unit"] == "chunk:w30"
    assert_every_id_in_its_space(db_path)


def test_a_repool_continues_the_latest_pool_and_says_what_it_left_out(campaign):
    result = campaign.json("pool", "build", "--depth", "5")
    assert (result["unit"], result["unit_source"], result["unit_from"]) == ("chunk:w30", "previous_pool", "P2")
    assert result["runs"] == ["cbm25"]
    assert result["left_out"] == [
        {"run": "bm25", "unit": "doc", "why": "other_unit"},
        {"run": "ql", "unit": "doc", "why": "other_unit"},
    ]
    assert {"argument": "unit", "value": "doc", "why": "to pool at doc"} in result["hints"]
    text = campaign("pool", "build", "--depth", "6")
    assert (
        "unit chunk:w30, as the previous pool P3; pooled: cbm25; runs of other units left out: bm25 (doc), ql (doc)"
        in text.stderr + text.stdout
    )


def test_a_new_run_of_another_unit_makes_the_repool_ask(campaign, db_path):
    campaign("runs", "retrieve", "--retriever", "bm25s", "--name", "bm25s", "--depth", "20")
    with Unchanged(db_path):
        result = invoke(db_path, ["pool", "build", "--depth", "10"])
    refused(result, "1 run of another unit came after the latest pool P2 (chunk:w30): bm25s (doc)")
    assert CHOICES in result.stderr
    assert campaign.json("pool", "build", "--depth", "10", "--unit", "doc")["runs"] == ["bm25", "ql", "cbm25", "bm25s"]


def test_scoring_reads_the_snapshot_space_and_its_pool(campaign):
    campaign("snapshot", "create", "-m", "docs")  # the one space with labels
    coverage = campaign.json("coverage", "--runs", "bm25")
    assert coverage["unit"] == "doc" and coverage["pool"]["pool"] == "P1"
    assert coverage["pool"]["runs_not_pooled"] == []  # ql, excluded by --runs, is not listed
    assert campaign.json("status", "--unit", "doc")["pool"] == "P1"


def test_a_bad_unit_is_a_bad_argument(campaign, db_path):
    with Unchanged(db_path):
        result = invoke(db_path, ["topics", "mark", "1", "reviewed", "--assessor", "ann", "--unit", "chunk:nope"])
    assert_bad_argument(result, "--unit", "no chunking named 'nope'")


@pytest.mark.parametrize(
    ("unit", "unit_id", "fragment"),
    [
        ("chunk:w30", "agri-001", "'agri-001' is filed in unit space chunk:w30, but here it is a document (unit doc)"),
        ("doc", "agri-001#0", "'agri-001#0' is filed in unit space doc, but here it is a chunk of w30"),
    ],
)
def test_a_merged_event_in_the_wrong_space_is_refused(campaign, db_path, tmp_path, unit, unit_id, fragment):
    """Merging is a path too: another workbench's log may file a document of this one as a chunk."""
    exported = invoke(db_path, ["export", "log"])
    event = json.loads(exported.stdout.splitlines()[0])
    forged = tmp_path / "theirs.jsonl"
    forged.write_text(json.dumps({**event, "event_id": "f" * 32, "unit": unit, "unit_id": unit_id}) + "\n")
    with Unchanged(db_path):
        result = invoke(db_path, ["merge", forged])
    assert_refused(result, forged, 1, fragment)
    assert_every_id_in_its_space(db_path)

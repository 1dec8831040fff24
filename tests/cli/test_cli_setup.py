"""`labeler init`, grade scales, corpus import, chunkings, topics and status through the CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from support import dump

from labeler.cli import cli
from labeler.store import Store


def invoke(db, *args, expect=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == expect, result.stderr
    return result


@pytest.mark.parametrize(
    ("scale", "grades", "threshold"),
    [
        (None, [0, 1, 2, 3], 1),  # the default scale
        ("binary", [0, 1], 1),
        ("trec-dl-passage", [0, 1, 2, 3], 2),  # TREC DL: relevant from grade 2
    ],
)
def test_init_sets_a_preset_scale(tmp_path, scale, grades, threshold):
    db = tmp_path / "w.db"
    result = json.loads(invoke(db, "init", *(["--scale", scale] if scale else []), "--json").stdout)
    assert [g["grade"] for g in result["scale"]["grades"]] == grades
    assert result["scale"]["threshold"] == threshold and result["created"] is True


def test_init_reads_a_custom_tsv_scale_and_is_idempotent(tmp_path, write):
    scale = write("scale.tsv", "0\tno\tNot useful.\n1\tpartly\tSome of it.\n2\tyes\tAll of it.\nthreshold\t2\n")
    db = tmp_path / "w.db"
    invoke(db, "init", "--scale", scale)
    again = json.loads(invoke(db, "init", "--json").stdout)
    assert again["created"] is False and again["scale"]["name"] == "scale" and again["scale"]["threshold"] == 2
    assert [g["label"] for g in again["scale"]["grades"]] == ["no", "partly", "yes"]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("s.tsv", "0\tno\n1\tyes\n", "s.tsv:2: no threshold line"),  # threshold missing
        ("s.tsv", "zero\tno\nthreshold\t1\n", "s.tsv:1: grade 'zero' is not an integer"),  # non-integer grade
        ("s.tsv", "0\tno\n1\tyes\nthreshold\t5\n", "s.tsv: scale 's': threshold 5 is not one of its grades"),
        ("s.json", '{"grades": [{"grade": 0, "label": "no"}]}', 's.json: a JSON scale needs "grades"'),
        ("s.json", "{not json", "s.json:1: not a valid JSON scale"),
    ],
)
def test_bad_scales_are_refused_and_nothing_is_created(tmp_path, write, name, content, message):
    db = tmp_path / "w.db"
    result = invoke(db, "init", "--scale", write(name, content), expect=1)
    assert message in result.stderr


def test_unknown_scale_name_lists_the_presets(tmp_path):
    result = invoke(tmp_path / "w.db", "init", "--scale", "five-point", expect=1)
    assert "use one of default, binary, trec-dl-passage" in result.stderr


def test_commands_before_init_say_what_to_do(tmp_path):
    result = invoke(tmp_path / "none.db", "status", expect=1)
    assert "no workbench here (run 'labeler init'; or pass --db to open another workbench)" in result.stderr


CORPUS = (
    '{"id": "d1", "title": "Maize", "text": "Fall armyworm eats maize leaves.", "lang": "en"}\n'
    '{"_id": "d2", "title": "Milk", "text": "Cows give milk. Milk keeps when cold. Cheese is milk kept longer."}\n'
)


def test_corpus_import_is_idempotent_and_keeps_extra_fields(run_cli, write, db_path):
    path = write("c.jsonl", CORPUS)
    assert run_cli.json("corpus", "import", path)["added"] == 2
    again = run_cli.json("corpus", "import", path)
    assert (again["added"], again["unchanged"], again["documents"]) == (0, 2, 2)
    with Store(db_path) as store:
        assert store.document("d1").extra == {"lang": "en"}


def test_changed_content_needs_update_and_the_change_is_recorded(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    changed = write("c2.jsonl", CORPUS.replace("eats maize leaves", "eats maize"))
    before = dump(db_path)
    result = run_cli("corpus", "import", changed, expect=1)
    assert result.stderr.endswith(
        "c2.jsonl:1: document 'd1' already exists with different content "
        "(pass --update to replace it and put its judgments back in the queue)\n"
    )
    assert dump(db_path) == before
    updated = run_cli.json("corpus", "import", changed, "--update")
    assert (updated["updated"], updated["unchanged"]) == (1, 1)
    with Store(db_path) as store:
        rows = store.db.execute("SELECT doc_id, old_hash != new_hash FROM document_changes").fetchall()
    assert rows == [("d1", 1)]


def test_a_document_twice_in_one_file_is_an_error(run_cli, write, db_path):
    result = run_cli("corpus", "import", write("c.tsv", "d1\tone\nd2\ttwo\nd1\tthree\n"), expect=1)
    assert "c.tsv:3: document 'd1' appears twice in this file (first at line 1)" in result.stderr
    assert run_cli.json("status")["documents"] == 0


def test_word_chunking_makes_stable_ids_offsets_and_hashes(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    result = run_cli.json("corpus", "chunk", "--name", "w4", "--size", "4", "--chunk-overlap", "1")
    # d1 has 5 words -> windows [0,4) and [3,5); d2 has 13 words -> [0,4) [3,7) [6,10) [9,13)
    assert (result["documents"], result["chunks"]) == (2, 6)
    with Store(db_path) as store:
        chunks = store.chunks_of("w4", "d1")
        text = store.document("d1").text
    assert [c.chunk_id for c in chunks] == ["d1#0", "d1#1"]
    assert [text[c.start : c.end] for c in chunks] == ["Fall armyworm eats maize", "maize leaves."]
    listed = run_cli.json("corpus", "chunkings")
    assert listed[0]["hash"] == result["hash"] and listed[0]["params"] == {"by": "words", "size": 4, "overlap": 1}


def test_the_same_chunking_twice_has_the_same_hash_and_a_name_is_never_reused(run_cli, write):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    first = run_cli.json("corpus", "chunk", "--name", "a", "--size", "3")
    second = run_cli.json("corpus", "chunk", "--name", "b", "--size", "3")
    assert first["hash"] == second["hash"]
    result = run_cli("corpus", "chunk", "--name", "a", "--size", "5", expect=1)
    assert "chunkings are never edited" in result.stderr


def test_sentence_chunking(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "chunk", "--name", "s2", "--size", "2", "--chunk-overlap", "1", "--by", "sentences")
    with Store(db_path) as store:
        text = store.document("d2").text
        assert [text[c.start : c.end] for c in store.chunks_of("s2", "d2")] == [
            "Cows give milk. Milk keeps when cold.",
            "Milk keeps when cold. Cheese is milk kept longer.",
        ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "0"], "--size: must be a whole number from 1 to 1000000, not '0'"),
        (["--size", str(10**12)], "--size: must be a whole number from 1 to 1000000, not '1000000000000'"),
        (["--size", "5", "--chunk-overlap", "5"], "--chunk-overlap: must be smaller than the window's size (5), not 5"),
        (
            ["--size", "5", "--chunk-overlap", "-1"],
            "--chunk-overlap: must be a whole number from 0 to 1000000, not '-1'",
        ),
    ],
)
def test_bad_windows_are_refused(run_cli, write, args, message):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    assert run_cli("corpus", "chunk", "--name", "x", *args, expect=2).stderr == f"Error: {message}\n"


def test_mapping_import_checks_parents_and_offsets(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    result = run_cli.json(
        "corpus", "mapping", "import", write("m.tsv", "d1#a\td1\t0\t4\nd1#b\td1\t5\t13\n"), "--name", "ext"
    )
    assert (result["chunks"], result["documents"]) == (2, 1)
    with Store(db_path) as store:
        assert store.chunk("ext", "d1#b").hash is not None
    bad = run_cli("corpus", "mapping", "import", write("m2.tsv", "x#1\tdX\n"), "--name", "ext2", expect=1)
    assert "m2.tsv:1: 1 parent document not in the corpus, e.g. dX" in bad.stderr
    past = run_cli("corpus", "mapping", "import", write("m3.tsv", "d1#z\td1\t0\t999\n"), "--name", "ext3", expect=1)
    assert "m3.tsv:1: chunk 'd1#z' ends at 999, past the end of document 'd1'" in past.stderr
    assert [c["name"] for c in run_cli.json("corpus", "chunkings")] == ["ext"]


def test_topics_import_and_update(run_cli, write):
    path = write("t.tsv", "1\tmaize pests\tWhich pests eat maize?\n2\tmilk storage\n")
    assert run_cli.json("topics", "import", path)["added"] == 2
    assert run_cli.json("topics", "import", path)["unchanged"] == 2
    changed = write("t2.tsv", "1\tmaize insects\n")
    assert (
        "t2.tsv:1: topic '1' already exists with different text"
        in run_cli("topics", "import", changed, expect=1).stderr
    )
    assert run_cli.json("topics", "import", changed, "--update")["updated"] == 1
    assert [t["title"] for t in run_cli.json("topics", "list")] == ["maize insects", "milk storage"]


def test_status_lists_what_the_workbench_holds(run_cli, write):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "chunk", "--name", "w", "--size", "50")
    run_cli("topics", "import", write("t.tsv", "1\tmaize\n"))
    run_cli("runs", "import", write("r.txt", "1 Q0 d1 1 2 t\n"), "--name", "r")
    status = run_cli.json("status")
    assert (status["documents"], list(status["topics"]), status["scale"]) == (2, ["1"], "default")
    assert status["topics"]["1"]["review_status"] == "unreviewed" and status["pool"] is None
    assert [c["name"] for c in status["chunkings"]] == ["w"]
    assert [(r["name"], r["unit"]) for r in status["runs"]] == [("r", "doc")]
    assert "maize" not in run_cli("status").stdout  # the human table shows counts, not texts

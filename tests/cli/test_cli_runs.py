"""`labeler runs import` and `runs list` through the CLI: validation, all-or-nothing, evaluation-only use."""

from __future__ import annotations

import pytest
from support import dump

from labeler.store import Store

GOOD = "1 Q0 d1 1 3.0 bm25\n1 Q0 d2 2 2.0 bm25\n2 Q0 d3 1 1.0 bm25\n"


def test_import_without_corpus_accepts_the_ids_it_is_given(run_cli, write):
    result = run_cli.json("runs", "import", write("r.txt", GOOD), "--name", "bm25")
    assert (result["topics"], result["entries"], result["depth"], result["unit"]) == (2, 3, 2, "doc")
    assert result["tags"] == ["bm25"]
    listed = run_cli.json("runs", "list")
    assert [(r["name"], r["stage"], r["topics"]) for r in listed] == [("bm25", "candidate", 2)]


def test_runs_list_shows_each_runs_digest_short_and_the_json_holds_it_whole(run_cli, write, db_path):
    """The same rankings from another file (lines in another order, another tag) have the same digest."""
    run_cli("runs", "import", write("a.txt", GOOD), "--name", "a")
    run_cli("runs", "import", write("b.txt", "2 Q0 d3 1 1.0 x\n1 Q0 d2 2 2.0 x\n1 Q0 d1 1 3.0 x\n"), "--name", "b")
    run_cli("runs", "import", write("c.txt", "1 Q0 d2 1 3.0 c\n1 Q0 d1 2 2.0 c\n"), "--name", "c")
    listed = {r["name"]: r["rankings_sha256"] for r in run_cli.json("runs", "list")}
    with Store(db_path) as store:
        assert listed == {name: store.run(name).rankings_sha256 for name in ("a", "b", "c")}
    assert listed["a"] == listed["b"] != listed["c"] and len(listed["a"]) == 64
    rows = {line.split()[0]: line.split("│") for line in run_cli("runs", "list").stdout.splitlines() if "│" in line}
    assert {name: row[7].strip() for name, row in rows.items()} == {name: d[:12] for name, d in listed.items()}


def test_stored_ranking_is_in_trec_eval_order(run_cli, write, db_path):
    run_cli(
        "runs",
        "import",
        write("r.txt", "1 Q0 a 1 1.0 t\n1 Q0 c 2 1.0 t\n1 Q0 b 3 1.0 t\n1 Q0 z 4 5 t\n"),
        "--name",
        "r",
    )
    with Store(db_path) as store:
        assert store.ranking("r", "1").units == ("z", "c", "b", "a")


def test_a_topic_split_across_the_file_is_merged(run_cli, write, db_path):
    run_cli("runs", "import", write("r.txt", "1 Q0 a 1 3 t\n2 Q0 x 1 1 t\n1 Q0 b 2 2 t\n"), "--name", "r")
    with Store(db_path) as store:
        assert store.ranking("r", "1").units == ("a", "b")
        assert store.run("r").entries == 3


def test_a_duplicate_split_across_the_file_is_found(run_cli, write):
    result = run_cli(
        "runs", "import", write("r.txt", "1 Q0 a 1 3 t\n2 Q0 x 1 1 t\n1 Q0 a 2 2 t\n"), "--name", "r", expect=1
    )
    assert "r.txt:3: duplicate id 'a' in the ranking of topic '1'" in result.stderr


def test_dedupe_first_is_recorded_with_the_run(run_cli, write):
    result = run_cli.json(
        "runs", "import", write("r.txt", "1 Q0 a 1 3 t\n1 Q0 a 2 2 t\n"), "--name", "r", "--dedupe", "first"
    )
    assert result["entries"] == 1
    assert result["policies"]["dedupe"] == "first" and result["policies"]["duplicates_dropped"] == 1


def test_names_are_immutable_unless_replaced(run_cli, write):
    path = write("r.txt", GOOD)
    run_cli("runs", "import", path, "--name", "r")
    result = run_cli("runs", "import", path, "--name", "r", expect=1)
    assert "a run named 'r' exists already" in result.stderr
    assert run_cli.json("runs", "import", write("r2.txt", "1 Q0 q 1 1 t\n"), "--name", "r", "--replace")["entries"] == 1


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        ("1 Q0 d1 1 3.0\n", [], "bad.run:1: expected 6 fields"),  # five columns
        (GOOD + "2 Q0 d4 2 abc t\n", [], "bad.run:4: score 'abc' is not a number"),  # text score
        (GOOD + "2 Q0 d4 2 nan t\n", [], "bad.run:4: score 'nan' is not a finite number"),  # NaN score
        (GOOD + "2 Q0 d4 2 inf t\n", [], "bad.run:4: score 'inf' is not a finite number"),  # infinite score
        (GOOD + "1 Q0 d1 3 0.5 t\n", [], "bad.run:4: duplicate id 'd1' in the ranking of topic '1'"),  # duplicate
        ("", [], "bad.run: empty run"),  # empty file
        (b"1 Q0 d1 1 3.0 t\n1 Q0 d\xe9 2 2.0 t\n", [], "bad.run:2: not valid UTF-8"),  # Latin-1 byte
        (GOOD, ["--unit", "chunk:nope"], "--unit: no chunking named 'nope'"),  # unknown chunking: exit 2
        (GOOD, ["--unit", "passage"], "--unit: unit must be 'doc' or 'chunk:NAME'"),  # bad unit: exit 2
    ],
)
def test_bad_runs_exit_1_name_the_line_and_change_nothing(run_cli, write, db_path, content, extra, message):
    run_cli("runs", "import", write("ok.run", GOOD), "--name", "existing")
    before = dump(db_path)
    bad_argument = "--unit" in extra
    result = run_cli(
        "runs", "import", write("bad.run", content), "--name", "new", *extra, expect=2 if bad_argument else 1
    )
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert dump(db_path) == before


def test_unknown_topics_are_refused_once_topics_are_loaded(run_cli, write, db_path):
    run_cli("topics", "import", write("topics.tsv", "1\tfirst topic\n"))
    before = dump(db_path)
    result = run_cli("runs", "import", write("r.txt", GOOD), "--name", "r", expect=1)
    assert "r.txt:3: 1 topic not in the workbench: 2" in result.stderr
    assert dump(db_path) == before
    assert run_cli.json("runs", "import", write("r.txt", GOOD), "--name", "r", "--allow-unknown")["topics"] == 2


def test_unknown_documents_are_listed_with_count_and_first_line(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.tsv", "d1\tone\nd2\ttwo\n"))
    before = dump(db_path)
    result = run_cli("runs", "import", write("r.txt", GOOD + "2 Q0 d9 2 0.5 t\n"), "--name", "r", expect=1)
    assert "r.txt:3: 2 ids not in the corpus, e.g. d3, d9" in result.stderr
    assert dump(db_path) == before


def test_trec_rag_2024_segments_import_under_a_derived_chunking(run_cli, conformance):
    results = conformance / "results.comment.test"
    chunking = run_cli.json("corpus", "mapping", "derive", results, "--name", "msmarco-seg")
    assert (chunking["chunks"], chunking["documents"]) == (29865, 11891)
    run = run_cli.json("runs", "import", results, "--name", "rag24", "--unit", "chunk:msmarco-seg")
    assert run["unit"] == "chunk:msmarco-seg" and run["entries"] == 30100
    with Store(run_cli.db) as store:
        ranking = store.ranking("rag24", store.runs()[0] and next(iter(store.rankings("rag24"))))
        assert all("#" in unit for unit in ranking.units)
        parents = store.chunk_parents("msmarco-seg")
        assert parents["msmarco_v2.1_doc_50_2286987788#13_3087841662"] == "msmarco_v2.1_doc_50_2286987788"


def test_trec_eval_truncated_results_import_ignoring_text_after_six_fields(run_cli, conformance):
    run = run_cli.json("runs", "import", conformance / "results.trunc", "--name", "trunc")
    assert run["topics"] == 2


def test_several_files_import_in_one_command_each_named_after_its_file(run_cli, write, db_path):
    paths = [write("bm25.run.gz.txt", GOOD), write("tasb.trec", GOOD.replace("bm25", "tasb")), write("input.x", GOOD)]
    result = run_cli.json("runs", "import", *paths)
    assert [r["name"] for r in result["runs"]] == ["bm25.run.gz", "tasb", "input.x"]
    assert [r["tags"] for r in result["runs"]] == [["bm25"], ["tasb"], ["bm25"]]
    with Store(db_path) as store:
        assert sorted(store.run_names()) == ["bm25.run.gz", "input.x", "tasb"]
        assert store.run("tasb").entries == 3 and store.run("tasb").source == str(paths[1])


def test_several_files_take_their_names_from_name_given_once_each_in_order(run_cli, write, db_path):
    text = run_cli("runs", "import", write("a.txt", GOOD), write("b.txt", GOOD), "--name", "one", "--name", "two")
    assert text.stderr.count("Run '") == 2
    with Store(db_path) as store:
        assert (store.run("one").source, store.run("two").source) == (
            str(write("a.txt", GOOD)),
            str(write("b.txt", GOOD)),
        )


def test_one_bad_file_among_several_imports_none_of_them(run_cli, write, db_path):
    """All or nothing per command: the run of the good file before the bad one is not kept either."""
    bad = write("bad.run", "1 Q0 d1 1 3.0 t\n1 Q0 d2 two 2.0 t\n")
    result = run_cli("runs", "import", write("good.run", GOOD), bad, expect=1)
    assert result.stderr.startswith(f"Error: {bad}:2: ")
    with Store(db_path) as store:
        assert store.run_names() == []

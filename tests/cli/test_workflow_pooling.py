"""The pool -> judge -> snapshot -> re-pool workflow through the CLI, as an engineer runs it."""

from __future__ import annotations

import sqlite3

import ir_measures
import pytest

RUN_A = "".join(f"{t} Q0 a{t}-{r} {r} {100 - r} A\n" for t in (1, 2) for r in range(1, 9))
RUN_B = "".join(f"{t} Q0 {'a' if r % 2 else 'b'}{t}-{r} {r} {100 - r} B\n" for t in (1, 2) for r in range(1, 9))
RUN_C = "".join(f"{t} Q0 c{t}-{r} {r} {100 - r} C\n" for t in (1, 2) for r in range(1, 9))


def judge_all(run_cli, grade_of):
    """Judge every queued unit of every topic, the way a script would."""
    while True:
        queue = run_cli.json("queue", "--assessor", "ann")
        if not queue["next"]:
            return
        for item in queue["next"]:
            run_cli("judgments", "add", queue["topic"], item["unit"], str(grade_of(item["unit"])), "--assessor", "ann")


@pytest.fixture
def pooled(run_cli, write):
    run_cli("runs", "import", write("a.run", RUN_A), "--name", "A")
    run_cli("runs", "import", write("b.run", RUN_B), "--name", "B")
    return run_cli


def test_pool_sizes_and_provenance_at_depth_5(pooled):
    result = pooled.json("pool", "build", "--depth", "5")
    # per topic: A gives a-1..a-5, B gives a-1 b-2 a-3 b-4 a-5 -> union a1..a5 + b2, b4 = 7
    assert result["pool"] == "P1" and result["pairs"] == 14 and result["added"] == 14
    assert result["per_topic"]["1"] == {"pairs": 7, "added": 7, "unjudged": 7, "added_judged": 0}
    assert result["per_run"] == {"A": {"pairs": 10, "unique": 4}, "B": {"pairs": 10, "unique": 4}}


@pytest.mark.deprecated_spelling  # its `snapshot diff` step: the old spelling of `compare --changes`
def test_the_whole_workflow(pooled, write, db_path, tmp_path):
    run_cli = pooled
    run_cli("pool", "build", "--depth", "5")
    judge_all(run_cli, lambda unit: 2 if unit.endswith(("-1", "-2")) else 0)
    v1 = run_cli.json("snapshot", "create", "-m", "first round")
    assert (v1["snapshot"], v1["labels"], v1["parent"]) == ("v1", 14, None)
    v1_qrels = run_cli("export", "qrels", "--snapshot", "v1").stdout

    run_cli("runs", "import", write("c.run", RUN_C), "--name", "C")
    p2 = run_cli.json("pool", "build", "--depth", "5")
    assert (p2["pool"], p2["previous"], p2["added"], p2["added_judged"]) == ("P2", "P1", 10, 0)
    assert p2["per_topic"]["2"] == {"pairs": 12, "added": 5, "unjudged": 5, "added_judged": 0}
    assert p2["per_run"]["C"] == {"pairs": 10, "unique": 10}
    status = run_cli.json("status")
    assert status["pool"] == "P2" and status["totals"]["unjudged"] == 10 and status["totals"]["judged"] == 14

    judge_all(run_cli, lambda unit: 3 if unit == "c1-3" else 0)
    v2 = run_cli.json("snapshot", "create", "-m", "after C")
    assert (v2["labels"], v2["parent"]) == (24, "v1")
    diff = run_cli.json("snapshot", "diff", "v1", "v2")
    assert (diff["added"], diff["changed"], diff["removed"]) == (10, 0, 0)
    assert {c["unit"] for c in diff["topics"]["1"]["added"]} == {f"c1-{r}" for r in range(1, 6)}
    assert run_cli("export", "qrels", "--snapshot", "v1").stdout == v1_qrels  # byte for byte
    assert run_cli.json("snapshot", "verify")["ok"] is True

    # the exported qrels round-trip through the import and are read by trec_eval's engine
    qrels_path = write("v2.qrels", run_cli("export", "qrels").stdout)
    parsed = list(ir_measures.read_trec_qrels(str(qrels_path)))
    assert len(parsed) == 24
    again = run_cli.json("judgments", "import", qrels_path, "--assessor", "ann")
    assert (again["judgments"], again["unchanged"]) == (0, 24)


def test_snapshot_keeps_the_labels_of_its_moment(pooled):
    pooled("pool", "build", "--depth", "1")
    pooled("judgments", "add", "1", "a1-1", "2", "--assessor", "ann")
    pooled("snapshot", "create", "-m", "one")
    pooled("judgments", "add", "1", "a1-1", "0", "--assessor", "ann")
    pooled("judgments", "add", "2", "a2-1", "1", "--assessor", "ann")
    assert pooled("export", "qrels", "--snapshot", "v1").stdout == "1 0 a1-1 2\n"
    pooled("snapshot", "create", "-m", "two")
    assert pooled("export", "qrels").stdout == "1 0 a1-1 0\n2 0 a2-1 1\n"


def test_conflicts_are_left_out_until_adjudicated(pooled):
    pooled("pool", "build", "--depth", "1")
    pooled("judgments", "add", "1", "a1-1", "2", "--assessor", "ann")
    pooled("judgments", "add", "1", "a1-1", "0", "--assessor", "bob")
    assert pooled.json("status")["topics"]["1"]["conflicts"] == 1
    result = pooled("snapshot", "create", "-m", "with a conflict")
    assert "1 pair in conflict was left out: 1/a1-1" in result.stderr
    assert pooled.json("snapshot", "show")["manifest"]["conflicts_left_out"] == [["1", "a1-1"]]
    pooled("judgments", "adjudicate", "1", "a1-1", "1", "--assessor", "cat")
    pooled("snapshot", "create", "-m", "settled")
    assert pooled("export", "qrels").stdout == "1 0 a1-1 1\n"


def test_undo_reopens_the_pair_in_the_queue(pooled):
    pooled("pool", "build", "--depth", "1")
    pooled("judgments", "add", "1", "a1-1", "2", "--assessor", "ann")
    assert pooled.json("queue", "--topic", "1", "--assessor", "ann")["next"] == []
    undone = pooled.json("judgments", "undo", "--assessor", "ann")
    assert (undone["topic"], undone["unit_id"], undone["grade"]) == ("1", "a1-1", 2)
    assert [i["unit"] for i in pooled.json("queue", "--topic", "1", "--assessor", "ann")["next"]] == ["a1-1"]
    assert "nothing to undo" in pooled("judgments", "undo", "--assessor", "ann", expect=1).stderr


def test_skipped_units_come_last(pooled):
    pooled("pool", "build", "--depth", "3", "--runs", "A")
    pooled("judgments", "add", "1", "a1-1", "--kind", "skip", "--assessor", "ann")
    queue = pooled.json("queue", "--topic", "1", "--assessor", "ann")["next"]
    assert [(i["unit"], i["later"]) for i in queue] == [("a1-2", False), ("a1-3", False), ("a1-1", True)]
    refused = pooled("judgments", "add", "1", "a1-2", "--kind", "unsure", "--assessor", "ann", expect=2)
    assert refused.stderr == "Error: --reason: an unsure judgment needs a reason\n"


def test_changed_document_text_puts_the_pair_back_in_the_queue(run_cli, write):
    run_cli("corpus", "import", write("c.tsv", "d1\tmaize pests\nd2\tmilk\n"))
    run_cli("runs", "import", write("r.run", "1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n"), "--name", "r")
    run_cli("pool", "build", "--depth", "2")
    run_cli("judgments", "add", "1", "d1", "3", "--assessor", "ann")
    assert [i["unit"] for i in run_cli.json("queue", "--topic", "1")["next"]] == ["d2"]
    run_cli("corpus", "import", write("c2.tsv", "d1\tmaize pests and diseases\n"), "--update")
    assert [i["unit"] for i in run_cli.json("queue", "--topic", "1")["next"]] == ["d1", "d2"]


def test_no_answer_is_refused_while_a_relevant_label_exists(pooled):
    pooled("pool", "build", "--depth", "1")
    pooled("judgments", "add", "1", "a1-1", "2", "--assessor", "ann")
    result = pooled("topics", "mark", "1", "no_answer", expect=1)
    assert "topic '1' has 1 relevant label " in result.stderr
    pooled("topics", "mark", "2", "no_answer")
    pooled("topics", "mark", "1", "reviewed")
    topics = pooled.json("status")["topics"]
    # topic 2's pool unit is unjudged: the mark does not hide it
    assert topics["2"]["review_status"] == "reopened" and topics["2"]["reopened"] == {"pool": "P1", "unjudged": 1}
    pooled("judgments", "add", "2", "a2-1", "0", "--assessor", "ann")  # judged after the mark
    assert pooled.json("status")["topics"]["2"]["review_status"] == "in_progress"
    pooled("topics", "mark", "2", "no_answer")
    topics = pooled.json("status")["topics"]
    assert (topics["1"]["review_status"], topics["2"]["review_status"]) == ("reviewed", "no_answer")
    assert topics["1"]["reopened"] is None


def test_evaluation_only_import_marks_topics(run_cli, write):
    qrels = write("q.txt", "# prior labels\n1 0 d1 1\n1 0 d2 0\n2 0 d3 0\n3 0 d4 -1\n")
    result = run_cli.json("judgments", "import", qrels, "--assessor", "nist", "--reviewed")
    assert result["marked"] == {"1": "reviewed", "2": "no_answer"}
    assert result["unmarked"] == ["3"]  # graded only pooled, not judged: nobody looked, no mark
    assert (result["judgments"], result["relevant"], result["pooled_unjudged"]) == (4, 1, 1)
    run_cli("snapshot", "create", "-m", "prior")
    assert run_cli("export", "qrels").stdout == "1 0 d1 1\n1 0 d2 0\n2 0 d3 0\n3 0 d4 -1\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1 0 d1 7\n", "q.txt:1: grade 7 is not on the scale 'default'"),  # above the scale
        ("1 0 d1 1.5\n", "q.txt:1: grade '1.5' is not an integer"),  # not an integer
        ("1 0 d1\n", "q.txt:1: expected 4 fields"),  # a missing column
        ("1 0 d1 1\n1 0 d1 2\n", "q.txt:2: topic '1' judges 'd1' twice (first at line 1)"),  # duplicate
        ("", "q.txt: no judgments found"),  # empty file
    ],
)
def test_bad_qrels_are_refused_and_change_nothing(run_cli, write, db_path, content, message):
    from support import dump

    before = dump(db_path)
    result = run_cli("judgments", "import", write("q.txt", content), "--assessor", "nist", expect=1)
    assert message in result.stderr
    assert dump(db_path) == before


def test_history_cannot_be_changed_with_sql(pooled, db_path):
    pooled("pool", "build", "--depth", "1")
    pooled("judgments", "add", "1", "a1-1", "2", "--assessor", "ann")
    pooled("snapshot", "create", "-m", "v1")
    with sqlite3.connect(db_path) as conn:
        for sql in (
            "UPDATE events SET grade = 0",
            "DELETE FROM events",
            "UPDATE snapshots SET message = 'x'",
            "DELETE FROM snapshots",
            "UPDATE snapshot_labels SET grade = 0",
            "DELETE FROM snapshot_labels",
            "DELETE FROM pool_entries",
            "UPDATE pools SET depth = 9",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(sql)

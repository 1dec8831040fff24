"""`labeler nuggets import | import-assignments | list | add | edit | merge | delete | move` and `export nuggets`."""

from __future__ import annotations

import gzip
import json

import pytest
from answers.answer_support import add_answers
from answers.nuggetizer_files import NUGGETS, TOPICS, assigned, jsonl
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_refused
from nuggetizer.core.metrics import calculate_global_metrics

from labeler.answers.spaces import assignment_space
from labeler.store import Store
from labeler.workbench.answer_labels import answer_labels, nugget_history, nuggets_now


@pytest.fixture
def cli(run_cli, write):
    topics = "".join(json.dumps({"id": t, "title": title}) + "\n" for t, title in TOPICS.items())
    run_cli("topics", "import", write("topics.jsonl", topics))
    return run_cli


@pytest.fixture
def nugget_file(write):
    return write("nuggets.jsonl", jsonl(NUGGETS))


def _ids(cli, topic, *more):
    return [n["nugget_id"] for n in cli.json("nuggets", "list", "--topic", topic, *more)["nuggets"]]


def test_import_list_and_export_round_trip(cli, nugget_file, tmp_path):
    result = cli.json("nuggets", "import", nugget_file, "--assessor", "nist")
    assert (result["topics"], result["nuggets"], result["unchanged"]) == (2, 5, 0)
    listed = cli.json("nuggets", "list")
    assert [(n["topic_id"], n["text"], n["origin"]) for n in listed["nuggets"]][-1] == (
        "2",
        "Treated with intravenous calcium",
        "imported",
    )
    out = tmp_path / "out.jsonl"
    summary = cli.json("export", "nuggets", "-o", out)
    assert (summary["exported"], summary["name"], summary["lines"]) == ("nuggets", "nuggets", 2)
    assert [json.loads(line) for line in out.read_text().splitlines()] == NUGGETS
    assert cli("export", "nuggets").stdout == out.read_text()
    again = cli.json("nuggets", "import", nugget_file, "--assessor", "nist")
    assert (again["nuggets"], again["unchanged"]) == (0, 5)


def test_assignments_in_and_out_read_by_nuggetizer(cli, nugget_file, write, tmp_path):
    cli("nuggets", "import", nugget_file, "--assessor", "nist")
    with Store(cli.db) as store:
        for run in ("r1", "r2"):
            add_answers(store, run, {"1": [("Scout.", ["d1"])], "2": [("Calcium.", ["d2"])]})
    rows = [
        assigned("1", "r1", ["support", "partial_support", "not_support"]),
        assigned("2", "r1", ["support", "not_support"]),
        assigned("1", "r2", ["support", "support", "support"]),
    ]
    result = cli.json("nuggets", "import-assignments", write("a.jsonl", jsonl(rows)), "--assessor", "nist")
    assert (result["runs"], result["answers"], result["assignments"]) == (["r1", "r2"], 3, 8)
    out = tmp_path / "a_out.jsonl"
    printed = cli("export", "nuggets", "--assignments", "--runs", "r2,r1", "-o", out)
    assert "Left out: run r2 topic 2: 2 of 2 nuggets not assigned" in printed.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["run_id"], r["qid"]) for r in records] == [("r2", "1"), ("r1", "1"), ("r1", "2")]
    assert records[1]["nuggets"] == rows[0]["nuggets"]
    scores = calculate_global_metrics(records)
    assert scores["strict_vital_score"] == pytest.approx((1 + 1 / 2 + 1) / 3)


def test_a_models_files_are_kept_apart(cli, nugget_file, write):
    result = cli.json("nuggets", "import", nugget_file, "--source", "model", "--model", "gpt", "--assessor", "nist")
    assert result["model"] == "gpt"
    assert cli.json("nuggets", "list")["nuggets"] == []
    drafts = cli.json("nuggets", "list", "--topic", "1", "--model", "gpt")["nuggets"]
    assert [d["origin"] for d in drafts] == ["drafted"] * 3
    made = cli.json("nuggets", "edit", "1", drafts[0]["nugget_id"], "--text", "Scout weekly", "--assessor", "ann")
    assert (made["action"], made["nuggets"][0]["draft"], made["nuggets"][0]["origin"]) == (
        "create",
        drafts[0]["nugget_id"],
        "edited",
    )
    assert [n["text"] for n in cli.json("nuggets", "list")["nuggets"]] == ["Scout weekly"]


def test_add_edit_merge_delete(cli):
    first = cli.json("nuggets", "add", "1", "Netting keeps insects out", "--importance", "vital", "--from", "d1")
    assert first["nuggets"][0]["sources"] == ["d1"]
    keep = first["nuggets"][0]["nugget_id"]
    other = cli.json("nuggets", "add", "1", "Nets stop insects", "--importance", "okay", "--assessor", "ann")
    other_id = other["nuggets"][0]["nugget_id"]
    edited = cli.json("nuggets", "edit", "1", keep, "--importance", "okay", "--rank", "4", "--assessor", "ann")
    assert (edited["action"], edited["nuggets"][0]["rank"], edited["nuggets"][0]["importance"]) == ("rank", 4, "okay")
    said = cli("nuggets", "edit", "1", keep, "--rank", "4", "--assessor", "ann")
    assert "Nothing changed" in said.stderr
    merged = cli.json("nuggets", "merge", "1", keep, other_id, "--assessor", "ann")
    assert merged["action"] == "merge"
    assert _ids(cli, "1") == [keep]
    cli("nuggets", "delete", "1", keep, "--assessor", "ann")
    assert _ids(cli, "1") == []
    with Store(cli.db) as store:
        assert nuggets_now(store, "1") == []
        assert len(nuggets_now(store, "1", include_deleted=True)) == 2


def test_move_swaps_a_nugget_with_its_neighbour_of_its_importance(cli):
    def add(text, importance):
        made = cli.json("nuggets", "add", "1", text, "--importance", importance, "--assessor", "ann")
        return made["nuggets"][0]["nugget_id"]

    a, b, c, d = add("A", "vital"), add("B", "vital"), add("C", "okay"), add("D", "vital")
    moved = cli.json("nuggets", "move", "1", d, "--up", "--assessor", "bob")
    assert (moved["action"], moved["changed"]) == ("rank", True)
    assert [(n["nugget_id"], n["rank"]) for n in moved["nuggets"]] == [(a, 1), (d, 2), (b, 4)]
    assert _ids(cli, "1") == [a, d, b, c]  # listed vital first, then by rank
    exported = [n["text"] for n in json.loads(cli("export", "nuggets").stdout)["nuggets"]]
    assert exported == ["A", "D", "C", "B"]  # exported in rank order, whatever the importance
    with Store(cli.db) as store:
        history = [json.loads(e.note) for e in nugget_history(store, "1", d)]
        assert [(v["action"], v["rank"]) for v in history] == [("create", 4), ("rank", 2)]
        events = len(list(store.unit_events("nuggets")))
    said = cli("nuggets", "move", "1", a, "--up", "--assessor", "bob")
    assert "Nothing changed" in said.stderr and "top" in said.stderr
    assert cli.json("nuggets", "move", "1", c, "--down", "--assessor", "bob")["changed"] is False
    with Store(cli.db) as store:
        assert len(list(store.unit_events("nuggets"))) == events
    said = cli("nuggets", "move", "1", a, "--down", "--assessor", "bob")
    assert f"Rank 1: nugget {d}" in said.stderr and f"Rank 2: nugget {a}" in said.stderr


# ---------------------------------------------------------------- refusals: one Error line, nothing written


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('{"qid": "1", "query": "q", "nuggets": [{"text": "a", "importance": "high"}]}\n', 1, "importance"),
        ('{"qid": "1", "query": "q", "nuggets": []}\n{"qid": "1", "query": "q", "nuggets": []}\n', 2, "twice"),
        (
            '{"qid": "1", "query": "q", "nuggets": [{"text": "a", "importance": "vital"}]}\n{"qid": "9", '
            '"query": "q", "nuggets": []}\n',
            2,
            "topic 9 is not a topic of the workbench (run 'labeler topics import')",
        ),
        ('{"qid": "1", "query": "q", "nuggets": [{"text": "a", "importance": "vital"}]}\n[]\n', 2, "a JSON object"),
        ('{"qid": "1 2", "query": "q", "nuggets": []}\n', 1, "white space"),
    ],
)
def test_a_bad_nugget_file_is_refused(cli, write, text, line, fragment):
    path = write("bad.jsonl", text)
    with Unchanged(cli.db):
        assert_refused(cli("nuggets", "import", path, expect=None), path, line, fragment)


def test_a_bad_assignment_file_is_refused(cli, nugget_file, write):
    cli("nuggets", "import", nugget_file, "--assessor", "nist")
    with Store(cli.db) as store:
        for run in ("r1", "r2"):
            add_answers(store, run, {"2": [("Calcium.", ["d2"])]})
    cases = [
        (assigned("2", "r9", ["support"] * 2), "answer run r9 is not in the workbench (run 'labeler answers import"),
        (assigned("1", "r1", ["support"] * 3), "answer run r1 has no answer to topic 1"),
        (
            dict(assigned("2", "r2", ["support"] * 2), nuggets=[NUGGETS[0]["nuggets"][0] | {"assignment": "support"}]),
            "is not one of topic 2's nuggets",
        ),
        (assigned("2", "r1", ["support", "failed"]), "assignment must be one of"),
    ]
    for row, fragment in cases:
        path = write("bad.jsonl", jsonl([assigned("2", "r1", ["support"] * 2), row]))
        with Unchanged(cli.db):
            assert_refused(cli("nuggets", "import-assignments", path, expect=None), path, 2, fragment)
    with Store(cli.db) as store:
        assert answer_labels(store, assignment_space("r1"), "2") == {}


def test_a_model_source_without_its_model_is_a_bad_argument(cli, nugget_file):
    with Unchanged(cli.db):
        assert_bad_argument(cli("nuggets", "import", nugget_file, "--source", "model", expect=None), "--model", "model")
        assert_bad_argument(cli("nuggets", "import", nugget_file, "--model", "gpt", expect=None), "--model", "model")


def test_impossible_edits_are_refused(cli):
    keep = cli.json("nuggets", "add", "1", "Netting keeps insects out", "--importance", "vital")["nuggets"][0]
    keep_id = keep["nugget_id"]
    with Unchanged(cli.db):
        assert_bad_argument(cli("nuggets", "edit", "1", keep_id, expect=None), "--text", "nothing to change")
        assert_bad_argument(cli("nuggets", "edit", "1", keep_id, "--rank", "0", expect=None), "--rank", "whole number")
        assert_bad_argument(
            cli("nuggets", "merge", "1", keep_id, keep_id, expect=None), "argument OTHER", "named twice"
        )
        no_direction = cli("nuggets", "move", "1", keep_id, expect=None)
        assert no_direction.exit_code == 2 and no_direction.stdout == ""
        assert no_direction.stderr.count("Error: ") == 1 and "Error: give --up or --down" in no_direction.stderr
        assert "Traceback" not in no_direction.stderr
        assert_bad_argument(cli("export", "nuggets", "--runs", "r1", expect=None), "--runs", "--assignments")
        assert_bad_argument(
            cli("export", "nuggets", "--assignments", "--runs", "r9", expect=None), "--runs", "no answer run named 'r9'"
        )
        for args, fragment in [
            (("nuggets", "delete", "1", "n0"), "topic 1 has no nugget 'n0' (run 'labeler nuggets list')"),
            (("nuggets", "add", "9", "x", "--importance", "vital"), "topic 9 is not a topic"),
            (("nuggets", "add", "1", keep["text"], "--importance", "okay"), "has this text already"),
            (("nuggets", "list", "--topic", "9"), "topic 9 is not a topic"),
            (("nuggets", "move", "1", "n0", "--up"), "topic 1 has no nugget 'n0' (run 'labeler nuggets list')"),
            (("nuggets", "move", "9", keep_id, "--down"), "topic 9 is not a topic"),
        ]:
            result = cli(*args, expect=None)
            assert result.exit_code == 1 and result.stderr.startswith("Error: ") and fragment in result.stderr
            assert result.stderr.count("\n") == 1 and result.stdout == ""


def test_the_reading_limits_hold_and_gzip_is_read(cli, nugget_file, write):
    with Unchanged(cli.db):
        result = cli("nuggets", "import", nugget_file, "--max-line-bytes", "100", expect=None)
        assert_refused(result, nugget_file, 1, "--max-line-bytes")
    zipped = write("nuggets.jsonl.gz", gzip.compress(nugget_file.read_bytes()))
    assert cli.json("nuggets", "import", zipped)["nuggets"] == 5

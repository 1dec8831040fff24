"""`judgments import --reviewed` and merged marks follow the rule `topics mark` follows, over the topic's labels.

A second half of a qrels file imported as reviewed must not mark a topic `no_answer` because its own
lines hold nothing relevant: the first half gave the topic a relevant label, and `topics mark` refuses
`no_answer` for exactly that topic. A topic graded only "pooled, not judged" (-1) gets no mark at all.
"""

from __future__ import annotations

import json

from support import Cli, new_workbench

RUN = "T Q0 a 1 3.0 r\nT Q0 b 2 2.0 r\nT Q0 c 3 1.0 r\nU Q0 u 1 1.0 r\n"
FIRST_HALF = "T 0 a 2\nT 0 b 0\nU 0 u 0\n"
SECOND_HALF = "T 0 c 0\n"


def imported_in_halves(run_cli: Cli, write) -> Cli:
    run_cli("runs", "import", write("r.run", RUN), "--name", "r", "--allow-unknown")
    first = run_cli.json("judgments", "import", write("a.qrels", FIRST_HALF), "--assessor", "nist", "--reviewed")
    assert first["marked"] == {"T": "reviewed", "U": "no_answer"}
    second = run_cli.json("judgments", "import", write("b.qrels", SECOND_HALF), "--assessor", "nist", "--reviewed")
    assert second["marked"] == {"T": "reviewed"}  # T has a=2 in the workbench, whatever this file's lines say
    return run_cli


def test_a_topic_imported_in_two_halves_stays_reviewed_and_scored(run_cli, write):
    imported_in_halves(run_cli, write)
    assert run_cli.json("status")["topics"]["T"]["review_status"] == "reviewed"
    run_cli("snapshot", "create", "-m", "both halves")
    run = run_cli.json("eval", "--measures", "P@3")["runs"][0]
    assert run["topics"]["excluded_topics"] == {"U": "no_answer"}
    assert run["topics"]["scored"] == 1 and run["aggregate"]["P@3"] == 1 / 3  # T, scored
    assert run_cli.json("coverage", "--no-loro")["scored_topics"] == 1


def test_compare_across_the_second_half_keeps_the_topic(run_cli, write):
    run_cli("runs", "import", write("r.run", RUN), "--name", "r", "--allow-unknown")
    run_cli("judgments", "import", write("a.qrels", FIRST_HALF), "--assessor", "nist", "--reviewed")
    run_cli("snapshot", "create", "-m", "first half")
    run_cli("judgments", "import", write("b.qrels", SECOND_HALF), "--assessor", "nist", "--reviewed")
    run_cli("snapshot", "create", "-m", "both halves")
    changes = run_cli.json("compare", "v1", "v2")["topic_changes"]
    assert changes == {"old_scored": 1, "entered": [], "left": {}}  # T did not leave


def test_the_second_half_marked_again_is_what_topics_mark_allows(run_cli, write):
    imported_in_halves(run_cli, write)
    refused = run_cli("topics", "mark", "T", "no_answer", "--assessor", "nist", expect=1)
    assert "cannot be marked no_answer" in refused.stderr
    log = map(json.loads, run_cli("export", "log").stdout.splitlines())
    marks = [e for e in log if e["kind"] == "review"]
    assert [(e["topic_id"], e["reason"]) for e in marks] == [("T", "reviewed"), ("U", "no_answer"), ("T", "reviewed")]


def test_a_topic_graded_only_pooled_is_not_marked(run_cli, write):
    run_cli("runs", "import", write("r.run", RUN), "--name", "r", "--allow-unknown")
    result = run_cli.json("judgments", "import", write("p.qrels", "T 0 a -1\nT 0 b -1\nU 0 u 0\n"), "--reviewed")
    assert result["marked"] == {"U": "no_answer"}
    assert result["unmarked"] == ["T"]
    assert run_cli.json("status")["topics"]["T"]["review_status"] == "unreviewed"
    text = run_cli("judgments", "import", write("q.qrels", "V 0 v -1\n"), "--reviewed", "--allow-unknown").stderr
    assert "1 topic not marked: nothing judged (V)" in text


def test_a_merged_no_answer_mark_is_kept_and_overruled_by_a_relevant_label(tmp_path, write):
    """Order-independent: the status is derived from the union, whichever workbench merges first."""
    results = []
    for order in ("ab", "ba"):
        benches = {}
        for name in "ab":
            benches[name] = Cli(new_workbench(tmp_path / f"{order}-{name}.db"))
        a, b = benches["a"], benches["b"]
        a("judgments", "add", "T", "d1", "2", "--assessor", "ann", "--allow-unknown")
        b("judgments", "add", "T", "d2", "0", "--assessor", "bob", "--allow-unknown")
        b("topics", "mark", "T", "no_answer", "--assessor", "bob")  # bob saw no answer in his half
        first, second = (a, b) if order == "ab" else (b, a)
        first("merge", second.db)
        second("merge", first.db)
        first("merge", second.db)  # idempotent: nothing new
        for bench in (a, b):
            topics = bench.json("status")["topics"]
            results.append(topics["T"]["review_status"])
            log = [json.loads(line) for line in bench("export", "log").stdout.splitlines()]
            assert [e["reason"] for e in log if e["kind"] == "review"] == ["no_answer"]  # kept: the log is a union
    assert results == ["in_progress"] * 4  # a relevant label overrules no_answer: T needs a new review

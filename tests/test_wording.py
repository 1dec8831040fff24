"""Counts agree with their nouns in messages: "1 judgment", "2 judgments", never "1 judgment(s)"."""

from __future__ import annotations

import pytest

from labeler.wording import agrees, plural


@pytest.mark.parametrize(("count", "expected"), [(0, "0 judgments"), (1, "1 judgment"), (2, "2 judgments")])
def test_plural(count, expected):
    assert plural(count, "judgment") == expected


def test_irregular_plural_and_verb():
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "entry", "entries") == "3 entries"
    assert agrees(1, "has", "have") == "has" and agrees(2, "has", "have") == "have"


RUN_ONE = "1 Q0 d1 1 9 r\n"
RUN_TWO = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n2 Q0 d1 1 9 r\n"


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        (RUN_ONE, "1 result for 1 topic, depth up to 1"),
        (RUN_TWO, "3 results for 2 topics, depth up to 2"),
    ],
)
def test_runs_import_counts(run_cli, write, run, expected):
    result = run_cli("runs", "import", write("r.run", run), "--name", "r", "--allow-unknown")
    assert expected in result.stderr


@pytest.mark.parametrize(
    ("qrels", "expected"),
    [
        ("1 0 d1 1\n", "1 judgment recorded for 1 topic"),
        ("1 0 d1 1\n2 0 d2 0\n", "2 judgments recorded for 2 topics"),
    ],
)
def test_judgments_import_counts(run_cli, write, qrels, expected):
    result = run_cli("judgments", "import", write("q.txt", qrels), "--assessor", "ann", "--allow-unknown")
    assert expected in result.stderr


@pytest.mark.parametrize(
    ("qrels", "expected"),
    [
        ("1 0 d1 1\n", "Snapshot v1 (doc): 1 label over 1 topic;"),
        ("1 0 d1 1\n2 0 d2 0\n", "Snapshot v1 (doc): 2 labels over 2 topics;"),
    ],
)
def test_snapshot_counts(run_cli, write, qrels, expected):
    run_cli("judgments", "import", write("q.txt", qrels), "--assessor", "ann", "--allow-unknown")
    result = run_cli("snapshot", "create", "-m", "first")
    assert expected in result.stderr


@pytest.mark.parametrize(("topics", "expected"), [(1, "Topic 1: 1 unit to judge"), (2, "Topic 1: 2 units to judge")])
def test_queue_counts(run_cli, write, topics, expected):
    run = "".join(f"1 Q0 d{r} {r} {10 - r} r\n" for r in range(1, topics + 1))
    run_cli("runs", "import", write("r.run", run), "--name", "r", "--allow-unknown")
    run_cli("pool", "build", "--depth", "5")
    result = run_cli("queue", "--assessor", "ann")
    assert expected in result.stderr

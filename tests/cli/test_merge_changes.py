"""What a merge changed: each pair whose label moved, from what to what; and whose decisions a retract may withdraw."""

from __future__ import annotations

import json
from pathlib import Path

from support import Cli, new_workbench

from labeler.store import Store
from labeler.workbench.read_labels import current_labels


def workbench(tmp_path: Path, name: str) -> Cli:
    return Cli(new_workbench(tmp_path / f"{name}.db"))


def labels(db: Path) -> dict:
    with Store(db) as store:
        return {pair: (state.label, state.conflict) for pair, state in current_labels(store, "doc").items()}


def test_merge_lists_each_label_it_changed(tmp_path):
    a, b = workbench(tmp_path, "a"), workbench(tmp_path, "b")
    a("judgments", "add", "1", "d1", "2", "--assessor", "ann")
    a("judgments", "add", "1", "d2", "0", "--assessor", "ann")
    b("judgments", "add", "1", "d1", "2", "--assessor", "bob")  # agrees: the label stays 2
    b("judgments", "add", "1", "d2", "3", "--assessor", "bob")  # disagrees: 0 becomes a conflict
    b("judgments", "add", "1", "d3", "1", "--assessor", "bob")  # new: no label becomes 1
    b("judgments", "add", "1", "d4", "1", "--assessor", "bob")
    b("judgments", "undo", "--assessor", "bob")  # d4 taken back: no label before, none after
    result = a.json("merge", b.db)
    assert result["changes"] == [
        {
            "unit": "doc",
            "topic": "1",
            "unit_id": "d2",
            "before": 0,
            "after": None,
            "conflict": True,
            "assessors": ["bob"],
        },
        {
            "unit": "doc",
            "topic": "1",
            "unit_id": "d3",
            "before": None,
            "after": 1,
            "conflict": False,
            "assessors": ["bob"],
        },
    ]
    assert labels(a.db)[("1", "d2")] == (None, True) and labels(a.db)[("1", "d3")] == (1, False)
    assert result["new_conflicts"] == [{"unit": "doc", "topic": "1", "unit_id": "d2"}]  # the keys it had stay
    assert a.json("merge", b.db)["changes"] == []  # merging again changes nothing


def test_merge_prints_the_changes_as_a_table(tmp_path):
    a, b = workbench(tmp_path, "a"), workbench(tmp_path, "b")
    a("judgments", "add", "1", "d1", "0", "--assessor", "ann")
    b("judgments", "add", "1", "d1", "3", "--assessor", "bob")
    b("judgments", "add", "1", "d2", "2", "--assessor", "bob")
    result = a("merge", b.db)
    assert "2 labels changed:" in result.stderr
    rows = [line.replace("│", " ").split() for line in result.stdout.splitlines() if line.strip().startswith("doc")]
    assert rows == [["doc", "1", "d1", "0", "conflict", "bob"], ["doc", "1", "d2", "-", "2", "bob"]], result.stdout


def log_line(**fields) -> str:
    event = {"topic_id": "1", "unit": "doc", "unit_id": "d1", "source": "human"}
    return json.dumps({**event, **fields}) + "\n"


def test_a_merged_retract_withdraws_its_own_assessors_decisions(tmp_path):
    """bob's retract of his own grade is merged; an adjudication is withdrawn by the one who made it."""
    a = workbench(tmp_path, "a")
    log = tmp_path / "log.jsonl"
    log.write_text(
        log_line(event_id="g-ann", kind="grade", grade=2, assessor="ann", time="2026-01-01T00:00:00+00:00")
        + log_line(event_id="g-bob", kind="grade", grade=0, assessor="bob", time="2026-01-01T00:00:01+00:00")
        + log_line(event_id="adj", kind="adjudicate", grade=1, assessor="cat", time="2026-01-01T00:00:02+00:00")
        + log_line(event_id="r-cat", kind="retract", target="adj", assessor="cat", time="2026-01-01T00:00:03+00:00")
        + log_line(event_id="r-bob", kind="retract", target="g-bob", assessor="bob", time="2026-01-01T00:00:04+00:00"),
        encoding="utf-8",
    )
    result = a.json("merge", log)
    assert result["added"] == 5
    assert labels(a.db)[("1", "d1")] == (2, False)  # ann's grade alone is in force
    assert result["changes"] == [
        {
            "unit": "doc",
            "topic": "1",
            "unit_id": "d1",
            "before": None,
            "after": 2,
            "conflict": False,
            "assessors": ["ann", "bob", "cat"],
        }
    ]


def test_a_merged_retract_of_an_adjudication_by_another_is_refused(tmp_path):
    a = workbench(tmp_path, "a")
    a("judgments", "add", "1", "d1", "2", "--assessor", "ann")
    a("judgments", "add", "1", "d1", "0", "--assessor", "bob")
    a("judgments", "adjudicate", "1", "d1", "1", "--assessor", "cat")
    with Store(a.db) as store:
        adjudication = next(e for e in store.all_events() if e.kind == "adjudicate")
    log = tmp_path / "log.jsonl"
    log.write_text(
        log_line(
            event_id="r", kind="retract", target=adjudication.event_id, assessor="ann", time="2026-01-01T00:00:00+00:00"
        ),
        encoding="utf-8",
    )
    before = a.db.read_bytes()
    result = a("merge", log, expect=1)
    assert result.stderr.count("Error:") == 1 and "Traceback" not in result.stderr
    assert f"{log}:1: retract by 'ann' targets event" in result.stderr
    assert "an adjudication only by the one who made it" in result.stderr
    assert a.db.read_bytes() == before

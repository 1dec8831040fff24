"""A merge read, checked and appended a batch at a time holds the same guarantees as one that holds the whole log."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import Cli, new_workbench

import labeler.workbench.team as team
from labeler.errors import LabelerError
from labeler.judgments.log import Event, derive_pair, event_order
from labeler.store import Store


def log_line(**fields) -> str:
    event = {"topic_id": "1", "unit": "doc", "unit_id": "d1", "source": "human", "kind": "grade"}
    return json.dumps({**event, **fields}) + "\n"


def write_log(tmp_path: Path, *lines: str) -> Path:
    log = tmp_path / "log.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    return log


def at(second: int) -> str:
    return f"2026-01-01T00:00:{second:02d}+00:00"


@pytest.fixture
def other(tmp_path: Path) -> Path:
    """A workbench of two assessors over two topics, written out of clock order across merges."""
    b = Cli(new_workbench(tmp_path / "b.db"))
    for topic, unit, grade, who in [("1", "d1", 2, "bob"), ("2", "d1", 0, "bob"), ("1", "d2", 1, "cat")]:
        b("judgments", "add", topic, unit, str(grade), "--assessor", who)
    c = Cli(new_workbench(tmp_path / "c.db"))
    c("judgments", "add", "1", "d1", "0", "--assessor", "dan")  # disagrees with bob: a conflict once merged
    c("judgments", "add", "3", "d9", "3", "--assessor", "dan")
    b("merge", c.db)
    b("judgments", "add", "1", "d3", "1", "--assessor", "bob")
    b("judgments", "undo", "--assessor", "bob")
    return b.db


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """The workbench merged into: one judgment of its own."""
    a = Cli(new_workbench(tmp_path / "base.db"))
    a("judgments", "add", "1", "d2", "0", "--assessor", "ann")
    return a.db


def merged(base: Path, name: str, source: Path) -> tuple[dict, tuple[int, str]]:
    db = base.with_name(f"{name}.db")
    shutil.copyfile(base, db)
    with Store(db) as store:
        result = team.merge(store, source).to_json()
        return result, store.log_head()


def test_batches_of_two_merge_what_one_batch_merges(base, other, monkeypatch):
    whole, whole_head = merged(base, "whole", other)
    monkeypatch.setattr(team, "STAGE_BATCH", 2)
    batched, batched_head = merged(base, "batched", other)
    assert batched == whole and batched_head == whole_head
    assert whole["added"] == 7
    assert [(c["topic"], c["unit_id"], c["after"]) for c in whole["changes"]] == [
        ("1", "d1", None),
        ("1", "d2", None),
        ("2", "d1", 0),
        ("3", "d9", 3),
    ]  # d3 graded, then withdrawn: no change
    assert [(c["topic"], c["unit_id"]) for c in whole["new_conflicts"]] == [("1", "d1"), ("1", "d2")]


def test_the_chain_is_the_one_appending_the_events_in_log_order_gives(base, other):
    _, head = merged(base, "streamed", other)
    db = base.with_name("rows.db")
    shutil.copyfile(base, db)
    with Store(other) as source:
        events = sorted(source.log_events(), key=event_order)
    with Store(db) as store:
        with store.transaction():
            store.append_events(events)  # the whole log at once, as a merge holding it did
        assert store.log_head() == head


def test_an_id_repeated_with_other_content_in_a_later_batch_is_refused_and_nothing_written(tmp_path, monkeypatch):
    log = write_log(
        tmp_path,
        log_line(event_id="e1", grade=2, assessor="ann", time=at(0)),
        log_line(event_id="e2", unit_id="d2", grade=1, assessor="ann", time=at(1)),
        log_line(event_id="e3", unit_id="d3", grade=1, assessor="ann", time=at(2)),
        log_line(event_id="e1", grade=3, assessor="ann", time=at(0)),
    )
    monkeypatch.setattr(team, "STAGE_BATCH", 2)
    db = new_workbench(tmp_path / "a.db")
    with Store(db) as store:
        with pytest.raises(LabelerError, match="appears again with other content") as refused:
            team.merge(store, log)
        assert refused.value.line == 4 and "first at line 1" in str(refused.value)
        assert store.event_count() == 0


def test_a_retract_of_an_event_in_a_later_batch_is_merged(tmp_path, monkeypatch):
    log = write_log(
        tmp_path,
        log_line(event_id="r1", kind="retract", target="g1", assessor="ann", time=at(5)),
        log_line(event_id="g2", unit_id="d2", grade=1, assessor="ann", time=at(1)),
        log_line(event_id="g1", grade=2, assessor="ann", time=at(0)),
    )
    monkeypatch.setattr(team, "STAGE_BATCH", 1)
    db = new_workbench(tmp_path / "a.db")
    with Store(db) as store:
        result = team.merge(store, log)
        assert result.added == 3
        assert [e.event_id for e in store.log_events()] == ["g1", "g2", "r1"]  # appended in log order
        assert [(c.unit_id, c.after) for c in result.changes] == [("d2", 1)]  # d1 graded, then withdrawn


@pytest.mark.parametrize(
    "fields",
    [
        {"grade": 2},
        {"grade": -1},  # pooled, not judged
        {"grade": 2, "source": "model"},  # a model's label is no person's
        {"grade": 2, "time": "2025-01-01T00:00:00.000000+00:00"},  # made before the text changed: stale
        {"kind": "unsure"},
        {"kind": "adjudicate", "grade": 1},
    ],
)
def test_a_pair_of_one_event_has_the_label_derive_pair_gives(fields):
    event = Event(
        **{
            "event_id": "e1",
            "seq": 1,
            "topic_id": "1",
            "unit_id": "d1",
            "kind": "grade",
            "assessor": "ann",
            "time": "2026-01-01T00:00:00.000000+00:00",
            "clock": 1,
            **fields,
        }
    )
    changed = {"d1": "2025-06-01T00:00:00.000000+00:00"}
    state = derive_pair("1", "d1", [event], changed["d1"])
    assert team._pair_state("1", "d1", [event], changed) == (state.label, state.conflict)

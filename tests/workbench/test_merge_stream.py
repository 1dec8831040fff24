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


def test_a_workbench_read_in_log_order_merges_what_its_staged_log_merges(base, other, monkeypatch):
    """A workbench whose events carry their clocks is appended as read, nothing staged: as its log merges, staged."""
    log = other.with_name("other.jsonl")
    with Store(other) as source:
        log.write_text("".join(line + "\n" for line in team.export_log(source)), encoding="utf-8")
    staged, staged_head = merged(base, "staged", log)

    def no_staging(store):
        raise AssertionError("a workbench with every clock is not staged")

    monkeypatch.setattr(Store, "stage_begin", no_staging)
    monkeypatch.setattr(team, "STAGE_BATCH", 3)
    direct, direct_head = merged(base, "direct", other)
    assert direct_head == staged_head
    assert (direct["format"], staged["format"]) == ("workbench", "jsonl")
    assert {**direct, "source": "", "format": ""} == {**staged, "source": "", "format": ""}
    assert direct["added"] == 7 and direct["changes"]


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


ANN = {"assessor": "ann"}
BOB = {"assessor": "bob"}


@pytest.mark.parametrize(
    ("pair", "plain"),
    [
        ([{"grade": 2}], True),
        ([{"grade": 2}, {"grade": 2, **BOB}], True),  # two assessors agree
        ([{"grade": 2}, {"grade": 1, **BOB}], True),  # disagree: a conflict
        ([{"grade": 2, "clock": 9}, {"grade": 1, "clock": 3}], True),  # one assessor's latest by clock, not by seq
        ([{"grade": 2, "clock": 3}, {"grade": 1, "clock": 9}, {"grade": 1, "clock": 5, **BOB}], True),
        ([{"grade": -1}], False),  # pooled, not judged
        ([{"grade": 2, "source": "model"}], False),  # a model's label is no person's
        ([{"grade": 2, "time": "2025-01-01T00:00:00.000000+00:00"}], False),  # made before the text changed: stale
        ([{"grade": 2, "clock": None}], False),
        ([{"kind": "unsure"}], False),
        ([{"kind": "adjudicate", "grade": 1}], False),
        ([{"grade": 2}, {"kind": "retract", "target": "e0"}], False),
    ],
)
def test_plain_grades_give_the_label_derive_pair_gives(pair, plain):
    """The labels a merge reads from grades alone are those `derive_pair` gives; other pairs are derived."""
    events = [
        Event(
            **{
                "event_id": f"e{n}",
                "seq": n + 1,
                "topic_id": "1",
                "unit_id": "d1",
                "kind": "grade",
                "assessor": "ann",
                "time": "2026-01-01T00:00:00.000000+00:00",
                "clock": n + 1,
                **fields,
            }
        )
        for n, fields in enumerate(pair)
    ]
    changed = "2025-06-01T00:00:00.000000+00:00"
    rows = [(e.seq, e.kind, e.source, e.grade, e.time, e.assessor, e.clock, e.event_id) for e in events]
    assert all(team._plain(row, changed) for row in rows) is plain
    state = derive_pair("1", "d1", events, changed)
    if plain:
        assert team._agreed(rows) == (state.label, state.conflict)

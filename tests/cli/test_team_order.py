"""The log's order after merges: a hybrid logical clock, which a machine with a wrong clock cannot hijack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import Cli, dump, new_workbench

import labeler.workbench.record_judgments as judging
from labeler.judgments.log import clock_from_time
from labeler.store import Store
from labeler.workbench.read_labels import current_labels

WRONG_CLOCK = "2099-01-01T00:00:00.000000+00:00"


def workbench(tmp_path: Path, name: str) -> Cli:
    db = tmp_path / f"{name}.db"
    new_workbench(db)
    return Cli(db)


def grade(cli: Cli, unit_id: str, value: int, assessor: str = "ann") -> dict:
    return cli.json("judgments", "add", "1", unit_id, str(value), "--assessor", assessor, "--allow-unknown")


def labels(db: Path) -> dict:
    with Store(db) as store:
        return {
            pair: (state.label, state.conflict, dict(state.grades))
            for pair, state in current_labels(store, "doc").items()
        }


def clock_of(db: Path, event_id: str) -> int:
    with Store(db) as store:
        return store.event(event_id).clock


def test_a_laptop_whose_clock_says_2099_cannot_outrank_later_judgments(tmp_path, monkeypatch):
    server, laptop = workbench(tmp_path, "server"), workbench(tmp_path, "laptop")
    with monkeypatch.context() as patch:
        patch.setattr(judging, "now", lambda: WRONG_CLOCK)  # the laptop's clock is 73 years ahead
        future = grade(laptop, "d1", 3)["event"]
    grade(server, "d1", 1)

    before = dump(server.db)
    refused = server("merge", laptop.db, expect=1)
    assert f"{laptop.db}: event '{future}': time {WRONG_CLOCK} is" in refused.stderr
    assert "ahead of this machine's clock" in refused.stderr and "--allow-future" in refused.stderr
    assert dump(server.db) == before  # refused as a whole

    merged = server.json("merge", laptop.db, "--allow-future")
    assert [e["event_id"] for e in merged["future"]] == [future]  # flagged
    later = grade(server, "d1", 0)["event"]  # a judgment made after the merge...
    assert clock_of(server.db, later) > clock_of(server.db, future)  # ...comes after the 2099 event in the log
    assert labels(server.db)[("1", "d1")] == (0, False, {"ann": 0})


def test_merging_both_ways_derives_the_same_labels_when_local_orders_differ(tmp_path):
    a, b = workbench(tmp_path, "a"), workbench(tmp_path, "b")
    grade(a, "d1", 2)  # t1 on a
    grade(b, "d1", 0)  # t2 on b (ann works on both machines)
    grade(a, "d1", 3)  # t3 on a ...
    a("judgments", "undo", "--assessor", "ann")  # ... taken back: ann's current grade is b's 0
    grade(b, "d2", 1, "bob")
    a("merge", b.db)
    b("merge", a.db)
    assert labels(a.db) == labels(b.db)
    assert labels(a.db)[("1", "d1")] == (0, False, {"ann": 0})
    with Store(a.db) as sa, Store(b.db) as sb:
        assert {e.event_id: e.clock for e in sa.all_events()} == {e.event_id: e.clock for e in sb.all_events()}


@pytest.mark.parametrize("via", ["workbench", "jsonl"])
def test_merging_twice_adds_nothing(tmp_path, via):
    a, b = workbench(tmp_path, "a"), workbench(tmp_path, "b")
    grade(b, "d1", 2)
    b("judgments", "undo", "--assessor", "ann")
    grade(b, "d2", 1)
    source = b.db
    if via == "jsonl":
        source = tmp_path / "b.jsonl"
        b("export", "log", "-o", source)
    assert a.json("merge", source)["added"] == 3
    before = dump(a.db)
    again = a.json("merge", source)
    assert (again["added"], again["already_present"]) == (0, 3)
    assert dump(a.db) == before


@pytest.mark.parametrize(
    ("merged_first", "undone", "left"),
    [
        (True, 2, 3),  # the merge brought an older decision: undo takes back the server's newer one
        (False, 3, 2),  # the merge brought a newer decision: undo takes that one back
    ],
)
def test_undo_after_a_merge_retracts_the_current_decision(tmp_path, merged_first, undone, left):
    server, laptop = workbench(tmp_path, "server"), workbench(tmp_path, "laptop")
    if merged_first:
        grade(laptop, "d1", 3)  # older, made offline
        grade(server, "d1", 2)
    else:
        grade(server, "d1", 2)
        grade(laptop, "d1", 3)  # newer, made offline
    server("merge", laptop.db)  # either way the laptop's event is last in the server's local order
    result = server.json("judgments", "undo", "--assessor", "ann")
    assert result["grade"] == undone
    assert labels(server.db)[("1", "d1")] == (left, False, {"ann": left})


def test_a_log_without_clocks_merges_and_gets_the_clock_its_time_gives(tmp_path):
    target = workbench(tmp_path, "t")
    old = {
        "event_id": "old-1",
        "topic_id": "1",
        "unit": "doc",
        "unit_id": "d1",
        "kind": "grade",
        "grade": 1,
        "assessor": "ann",
        "source": "human",
        "time": "2026-03-01T12:00:00Z",
        "note": None,
    }  # before clocks
    log = tmp_path / "old.jsonl"
    log.write_text(json.dumps(old) + "\n")
    assert target.json("merge", log)["added"] == 1
    with Store(target.db) as store:
        event = store.event("old-1")
    assert event.time == "2026-03-01T12:00:00.000000+00:00"  # labeler's own spelling of the instant
    assert event.clock == clock_from_time("2026-03-01T12:00:00+00:00") == 1_772_366_400_000_000
    assert target.json("merge", log)["added"] == 0  # the same instant is the same event
    exported = target("export", "log").stdout
    assert json.loads(exported)["clock"] == event.clock
    later = grade(target, "d1", 2)["event"]
    assert clock_of(target.db, later) > event.clock


def test_a_merge_moves_the_clock_past_the_events_it_brings(tmp_path):
    """An event merged from a machine a little ahead (within the tolerance) still precedes later local ones."""
    target = workbench(tmp_path, "t")
    with Store(target.db) as store:
        ahead = store.latest_clock()
    log = tmp_path / "ahead.jsonl"
    from datetime import datetime, timedelta, timezone

    soon = (datetime.now(timezone.utc) + timedelta(minutes=4)).isoformat()  # within the 5-minute tolerance
    log.write_text(
        json.dumps(
            {
                "event_id": "soon",
                "topic_id": "1",
                "unit": "doc",
                "unit_id": "d1",
                "kind": "grade",
                "grade": 3,
                "assessor": "ann",
                "source": "human",
                "time": soon,
            }
        )
        + "\n"
    )
    assert target.json("merge", log)["future"] == []
    now_grade = grade(target, "d1", 0)["event"]  # recorded now, four minutes before the merged event's time
    assert clock_of(target.db, now_grade) > clock_of(target.db, "soon") > ahead
    assert labels(target.db)[("1", "d1")][0] == 0


def test_a_workbench_from_before_the_clock_merges_with_the_clocks_its_times_give(tmp_path):
    import sqlite3
    from contextlib import closing

    from sqlite_utils import Database

    from labeler.store.connection import APPLICATION_ID
    from labeler.store.schema import migrations

    old = tmp_path / "old.db"
    with closing(sqlite3.connect(old, isolation_level=None)) as conn:  # schema 2: no clock column
        db = Database(conn)
        migrations().apply(db, stop_before="m003_logical_clock")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 2")
        db.execute(
            "INSERT INTO events (event_id, topic_id, unit, unit_id, kind, grade, assessor, source, time) "
            "VALUES ('o1', '1', 'doc', 'd1', 'grade', 2, 'ann', 'human', '2026-02-01T00:00:00.000000+00:00')"
        )
    before = old.read_bytes()
    target = workbench(tmp_path, "t")
    assert target.json("merge", old)["added"] == 1
    assert clock_of(target.db, "o1") == clock_from_time("2026-02-01T00:00:00+00:00")
    assert old.read_bytes() == before  # read as it is: never upgraded

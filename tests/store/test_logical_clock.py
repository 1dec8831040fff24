"""Migration m003 gives every event the clock its time gives, and appends stamp clocks that only grow."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from sqlite_utils import Database

from labeler.judgments.log import Event, derive_pairs
from labeler.store import Store
from labeler.store.connection import APPLICATION_ID
from labeler.store.schema import migrations

SOUND = [  # (event_id, time, grade): the log of a workbench made before the clock existed
    ("b", "2026-01-01T10:00:00.000002+00:00", 2),
    ("a", "2026-01-01T10:00:00.000002+00:00", 3),  # the same microsecond: the event id decides (a before b)
    ("c", "2026-01-01T09:00:00.000000+00:00", 1),  # recorded later locally, earlier in time
]
GARBAGE = ("d", "yesterday", 0)  # a time an older merge let in; as text it sorted after every real time


def schema_2(path, events):
    """A workbench at schema 2 (before m003), holding `events` for one pair and one assessor."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        db = Database(conn)
        migrations().apply(db, stop_before="m003_logical_clock")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 2")
        for event_id, time, grade in events:
            db.execute(
                "INSERT INTO events (event_id, topic_id, unit, unit_id, kind, grade, assessor, source, time) "
                "VALUES (?, '1', 'doc', 'd1', 'grade', ?, 'ann', 'human', ?)",
                [event_id, grade, time],
            )
    return path


def deciding(store: Store) -> str:
    return derive_pairs(store.unit_events("doc"))[("1", "d1")].deciding_event.event_id


def test_existing_events_get_the_clock_their_time_gives_and_no_label_moves(tmp_path):
    path = schema_2(tmp_path / "old.db", SOUND)
    with closing(sqlite3.connect(path)) as conn:  # the order before m003: time, then event id
        old_order = [row[0] for row in conn.execute("SELECT event_id FROM events ORDER BY time, event_id")]
    with Store(path) as store:
        clocks = {e.event_id: e.clock for e in store.all_events()}
        assert deciding(store) == old_order[-1] == "b"
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):  # the guard is back
            store.db.execute("UPDATE events SET grade = 1")
    assert clocks == {"b": 1_767_261_600_000_002, "a": 1_767_261_600_000_002, "c": 1_767_258_000_000_000}


def test_a_time_that_is_not_a_time_no_longer_outranks_the_log(tmp_path):
    path = schema_2(tmp_path / "old.db", [*SOUND, GARBAGE])
    with Store(path) as store:
        assert store.event("d").clock == 0
        assert deciding(store) == "b"  # not 'd', which won every order while 'yesterday' > '2026-...'


def test_appends_stamp_clocks_past_everything_in_the_log(tmp_path):
    with Store(schema_2(tmp_path / "old.db", SOUND)) as store:
        latest = store.latest_clock()
        with store.transaction():
            first = store.append_event(Event("", 0, "1", "d2", "grade", "ann", "2000-01-01T00:00:00+00:00", grade=1))
            store.append_events(
                [Event("", 0, "1", f"d{n}", "grade", "ann", "2000-01-01T00:00:00+00:00", grade=1) for n in range(3, 6)]
            )
        clocks = [e.clock for e in store.all_events()][len(SOUND) :]
    assert first.clock == latest + 1  # its wall time is older than the log: the clock still moves on
    assert clocks == [latest + 1, latest + 2, latest + 3, latest + 4]

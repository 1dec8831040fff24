"""Bulk appends: the chain and the guards are what row-at-a-time appends give.

A batch is linked in one loop (`labeler.store.digests.link_rows`) and inserted
with the no-replace guard held for the batch (`labeler.store.bulk_writes`):
its links must be the ones `event_link` gives row after row, the workbench must
pass `check`, and the guard must be back with its exact text afterwards.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from support import new_workbench

from labeler.judgments.log import GRADE, MODEL, RETRACT, Event
from labeler.store import Store
from labeler.store.bulk_writes import HELD_FROM
from labeler.store.digests import event_link
from labeler.store.event_rows import LOG_HEAD, LOG_LENGTH, new_event_id
from labeler.store.guards import expected_guards
from labeler.workbench.check import check_workbench

TIME = "2026-03-01T10:00:00.000000+00:00"
LATER = "2026-03-02T10:00:00.000000+00:00"
CHAINED = (
    "event_id, topic_id, unit_id, kind, assessor, time, grade, reason, note, source, model, active_ms, "
    "content_hash, judging_order, seed, target, pool, unit, clock, probs, shown_model, shown_others"
)


def mixed_events(count: int) -> list[Event]:
    """Local grades (no clock: the log stamps one), merged events with their own clocks (some far ahead,
    some behind), a model's grades with probabilities, a person's with others shown, and a retract."""
    events = []
    for n in range(count):
        kind = n % 5
        if kind == 0:  # local: stamped by the log
            events.append(Event(f"local{n:04d}", 0, str(n % 7), f"d{n}", GRADE, "ann", TIME, grade=n % 4))
        elif kind == 1:  # merged from another workbench: its clock comes with it
            clock = 1_800_000_000_000_000 + (n * 7919) % 100_000 * (1 if n % 2 else -1)
            events.append(Event(f"merged{n:04d}", 0, "1", f"d{n}", GRADE, "bob", LATER, grade=1, clock=clock))
        elif kind == 2:
            events.append(
                Event(f"model{n:04d}", 0, "2", f"d{n}", GRADE, "llm", TIME, grade=2, source=MODEL, model="m1",
                      probs={0: 0.1, 1: 0.2, 2: 0.6, 3: 0.1})
            )  # fmt: skip
        elif kind == 3:
            events.append(
                Event(f"seen{n:04d}", 0, "3", f"d{n}", GRADE, "cy", TIME, grade=0, shown_others=("ann",),
                      shown_model="m1", note="é \u2028 ☃", active_ms=n)
            )  # fmt: skip
        else:
            events.append(Event(f"undo{n:04d}", 0, "0", f"d{n - 4}", RETRACT, "ann", TIME, target=f"local{n - 4:04d}"))
    return events


def stored(path: Path) -> list[tuple]:
    with Store(path) as store:
        return store.db.execute(f"SELECT link, {CHAINED} FROM events ORDER BY seq").fetchall()


def triggers(path: Path) -> dict[str, str]:
    with Store(path) as store:
        return dict(store.db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())


def test_a_batch_links_as_row_at_a_time_appends_do(tmp_path):
    """The same events, one batch in one workbench and one append each in another: the same rows and links,
    and every link is `event_link` over the link before and the row's fields, recomputed here."""
    events = mixed_events(3 * HELD_FROM)
    batched, single = new_workbench(tmp_path / "batched.db"), new_workbench(tmp_path / "single.db")
    with Store(batched) as store, store.transaction():
        assert store.append_events(events[:7]) == 7  # a small batch first: the chain goes on across batches
        assert store.append_events(events[7:]) == len(events) - 7
    with Store(single) as store, store.transaction():
        for event in events:
            store.append_event(event)
    rows = stored(batched)
    assert rows == stored(single)
    previous = b""
    for link, *fields in rows:
        assert link == event_link(previous, fields)
        previous = link
    with Store(batched) as store:
        assert store.get_meta(LOG_HEAD) == previous.hex() and store.get_meta(LOG_LENGTH) == str(len(events))
        assert list(store.log_chain_problems()) == []


def test_a_bulk_written_workbench_passes_check_with_its_guards_unchanged(tmp_path):
    path = new_workbench(tmp_path / "wb.db")
    before = triggers(path)
    assert before["events_no_replace"] == expected_guards()["events_no_replace"]
    with Store(path) as store, store.transaction():
        store.append_grades(
            ((str(n % 3), f"d{n}", n % 4) for n in range(5 * HELD_FROM)),
            assessor="nist", time=TIME, source="import", model=None, unit="doc",
        )  # fmt: skip
        store.append_events(mixed_events(2 * HELD_FROM))
    assert triggers(path) == before
    with Store(path) as store:
        report = check_workbench(store)
        assert report.ok, [c for c in report.checks if not c.ok]
        assert store.event_count() == 7 * HELD_FROM


def test_a_duplicate_id_in_a_batch_is_refused_as_the_guard_refuses_it_and_nothing_is_written(tmp_path):
    path = new_workbench(tmp_path / "wb.db")
    with Store(path) as store, store.transaction():
        store.append_events(mixed_events(HELD_FROM))
    before, guards = stored(path), triggers(path)
    again = [*mixed_events(2 * HELD_FROM)[HELD_FROM:], mixed_events(1)[0]]  # new ids, then one the log holds
    with Store(path) as store:
        with pytest.raises(sqlite3.IntegrityError, match="events is append-only: rows cannot be replaced"):
            with store.transaction():
                store.append_events(again)
        assert store.db.execute("SELECT sql FROM sqlite_master WHERE name = 'events_no_replace'").fetchone() == (
            guards["events_no_replace"],
        )
    assert stored(path) == before and triggers(path) == guards


def test_a_guard_changed_behind_labelers_back_is_left_for_check_to_report(tmp_path):
    """A bulk append never writes the guard's text over a trigger that is not it: check still sees the change."""
    path = new_workbench(tmp_path / "wb.db")
    with Store(path) as store:
        store.db.execute("DROP TRIGGER events_no_replace")
        store.db.execute("CREATE TRIGGER events_no_replace BEFORE INSERT ON events BEGIN SELECT 1; END")
        with store.transaction():
            store.append_events(mixed_events(2 * HELD_FROM))
        assert (
            "SELECT 1; END"
            in store.db.execute("SELECT sql FROM sqlite_master WHERE name = 'events_no_replace'").fetchone()[0]
        )
        guards = next(c for c in check_workbench(store).checks if "guard" in c.check)
        assert not guards.ok and any("events_no_replace" in f for f in guards.findings)


def test_new_event_ids_are_32_hex_digits_clock_first_and_distinct():
    ids = [new_event_id() for _ in range(2000)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    assert len(set(ids)) == len(ids)
    assert [i[:12] for i in ids] == sorted(i[:12] for i in ids)  # milliseconds first: made in order
    assert len({i[12:] for i in ids}) == len(ids)  # 80 random bits each

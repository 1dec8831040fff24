"""The log's chain (migration m005, `events.link`): old logs are linked on upgrade, appends extend the chain."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from sqlite_utils import Database
from support import new_workbench

from labeler.store import Store
from labeler.store.connection import APPLICATION_ID
from labeler.store.digests import event_link
from labeler.store.event_rows import LOG_HEAD, LOG_LENGTH
from labeler.store.schema import migrations
from labeler.workbench.check import check_workbench
from labeler.workbench.record_judgments import Judgment, record_judgment


def schema_4(path, grades):
    """A workbench at schema 4 (before the chain) holding one grade event per entry of `grades`."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        db = Database(conn)
        migrations().apply(db, stop_before="m005_event_chain")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 4")
        for number, grade in enumerate(grades):
            db.execute(
                "INSERT INTO events (event_id, topic_id, unit, unit_id, kind, grade, assessor, source, time, "
                "clock) VALUES (?, '1', 'doc', ?, 'grade', ?, 'ann', 'human', '2026-01-01T10:00:00+00:00', ?)",
                [f"e{number}", f"d{number}", grade, number + 1],
            )
    return path


def test_an_older_log_is_linked_on_upgrade_and_checks(tmp_path):
    path = schema_4(tmp_path / "old.db", [2, 0, 1])
    with Store(path) as store:
        rows = store.db.execute("SELECT link FROM events ORDER BY seq").fetchall()
        assert all(len(link) == 16 for (link,) in rows)
        assert store.get_meta(LOG_HEAD) == rows[-1][0].hex() and store.get_meta(LOG_LENGTH) == "3"
        assert list(store.log_chain_problems()) == []
        record_judgment(
            store, Judgment(topic_id="1", unit_id="d9", assessor="ann", grade=3, allow_unknown=True)
        )  # the chain goes on
        assert list(store.log_chain_problems()) == [] and store.get_meta(LOG_LENGTH) == "4"
        log = next(c for c in check_workbench(store).checks if c.check == "judgment log")
        assert log.ok, log.findings


def test_each_link_covers_the_previous_link_and_every_field(tmp_path):
    """Recomputed by hand from the stored fields: one link per event, each over the one before."""
    db = tmp_path / "wb.db"
    new_workbench(db)
    with Store(db) as store:
        for unit, grade in (("d1", 2), ("d2", 0)):
            record_judgment(
                store, Judgment(topic_id="1", unit_id=unit, assessor="ann", grade=grade, allow_unknown=True)
            )
        rows = store.db.execute(
            "SELECT link, event_id, topic_id, unit_id, kind, assessor, time, grade, reason, note, source, model, "
            "active_ms, content_hash, judging_order, seed, target, pool, unit, clock FROM events ORDER BY seq"
        ).fetchall()
    first, second = rows
    assert first[0] == event_link(b"", first[1:])
    assert second[0] == event_link(first[0], second[1:])
    assert second[0] != event_link(b"", second[1:])  # the chain, not each event alone
    changed = list(second[1:])
    changed[6] = 1  # the grade
    assert event_link(first[0], changed) != second[0]

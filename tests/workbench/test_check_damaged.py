"""`labeler check` on damaged workbenches: each damage is a specific finding, exit 1, never a traceback.

The workbench is damaged with raw sqlite3, as someone bypassing labeler would:
guards are dropped first where the change needs it, and put back (with their
expected SQL) where the point is that check sees past them. `labeler status`
on a file it cannot read exits 1 with one `Error: path: reason` line.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from full_workbench import CHANGED_DOC, copy_to

from labeler.cli import cli
from labeler.store.guards import expected_guards
from labeler.store.schema import SCHEMA_VERSION


@pytest.fixture
def db(full_bytes: bytes, tmp_path: Path) -> Path:
    return copy_to(full_bytes, tmp_path / "copy")


def invoke(db: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=True)


def assert_clean_exit(result, code: int) -> None:
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{type(result.exception).__name__}: {result.exception}"
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code == code, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"


def sql(db: Path, *statements: str, params: tuple = ()) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for statement in statements:
            conn.execute(statement, params if "?" in statement else ())
    finally:
        conn.close()


def without_guards(db: Path, table: str, *statements: str, params: tuple = ()) -> None:
    """Drop a table's guards, run the statements, put the guards back exactly as labeler makes them."""
    guards = {name: text for name, text in expected_guards().items() if text.split(" ON ")[1].startswith(f"{table} ")}
    sql(db, *(f"DROP TRIGGER {name}" for name in guards), *statements, *guards.values(), params=params)


def first(db: Path, query: str) -> tuple:
    with sqlite3.connect(db) as conn:
        return conn.execute(query).fetchone()


# -- each kind of damage, and the finding it must give -------------------------------------------------------


def guard_dropped(db: Path) -> None:
    sql(db, "DROP TRIGGER events_no_replace")


def guard_made_a_no_op(db: Path) -> None:
    sql(
        db,
        "DROP TRIGGER events_no_update",
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END",
    )


def extra_trigger(db: Path) -> None:
    sql(db, "CREATE TRIGGER events_sneak AFTER INSERT ON events BEGIN SELECT 1; END")


def event_replaced(db: Path) -> None:
    """The event that decided a snapshot label is replaced with another grade; the guards are put back."""
    event_id, grade = first(
        db, "SELECT l.event_id, l.grade FROM snapshot_labels l WHERE l.event_id IS NOT NULL AND l.grade = 0 LIMIT 1"
    )
    columns = [r[1] for r in sqlite3.connect(db).execute("PRAGMA table_info(events)")]
    values = ", ".join("3" if c == "grade" else c for c in columns)
    without_guards(
        db,
        "events",
        f"INSERT OR REPLACE INTO events SELECT {values} FROM events WHERE event_id = ?",
        params=(event_id,),
    )


def unsnapshotted_event_rewritten(db: Path) -> None:
    """The newest event (cited by no snapshot) gets another grade behind the guards, which are put back."""
    without_guards(
        db,
        "events",
        "UPDATE events SET grade = 1 - coalesce(grade, 0) "
        "WHERE seq = (SELECT max(seq) FROM events WHERE kind = 'grade')",
    )


def event_deleted_in_the_middle(db: Path) -> None:
    without_guards(db, "events", "DELETE FROM events WHERE seq = (SELECT min(seq) + 1 FROM events)")


def event_deleted_at_the_end(db: Path) -> None:
    without_guards(db, "events", "DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)")


def event_slipped_in(db: Path) -> None:
    """A plain INSERT of a new event, which the guards allow: it has no place in the chain."""
    sql(
        db,
        "INSERT INTO events (event_id, topic_id, unit, unit_id, kind, grade, assessor, source, time, clock) "
        "SELECT 'forged', topic_id, unit, unit_id, 'grade', 3, 'mallory', 'human', time, clock + 1 "
        "FROM events WHERE seq = (SELECT max(seq) FROM events)",
    )


def snapshot_label_changed(db: Path) -> None:
    without_guards(
        db,
        "snapshot_labels",
        "UPDATE snapshot_labels SET grade = 3 WHERE (topic_id, unit_id) = "
        "(SELECT topic_id, unit_id FROM snapshot_labels WHERE grade = 0 LIMIT 1)",
    )


def chunk_changed(db: Path) -> None:
    without_guards(db, "chunks", "UPDATE chunks SET end = end - 1 WHERE chunk_id = (SELECT min(chunk_id) FROM chunks)")


def document_changed(db: Path) -> None:
    sql(db, f"UPDATE documents SET text = text || ' forged' WHERE doc_id = '{CHANGED_DOC}'")


def grade_off_scale(db: Path) -> None:
    without_guards(db, "events", "UPDATE events SET grade = 7 WHERE seq = (SELECT max(seq) FROM events)")


def ranking_changed(db: Path) -> None:
    without_guards(
        db,
        "run_rankings",
        "UPDATE run_rankings SET units = units || char(10) || 'agri-999' "
        "WHERE topic_id = (SELECT min(topic_id) FROM run_rankings)",
    )


def scale_changed(db: Path) -> None:
    sql(db, "UPDATE meta SET value = replace(value, '\"threshold\": 1', '\"threshold\": 2') WHERE key = 'scale'")


def table_dropped(db: Path) -> None:
    sql(db, "DROP TABLE pool_entries")


def wrong_columns(db: Path) -> None:
    sql(db, "ALTER TABLE topics RENAME COLUMN narrative TO story")


def events_wrong_columns(db: Path) -> None:
    sql(db, "ALTER TABLE events RENAME COLUMN grade TO score")


def truncated(db: Path) -> None:
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 3])


def not_sqlite(db: Path) -> None:
    db.write_text("topic\tunit\tgrade\n1\td1\t2\n" * 200)


def zero_bytes(db: Path) -> None:
    db.write_bytes(b"")


def newer_schema(db: Path) -> None:
    sql(db, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def bad_page(db: Path) -> None:
    """A page in the middle overwritten with noise: SQLite opens it, reading fails part way."""
    data = bytearray(db.read_bytes())
    page = 4096
    middle = (len(data) // page // 2) * page
    data[middle : middle + page] = bytes((i * 37) % 256 for i in range(page))
    db.write_bytes(bytes(data))


DAMAGE = [
    # (damage, the check that must fail, a fragment of its finding)
    (guard_dropped, "append-only guards", "guard events_no_replace is missing"),
    (guard_made_a_no_op, "append-only guards", "guard events_no_update is not the expected trigger"),
    (extra_trigger, "append-only guards", "trigger events_sneak on events is not one of labeler's guards"),
    (event_replaced, "snapshot labels", "which now says"),
    (event_replaced, "judgment log", "does not match its chain link"),
    (unsnapshotted_event_rewritten, "judgment log", "does not match its chain link"),
    (event_deleted_in_the_middle, "judgment log", "does not match its chain link"),
    (event_deleted_at_the_end, "judgment log", "events were removed from its end"),
    (event_slipped_in, "judgment log", "event forged (seq"),
    (snapshot_label_changed, "snapshot hashes", "labels hash to"),
    (chunk_changed, "chunkings", "chunking w100: its stored chunks differ from those recorded at creation"),
    (document_changed, "documents", f"document {CHANGED_DOC}: its text hashes to"),
    (grade_off_scale, "grades", "grade 7 is not on the scale"),
    (ranking_changed, "runs", "its stored rankings differ from those recorded at import"),
    (scale_changed, "grade scale", "the scale hashes to"),
    (table_dropped, "schema", "table pool_entries is missing"),
    (wrong_columns, "schema", "table topics has columns"),
    (events_wrong_columns, "schema", "table events has columns"),
    (truncated, None, ""),  # which check fails depends on where the cut falls; one must
    (not_sqlite, "file", "not a SQLite database"),
    (zero_bytes, "file", "never initialised"),
    (newer_schema, "file", f"written by a newer labeler (schema {SCHEMA_VERSION + 1}"),
    (bad_page, None, ""),
]


@pytest.mark.parametrize(("damage", "check", "fragment"), DAMAGE, ids=[f"{d[0].__name__}-{d[1]}" for d in DAMAGE])
def test_check_reports_each_damage(db, damage, check, fragment):
    damage(db)
    result = invoke(db, "check", "--json")
    assert_clean_exit(result, 1)
    report = json.loads(result.stdout)
    assert report["ok"] is False
    failed = [c for c in report["checks"] if not c["ok"]]
    assert failed and all(c["problems"] == len(c["findings"]) and c["detail"] for c in failed)
    assert set(report["checks"][0]) >= {"check", "ok", "detail", "problems"}  # the documented shape, extended
    if check is not None:
        entry = next((c for c in report["checks"] if c["check"] == check), None)
        assert entry is not None and not entry["ok"], report["findings"]
        assert any(fragment in finding for finding in entry["findings"]), entry["findings"]
        assert any(f.startswith(f"{check}: ") and fragment in f for f in report["findings"])
    text = invoke(db, "check")
    assert_clean_exit(text, 1)
    lines = [line for line in text.stdout.splitlines() if line.startswith("FAILED ")]
    assert lines and all(f"FAILED {finding}" in text.stdout for finding in report["findings"])
    if check is not None:
        assert any(check in line and fragment in line for line in lines), text.stdout


def test_check_passes_on_a_healthy_workbench(db):
    result = invoke(db, "check", "--json")
    assert_clean_exit(result, 0)
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["findings"] == []
    assert {c["check"] for c in report["checks"]} >= {
        "schema",
        "append-only guards",
        "grades",
        "grade scale",
        "snapshot hashes",
        "snapshot labels",
        "chunkings",
        "documents",
        "runs",
    }
    assert "FAILED" not in invoke(db, "check").stdout


def test_check_changes_nothing(db):
    """Read-only: a damaged or older file is never upgraded or repaired by checking it."""
    guard_dropped(db)
    before = db.read_bytes()
    invoke(db, "check")
    assert db.read_bytes() == before


STATUS_DAMAGE = [
    (truncated, "cannot be read as a workbench"),
    (not_sqlite, "not a SQLite database"),
    (zero_bytes, "not initialised"),
    (newer_schema, "written by a newer labeler"),
    (table_dropped, "cannot be read as a workbench (no such table: pool_entries)"),
    (events_wrong_columns, "cannot be read as a workbench (no such column"),
]


@pytest.mark.parametrize(("damage", "fragment"), STATUS_DAMAGE, ids=[d[0].__name__ for d in STATUS_DAMAGE])
def test_status_on_a_damaged_file_is_one_error_line(db, damage, fragment):
    damage(db)
    result = invoke(db, "status")
    assert_clean_exit(result, 1)
    assert result.stderr.startswith(f"Error: {db}: "), result.stderr
    assert fragment in result.stderr and result.stderr.count("\n") == 1, result.stderr

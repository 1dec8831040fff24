"""Append-only means append-only: every immutable table refuses UPDATE, DELETE and REPLACE, whatever the pragmas.

`INSERT OR REPLACE` deletes the old row and inserts a new one without firing
delete triggers (unless `recursive_triggers` is on), so the guards include a
BEFORE INSERT trigger on an existing key. The rows are tampered with through
raw sqlite3, as someone bypassing labeler would.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from full_workbench import copy_to
from support import Cli

from labeler.store import Store
from labeler.store.guards import IMMUTABLE_KEYS, expected_guards
from labeler.store.schema import SCHEMA_VERSION
from labeler.workbench.check import check_file

GUARDED = (*IMMUTABLE_KEYS, "run_rankings")


@pytest.fixture
def db(full_bytes: bytes, tmp_path: Path) -> Path:
    return copy_to(full_bytes, tmp_path / "copy")


def connect(db: Path, *, recursive_triggers: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute(f"PRAGMA recursive_triggers = {'ON' if recursive_triggers else 'OFF'}")
    return conn


ANSWER_ROWS = {  # rows of the answer tables, written as an import and a snapshot would, where the workbench has none
    "answer_runs": "INSERT INTO answer_runs VALUES (1, 'rag', 'a.jsonl', '00', 'trec-rag-2024', 'doc', '2026-01-01')",
    "answers": "INSERT INTO answers VALUES (1, '1', 1, NULL, NULL, '[]', '[]', '{}')",
    "answer_retirements": "INSERT INTO answer_retirements VALUES (1, '2026-01-02', 'old')",
    "snapshot_nuggets": "INSERT INTO snapshot_nuggets VALUES (1, '1', 'n1', 'vital', 1, 'A fact', 'written', 'e1')",
    "snapshot_answer_labels": "INSERT INTO snapshot_answer_labels VALUES (1, 'nugget:rag', '1', 'n1', 2, 'e2')",
}


def first_row(conn: sqlite3.Connection, table: str) -> tuple[list[str], tuple]:
    if table in ANSWER_ROWS and not conn.execute(f"SELECT 1 FROM {table}").fetchone():
        conn.execute(ANSWER_ROWS[table])
    cursor = conn.execute(f"SELECT * FROM {table} LIMIT 1")
    row = cursor.fetchone()
    assert row is not None, f"the workbench holds no {table} row to tamper with"
    return [d[0] for d in cursor.description], row


def table_dump(conn: sqlite3.Connection, table: str) -> list[tuple]:
    return conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()


def tamperings(table: str, columns: list[str], row: tuple) -> dict[str, tuple[str, tuple]]:
    """Each way of rewriting the first row: the same row again, so only a guard can refuse it."""
    marks = ", ".join("?" * len(columns))
    names = ", ".join(columns)
    key = columns[0]
    return {
        "update": (f"UPDATE {table} SET {key} = {key}", ()),
        "delete": (f"DELETE FROM {table}", ()),
        "insert or replace": (f"INSERT OR REPLACE INTO {table} ({names}) VALUES ({marks})", row),
        "replace": (f"REPLACE INTO {table} ({names}) VALUES ({marks})", row),
    }


@pytest.mark.parametrize("recursive_triggers", [False, True], ids=["recursive_triggers off", "recursive_triggers on"])
@pytest.mark.parametrize("how", ["update", "delete", "insert or replace", "replace"])
@pytest.mark.parametrize("table", GUARDED)
def test_every_immutable_table_refuses_rewriting(db, table, how, recursive_triggers):
    conn = connect(db, recursive_triggers=recursive_triggers)
    columns, row = first_row(conn, table)
    before = table_dump(conn, table)
    sql, params = tamperings(table, columns, row)[how]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute(sql, params)
    assert table_dump(conn, table) == before


@pytest.mark.parametrize(
    ("table", "unique"), [("events", "event_id"), ("snapshots", "name"), ("pools", "name"), ("chunkings", "name")]
)
def test_replace_on_a_unique_name_is_refused_too(db, table, unique):
    """REPLACE also deletes a row that collides on a UNIQUE column, under a new primary key."""
    conn = connect(db, recursive_triggers=False)
    columns, row = first_row(conn, table)
    values = dict(zip(columns, row, strict=True))
    values[columns[0]] = conn.execute(f"SELECT max({columns[0]}) + 100 FROM {table}").fetchone()[0]
    before = table_dump(conn, table)
    with pytest.raises(sqlite3.IntegrityError, match="cannot be replaced"):
        conn.execute(
            f"INSERT OR REPLACE INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
            list(values.values()),
        )
    assert table_dump(conn, table) == before


def test_a_sealed_run_row_cannot_be_changed_or_unsealed(db):
    conn = connect(db, recursive_triggers=False)
    for sql in ("UPDATE runs SET entries = entries + 1", "UPDATE runs SET rankings_sha256 = NULL"):
        with pytest.raises(sqlite3.IntegrityError, match="sealed run"):
            conn.execute(sql)


def test_ordinary_writes_still_work(db, tmp_path):
    """New rows in every guarded table: a judgment, a snapshot, a pool, a chunking, a run replaced whole."""
    cli = Cli(db)
    cli("judgments", "add", "1", "agri-002", "1", "--assessor", "bob")
    cli("snapshot", "create", "-m", "after bob", "--unit", "doc")
    cli("pool", "build", "--depth", "5", "--unit", "doc")
    cli("corpus", "chunk", "--name", "w50", "--size", "50", "--chunk-overlap", "0")
    run = tmp_path / "split.run"  # topic 1's lines stand apart: the import rewrites its ranking before sealing
    run.write_text("1 Q0 agri-001 1 3.0 r\n2 Q0 agri-002 1 2.0 r\n1 Q0 agri-003 2 1.0 r\n")
    cli("runs", "import", run, "--name", "split")
    assert cli.json("runs", "list")  # listed
    cli("runs", "import", run, "--name", "split", "--replace")  # a sealed run is replaced whole
    with Store(db) as store:
        assert store.ranked_units("split") == {"1": ["agri-001", "agri-003"], "2": ["agri-002"]}
    assert check_file(db).ok is True


def test_an_older_workbench_gets_the_guards_and_digests_when_opened(db):
    """A workbench made before m004: no REPLACE guards, no digests; opening it upgrades it."""
    new = [name for name in expected_guards() if name.endswith("_no_replace") or name.startswith("run")]
    with sqlite3.connect(db) as conn:
        for name in new:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("ALTER TABLE runs DROP COLUMN rankings_sha256")
        conn.execute("ALTER TABLE chunkings DROP COLUMN chunks_sha256")
        conn.execute("DELETE FROM meta WHERE key = 'scale_sha256'")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm004_replace_guards'")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
        conn.execute("INSERT OR REPLACE INTO pool_entries SELECT * FROM pool_entries LIMIT 1")  # allowed back then
    assert check_file(db).ok is False  # checked read-only: reported as older, not upgraded
    Store(db).close()
    assert check_file(db).ok is True
    conn = connect(db, recursive_triggers=False)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("INSERT OR REPLACE INTO events SELECT * FROM events LIMIT 1")


def test_the_schema_makes_exactly_the_guards_check_expects():
    """One text: the migrations create each guard as `labeler.store.guards` spells it."""
    from labeler.store.check_rows import reference_triggers

    made = reference_triggers()
    assert {name: made.get(name) for name in expected_guards()} == expected_guards()

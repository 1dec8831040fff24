"""The workbench file: schema version, pragmas, and tables SQLite itself keeps immutable."""

from __future__ import annotations

import sqlite3

import pytest

from labeler.errors import Hint, NotFoundError, SchemaVersionError, argument_hint
from labeler.models import Chunk, Chunking
from labeler.store import Store
from labeler.store.schema import SCHEMA_VERSION


def test_a_new_workbench_uses_wal_and_foreign_keys(db_path):
    with Store(db_path) as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_workbench_from_a_newer_labeler_is_refused_untouched(db_path):
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = db_path.read_bytes()
    with pytest.raises(SchemaVersionError, match=r"newer labeler \(schema \d+; this labeler knows up to \d+\)"):
        Store(db_path)
    assert db_path.read_bytes() == before


def test_a_foreign_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE something (x)")
    with pytest.raises(SchemaVersionError, match="not a labeler workbench"):
        Store(path)


def test_a_text_file_is_not_a_workbench(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("hello, this is not SQLite at all " * 40)
    with pytest.raises(SchemaVersionError, match="not a SQLite database"):
        Store(path)


def test_a_missing_workbench_says_to_initialise_one(tmp_path):
    with pytest.raises(NotFoundError, match="no workbench here$") as refused:
        Store(tmp_path / "nothing.db")
    assert refused.value.hints == (Hint("init_workbench"), argument_hint("db", why="to open another workbench"))


def test_chunks_and_chunkings_cannot_be_changed(db_path):
    with Store(db_path) as store:
        with store.transaction():
            chunking_id = store.next_chunking_id()
            store.insert_chunks(chunking_id, [(0, Chunk("d#0", "d", 0, 5, "h"))])
            store.insert_chunking(Chunking("c", "imported", {}, "hash", "now", 1, 1), chunking_id=chunking_id)
        for sql in (
            "UPDATE chunks SET doc_id = 'x'",
            "DELETE FROM chunks",
            "UPDATE chunkings SET name = 'y'",
            "DELETE FROM chunkings",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                store.db.execute(sql)


def test_a_failed_transaction_leaves_nothing(db_path):
    with Store(db_path) as store:
        with pytest.raises(RuntimeError), store.transaction():
            store.set_meta("probe", "1")
            raise RuntimeError("boom")
        assert store.get_meta("probe") is None

"""Staging a pool's entries in a TEMP table, then copying them in one short write transaction."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.models import PoolInfo
from labeler.pooling import PoolEntry
from labeler.store import Store
from labeler.store.connection import WorkbenchWriteError
from labeler.workbench.init import init_workbench

INFO = PoolInfo("P1", "depth", 5, {"run_depths": {}}, ("A", "B"), "doc", "2024-01-01T00:00:00", 0)

ids = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\t\n"), min_size=1, max_size=6
)
entries = st.dictionaries(
    st.tuples(ids, ids),
    st.tuples(
        st.integers(1, 1000),
        st.lists(st.tuples(st.sampled_from(["A", "B", "run c"]), st.integers(1, 1000)), min_size=1, max_size=3),
        st.floats(0, 10, allow_nan=False) | st.sampled_from([0.0, 1.0, 2.0, 1 / 61]),
    ),
    max_size=30,
).map(
    lambda rows: [PoolEntry(t, u, best, tuple(contributors), rrf) for (t, u), (best, contributors, rrf) in rows.items()]
)


@pytest.fixture(scope="module")
def empty_workbench(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("template") / "wb.db"
    init_workbench(path)
    return path


def stage_and_copy(store: Store, pool: list[PoolEntry], batch: int = 10_000) -> None:
    with store.pool_staging():
        for start in range(0, len(pool), batch):
            store.stage_pool_entries(pool[start : start + batch])
        with store.transaction():
            store.insert_staged_pool(1, replace(INFO, pairs=len(pool)))


@settings(max_examples=60, deadline=None)
@given(pool=entries, batch=st.integers(1, 7))
def test_staged_entries_come_back_exactly_as_given(empty_workbench, pool, batch):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "wb.db"
        shutil.copy(empty_workbench, path)
        with Store(path) as store:
            stage_and_copy(store, pool, batch)
            assert store.db.execute("SELECT name FROM temp.sqlite_master").fetchall() == []
            stored = store.pool_entries("P1")
            assert store.pool("P1") == replace(INFO, pairs=len(pool))
    assert {(e.topic_id, e.unit_id): e for units in stored.values() for e in units.values()} == {
        (e.topic_id, e.unit_id): e for e in pool
    }


def test_staging_takes_no_lock_on_the_workbench(db_path, monkeypatch):
    from labeler.store import connection

    monkeypatch.setattr(connection, "BUSY_TIMEOUT_SECONDS", 0.2)
    entry = PoolEntry("1", "d1", 1, (("A", 1),), 1 / 61)
    with Store(db_path) as store:
        other = sqlite3.connect(db_path, isolation_level=None, timeout=0.1)
        other.execute("BEGIN IMMEDIATE")  # an annotator's judgment holds the write lock
        try:
            with store.pool_staging():
                store.stage_pool_entries([entry])
                assert store.db.execute("SELECT count(*) FROM temp.pool_staging").fetchone()[0] == 1
                # and while the staging table is filled, the annotator commits
                other.execute("INSERT INTO meta (key, value) VALUES ('x', 'y')")
                other.execute("COMMIT")
                other.execute("BEGIN IMMEDIATE")
                store.stage_pool_entries([PoolEntry("1", "d2", 2, (("A", 2),), 1 / 62)])
                with pytest.raises(WorkbenchWriteError, match="busy"):  # only the final copy waits
                    with store.transaction():
                        store.insert_staged_pool(1, replace(INFO, pairs=2))
                other.execute("ROLLBACK")
                with store.transaction():
                    store.insert_staged_pool(1, replace(INFO, pairs=2))
        finally:
            other.close()
        assert [(e.unit_id, e.best_rank) for e in store.pool_entries("P1")["1"].values()] == [("d1", 1), ("d2", 2)]


def test_a_topic_of_a_pool_is_read_alone(db_path):
    pool = [PoolEntry(t, u, 1, (("A", 1),), 0.5) for t in ("1", "10", "2") for u in ("x", "y")]
    with Store(db_path) as store:
        stage_and_copy(store, pool)
        assert store.pool_topic_units("P1", "10") == {"x", "y"}
        assert store.pool_topic_units("P1", "3") == set()

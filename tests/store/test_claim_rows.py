"""The claims table is local state: `check` accepts it, `backup` and `merge` never carry a lease."""

from __future__ import annotations

import shutil

from labeler.store import Store
from labeler.workbench.check import check_workbench
from labeler.workbench.team import backup, merge


def _claimed(db):
    with Store(db) as store:
        with store.transaction():
            store.put_claim("doc", "1", "d1", "ann", 1, 2**62)
            store.put_claim("doc", "1", "d2", "bob", 1, 5)  # long expired
        return store


def _rows(db):
    with Store(db) as store:
        return store.db.execute("SELECT topic_id, unit_id, assessor FROM claims ORDER BY unit_id").fetchall()


def test_check_accepts_claims_renewed_and_deleted(db_path):
    _claimed(db_path)
    with Store(db_path) as store:
        with store.transaction():
            store.put_claim("doc", "1", "d1", "ann", 9, 2**62 + 1)  # a renewal replaces the row
            assert store.delete_claim("doc", "1", "d2", "bob")
        assert store.db.execute("SELECT claimed, lease_until FROM claims").fetchall() == [(1, 2**62 + 1)]
        assert check_workbench(store).ok, check_workbench(store).findings


def test_live_claims_ignore_ended_leases(db_path):
    _claimed(db_path)
    with Store(db_path) as store:
        assert store.live_claims("doc", 10) == {("1", "d1"): {"ann"}}
        with store.transaction():
            assert store.drop_expired_claims(10) == 1
    assert _rows(db_path) == [("1", "d1", "ann")]


def test_a_backup_holds_no_claims(db_path, tmp_path):
    _claimed(db_path)
    with Store(db_path) as store:
        result = backup(store, tmp_path / "copy.db")
    assert result.ok
    assert _rows(tmp_path / "copy.db") == []
    assert len(_rows(db_path)) == 2  # the workbench keeps its own


def test_a_merge_brings_no_claims(db_path, tmp_path):
    other = tmp_path / "other.db"
    shutil.copy(db_path, other)
    _claimed(other)
    with Store(db_path) as store:
        merge(store, other)
    assert _rows(db_path) == []

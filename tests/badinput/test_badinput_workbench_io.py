"""The workbench file itself on a machine that says no: a missing folder, a read-only file, a full disk.

Each is one `Error: path: reason` line and exit 1, never a traceback, and the workbench as it was.
"""

from __future__ import annotations

import sqlite3

import pytest
from badinput_support import Unchanged, assert_refused, invoke

import labeler.store as store_package
import labeler.store.connection as connection
from labeler.store import Store


def test_init_in_a_folder_that_does_not_exist(tmp_path):
    db = tmp_path / "nowhere" / "wb.db"
    result = invoke(db, ["init"])
    assert_refused(result, db, None, "cannot open the workbench (unable to open database file)")
    assert not db.parent.exists()


def test_a_workbench_inside_a_file_is_no_workbench(tmp_path):
    (tmp_path / "file").write_text("x")
    db = tmp_path / "file" / "wb.db"
    assert_refused(invoke(db, ["status"]), db, None, "no workbench here")


def read_only(monkeypatch) -> None:
    """Every connection opened as SQLite opens a file it may not write (what a read-only mount gives)."""
    original = connection.connect

    def connect(path, *, readonly=False):
        return original(path, readonly=True)

    monkeypatch.setattr(store_package, "connect", connect)  # the name Store opens its file with


@pytest.mark.parametrize(
    "args",
    [
        ["judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown"],
        ["topics", "mark", "1", "reviewed", "--assessor", "ann"],
        ["pool", "build", "--depth", "1"],
        ["snapshot", "create", "-m", "m"],
    ],
    ids=["judgments add", "topics mark", "pool build", "snapshot create"],
)
def test_writing_a_read_only_workbench_is_one_line(workbench, monkeypatch, args):
    with Unchanged(workbench):
        read_only(monkeypatch)
        result = invoke(workbench, args)
        monkeypatch.undo()
        Store(workbench).close()  # a read-only connection cannot remove the -wal/-shm it made; this one does
    assert_refused(result, workbench, None, "the workbench is read-only: nothing was written")


def test_a_full_disk_while_judging_is_one_line_and_writes_nothing(workbench, monkeypatch):
    from labeler.store import event_rows

    def full(self, rows):
        raise sqlite3.OperationalError("database or disk is full")

    with Unchanged(workbench):
        monkeypatch.setattr(event_rows.EventRows, "_linked", full)
        result = invoke(workbench, ["judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown"])
    assert_refused(result, workbench, None, "the disk is full: nothing was written")


def test_a_sqlite_error_that_is_not_the_machine_is_not_hidden(workbench, monkeypatch):
    """Only the machine's failures are mapped; anything else stays an error a developer sees."""
    from labeler.store import event_rows

    def broken(self, rows):
        raise sqlite3.OperationalError("no such column: frobnicate")

    monkeypatch.setattr(event_rows.EventRows, "_linked", broken)
    result = invoke(workbench, ["judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown"])
    assert isinstance(result.exception, sqlite3.OperationalError)

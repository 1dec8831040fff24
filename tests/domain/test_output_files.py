"""The output rule (labeler/output_files.py) on its own: what it refuses, and that a failure leaves no trace."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

import labeler.output_files
from labeler.errors import LabelerError
from labeler.output_files import OutputExistsError, check_output, open_output, output_file, write_output


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or ".tmp-" in p.name)


def test_a_new_file_is_written_whole(tmp_path):
    written = write_output(tmp_path / "q.txt", ["1 0 d1 2\n", "1 0 d2 0\n"])
    assert (tmp_path / "q.txt").read_text() == "1 0 d1 2\n1 0 d2 0\n"
    assert (written.bytes, written.replaced) == (18, False)
    assert leftovers(tmp_path) == []


def test_text_keeps_its_newlines_and_is_utf8(tmp_path):
    with open_output(tmp_path / "t.txt") as handle:
        handle.write("é\n")
    assert (tmp_path / "t.txt").read_bytes() == "é\n".encode()


def test_an_existing_file_needs_force_and_is_then_replaced(tmp_path):
    target = tmp_path / "q.txt"
    target.write_text("old\n")
    with pytest.raises(OutputExistsError, match="exists already"):
        write_output(target, "new\n")
    assert target.read_text() == "old\n"
    assert write_output(target, "new\n", force=True).replaced
    assert target.read_text() == "new\n"


@pytest.mark.parametrize("interruption", [RuntimeError("a bug"), KeyboardInterrupt()], ids=["exception", "ctrl-c"])
def test_a_failure_mid_write_keeps_the_old_file_and_removes_the_temporary_one(tmp_path, interruption):
    target = tmp_path / "q.txt"
    target.write_text("old and whole\n")

    def lines():
        yield "1 0 d1 2\n"
        raise interruption

    with pytest.raises(type(interruption)):
        write_output(target, lines(), force=True)
    assert target.read_text() == "old and whole\n"
    assert leftovers(tmp_path) == []


def test_a_full_disk_is_a_labeler_error_naming_the_path(tmp_path, monkeypatch):
    def full(path):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(labeler.output_files, "_fsync", full)
    with pytest.raises(LabelerError) as caught:
        write_output(tmp_path / "q.txt", "x\n")
    assert caught.value.path == str(tmp_path / "q.txt")
    assert caught.value.reason == "cannot write: no space left on the device; nothing was written"
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_appears_while_writing_is_not_clobbered(tmp_path):
    """Checked free, then someone else creates it: the hard-link install refuses instead of replacing."""
    target = tmp_path / "q.txt"
    with pytest.raises(OutputExistsError, match="appeared while labeler was writing"):
        with open_output(target) as handle:
            handle.write("mine\n")
            target.write_text("theirs\n")
    assert target.read_text() == "theirs\n"
    assert leftovers(tmp_path) == []


def test_a_symlink_that_appears_while_forcing_is_replaced_not_followed(tmp_path):
    """os.replace swaps the name: the file the link points to is never written."""
    target, victim = tmp_path / "q.txt", tmp_path / "victim.txt"
    target.write_text("old\n")
    victim.write_text("precious\n")
    with pytest.raises(LabelerError, match="no longer a regular file"):
        with open_output(target, force=True) as handle:
            handle.write("new\n")
            target.unlink()
            target.symlink_to(victim)
    assert victim.read_text() == "precious\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("name", ["wb.db", "wb.db-wal", "wb.db-shm", "wb.db-journal"])
def test_the_workbench_and_its_companions_are_refused_even_with_force(tmp_path, name):
    db = tmp_path / "wb.db"
    db.write_bytes(b"SQLite format 3\0")
    with pytest.raises(LabelerError, match="workbench") as caught:
        check_output(tmp_path / name, workbench=db, force=True)
    assert not isinstance(caught.value, OutputExistsError)  # no "replace it?" for the workbench


def test_a_link_to_the_workbench_is_the_workbench(tmp_path, monkeypatch):
    db = tmp_path / "wb.db"
    db.write_bytes(b"x")
    os.link(db, tmp_path / "hard.db")
    (tmp_path / "soft.db").symlink_to(db)
    monkeypatch.chdir(tmp_path)
    for given in ("hard.db", "soft.db", "./wb.db", str(db)):
        with pytest.raises(LabelerError, match="is the workbench"):
            check_output(given, workbench="wb.db", force=True)


def test_output_file_removes_what_sqlite_left_beside_a_failed_copy(tmp_path):
    target = tmp_path / "copy.db"
    with pytest.raises(RuntimeError):
        with output_file(target) as temporary:
            Path(f"{temporary}-journal").write_text("half a transaction")
            raise RuntimeError("the copy failed")
    assert list(tmp_path.iterdir()) == []


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_the_umask(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text("x")
    old.chmod(0o600)
    write_output(old, "y", force=True)
    assert old.stat().st_mode & 0o777 == 0o600
    mask = os.umask(0o027)
    try:
        write_output(tmp_path / "new.txt", "z")
    finally:
        os.umask(mask)
    assert (tmp_path / "new.txt").stat().st_mode & 0o777 == 0o640

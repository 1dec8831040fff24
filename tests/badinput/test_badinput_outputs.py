"""Output paths that must be refused: every command that writes a file, every way a path can hurt.

`export qrels -o wb.db` and `report --html wb.db` on the open workbench exited 0 and destroyed it;
`export log -o wb.db` truncated it, then failed. Each case here gives a writing command a
bad destination and asserts exit 1, one `Error: path: reason` line, no traceback, a byte-identical
workbench, an untouched destination and no temporary file left behind.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from badinput_support import Unchanged, assert_refused, dump, invoke

from labeler.store import Store

# The writing commands, with the bad path in place of {out}.
WRITERS = {
    "export qrels": ["export", "qrels", "-o", "{out}"],
    "report": ["report", "--html", "{out}"],
    "export-log": ["export", "log", "-o", "{out}"],
    "backup": ["backup", "{out}"],
}


def args_of(writer: str, out: Path | str, *extra: str) -> list[str]:
    return [part.format(out=out) for part in WRITERS[writer]] + list(extra)


def state(path: Path):
    """What is at `path`, without following a link: so a test can tell that nothing there changed."""
    if not os.path.lexists(path):
        return None
    if path.is_symlink():
        target = Path(os.path.realpath(path))
        return ("link", os.readlink(path), state(target) if target != path else None)
    if path.is_dir():
        return ("folder", sorted(p.name for p in path.iterdir()))
    if path.is_fifo() or path.is_char_device() or path.is_block_device():
        return ("special", path.stat().st_mode, path.stat().st_ino)
    return ("file", hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)


def temporary_files(*folders: Path) -> list[Path]:
    return [p for folder in folders if folder.is_dir() for p in folder.iterdir() if p.name.endswith(".tmp")]


# Each bad destination: how to make it (given the workbench and a scratch folder), and the reason's fragment.
def _workbench(db, out):
    return db


def _wal(db, out):
    return Path(f"{db}-wal")


def _shm(db, out):
    return Path(f"{db}-shm")


def _journal(db, out):
    return Path(f"{db}-journal")


def _dotdot(db, out):
    (db.parent / "sub").mkdir()
    return db.parent / "sub" / ".." / db.name


def _symlink_to_workbench(db, out):
    (out / "wb-link.db").symlink_to(db)
    return out / "wb-link.db"


def _hard_link_to_workbench(db, out):
    os.link(db, out / "wb-hard.db")
    return out / "wb-hard.db"


def _existing(db, out):
    (out / "existing.txt").write_text("keep me\n")
    return out / "existing.txt"


def _symlink_to_file(db, out):
    (out / "elsewhere.txt").write_text("keep me\n")
    (out / "link.txt").symlink_to(out / "elsewhere.txt")
    return out / "link.txt"


def _dangling_symlink(db, out):
    (out / "dangling.txt").symlink_to(out / "not-there-yet.txt")
    return out / "dangling.txt"


def _folder(db, out):
    (out / "a-folder").mkdir()
    return out / "a-folder"


def _missing_folder(db, out):
    return out / "no-such-folder" / "out.txt"


def _under_a_file(db, out):
    (out / "plain.txt").write_text("x\n")
    return out / "plain.txt" / "out.txt"


def _fifo(db, out):
    os.mkfifo(out / "pipe")
    return out / "pipe"


def _dev_null(db, out):
    return Path("/dev/null")


def _read_only_folder(db, out):
    folder = out / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    if os.access(folder, os.W_OK):  # root ignores permissions: this case cannot be made here
        folder.chmod(0o700)
        pytest.skip("running as root: a read-only folder is writable (see the simulated EROFS case)")
    return folder / "out.txt"


BAD_OUTPUTS = [
    # (id, make, fragment, with --force): --force must not rescue any of them
    ("the workbench", _workbench, "is the workbench", True),
    ("its -wal", _wal, "is the workbench's -wal file", True),
    ("its -shm", _shm, "is the workbench's -shm file", True),
    ("its -journal", _journal, "is the workbench's -journal file", True),
    ("the workbench by sub/..", _dotdot, "is the workbench", True),
    ("a symlink to the workbench", _symlink_to_workbench, "is the workbench", True),
    ("a hard link to the workbench", _hard_link_to_workbench, "is the workbench", True),
    (
        "an existing file without --force",
        _existing,
        "exists already: choose a new file (pass --force to replace it)",
        False,
    ),
    ("a symlink at the destination", _symlink_to_file, "is a symbolic link", True),
    ("a dangling symlink", _dangling_symlink, "is a symbolic link", True),
    ("a folder", _folder, "is a folder", True),
    ("a missing folder", _missing_folder, "no such folder", True),
    ("a path under a file", _under_a_file, "a part of the path is not a folder", True),
    ("a FIFO", _fifo, "is a named pipe (FIFO)", True),
    ("/dev/null", _dev_null, "is a device", True),
    ("a read-only folder", _read_only_folder, "permission denied", True),
]


@pytest.mark.parametrize("writer", list(WRITERS))
@pytest.mark.parametrize(
    ("make", "fragment", "force"), [row[1:] for row in BAD_OUTPUTS], ids=[row[0] for row in BAD_OUTPUTS]
)
def test_a_bad_output_path_is_refused_and_nothing_changes(workbench, tmp_path, writer, make, fragment, force):
    out = tmp_path / "out"
    out.mkdir()
    destination = make(workbench, out)
    before = state(destination)
    elsewhere = state(out / "not-there-yet.txt")
    with Unchanged(workbench):
        result = invoke(workbench, args_of(writer, destination, *(["--force"] if force else [])))
    assert_refused(result, destination, None, fragment)
    assert state(destination) == before
    assert state(out / "not-there-yet.txt") == elsewhere  # a dangling link's target was not created
    assert temporary_files(out, workbench.parent, destination.parent) == []


# -- the regression cases, on a workbench with labels worth losing ------------------------


@pytest.fixture
def labelled(workbench):
    """The baseline plus a judgment and a snapshot (so export qrels and report have something to write)."""
    for args in (
        ["judgments", "add", "1", "x1", "2", "--assessor", "ann", "--allow-unknown"],
        ["snapshot", "create", "-m", "first"],
    ):
        result = invoke(workbench, args)
        assert result.exit_code == 0, result.stderr
    return workbench


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_read_only_file_system_is_an_error_not_a_traceback(labelled, tmp_path, writer, monkeypatch):
    """Simulated (EROFS where the temporary file is made): root can't be denied a folder, a mount is needed."""
    import labeler.output_files

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(labeler.output_files.tempfile, "mkstemp", read_only)
    destination = tmp_path / "out.txt"
    with Unchanged(labelled):
        result = invoke(labelled, args_of(writer, destination))
    assert_refused(result, destination, None, "cannot write: read-only file system; nothing was written")
    assert not destination.exists()


@pytest.mark.parametrize("writer", ["export qrels", "report", "export-log"])
@pytest.mark.parametrize("force", [False, True])
def test_writing_over_the_open_workbench_is_refused(labelled, writer, force):
    with Unchanged(labelled):
        result = invoke(labelled, args_of(writer, labelled, *(["--force"] if force else [])))
    assert_refused(result, labelled, None, "is the workbench")


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_the_live_wal_and_shm_of_a_workbench_in_use_are_refused(labelled, writer, suffix):
    """Another process has the workbench open: its -wal and -shm exist, and hold what a checkpoint needs."""
    before = dump(labelled)
    with Store(labelled) as other:
        other.db.execute("SELECT count(*) FROM events").fetchall()
        target = Path(f"{labelled}{suffix}")
        assert target.exists()
        content = target.read_bytes() if suffix == "-wal" else None
        result = invoke(labelled, args_of(writer, target, "--force"))
        assert_refused(result, target, None, f"is the workbench's {suffix} file")
        if content is not None:
            assert target.read_bytes() == content
    assert dump(labelled) == before


def test_export_qrels_to_a_new_file_then_force_replaces_it_whole(labelled, tmp_path):
    target = tmp_path / "qrels.txt"
    first = invoke(labelled, ["export", "qrels", "-o", target])
    assert first.exit_code == 0, first.stderr
    assert target.read_text() == "1 0 x1 2\n"
    target.write_text("an older export, much longer than the new one\n" * 100)
    target.chmod(0o640)
    with Unchanged(labelled):
        again = invoke(labelled, ["export", "qrels", "-o", target, "--force"])
    assert again.exit_code == 0, again.stderr
    assert target.read_text() == "1 0 x1 2\n"  # replaced, not overwritten in place: no tail of the old file
    assert target.stat().st_mode & 0o777 == 0o640  # a replaced file keeps its permissions
    assert temporary_files(tmp_path) == []


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_failure_mid_write_leaves_the_old_file_and_no_temporary_file(labelled, tmp_path, writer, monkeypatch):
    """A full disk when the data is flushed: the old file stays as it was, whole."""
    import labeler.output_files

    def disk_full(path):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(labeler.output_files, "_fsync", disk_full)
    target = tmp_path / "existing.out"
    target.write_bytes(b"the old content\n")
    before = state(target)
    with Unchanged(labelled):
        result = invoke(labelled, args_of(writer, target, "--force"))
    assert_refused(result, target, None, "cannot write: no space left on the device; nothing was written")
    assert state(target) == before
    assert temporary_files(tmp_path) == []


def test_backup_force_replaces_an_older_backup_with_a_checked_copy(labelled, tmp_path):
    target = tmp_path / "backup.db"
    assert invoke(labelled, ["backup", target]).exit_code == 0
    invoke(labelled, ["judgments", "add", "1", "x2", "1", "--assessor", "ann", "--allow-unknown"])
    refused = invoke(labelled, ["backup", target])
    assert_refused(refused, target, None, "exists already")
    result = invoke(labelled, ["backup", target, "--force"])
    assert result.exit_code == 0, result.stderr
    with closing(sqlite3.connect(target)) as copy:
        assert copy.execute("SELECT count(*) FROM events").fetchone() == (2,)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == ["backup.db"]
    assert temporary_files(tmp_path) == []


def test_export_log_to_a_new_file(labelled, tmp_path):
    target = tmp_path / "log.jsonl"
    result = invoke(labelled, ["export", "log", "-o", target])
    assert result.exit_code == 0, result.stderr
    assert target.read_text().count("\n") == 1
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask

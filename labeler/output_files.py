"""The one rule for every file labeler writes: never clobber.

An output path is user input. Handed the open workbench (or its `-wal`/`-shm`),
`export qrels -o` destroyed every judgment; handed a symlink, a write lands
wherever the link points; a failure halfway left a truncated file. So every
writer goes through here:

- never the workbench, its `-wal`, `-shm` or `-journal`, by path or by file
  identity (a hard link or a symlink to it is the same file);
- never an existing file unless `force`; never a symlink, even with `force`
  (the link is not followed: the caller is told to name the real file);
- never a folder, a named pipe or a device;
- written to a temporary file in the destination's folder, flushed to disk and
  renamed over the destination at the end: a failure (an exception, a full
  disk, Ctrl-C) leaves the old file as it was and no temporary file behind.

Expected OS failures become `LabelerError("path: reason")`. No click, rich or
textual here: the CLI, the TUI and the services all use it.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from labeler.errors import LabelerError, argument_hint
from labeler.json_form import JsonResult

WORKBENCH_SUFFIXES = ("", "-wal", "-shm", "-journal")
# what to do about a file that exists: ask for it to be replaced
REPLACE_IT = argument_hint("force", why="to replace it")


class OutputExistsError(LabelerError):
    """The destination is an existing regular file and replacing it was not asked for.

    A subclass so that a front end can offer its own way to say yes: `--force` in the
    CLI, a confirmation in the TUI.
    """


@dataclass(frozen=True)
class Written:
    """What a write left on disk."""

    path: Path
    bytes: int
    replaced: bool  # an existing file was replaced (only ever with force)


@dataclass(frozen=True)
class ExportSummary(JsonResult):
    """What an export wrote, read back from the file: what it holds, its size, lines and SHA-256."""

    exported: str  # qrels, run, log
    name: str | None  # the snapshot or run exported; None for the judgment log
    format: str
    path: str
    bytes: int
    lines: int | None  # one label, ranked result or event a line; None for a binary format (Parquet)
    sha256: str


def summarize_export(
    exported: str, name: str | None, fmt: str, path: str | Path, *, text: bool = True
) -> ExportSummary:
    """The summary of the export `exported` just wrote to `path` (one pass over the file)."""
    digest = hashlib.sha256()
    size = lines = 0
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
                size += len(block)
                lines += block.count(b"\n")
    except OSError as exc:
        raise _os_error(exc, path) from None
    return ExportSummary(exported, name, fmt, str(path), size, lines if text else None, digest.hexdigest())


def check_output(path: str | Path, *, workbench: str | Path | None = None, force: bool = False) -> bool:
    """Refuse `path` as a destination unless writing it is safe; True when it exists (and force allows it).

    Raises `LabelerError` (`OutputExistsError` for an existing file without `force`).
    """
    target = Path(path)
    if str(path) == "" or target.name in ("", ".", ".."):
        raise LabelerError("is not a file name: give the path of a file to write", path=path)
    if workbench is not None:
        _refuse_workbench(target, Path(workbench))
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        _require_folder(target)
        return False
    except NotADirectoryError:
        raise LabelerError("cannot write here: a part of the path is not a folder", path=path) from None
    except OSError as exc:
        raise _os_error(exc, path) from None
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        raise LabelerError(
            "is a symbolic link: labeler never writes through a link, even told to replace a file; "
            "give the path of the file itself",
            path=path,
        )
    if stat.S_ISDIR(mode):
        raise LabelerError("is a folder: give the path of a file to write", path=path)
    if not stat.S_ISREG(mode):
        kind = (
            "a named pipe (FIFO)"
            if stat.S_ISFIFO(mode)
            else (
                "a socket"
                if stat.S_ISSOCK(mode)
                else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "not a regular file"
            )
        )
        raise LabelerError(f"is {kind}: labeler writes only regular files", path=path)
    if not force:
        raise OutputExistsError("exists already: choose a new file", path=path, hints=REPLACE_IT)
    return True


@contextmanager
def output_file(path: str | Path, *, workbench: str | Path | None = None, force: bool = False) -> Iterator[Path]:
    """A temporary path beside `path` to write to; renamed onto `path` when the block ends without an error.

    For writers that need a file name rather than a handle (SQLite's backup). The
    temporary file (and any `-journal`/`-wal`/`-shm` beside it) is removed on failure.
    """
    target = Path(path)
    exists = check_output(target, workbench=workbench, force=force)
    folder = target.parent
    remove_leftovers(target)
    try:
        descriptor, name = tempfile.mkstemp(prefix=_temporary_prefix(target, os.getpid()), suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _os_error(exc, path) from None
    os.close(descriptor)
    temporary = Path(name)
    try:
        with _signals_unwind(lambda: _remove_temporary(temporary)):
            yield temporary
            _fsync(temporary)
            os.chmod(temporary, _mode_for(target, exists))
            _install(temporary, target, workbench=workbench, replace=exists)
    except OSError as exc:
        raise _os_error(exc, path) from None
    finally:
        _remove_temporary(temporary)


@contextmanager
def open_output(
    path: str | Path,
    *,
    workbench: str | Path | None = None,
    force: bool = False,
    mode: Literal["text", "binary"] = "text",
) -> Iterator[IO]:
    """A handle on a temporary file that becomes `path` when the block ends without an error.

    Text mode writes UTF-8 with `\\n` line ends, whatever the platform.
    """
    with output_file(path, workbench=workbench, force=force) as temporary:
        try:
            handle: IO = (
                open(temporary, "w", encoding="utf-8", newline="\n") if mode == "text" else open(temporary, "wb")
            )
        except OSError as exc:
            raise _os_error(exc, path) from None
        with handle:
            try:
                yield handle
                handle.flush()
            except OSError as exc:
                raise _os_error(exc, path) from None


def write_output(
    path: str | Path,
    content: str | bytes | Iterable[str] | Iterable[bytes],
    *,
    workbench: str | Path | None = None,
    force: bool = False,
) -> Written:
    """Write `content` (text, bytes, or an iterable of either) to `path` under the output rule.

    Text is written as UTF-8, exactly as given (no newline translation).
    """
    pieces: Iterable = [content] if isinstance(content, (str, bytes, bytearray)) else content
    size = 0
    with output_file(path, workbench=workbench, force=force) as temporary:
        replaced = os.path.lexists(path)
        with open(temporary, "wb") as handle:
            for piece in pieces:
                data = piece if isinstance(piece, (bytes, bytearray)) else piece.encode("utf-8")
                handle.write(data)
                size += len(data)
    return Written(Path(path), size, replaced)


# -- what an interrupted write leaves -----------------------------------------------------------

# A temporary file is named `.NAME.labeler-PID-RANDOM.tmp`, beside the output NAME: the pid of the
# process writing it, so that a later write of the same output can tell a leftover (its writer is
# gone: killed with SIGKILL, or the machine stopped) from a write under way in another process.
LEFTOVER = re.compile(r"\.labeler-(\d+)-[^.]+\.tmp(?:-journal|-wal|-shm)?")
UNWOUND_SIGNALS = ("SIGTERM", "SIGHUP")


def _temporary_prefix(target: Path, pid: int) -> str:
    return f".{target.name}.labeler-{pid}-"


def _remove_temporary(temporary: Path) -> None:
    """The temporary file and any `-journal`/`-wal`/`-shm` SQLite left beside it."""
    for suffix in WORKBENCH_SUFFIXES:
        try:
            Path(f"{temporary}{suffix}").unlink()
        except FileNotFoundError:
            pass
        except OSError:  # pragma: no cover - best effort; the error that matters is already raised
            pass


def remove_leftovers(target: str | Path) -> list[Path]:
    """Remove the temporary files an interrupted write of `target` left beside it; the paths removed.

    Only files named as this module names them for `target`, whose writer process is gone: a write of
    the same output under way in another process keeps its file.
    """
    target = Path(target)
    prefix = f".{target.name}"
    removed: list[Path] = []
    try:
        names = [entry.name for entry in os.scandir(target.parent) if entry.name.startswith(prefix)]
    except OSError:
        return removed
    for name in names:
        match = LEFTOVER.fullmatch(name[len(prefix) :])
        if match is None or _alive(int(match.group(1))):
            continue
        try:
            (target.parent / name).unlink()
        except OSError:
            continue
        removed.append(target.parent / name)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):  # another user's process, or not a pid we can ask about
        return pid > 0
    return True


class _Interrupted(BaseException):
    """A termination signal received while an output was being written: unwinds, then ends the process."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


@contextmanager
def _signals_unwind(cleanup: Callable[[], None]) -> Iterator[None]:
    """While writing, SIGTERM and SIGHUP unwind the write (its temporary file removed), then end the process.

    Only signals left at their default action (which would end the process with no cleanup) are taken
    over, and only in the main thread (the only one Python delivers signals to); SIGKILL cannot be
    caught, and what it leaves the next write of the same output removes (`remove_leftovers`).
    """
    previous: dict[int, object] = {}
    if threading.current_thread() is threading.main_thread():
        for name in UNWOUND_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is signal.SIG_DFL:
                previous[number] = signal.signal(number, _raise_interrupted)
    try:
        yield
    except _Interrupted as interrupted:
        cleanup()
        _restore(previous)
        previous = {}
        signal.raise_signal(interrupted.number)  # the default action again: the process ends as signalled
        raise
    finally:
        _restore(previous)


def _raise_interrupted(number: int, frame: object) -> None:
    raise _Interrupted(number)


def _restore(previous: dict[int, object]) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler)  # type: ignore[arg-type]


# -- the checks ---------------------------------------------------------------------------------


def workbench_files(workbench: Path) -> list[Path]:
    """The workbench and the files SQLite keeps beside it."""
    return [Path(f"{workbench}{suffix}") for suffix in WORKBENCH_SUFFIXES]


def _refuse_workbench(target: Path, workbench: Path) -> None:
    """By resolved path (a symlink's target, `..` and `.` parts), then by file identity (hard links)."""
    resolved = _resolve(target)
    for own in workbench_files(workbench):
        same = resolved == _resolve(own)
        if not same:
            try:
                same = os.path.samefile(target, own)
            except OSError:  # one of them does not exist (or cannot be read): not the same file
                same = False
        if same:
            what = "the workbench" if own == workbench else f"the workbench's {own.name[len(workbench.name) :]} file"
            raise LabelerError(
                f"is {what} ({workbench}): labeler never writes over it, even told to replace a file; "
                "choose another file",
                path=target,
            )


def _resolve(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare it as written
        return Path(os.path.abspath(path))


def _require_folder(target: Path) -> None:
    folder = target.parent
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        raise LabelerError(f"no such folder: {folder}", path=target) from None
    except NotADirectoryError:
        raise LabelerError("cannot write here: a part of the path is not a folder", path=target) from None
    except OSError as exc:
        raise _os_error(exc, target) from None
    if not stat.S_ISDIR(info.st_mode):
        raise LabelerError(f"cannot write here: {folder} is not a folder", path=target)


# -- writing ------------------------------------------------------------------------------------


def _install(temporary: Path, target: Path, *, workbench: str | Path | None, replace: bool) -> None:
    """Move the finished temporary file onto `target`.

    Without `replace`, a hard link makes the file appear only if nothing took the name
    meanwhile (no clobbering even then); `os.replace` swaps a name atomically and, given a
    symlink, replaces the link itself, never what it points to.
    """
    if workbench is not None:  # the folder may have changed since the first look
        _refuse_workbench(target, Path(workbench))
    if not replace:
        try:
            os.link(temporary, target)
        except FileExistsError:
            raise OutputExistsError(
                "exists already (it appeared while labeler was writing): nothing was replaced; choose a new file",
                path=target,
                hints=REPLACE_IT,
            ) from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
                raise
            # a file system without hard links: look again, then rename
            if os.path.lexists(target):
                raise OutputExistsError(
                    "exists already (it appeared while labeler was writing): nothing was replaced", path=target
                ) from None
            os.replace(temporary, target)
        else:
            os.unlink(temporary)
    else:
        try:
            info = os.lstat(target)
        except FileNotFoundError:  # removed meanwhile: nothing left to keep
            info = None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise LabelerError(
                "changed while labeler was writing (it is no longer a regular file): nothing was replaced", path=target
            )
        os.replace(temporary, target)
    _fsync_folder(target.parent)


def _fsync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable; not every platform or file system can open a folder for this."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _mode_for(target: Path, exists: bool) -> int:
    """A replaced file keeps its permissions; a new one gets what `open()` would give it (0666 less the umask)."""
    if exists:
        try:
            return stat.S_IMODE(os.lstat(target).st_mode)
        except OSError:
            pass
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where the platform allows (threads may be creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


REASONS = {
    errno.ENOENT: "no such file or folder",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EISDIR: "is a folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENAMETOOLONG: "file name too long",
    errno.ELOOP: "too many levels of symbolic links",
}


def _os_error(exc: OSError, path: str | Path) -> LabelerError:
    reason = REASONS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()
    return LabelerError(f"cannot write: {reason}; nothing was written", path=path)

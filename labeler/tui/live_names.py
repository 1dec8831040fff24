"""Assessor names live in the browser sessions of one `labeler serve`: one session per name.

serve gives every session the same private folder; a session that takes a name holds an exclusive
lock on that name's file there for as long as its process lives. The operating system releases the
lock when the process ends, however it ends (quit, closed tab, crash, kill), so a name is never left
taken by a session that is gone. Names are compared in NFKC and without case: `Ann`, `ann` and `ａｎｎ`
are one name here.
"""

from __future__ import annotations

import hashlib
import os
import sys
import unicodedata
from pathlib import Path

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def name_key(name: str) -> str:
    """The file of a name: its NFKC, case-folded form, hashed (any name makes a safe file name)."""
    return hashlib.sha256(unicodedata.normalize("NFKC", name).casefold().encode("utf-8")).hexdigest()[:32]


class LiveNames:
    """The names taken in one serve's sessions (`folder`), and the one this session holds."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._held: tuple[str, int] | None = None

    def take(self, name: str) -> bool:
        """Hold `name` for this session (letting go of any other name held before); False when another
        live session holds it. An unusable folder is an OSError."""
        key = name_key(name)
        if self._held is not None and self._held[0] == key:
            return True
        fd = os.open(self.folder / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        if not _lock(fd):
            os.close(fd)
            return False
        self.release()
        self._held = (key, fd)
        return True

    def release(self) -> None:
        if self._held is not None:
            os.close(self._held[1])
            self._held = None

"""Checks on the files a user names, before anything opens them.

Opening a FIFO blocks until a writer appears, and a device or folder is not a
file of any format: an importer or `merge` handed one must refuse it at once,
with the path and a reason, not hang or end in a traceback.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from labeler.errors import LabelerError


def require_regular_file(path: str | Path, error: type[LabelerError] = LabelerError) -> os.stat_result:
    """The file's `stat` when `path` names a regular file (a symlink to one is fine); else `error`."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise error("no such file", path=path) from None
    except NotADirectoryError:
        raise error("no such file (a part of the path is not a folder)", path=path) from None
    except PermissionError:
        raise error("permission denied", path=path) from None
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror or exc}", path=path) from None
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return info
    if stat.S_ISDIR(mode):
        kind = "a folder"
    elif stat.S_ISFIFO(mode):
        kind = "a named pipe (FIFO)"
    elif stat.S_ISSOCK(mode):
        kind = "a socket"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device"
    else:
        kind = "not a regular file"
    raise error(f"is {kind}, not a regular file: give the path of a file", path=path)

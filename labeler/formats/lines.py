"""One way to read a user's text file line by line, strictly.

Every importer goes through `TextLines`, so the same rules hold everywhere:
UTF-8 only (a byte-order mark is allowed and dropped), gzip recognised by its
magic bytes, CRLF and LF both accepted, NUL bytes refused, and an undecodable
byte reported with the line it sits on. It also reports how many bytes of the
file it has consumed, which drives the progress bars of long imports.
"""

from __future__ import annotations

import gzip
import io
import os
from collections.abc import Iterator
from pathlib import Path

from labeler.errors import FormatError

GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: str | Path) -> bool:
    """True when the file starts with gzip's magic bytes, whatever its name."""
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP_MAGIC


class TextLines:
    """Iterate `(line_number, text)` over a file, 1-based, without line endings."""

    def __init__(self, path: str | Path, error: type[FormatError] = FormatError):
        self.path = Path(path)
        self.error = error
        if not self.path.exists():
            raise error("no such file", path=self.path)
        if self.path.is_dir():
            raise error("is a folder, not a file", path=self.path)
        self.size = os.path.getsize(self.path)
        self._raw = None

    def bytes_read(self) -> int:
        """Bytes of the (possibly compressed) file consumed so far, for progress."""
        if self._raw is None or self._raw.closed:
            return self.size
        return min(self._raw.tell(), self.size)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        self._raw = open(self.path, "rb")
        try:
            stream = gzip.GzipFile(fileobj=self._raw) if self._raw.read(2) == GZIP_MAGIC else self._raw
            self._raw.seek(0)
            text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="strict", newline=None)
            number = 0
            try:
                for number, line in enumerate(text, 1):
                    if "\x00" in line:
                        raise self.error("contains a NUL byte (binary file?)", path=self.path, line=number)
                    yield number, line.rstrip("\n")
            except UnicodeDecodeError:
                raise self.error(
                    "not valid UTF-8 (save the file as UTF-8)",
                    path=self.path,
                    line=self._line_of_bad_byte(),
                ) from None
            except (OSError, EOFError) as exc:  # truncated or corrupt gzip
                raise self.error(f"cannot read: {exc}", path=self.path, line=number + 1) from None
        finally:
            self._raw.close()

    def _line_of_bad_byte(self) -> int | None:
        """Re-read the file in binary to find the first line that is not UTF-8."""
        opener = gzip.open if is_gzip(self.path) else open
        with opener(self.path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError:
                    return number
        return None


def data_lines(lines: TextLines, *, comments: bool = True) -> Iterator[tuple[int, str]]:
    """Non-blank lines, skipping `#` comment lines (a `#` only at the start of a line).

    A `#` anywhere else is data: MS MARCO v2.1 segment ids contain one.
    """
    for number, line in lines:
        if not line.strip():
            continue
        if comments and line.startswith("#"):
            continue
        yield number, line

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
import zlib
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
            compressed = self._raw.read(2) == GZIP_MAGIC
            self._raw.seek(0)
            stream = gzip.GzipFile(fileobj=self._raw) if compressed else self._raw
            # newline="": lines end at LF, CRLF or a lone CR, and keep their ending, so that a lone
            # CR can be refused: trec_eval reads it as white space inside one line, not a line break.
            text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="strict", newline="")
            number = 0
            try:
                for number, line in enumerate(text, 1):
                    if "\x00" in line:
                        raise self.error("contains a NUL byte (binary file?)", path=self.path, line=number)
                    if line.endswith("\n"):
                        line = line[:-2] if line.endswith("\r\n") else line[:-1]
                    elif line.endswith("\r"):
                        raise self.error(
                            "ends with a lone CR (old Mac line ending): save the file with LF or CRLF line endings",
                            path=self.path,
                            line=number,
                        )
                    yield number, line
            except UnicodeDecodeError:
                raise self.error(
                    "not valid UTF-8 (save the file as UTF-8)",
                    path=self.path,
                    line=self._line_of_bad_byte(),
                ) from None
            except (OSError, EOFError, zlib.error) as exc:  # truncated or corrupt gzip
                raise self._unreadable(exc, compressed, number + 1) from None
        finally:
            self._raw.close()

    def _unreadable(self, exc: Exception, compressed: bool, line: int) -> FormatError:
        what = "truncated or corrupt gzip file" if compressed else "cannot read"
        return self.error(f"{what}: {exc}", path=self.path, line=line)

    def _line_of_bad_byte(self) -> int | None:
        """Re-read the file in binary to find the first line that is not UTF-8."""
        compressed = is_gzip(self.path)
        opener = gzip.open if compressed else open
        number = 0
        with opener(self.path, "rb") as handle:
            try:
                for number, raw in enumerate(handle, 1):
                    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                        raw = raw[3:]
                    try:
                        raw.decode("utf-8")
                    except UnicodeDecodeError:
                        return number
            except (OSError, EOFError, zlib.error) as exc:  # corrupt gzip data decoded as garbage
                raise self._unreadable(exc, compressed, number + 1) from None
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

"""One way to read a user's text file line by line, strictly and in bounded memory.

Every importer goes through `TextLines`, so the same rules hold everywhere:
UTF-8 only (a byte-order mark is allowed and dropped), gzip recognised by its
magic bytes, CRLF and LF both accepted, NUL bytes refused, and an undecodable
byte reported with the line it sits on.

A file is a trust boundary, so reading is bounded (`ReadLimits`): only a
regular file is opened (a FIFO would block, a device never ends), a line
longer than the limit is refused before it is held whole, and gzip data that
expands past a ratio of its compressed size, or past an absolute size, is
refused while it streams. The file is read in blocks: the checks, the UTF-8
decoding and the SHA-256 of the bytes read are per block, not per line, which
keeps the hot loop of an import cheap. The hash is that of the bytes this pass
read, so an import records what it parsed even if the file is replaced meanwhile.
"""

from __future__ import annotations

import contextlib
import contextvars
import gzip
import hashlib
import itertools
import os
import re
import stat
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar, cast

from labeler.errors import FormatError, argument_hint
from labeler.paths import require_regular_file

# why a reading limit is worth changing, said with the hint that names it
RAISE_THE_LIMIT = "to raise the limit"

if TYPE_CHECKING:
    from hashlib import _Hash

GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"
BLOCK_SIZE = 1 << 20
MiB = 1 << 20
GiB = 1 << 30
# Below this many decompressed bytes the ratio is not checked: the start of a stream says little.
GZIP_RATIO_FLOOR = MiB

_LONE_CR = re.compile(rb"\r(?!\n)")


@dataclass(frozen=True)
class ReadLimits:
    """How much one input file may hold; the CLI's `--max-line-bytes` and `--max-gzip-*` set these."""

    max_line_bytes: int = MiB
    max_gzip_ratio: int = 100
    max_gzip_bytes: int = 64 * GiB

    def __post_init__(self) -> None:
        for name in ("max_line_bytes", "max_gzip_ratio", "max_gzip_bytes"):
            if not 1 <= getattr(self, name) <= HIGHEST_LIMITS[name]:
                raise ValueError(f"{name} must be from 1 to {HIGHEST_LIMITS[name]}")


HIGHEST_LIMITS = {"max_line_bytes": 256 * MiB, "max_gzip_ratio": 1_000_000, "max_gzip_bytes": 1 << 50}
"""How far each limit may be raised. A line is held whole, several times over while it is decoded and
parsed (a 2 GiB line took over 8 GiB), so its limit stays where the memory it takes is sane; the gzip
limits only bound a stream, so theirs are far past any real file."""


_limits: contextvars.ContextVar[ReadLimits] = contextvars.ContextVar("read_limits", default=ReadLimits())  # noqa: B039 (a frozen dataclass: never mutated)


def current_limits() -> ReadLimits:
    return _limits.get()


@contextlib.contextmanager
def reading_limits(limits: ReadLimits) -> Iterator[ReadLimits]:
    """Every `TextLines` made inside the block uses `limits` (the CLI sets them once per command)."""
    token = _limits.set(limits)
    try:
        yield limits
    finally:
        _limits.reset(token)


def size_text(size: int) -> str:
    """1048576 -> "1 MiB"; sizes that are not whole MiB or GiB stay in bytes."""
    for unit, name in ((GiB, "GiB"), (MiB, "MiB"), (1024, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size} bytes"


def _open_regular(path: Path, error: type[FormatError]) -> BinaryIO:
    """Open a regular file for reading without ever blocking on a FIFO swapped in after the check."""
    try:
        handle = open(path, "rb", opener=lambda name, flags: os.open(name, flags | os.O_NONBLOCK))
    except OSError as exc:
        raise _os_error(exc, path, error) from None
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        handle.close()
        require_regular_file(path, error)  # names what it is
        raise error("is not a regular file: give the path of a file", path=path)
    return handle


def _os_error(exc: OSError, path: Path, error: type[FormatError]) -> FormatError:
    if isinstance(exc, FileNotFoundError):
        return error("no such file", path=path)
    if isinstance(exc, PermissionError):
        return error("permission denied", path=path)
    return error(f"cannot read: {exc.strerror or exc}", path=path)


class _HashingReader:
    """The compressed side of a gzip file: hashes and counts what the decompressor reads."""

    def __init__(self, raw: BinaryIO, digest: _Hash):
        self.raw = raw
        self.digest = digest
        self.consumed = 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.digest.update(data)
        self.consumed += len(data)
        return data

    def tell(self) -> int:
        return self.raw.tell()


_Batches = Generator[tuple[int, list[str]], None, int]
"""Batches of lines with the number of their first; the generator returns the number of the last line read."""


class _Lines(itertools.chain[tuple[int, str]]):
    """A chain of line batches that can be closed, like the generator it stands for."""

    close: Callable[[], None]


class TextLines:
    """Iterate `(line_number, text)` over a file, 1-based, without line endings.

    After a pass that reached the end of the file, `sha256` is the hex SHA-256 of
    the file's bytes as that pass read them (the compressed bytes of a gzip file).
    """

    def __init__(self, path: str | Path, error: type[FormatError] = FormatError, *, limits: ReadLimits | None = None):
        self.path = Path(path)
        self.error = error
        self.limits = limits or current_limits()
        self.size = require_regular_file(self.path, error).st_size
        self.sha256: str | None = None
        self._raw: BinaryIO | None = None
        self._lines_done = 0  # lines the current pass has yielded, to place a read error

    def bytes_read(self) -> int:
        """Bytes of the (possibly compressed) file consumed so far, for progress."""
        if self._raw is None or self._raw.closed:
            return self.size
        return min(self._raw.tell(), self.size)

    def __iter__(self) -> _Lines:
        # The lines of each block come out of a C iterator (zip over a list), chained in C: a line
        # costs no Python frame here, only a block does. `close()` stops the read, as for a generator.
        batches = self.batches()
        numbered = (zip(itertools.count(first), lines) for first, lines in batches)
        lines = cast(_Lines, _Lines.from_iterable(numbered))  # a classmethod: it builds the subclass
        lines.close = batches.close
        return lines

    def batches(self) -> Generator[tuple[int, list[str]], None, None]:
        """The file's lines a block at a time: `(number of the first line, lines)`, every line in order.

        The same lines, checks and errors as iterating, for a reader that checks a block's lines
        together (one C call per block and column) rather than one at a time.
        """
        self.sha256 = None
        return self._batches()

    def _batches(self) -> Generator[tuple[int, list[str]], None, None]:
        """The file's lines, one batch per block; the hash is final when the last batch is consumed."""
        raw = self._raw = _open_regular(self.path, self.error)
        digest = hashlib.sha256()
        self._lines_done = 0
        compressed = False
        try:
            try:
                head = raw.read(2)
                raw.seek(0)
                compressed = head == GZIP_MAGIC
                if compressed:
                    source = _HashingReader(raw, digest)
                    blocks = self._gunzipped(source)
                else:
                    blocks = self._plain(raw, digest)
                yield from self._split(blocks)
                while compressed and source.read(BLOCK_SIZE):  # bytes after the gzip data, hashed too
                    pass
            except (OSError, EOFError, zlib.error) as exc:  # truncated or corrupt gzip, or a read error
                raise self._unreadable(exc, compressed, self._lines_done + 1) from None
            self.sha256 = digest.hexdigest()
        finally:
            raw.close()

    def _plain(self, raw: BinaryIO, digest: _Hash) -> Iterator[bytes]:
        size = self._block_size()
        while block := raw.read(size):
            digest.update(block)
            yield block

    def _gunzipped(self, source: _HashingReader) -> Iterator[bytes]:
        """Decompressed blocks of at most the block size, checked against the gzip limits as they grow.

        Gathered from small reads: on truncated or corrupt data, the bytes before the damage still
        make a block, so their lines are read and the error names the line where the damage is.
        """
        limits = self.limits
        size = self._block_size()
        total = 0
        pieces: list[bytes] = []
        gathered = 0
        with gzip.GzipFile(fileobj=source) as stream:  # type: ignore[call-overload]  # reads like a file, not one
            while True:
                try:
                    piece = stream.read1(size - gathered)
                except (OSError, EOFError, zlib.error):
                    if pieces:
                        yield b"".join(pieces)
                    raise
                total += len(piece)
                if total > limits.max_gzip_bytes:
                    raise self.error(
                        f"gzip data expands to more than {size_text(limits.max_gzip_bytes)}",
                        path=self.path,
                        hints=argument_hint("max_gzip_bytes", why=RAISE_THE_LIMIT),
                    )
                if total > GZIP_RATIO_FLOOR and total > limits.max_gzip_ratio * source.consumed:
                    raise self.error(
                        f"gzip data expands more than {limits.max_gzip_ratio} times its compressed size, "
                        "as a decompression bomb does",
                        path=self.path,
                        hints=argument_hint("max_gzip_ratio", why=RAISE_THE_LIMIT),
                    )
                if piece:
                    pieces.append(piece)
                    gathered += len(piece)
                if pieces and (gathered == size or not piece):
                    yield b"".join(pieces) if len(pieces) > 1 else pieces[0]
                    pieces, gathered = [], 0
                if not piece:
                    return

    def _block_size(self) -> int:
        # A line that lies wholly inside one block is at most block - 1 bytes, so within the limit.
        return min(BLOCK_SIZE, self.limits.max_line_bytes + 1)

    def _split(self, blocks: Iterator[bytes]) -> _Batches:
        """Batches of lines of the decompressed blocks; returns the number of lines read."""
        limit = self.limits.max_line_bytes
        number = 0
        pending: list[bytes] = []  # the start of a line that the blocks so far have not ended
        pending_size = 0
        first = True
        for block in blocks:
            cut = block.rfind(b"\n")
            if cut < 0:
                pending.append(block)
                pending_size += len(block)
                if pending_size > limit:
                    raise self._too_long(b"".join(pending), number + 1)
                continue
            if pending:
                head = block.find(b"\n")
                if pending_size + head > limit:
                    raise self._too_long(b"".join(pending) + block[:head], number + 1)
                pending.append(block[: cut + 1])
                data = b"".join(pending)
            else:
                data = block[: cut + 1] if cut + 1 < len(block) else block
            rest = block[cut + 1 :]
            pending = [rest] if rest else []
            pending_size = len(rest)
            if first:
                first = False
                if data.startswith(BOM):
                    data = data[3:]
            number = yield from self._lines(data, number)
        if pending:
            data = b"".join(pending)
            if first and data.startswith(BOM):
                data = data[3:]
                if not data:
                    return number
            # A last line without LF: end it with one, unless it ends in a lone CR, which must stay lone.
            final_cr = data.endswith(b"\r")
            number = yield from self._lines(data + (b"\x00\n" if final_cr else b"\n"), number, final_cr=final_cr)
        return number

    def _lines(self, data: bytes, number: int, *, final_cr: bool = False) -> _Batches:
        """The lines of `data` (whole lines, each ending in LF), numbered after `number`, as one batch;
        on an error, a batch of the lines before it, then the error."""
        try:
            text = data.decode("utf-8")
            bad = None
        except UnicodeDecodeError as exc:
            bad = (data.count(b"\n", 0, exc.start), 0, exc.start, "not valid UTF-8 (save the file as UTF-8)")
        problems = [bad] if bad else []
        if b"\x00" in data:
            at = data.find(b"\x00")
            if not (final_cr and at == len(data) - 2):
                problems.append((data.count(b"\n", 0, at), 1, at, "contains a NUL byte (binary file?)"))
        has_cr = b"\r" in data
        if has_cr:
            lone = _LONE_CR.search(data)
            if lone:
                at = lone.start()
                problems.append(
                    (
                        data.count(b"\n", 0, at),
                        2,
                        at,
                        "ends with a lone CR (old Mac line ending): save the file with LF or CRLF line endings",
                    )
                )
        if problems:
            _, _, at, reason = min(problems)  # the first line with one; on a line: UTF-8, NUL, then CR
            good = data[: data.rfind(b"\n", 0, at) + 1]
            number = yield from self._lines(good, number)
            raise self.error(reason, path=self.path, line=number + 1)
        if has_cr:
            text = text.replace("\r\n", "\n")
        lines = text.split("\n")
        lines.pop()  # the empty string after the last LF
        self._lines_done = len(lines) + number  # consumed by the time the next block is read
        if lines:
            yield number + 1, lines
        return self._lines_done

    def _too_long(self, line: bytes, number: int) -> FormatError:
        if b"\x00" in line:
            return self.error("contains a NUL byte (binary file?)", path=self.path, line=number)
        return self.error(
            f"line longer than {size_text(self.limits.max_line_bytes)}",
            path=self.path,
            line=number,
            hints=argument_hint("max_line_bytes", why=RAISE_THE_LIMIT),
        )

    def _unreadable(self, exc: Exception, compressed: bool, line: int) -> FormatError:
        if isinstance(exc, OSError) and not compressed:
            return self.error(f"cannot read: {exc.strerror or exc}", path=self.path, line=line)
        what = "truncated or corrupt gzip file" if compressed else "cannot read"
        return self.error(f"{what}: {exc}", path=self.path, line=line)


def data_lines(lines: TextLines, *, comments: bool = True) -> Generator[tuple[int, str], None, None]:
    """Non-blank lines, skipping `#` comment lines (a `#` only at the start of a line).

    A `#` anywhere else is data: MS MARCO v2.1 segment ids contain one.
    """
    for number, line in lines:
        if not line.strip():
            continue
        if comments and line.startswith("#"):
            continue
        yield number, line


Item = TypeVar("Item")


def first_of_each(
    items: Iterable[tuple[int, Item]],
    key: Callable[[Item], str],
    what: str,
    path: Path,
    error: type[FormatError],
) -> Iterator[tuple[int, Item]]:
    """The numbered items, refusing one whose id came before: two records with one id cannot both be stored.

    The refusal names the line the id was first seen at, so the user can see which to keep.
    """
    first_lines: dict[str, int] = {}
    for number, item in items:
        item_id = key(item)
        if item_id in first_lines:
            raise error(
                f"{what} {item_id} appears twice (first at line {first_lines[item_id]})", path=path, line=number
            )
        first_lines[item_id] = number
        yield number, item

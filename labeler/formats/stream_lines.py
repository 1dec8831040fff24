"""The lines of a stream (a program's output, through a pipe), read as they are written, under a file's rules.

`StreamLines` is a `TextLines` whose bytes come from a pipe instead of a file: the same
checks (UTF-8, NUL, lone CR, a line longer than `max_line_bytes` refused before it is held
whole), plus one a file does not need, since a stream has no size of its own: a total of
at most `max_bytes`. Nothing is spooled to disk, and a read returns what the writer has
written so far, so a bad first line is refused while the writer is still writing. A stream
is plain text: gzip is not recognised in it.

A stream can be read once. A reader that looks at the first lines before it reads the
whole (the run reader detects the format from the first result line) asks for
`rewind_once`: the blocks of the first pass are kept and replayed by the second.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import IO

from labeler.errors import FormatError, argument_hint
from labeler.formats.lines import RAISE_THE_LIMIT, ReadLimits, TextLines, current_limits, size_text

# How the limits of a stream are worded: a file has a size, a stream has output.
OUTPUT_TOO_LONG = "output longer than {size}"

Observer = Callable[[int, list[str]], None]


class StreamLines(TextLines):
    """Iterate `(line_number, text)` over a stream, 1-based, as `TextLines` does over a file."""

    def __init__(
        self,
        stream: IO[bytes],
        error: type[FormatError] = FormatError,
        *,
        max_bytes: int,
        name: str = "output",
        limits: ReadLimits | None = None,
        rewind_once: bool = False,
        observe: Observer | None = None,
    ):
        self.path = Path(name)
        self.error = error
        self.limits = limits or current_limits()
        self.size = 0
        self.sha256 = None
        self._raw = None
        self._lines_done = 0
        self.stream = stream
        self.max_bytes = max_bytes
        self.total = 0  # bytes read from the stream
        self.ended = False  # the stream reached its end
        self.observe = observe  # called with each new batch of lines, once
        self.rewind_once = rewind_once
        self._kept: list[bytes] = []  # the first pass's blocks, when it is to be replayed
        self._passes = 0
        self._observed = 0  # the last line number the observer was given

    def bytes_read(self) -> int:
        return self.total

    def _batches(self) -> Generator[tuple[int, list[str]], None, None]:
        self._passes += 1
        if self._passes > (2 if self.rewind_once else 1):
            raise RuntimeError("a stream is read once (or twice, with rewind_once)")
        self._lines_done = 0
        replay, self._kept = self._kept, []
        keep = self.rewind_once and self._passes == 1
        try:
            for first, lines in self._split(self._blocks(replay, keep)):
                if self.observe is not None and first > self._observed:
                    self.observe(first, lines)
                    self._observed = first + len(lines) - 1
                yield first, lines
        except OSError as exc:
            raise self._unreadable(exc, False, self._lines_done + 1) from None

    def _blocks(self, replay: list[bytes], keep: bool) -> Iterator[bytes]:
        """The replayed blocks, then the stream's, each of at most the block size, counted against `max_bytes`."""
        yield from replay
        size = self._block_size()
        while not self.ended:
            block = self.stream.read(size)
            if not block:
                self.ended = True
                return
            self.total += len(block)
            if self.total > self.max_bytes:
                raise self.error(
                    OUTPUT_TOO_LONG.format(size=size_text(self.max_bytes)),
                    path=self.path,
                    line=self._lines_done + 1,
                    hints=argument_hint("max_output_bytes", why=RAISE_THE_LIMIT),
                )
            if keep:
                self._kept.append(block)
            yield block

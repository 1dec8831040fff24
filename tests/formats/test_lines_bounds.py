"""Bounded reading in `TextLines`: the line limit, the gzip limits, block edges and the hash of what was read.

A small `max_line_bytes` also makes the blocks small (a block is at most the limit plus one byte),
which puts block edges inside CRLF pairs, multi-byte characters and errors with a few bytes of input.
"""

from __future__ import annotations

import gzip
import hashlib
import os

import pytest

from labeler.errors import FormatError, RunFormatError, argument_hint
from labeler.formats import lines as lines_module
from labeler.formats.lines import ReadLimits, TextLines, reading_limits, size_text

MiB = 1 << 20


def read(path, **limits):
    return list(TextLines(path, limits=ReadLimits(**limits) if limits else None))


def write(tmp_path, data: bytes, name="f.txt"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def zeros_gzip(tmp_path, members: int, member_size: int = 16 * MiB):
    """A gzip of `members * member_size` zero bytes, made of identical members (fast to build)."""
    member = gzip.compress(bytes(member_size), compresslevel=9)
    path = tmp_path / "bomb.gz"
    with open(path, "wb") as handle:
        for _ in range(members):
            handle.write(member)
    return path


# (bytes, max_line_bytes, expected lines) -- accepted, whatever the block edges
ACCEPTED = [
    (b"ab\ncd\n", 2, [(1, "ab"), (2, "cd")]),  # lines exactly at the limit
    (b"ab\r\ncd\r\n", 3, [(1, "ab"), (2, "cd")]),  # CRLF split across blocks of 4 bytes
    ("é€\n😀\n".encode(), 5, [(1, "é€"), (2, "😀")]),  # multi-byte characters filling blocks
    ("a\nééé\n".encode(), 6, [(1, "a"), (2, "ééé")]),  # a block edge inside a 2-byte character
    (b"\xef\xbb\xbfab\ncd", 5, [(1, "ab"), (2, "cd")]),  # BOM, and a last line without LF
    (b"\xef\xbb\xbf", 8, []),  # only a BOM: no line
    (b"", 8, []),
    (b"\n\n", 1, [(1, ""), (2, "")]),
    (b"x" * 10 + b"\n" + b"y" * 10, 10, [(1, "x" * 10), (2, "y" * 10)]),
]


@pytest.mark.parametrize(("data", "limit", "expected"), ACCEPTED)
def test_lines_are_the_same_whatever_the_block_size(tmp_path, data, limit, expected):
    path = write(tmp_path, data)
    assert read(path, max_line_bytes=limit) == expected
    assert read(path) == expected


# (bytes, max_line_bytes, line, reason) -- the first error in the file wins, across block edges
REFUSED = [
    (b"ab\nabc\n", 2, 2, "line longer than 2 bytes"),
    (b"ab\nabc", 2, 2, "line longer than 2 bytes"),  # the last line, without LF
    (b"a\n" * 50 + b"b" * 30, 8, 51, "line longer than 8 bytes"),  # spans several blocks
    (b"ok\n\xff\n" + b"x" * 20 + b"\n", 4, 2, "not valid UTF-8"),  # earlier than the long line
    (b"ok\nx\x00\n", 100, 2, "contains a NUL byte"),
    (b"ok\nx\ry\n", 100, 2, "ends with a lone CR"),
    (b"ok\nok\r", 100, 2, "ends with a lone CR"),  # a lone CR ending the file
    (b"a\x00" + b"b" * 40, 8, 1, "contains a NUL byte"),  # a long binary line is a binary file
    (b"1\n2\n3\n\xe9t\xe9\n", 3, 4, "not valid UTF-8"),  # Latin-1, found in a later block
]


@pytest.mark.parametrize(("data", "limit", "line", "reason"), REFUSED)
def test_errors_name_the_right_line(tmp_path, data, limit, line, reason):
    path = write(tmp_path, data)
    seen = []
    with pytest.raises(FormatError, match=f"f.txt:{line}: {reason}"):
        for number, _text in TextLines(path, limits=ReadLimits(max_line_bytes=limit)):
            seen.append(number)
    assert seen == list(range(1, line))  # every earlier line was read first


def test_the_default_limit_is_1_mib_and_the_message_says_how_to_raise_it(tmp_path):
    path = write(tmp_path, b"1 Q0 d1 1 1.0 t\n" + b"x" * (MiB + 1) + b"\n")
    with pytest.raises(RunFormatError, match=r"^.*f.txt:2: line longer than 1 MiB$") as refused:
        list(TextLines(path, RunFormatError))
    assert refused.value.hints == (argument_hint("max_line_bytes", why="to raise the limit"),)
    assert len(read(path, max_line_bytes=2 * MiB)) == 2


def test_a_huge_line_without_newline_is_refused_after_reading_about_the_limit(tmp_path, monkeypatch):
    path = write(tmp_path, b"x" * (8 * MiB))
    reads = []
    original = lines_module.TextLines._plain

    def counting(self, raw, digest):
        for block in original(self, raw, digest):
            reads.append(len(block))
            yield block

    monkeypatch.setattr(lines_module.TextLines, "_plain", counting)
    with pytest.raises(FormatError, match="f.txt:1: line longer than 1 MiB"):
        read(path)
    assert sum(reads) <= 2 * MiB + 2  # never the whole 8 MiB


def test_limits_set_for_a_block_of_code_apply_to_every_reader_made_in_it(tmp_path):
    path = write(tmp_path, b"abcdef\n")
    with reading_limits(ReadLimits(max_line_bytes=3)), pytest.raises(FormatError, match="longer than 3 bytes"):
        list(TextLines(path))
    assert list(TextLines(path)) == [(1, "abcdef")]


def test_limits_below_one_are_refused():
    with pytest.raises(ValueError):
        ReadLimits(max_line_bytes=0)


@pytest.mark.parametrize(
    ("size", "text"), [(MiB, "1 MiB"), (64 << 30, "64 GiB"), (1536, "1536 bytes"), (4096, "4 KiB"), (3, "3 bytes")]
)
def test_sizes_are_shown_in_binary_units(size, text):
    assert size_text(size) == text


def test_a_gzip_bomb_is_refused_early_with_the_default_limits(tmp_path, monkeypatch):
    path = zeros_gzip(tmp_path, members=64)  # 1 GiB of zeros in about 1 MB
    decompressed = []
    original = gzip.GzipFile.read1

    def counting(self, size=-1):
        data = original(self, size)
        decompressed.append(len(data))
        return data

    monkeypatch.setattr(gzip.GzipFile, "read1", counting)
    with pytest.raises(
        FormatError, match=r"bomb.gz: gzip data expands more than 100 times its compressed size"
    ) as refused:
        read(path)
    assert refused.value.hints == (argument_hint("max_gzip_ratio", why="to raise the limit"),)
    assert sum(decompressed) < 4 * MiB  # refused after a few MiB, not 1 GiB


def test_the_gzip_ratio_is_measured_against_the_compressed_bytes_read_so_far(tmp_path):
    # 2 MiB of readable text that compresses about 1000:1 after 64 KiB of text that does not.
    rng = os.urandom(32 * 1024).hex().encode()
    data = rng + b"\n" + (b"1 Q0 d1 1 1.0 t\n" * (2 * MiB // 16))
    path = write(tmp_path, gzip.compress(data), "mixed.gz")
    assert len(read(path, max_line_bytes=2 * MiB, max_gzip_ratio=1000)) == 1 + 2 * MiB // 16
    with pytest.raises(FormatError, match="expands more than 20 times"):
        read(path, max_line_bytes=2 * MiB, max_gzip_ratio=20)


def test_gzip_data_past_the_absolute_size_is_refused(tmp_path):
    path = write(tmp_path, gzip.compress(b"1 Q0 d1 1 1.0 t\n" * 1000), "run.gz")  # 16,000 bytes
    assert len(read(path, max_gzip_bytes=16_000)) == 1000
    with pytest.raises(FormatError, match=r"run.gz: gzip data expands to more than 15999 bytes$") as refused:
        read(path, max_gzip_bytes=15_999)
    assert refused.value.hints == (argument_hint("max_gzip_bytes", why="to raise the limit"),)


def test_a_truncated_gzip_still_names_the_line_where_it_breaks(tmp_path):
    data = gzip.compress(b"".join(b"%d Q0 d1 1 1.0 t\n" % i for i in range(20000)))
    path = write(tmp_path, data[: len(data) // 2], "cut.gz")
    seen = []
    with pytest.raises(FormatError, match=r"cut.gz:(\d+): truncated or corrupt gzip file") as caught:
        for number, _ in TextLines(path):
            seen.append(number)
    assert caught.value.line == len(seen) + 1 > 1000


@pytest.mark.parametrize("compress", [False, True])
def test_the_hash_is_that_of_the_file_bytes_once_read_to_the_end(tmp_path, compress):
    data = b"".join(b"%d Q0 d%d 1 1.0 t\n" % (i, i) for i in range(5000))
    raw = gzip.compress(data) if compress else data
    path = write(tmp_path, raw, "run.gz" if compress else "run")
    lines = TextLines(path, limits=ReadLimits(max_line_bytes=100))  # many small blocks
    iterator = iter(lines)
    next(iterator)
    assert lines.sha256 is None  # not read to the end yet
    list(iterator)
    assert lines.sha256 == hashlib.sha256(raw).hexdigest()


def test_the_hash_is_that_of_the_bytes_read_when_the_file_is_replaced_meanwhile(tmp_path):
    original = b"".join(b"1 Q0 d%d %d 1.0 t\n" % (i, i) for i in range(2000))
    path = write(tmp_path, original, "run")
    lines = TextLines(path, limits=ReadLimits(max_line_bytes=64))
    iterator = iter(lines)
    next(iterator)
    replacement = write(tmp_path, b"1 Q0 other 1 1.0 t\n", "new")
    os.replace(replacement, path)  # what an editor or a `mv` does
    assert [text for _, text in iterator][-1] == "1 Q0 d1999 1999 1.0 t"
    assert lines.sha256 == hashlib.sha256(original).hexdigest()


def test_trailing_zero_padding_after_gzip_data_is_hashed_too(tmp_path):
    raw = gzip.compress(b"a\n") + bytes(1000)  # tape-style padding gzip accepts
    path = write(tmp_path, raw, "padded.gz")
    lines = TextLines(path)
    assert list(lines) == [(1, "a")]
    assert lines.sha256 == hashlib.sha256(raw).hexdigest()


def test_corrupt_deflate_data_is_a_format_error(tmp_path):
    good = gzip.compress(b"a\n" * 1000)
    bad = good[:20] + bytes(b ^ 0xFF for b in good[20:40]) + good[40:]
    path = write(tmp_path, bad, "bad.gz")
    with pytest.raises(FormatError, match="truncated or corrupt gzip file"):
        read(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FormatError, match="pipe: is a named pipe"):
        TextLines(fifo)


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path):
    path = write(tmp_path, b"a\n")
    lines = TextLines(path)
    path.unlink()
    os.mkfifo(path)  # opened without blocking, then refused
    with pytest.raises(FormatError, match="is a named pipe"):
        list(lines)


def test_a_device_is_refused():
    with pytest.raises(FormatError, match="/dev/zero: is a device"):
        TextLines("/dev/zero")

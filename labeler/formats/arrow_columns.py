"""The TREC reader's optional fast path: pyarrow's CSV parser on blocks of lines that it reads exactly like Python.

Only a block of lines that `TextLines` already checked (hash, gzip bounds, UTF-8, BOM, NUL, CR, line length)
comes here, and only what both readers read the same way is given to arrow: every byte printable ASCII or LF
(one C pass, `bytes.translate`), exactly six non-empty fields on every line split at single spaces (arrow
refuses any other count; an empty field is a double, leading or trailing space), no `#` in a topic, ids within
`MAX_ID_LENGTH`, and rank and score texts in a grammar on which arrow's conversion and Python's `int()` and
`float()` agree (checked on arrow's strings by RE2 before arrow converts them; both conversions are
correctly rounded). Any other block gets None, and the Python reader reads it: so the rows, the blocks and
every error with its `file:line` are the Python reader's.

pyarrow is the `parquet` extra's; without it (or with `LABELER_NO_PYARROW=1`) `columns` is None. It is
imported on first use only, so a command that reads no large run never pays for it. Its import costs about
0.2 s of CPU, so the TREC reader hands it only files of 24 MB or more (`trec_runs.ARROW_MIN_BYTES`): measured
by benchmarks/bench_arrow.py, a whole import with arrow costs 1.93x the pure-Python reader's CPU at 3.3 MB,
1.06x at 10.1 MB, 1.02x at 20.2 MB, 0.94x at 24.3 MB and 0.75x at 55 MB.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from labeler.ids import MAX_ID_LENGTH

Columns = tuple[Sequence[str], Sequence[str], Sequence[float], Sequence[int]]
# the topic of each run of lines with one topic, and where the runs start (with the block's length last)
Runs = tuple[list[str], list[int]]
# (topics, units, scores, ranks) with the topics of the runs only (not one per line), and the runs
ColumnReader = Callable[[list[str], set[str]], "tuple[Columns, Runs] | None"]

# every byte a plain line may hold: printable ASCII (space included) and LF; anything else goes to Python
_PLAIN = bytes(range(0x20, 0x7F)) + b"\n"
# Numbers both sides read alike: optional minus, digits with an optional fraction (digits on both sides of
# the point) and exponent. Python also takes "+5", ".5", "5.", "inf", "nan", "1_0": those blocks go to Python.
_SCORE = r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$"
_RANK = r"^-?[0-9]{1,18}$"  # 18 digits fit in int64 whatever they are: no overflow to tell apart


def _load() -> ColumnReader | None:
    if os.environ.get("LABELER_NO_PYARROW"):
        return None
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.csv as csv
    except ImportError:
        return None

    names = ["topic", "q0", "unit", "rank", "score", "tag"]
    parse = csv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False, escape_char=False)
    convert = csv.ConvertOptions(
        column_types=dict.fromkeys(names, pa.string()),
        check_utf8=False,  # checked: every byte is ASCII
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )

    def columns(lines: list[str], tags: set[str]) -> tuple[Columns, Runs] | None:
        """A block's columns and topic runs when arrow reads it as Python would; else None."""
        text = "\n".join(lines)
        if not text.isascii():  # O(1)
            return None
        data = text.encode("ascii")
        if data.translate(None, _PLAIN):
            return None
        read = csv.ReadOptions(column_names=names, use_threads=False, block_size=len(data) + 1)
        try:
            table = csv.read_csv(pa.py_buffer(data), read_options=read, parse_options=parse, convert_options=convert)
        except pa.ArrowInvalid:  # a line without six fields
            return None
        # Six fields on every line (arrow refuses any other count), none empty: the fields of str.split(" "),
        # which are str.split()'s when none is empty and the only white space is " ". An empty line, which
        # arrow skips, shows in the row count.
        if (
            table.num_rows != len(lines)
            or min(pc.min(pc.binary_length(column)).as_py() for column in table.columns) < 1
        ):
            return None
        topic, unit, rank, score = (table.column(name) for name in ("topic", "unit", "rank", "score"))
        if (
            pc.any(pc.match_substring(topic, "#")).as_py()
            or pc.max(pc.binary_length(topic)).as_py() > MAX_ID_LENGTH
            or pc.max(pc.binary_length(unit)).as_py() > MAX_ID_LENGTH
            or not pc.all(pc.match_substring_regex(score, _SCORE)).as_py()
            or not pc.all(pc.match_substring_regex(rank, _RANK)).as_py()
        ):
            return None
        try:
            scores = pc.cast(score, pa.float64())
            ranks = pc.cast(rank, pa.int64())
        except pa.ArrowInvalid:
            return None
        if not pc.all(pc.is_finite(scores)).as_py():
            return None  # "1e999": Python's float() gives inf, which the Python reader refuses with its line
        # 18 digits always fit in int64: no range to check. Where the topic changes, and the topic of each run of
        # lines, found by arrow: no Python string is made for the other lines' topics.
        size = table.num_rows
        # (no Python list handed to arrow: converting one imports pandas, when installed, for its type checks)
        after = topic.slice(1)
        changed = pc.not_equal(after, topic.slice(0, size - 1))
        starts = [0, *(index + 1 for index in pc.indices_nonzero(changed).to_pylist()), size]
        topic_ids = [topic[0].as_py(), *pc.filter(after, changed).to_pylist()]
        tags.update(pc.unique(table.column("tag")).to_pylist())
        return (topic_ids, unit.to_pylist(), scores.to_pylist(), ranks.to_pylist()), (topic_ids, starts)

    return columns


_reader: list[ColumnReader | None] = []


def reader() -> ColumnReader | None:
    """The arrow column reader, or None when pyarrow is not importable or `LABELER_NO_PYARROW` is set.

    The import is tried once per process; the environment variable is read on every call.
    """
    if os.environ.get("LABELER_NO_PYARROW"):
        return None
    if not _reader:
        _reader.append(_load())
    return _reader[0]

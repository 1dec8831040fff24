"""The TREC reader's paths agree: pyarrow on whole file blocks, C calls over columns per part, line by line.

Every file is read four ways: as is, with tiny file blocks (so topics, errors and comments fall across
block boundaries), with the column path and pyarrow turned off (each line read alone, as the reader
always did), and with pyarrow taking every block it can, whatever the file's size (when pyarrow is
installed). The blocks, the counts and the error (message and line) must be the same.
"""

from __future__ import annotations

import math
import random
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeler.errors import RunFormatError
from labeler.formats import arrow_columns, trec_runs
from labeler.formats.lines import ReadLimits, reading_limits
from labeler.formats.runs import DuplicateUnit, RunBlock, RunReader, canonical_ranking


def read(path):
    try:
        reader = RunReader(path)
    except RunFormatError as exc:  # refused before any block: an empty run, a first line no format reads
        return None, (str(exc), exc.line), [], 0, 0
    try:
        # repr: -0.0 == 0.0, but a score's sign is kept and must be the same
        blocks = [(b.topic_id, b.first_line, b.units, list(map(repr, b.scores)), b.ranks) for b in reader.blocks()]
        error = None
    except RunFormatError as exc:
        blocks, error = None, (str(exc), exc.line)
    return blocks, error, sorted(reader.tags), reader.line_count, reader.extra_fields_lines


def read_by_line(path, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setenv("LABELER_NO_PYARROW", "1")
        patch.setattr(trec_runs, "_columns", lambda lines, tags: None)
        return read(path)


def read_with_arrow(path, monkeypatch, *, small=False):
    """Read with pyarrow offered every file block (the reader's usual thresholds keep it for large files)."""
    with monkeypatch.context() as patch:
        patch.delenv("LABELER_NO_PYARROW", raising=False)
        patch.setattr(trec_runs, "ARROW_MIN_BYTES", 0)
        patch.setattr(trec_runs, "ARROW_MIN_LINES", 1)
        if small:
            patch.setattr(trec_runs, "PART_LINES", 7)
            with reading_limits(ReadLimits(max_line_bytes=700)):
                return read(path)
        return read(path)


def read_three_ways(path, monkeypatch):
    """Three ways, then pyarrow's (as is and in tiny blocks) required to give the first's result."""
    whole = read(path)
    with reading_limits(ReadLimits(max_line_bytes=700)), monkeypatch.context() as patch:
        patch.setattr(trec_runs, "PART_LINES", 7)  # parts cut inside the file's blocks too
        small = read(path)
    by_line = read_by_line(path, monkeypatch)
    if arrow_columns.reader() is not None:
        assert read_with_arrow(path, monkeypatch) == whole
        assert read_with_arrow(path, monkeypatch, small=True) == whole
    return whole, small, by_line


ODD_LINES = [
    "# a comment",
    "",
    "   ",
    "1 Q0 x 1 2.0 tag extra words",
    "1\tQ0\tt 1 2.0 tag",
    "1  Q0 two-spaces 1 2.0 tag",
    " 1 Q0 leading 1 2.0 tag",
    "1 Q0 trailing 1 2.0 tag ",
    "1 Q0 d#hash 1 2.0 tag",
]
BAD_LINES = [
    "1 Q0 short 1 2.0",
    "1 Q0 u\u00a0nbsp 1 2.0 tag",
    "1 Q0 x\x1fy 1 2.0 tag",
    "1 Q0 bad 1 nan tag",
    "1 Q0 bad 1 1_0 tag",
    "1 Q0 bad x 2.0 tag",
    "1 Q0 bad 99999999999999999999 2.0 tag",
    "1 Q0 bad \u0663 2.0 tag",
    "1 Q0 " + "u" * 600 + " 1 2.0 tag",
    "t\u200bopic Q0 x 1 2.0 tag",
]


def generated(seed: int, odd: bool, bad: bool) -> str:
    rng = random.Random(seed)
    lines = []
    for topic in rng.sample(range(1, 40), rng.randint(1, 6)) * rng.choice((1, 2)):  # some topics split in the file
        score = rng.uniform(5, 10)
        for rank in range(1, rng.randint(1, 30)):
            lines.append(f"{topic} Q0 D{rng.randrange(60)} {rank} {score:.2f} t{rng.randrange(3)}")
            if rng.random() > 0.3:
                score -= rng.choice((0.0, 0.01, 0.5))
            if odd and rng.random() < 0.05:
                lines.append(rng.choice(ODD_LINES))
    if bad:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(BAD_LINES))
    return "\n".join(lines) + rng.choice(("\n", ""))


@pytest.mark.parametrize("seed", range(60))
def test_column_and_line_paths_agree(seed, write, monkeypatch):
    path = write("run.txt", generated(seed, odd=seed % 3 != 0, bad=seed % 2 == 1))
    whole, small, by_line = read_three_ways(path, monkeypatch)
    assert whole == small == by_line


@pytest.mark.parametrize("line", BAD_LINES)
def test_a_bad_line_after_whole_blocks_is_reported_at_its_line(line, write, monkeypatch):
    good = "".join(f"{t} Q0 d{i} {i} {10 - i}.5 tag\n" for t in (1, 2) for i in range(5))
    path = write("run.txt", good * 40 + line + "\n" + good)
    whole, small, by_line = read_three_ways(path, monkeypatch)
    assert whole == small == by_line
    assert whole[1] is not None and whole[1][1] == 401


def reference_ranking(block: RunBlock, dedupe: str = "error"):
    """canonical_ranking as it was written first: a stable sort on (score, unit), descending."""
    units, scores, ranks = block.units, block.scores, block.ranks
    if dedupe == "first":
        keep: dict[str, int] = {}
        for index, unit in enumerate(units):
            keep.setdefault(unit, index)
        indexes = sorted(keep.values())
        units, scores, ranks = [units[i] for i in indexes], [scores[i] for i in indexes], [ranks[i] for i in indexes]
    order = sorted(range(len(units)), key=lambda i: (scores[i], units[i]), reverse=True)
    return tuple(units[i] for i in order), tuple(scores[i] for i in order), tuple(ranks[i] for i in order)


@pytest.mark.parametrize("seed", range(200))
def test_canonical_ranking_matches_the_plain_sort(seed):
    rng = random.Random(seed)
    size = rng.randint(0, 40)
    pool = [f"d{i}" for i in range(rng.randint(max(size, 1), 3 * size + 1))]
    units = rng.sample(pool, size)
    scores = sorted((rng.choice((0.0, -0.0, 1.0, 2.5, rng.uniform(-3, 3))) for _ in range(size)), reverse=True)
    if seed % 2:
        rng.shuffle(scores)
    if seed % 5 == 0 and units:  # a repeated id, kept first or refused
        units.append(units[0])
        scores.append(0.5)
    block = RunBlock("1", 1, units, scores, list(range(1, len(units) + 1)))
    if len(set(units)) != len(units):
        with pytest.raises(DuplicateUnit):
            canonical_ranking(block)
        dedupe = "first"
    else:
        dedupe = "error"
    ranking = canonical_ranking(block, dedupe)
    assert (ranking.units, ranking.scores, ranking.ranks) == reference_ranking(block, dedupe)
    assert all(type(value) is tuple for value in (ranking.units, ranking.scores, ranking.ranks))


# -- pyarrow's path (labeler/formats/arrow_columns.py) changes no result, and is optional ------------------------
# Odd numbers (`+5`, `.5`, `1e3`, `inf`, `nan`, `-0`, huge integers, ...) and white space variants are read
# with pyarrow offered every block and with pure Python: the blocks (scores by repr, so -0.0 is not 0.0),
# tags, counts and errors (message and line) must be identical.

needs_arrow = pytest.mark.skipif(arrow_columns.reader() is None, reason="pyarrow not installed")

ODD_NUMBERS = [
    "+5",
    ".5",
    "5.",
    "1e3",
    "1E3",
    "1e+3",
    "1e-3",
    "1.5e308",
    "1e400",
    "-1e400",
    "inf",
    "-inf",
    "Infinity",
    "nan",
    "NaN",
    "-0",
    "-0.0",
    "0",
    "00012",
    "-00",
    "1_0",
    "0x10",
    "1.2.3",
    "--1",
    "-",
    "e5",
    "123456789012345678",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999",
    "0.1000000000000000055511151231257827",
    "2.2250738585072011e-308",
    "4.9e-324",
    "1e-400",
    "\u0663",
    "\uff11",
]
numbers = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.17e}"),
    st.decimals(allow_nan=False, allow_infinity=False, places=12).map(str),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.text("0123456789.eE+-", min_size=1, max_size=12),
)
separators = st.sampled_from([" ", " ", " ", " ", "  ", "\t", " \t", "\x0b", "\u00a0", "\x1f"])
ids = st.one_of(
    st.sampled_from(["1", "2", "301", "d1", "D#2", "#x", "a" * 513]), st.text("ab#12", min_size=1, max_size=4)
)


@st.composite
def run_lines(draw):
    lines = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(st.sampled_from(["", " ", "# comment", "1 Q0 x 1 2.0", "1 Q0 x 1 2.0 t extra"])))
            continue
        fields = [draw(ids), "Q0", draw(ids), draw(numbers), draw(numbers), "tag"]
        if kind < 6:  # mostly plain lines with good numbers, so that whole blocks reach arrow
            fields[3], fields[4] = str(draw(st.integers(-5, 10**6))), repr(draw(st.floats(-1e6, 1e6)))
        line = fields[0]
        for field in fields[1:]:
            line += (draw(separators) if kind == 9 else " ") + field
        if kind == 8:
            line = draw(st.sampled_from([" ", "", "\t"])) + line + draw(st.sampled_from([" ", "", "\t"]))
        lines.append(line)
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@needs_arrow
# 60 generated files: each mixes plain blocks (arrow reads), odd numbers and separators (the fallback) and
# comments and blank lines, so every path is hit in each few examples; more examples only repeat them.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=run_lines())
def test_arrow_and_python_agree_on_odd_numbers_and_white_space(text, monkeypatch):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.txt"
        path.write_text(text, encoding="utf-8")
        with_arrow = read_with_arrow(path, monkeypatch)
        assert with_arrow == read_by_line(path, monkeypatch)
        with reading_limits(ReadLimits(max_line_bytes=700)):  # the limit tiny blocks come with, on both sides
            assert read_with_arrow(path, monkeypatch, small=True) == read_by_line(path, monkeypatch)


@needs_arrow
@pytest.mark.parametrize("number", ODD_NUMBERS)
def test_each_odd_number_as_a_score_and_a_rank(number, write, monkeypatch):
    good = "".join(f"1 Q0 d{i} {i} {10 - i}.5 tag\n" for i in range(5))
    for line in (f"1 Q0 x 7 {number} tag", f"1 Q0 x {number} 2.5 tag"):
        path = write("run.txt", good + line + "\n" + good.replace("1 Q0", "2 Q0"))
        assert read_with_arrow(path, monkeypatch) == read_by_line(path, monkeypatch) == read(path)


@needs_arrow
def test_arrow_reads_plain_blocks(write, monkeypatch):
    """Not a vacuous agreement: plain blocks are read by arrow, not handed back."""
    taken = []
    real = arrow_columns.reader()

    def spy(lines, tags):
        columns = real(lines, tags)
        taken.append(columns is not None)
        return columns

    monkeypatch.setattr(arrow_columns, "reader", lambda: spy)
    path = write("run.txt", "".join(f"{t} Q0 d{i} {i} {-i}.25 tag{t % 2}\n" for t in (3, 1, 2) for i in range(50)))
    with_arrow = read_with_arrow(path, monkeypatch)
    assert taken == [True]
    assert with_arrow == read_by_line(path, monkeypatch)
    assert with_arrow[2] == ["tag0", "tag1"]
    assert with_arrow[0][0][:2] == ("3", 1) and with_arrow[0][1][:2] == ("1", 51)


def test_without_pyarrow_the_python_reader_runs(write, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    monkeypatch.setattr(arrow_columns, "_reader", [])
    monkeypatch.delenv("LABELER_NO_PYARROW", raising=False)
    assert arrow_columns.reader() is None
    monkeypatch.setattr(trec_runs, "ARROW_MIN_BYTES", 0)
    monkeypatch.setattr(trec_runs, "ARROW_MIN_LINES", 1)
    path = write("run.txt", "1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n2 Q0 a 1 0.5 t\n")
    blocks = [(b.topic_id, b.first_line, b.units) for b in RunReader(path).blocks()]
    assert blocks == [("1", 1, ["a", "b"]), ("2", 3, ["a"])]


def test_the_environment_variable_turns_pyarrow_off(monkeypatch):
    monkeypatch.setenv("LABELER_NO_PYARROW", "1")
    assert arrow_columns.reader() is None


plain_numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.25e}"),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.from_regex(r"\A-?[0-9]{1,40}(\.[0-9]{1,40})?([eE][-+]?[0-9]{1,3})?\Z"),
)


@needs_arrow
# 60 lists of up to 30 numbers in four spellings (repr, long exponent, decimal, free digits): every grammar
# both readers accept and its edges; more examples only repeat them.
@settings(max_examples=60, deadline=None)
@given(scores=st.lists(plain_numbers, min_size=1, max_size=30), ranks=st.lists(st.from_regex(r"\A-?[0-9]{1,19}\Z")))
def test_arrow_reads_numbers_as_python_does(scores, ranks):
    """Where arrow takes a block, each score is Python's float() of its text and each rank its int(), bit for bit."""
    ranks = (ranks * len(scores))[: len(scores)] or ["1"] * len(scores)
    lines = [f"1 Q0 d{i} {rank} {score} t" for i, (rank, score) in enumerate(zip(ranks, scores, strict=True))]
    read = arrow_columns.reader()(lines, set())
    columns = None if read is None else read[0]
    floats = [float(score) for score in scores]
    if all(map(math.isfinite, floats)) and all(len(rank.lstrip("-")) <= 18 for rank in ranks):
        assert columns is not None  # the grammar both agree on, within range: arrow's
    if columns is not None:
        assert list(map(repr, columns[2])) == list(map(repr, floats))
        assert list(columns[3]) == [int(rank) for rank in ranks]


@needs_arrow
def test_arrow_path_does_not_import_pandas(write):
    """pyarrow imports pandas when handed a Python list to convert: the arrow path never does that (~0.3 s)."""
    import subprocess

    path = write("run.txt", "".join(f"{t} Q0 d{i} {i} {-i}.25 tag\n" for t in (3, 1, 2) for i in range(50)))
    code = (
        "import sys\n"
        "from labeler.formats import trec_runs\n"
        "from labeler.formats.runs import RunReader\n"
        "trec_runs.ARROW_MIN_BYTES, trec_runs.ARROW_MIN_LINES = 0, 1\n"
        f"assert len(list(RunReader({str(path)!r}).blocks())) == 3\n"
        "assert 'pyarrow' in sys.modules and 'pandas' not in sys.modules, sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

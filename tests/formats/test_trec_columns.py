"""The TREC reader's two paths, a block of lines at a time (C calls over columns) and line by line, agree.

Every file is read three ways: as is, with tiny file blocks (so topics, errors and comments fall across
block boundaries), and with the column path turned off (each line read alone, as the reader always did).
The blocks, the counts and the error (message and line) must be the same.
"""

from __future__ import annotations

import random

import pytest

from labeler.errors import RunFormatError
from labeler.formats import trec_runs
from labeler.formats.lines import ReadLimits, reading_limits
from labeler.formats.runs import DuplicateUnit, RunBlock, RunReader, canonical_ranking


def read(path):
    reader = RunReader(path)
    try:
        blocks = [(b.topic_id, b.first_line, b.units, b.scores, b.ranks) for b in reader.blocks()]
        error = None
    except RunFormatError as exc:
        blocks, error = None, (str(exc), exc.line)
    return blocks, error, sorted(reader.tags), reader.line_count, reader.extra_fields_lines


def read_three_ways(path, monkeypatch):
    whole = read(path)
    with reading_limits(ReadLimits(max_line_bytes=700)), monkeypatch.context() as patch:
        patch.setattr(trec_runs, "PART_LINES", 7)  # parts cut inside the file's blocks too
        small = read(path)
    with monkeypatch.context() as patch:
        patch.setattr(trec_runs, "_columns", lambda lines, tags: None)
        by_line = read(path)
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

"""Property tests: arbitrary input never crashes an importer, and a valid run round-trips.

(a) Whatever bytes a file holds (random bytes, or text built from tokens each format cares about,
with odd line endings, BOMs, gzip, truncation), an import exits 0 or 1, with no exception and no
traceback; exit 1 prints `Error: FILE...` and leaves the workbench byte-for-byte unchanged.
(b) A random valid TREC run imports, and its stored ranking per topic is the canonical order of what
was written: score descending, ties broken by unit id descending in UTF-8 byte order.

Each example copies the baseline workbench into a fresh folder, so examples do not see each other.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

import pytest
from badinput_support import (
    Unchanged,
    assert_no_crash,
    command,
    copy_workbench,
    invoke,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeler.ids import is_valid_id, normal_id
from labeler.store import Store

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Tokens the readers look at, and the ones that went wrong before.
TOKENS = [
    "301",
    "302",
    "Q0",
    "0",
    "d1",
    "d2",
    "d#1",
    "#",
    "#c",
    "1",
    "-1",
    "+2",
    "2.5",
    "1e3",
    "nan",
    "inf",
    "-Infinity",
    "1e999",
    "1_0",
    "\u0663",
    "\uff11",
    "99999999999999999999",
    "query-id",
    "corpus-id",
    "score",
    "id",
    "chunk_id",
    "doc_id",
    "threshold",
    "<top>",
    "</top>",
    "<num>",
    "<title>",
    "<desc>",
    "Number:",
    "{",
    "}",
    "[",
    "]",
    '"',
    ":",
    ",",
    "\ud800",
    "\u00a0",
    "\u3000",
    "\x1c",
    "\x85",
    "\x00",
    "\ufeff",
    "\r",
    "é",
]
JSON_KEYS = [
    "id",
    "_id",
    "text",
    "title",
    "qid",
    "query_id",
    "docno",
    "doc_id",
    "chunk_id",
    "score",
    "rank",
    "start",
    "end",
    "grades",
    "threshold",
    "grade",
    "label",
    "name",
]

tokens = st.one_of(st.sampled_from(TOKENS), st.text(max_size=4))
lines = st.lists(tokens, max_size=8).flatmap(
    lambda parts: st.sampled_from([" ", "\t", "  "]).map(lambda sep: sep.join(parts))
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**19, max_value=10**40),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(TOKENS),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(JSON_KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)
json_lines = st.dictionaries(st.sampled_from(JSON_KEYS), json_values, max_size=5).map(json.dumps)


@st.composite
def file_bytes(draw, line_strategy) -> bytes:
    """Lines of the strategy (or random bytes), with random endings, BOM, gzip and truncation."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=300))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = ending.join(draw(st.lists(line_strategy, max_size=8)))
    if draw(st.booleans()):
        text += ending
    if draw(st.integers(0, 5)) == 0:
        text = "\ufeff" + text
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes that are not UTF-8
    # (in a JSON line it is written as a "\\ud800" escape, which decodes to a lone surrogate)
    if draw(st.integers(0, 5)) == 0:
        data = gzip.compress(data, mtime=0)
    if data and draw(st.integers(0, 5)) == 0:  # overwrite a byte (in gzip: corrupt the stream)
        index = draw(st.integers(0, len(data) - 1))
        data = data[:index] + bytes([draw(st.integers(0, 255))]) + data[index + 1 :]
    if draw(st.integers(0, 5)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    return data


CASES = [  # (importer, file name, lines that look like its format)
    ("run", "input.run", lines),
    ("run", "input.jsonl", json_lines),
    ("qrels", "input.qrels", lines),
    ("topics", "input.tsv", lines),
    ("topics", "input.jsonl", json_lines),
    ("corpus", "input.tsv", lines),
    ("corpus", "input.jsonl", json_lines),
    ("mapping", "input.tsv", lines),
    ("derive", "input.txt", lines),
    ("scale", "input.tsv", lines),
    ("scale", "input.json", json_lines),
]


@pytest.mark.parametrize(("importer", "name", "line_strategy"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_arbitrary_input_is_imported_or_refused_cleanly(baseline, tmp_path, importer, name, line_strategy):
    @SETTINGS
    @given(data=file_bytes(line_strategy))
    def check(data: bytes) -> None:
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        db = copy_workbench(baseline, folder)
        path = folder / name
        path.write_bytes(data)
        before = Unchanged(db)
        result = invoke(db, command(importer, path))
        assert_no_crash(result)
        if result.exit_code == 1:
            assert result.stderr.startswith(f"Error: {path}"), result.stderr
            before.assert_unchanged()

    check()


# what the id rule (labeler.ids) allows: no white space, control, invisible, private-use or unassigned characters
id_chars = st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cn"))
# in NFC, the form ids are stored in (ids not in NFC are the NFC tests' business: tests/badinput/test_badinput_rules.py)
ids = st.text(id_chars, min_size=1, max_size=10).filter(lambda s: is_valid_id(s) and normal_id(s) == s)
# A topic id leads its line: '#' would make it a comment, '{' a JSONL file, U+FEFF a byte-order mark.
topic_ids = ids.filter(lambda s: s[0] not in "#{\ufeff")
scores = st.floats(allow_nan=False, allow_infinity=False)


@st.composite
def trec_runs(draw):
    """{topic: [(unit, score text, rank)]} and the TREC text of it, lines in any order."""
    run = draw(
        st.dictionaries(
            topic_ids,
            st.lists(
                st.tuples(ids, scores, st.integers(-(2**63), 2**63 - 1)),
                min_size=1,
                max_size=8,
                unique_by=lambda e: e[0],
            ),
            min_size=1,
            max_size=4,
        )
    )
    score_format = draw(st.sampled_from([repr, "{:.6g}".format, "{:.17e}".format]))
    rows = [(topic, unit, score_format(score), rank) for topic, entries in run.items() for unit, score, rank in entries]
    rows = draw(st.permutations(rows))  # a topic split across the file is merged
    sep = draw(st.sampled_from([" ", "\t", " \t "]))
    lines = [sep.join([topic, "Q0", unit, str(rank), score, "tag"]) for topic, unit, score, rank in rows]
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), "# a comment line")
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return rows, ending.join(lines) + ending


@SETTINGS
@given(run=trec_runs(), compress=st.booleans())
def test_a_valid_trec_run_is_stored_in_canonical_order(baseline, tmp_path, run, compress):
    rows, text = run
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    db = copy_workbench(baseline, folder)
    path = folder / "run.trec"
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if compress else data)
    result = invoke(db, ["runs", "import", path, "--name", "r"])
    assert_no_crash(result)
    assert result.exit_code == 0, result.stderr
    expected: dict[str, list[tuple[float, bytes, str]]] = {}
    for topic, unit, score, _ in rows:
        expected.setdefault(topic, []).append((float(score), unit.encode("utf-8"), unit))
    with Store(db) as store:
        stored = store.rankings("r")
        assert set(stored) == set(expected)
        for topic, entries in expected.items():
            entries.sort(key=lambda e: (e[0], e[1]), reverse=True)  # score desc, then id desc by UTF-8 bytes
            assert stored[topic].units == tuple(e[2] for e in entries)
            assert stored[topic].scores == tuple(e[0] for e in entries)

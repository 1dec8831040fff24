"""Reading TREC and JSONL runs: canonical order, duplicates, and every malformed line."""

from __future__ import annotations

import gzip

import pytest

from labeler.errors import RunFormatError
from labeler.formats.runs import DuplicateUnit, RunBlock, RunReader, canonical_ranking


def blocks(path):
    return [(b.topic_id, b.units, b.scores, b.ranks) for b in RunReader(path).blocks()]


def test_blocks_follow_file_order_and_keep_hash_inside_ids(write):
    path = write("run.txt", "# a comment line\n1 Q0 d#1 1 2.5 tag\n1 Q0 d#2 2 1.5 tag\n\n2 Q0 x 1 3 tag\n")
    assert blocks(path) == [("1", ["d#1", "d#2"], [2.5, 1.5], [1, 2]), ("2", ["x"], [3.0], [1])]


def test_canonical_order_is_score_descending_then_id_descending():
    # a, b, c tie at 1.0: trec_eval ranks c, b, a (ids descending); the rank column is ignored.
    block = RunBlock("1", 1, ["a", "b", "c", "z"], [1.0, 1.0, 1.0, 0.5], [1, 2, 3, 4])
    ranking = canonical_ranking(block)
    assert ranking.units == ("c", "b", "a", "z")
    assert ranking.ranks == (3, 2, 1, 4)


def test_duplicate_is_refused_by_default_and_first_kept_on_request():
    block = RunBlock("7", 1, ["a", "b", "a"], [3.0, 2.0, 1.0], [1, 2, 3])
    with pytest.raises(DuplicateUnit) as info:
        canonical_ranking(block)
    assert (info.value.topic_id, info.value.unit_id) == ("7", "a")
    ranking = canonical_ranking(block, "first")
    assert ranking.units == ("a", "b") and ranking.scores == (3.0, 2.0) and ranking.dropped_duplicates == 1


def test_text_after_the_sixth_field_is_ignored_and_counted(write):
    path = write("run.txt", "1 Q0 a 1 2.0 tag trailing words\n1 Q0 b 2 1.0 tag\n")
    reader = RunReader(path)
    assert [b.units for b in reader.blocks()] == [["a", "b"]]
    assert reader.extra_fields_lines == 1


def test_gzip_crlf_and_bom_are_read(write, tmp_path):
    text = "\ufeff1 Q0 a 1 2.0 t\r\n1 Q0 b 2 1.0 t\r\n"
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    assert blocks(path) == [("1", ["a", "b"], [2.0, 1.0], [1, 2])]


def test_jsonl_run(write):
    path = write(
        "run.jsonl", '{"qid": 1, "docno": "a", "score": 2}\n{"qid": "1", "docno": "b", "score": 1.5, "rank": 9}\n'
    )
    reader = RunReader(path)
    assert reader.format == "jsonl"
    blocks = [(b.topic_id, b.units, b.scores, b.ranks) for b in reader.blocks()]
    assert blocks == [("1", ["a", "b"], [2.0, 1.5], [1, 9])]


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("1 Q0 a 1 2.0\n", r":1: expected 6 fields .* found 5"),  # a missing column
        ("1 Q0 a 1 2.0 t\n1 Q0 b 2 high t\n", r":2: score 'high' is not a number"),  # non-numeric score
        ("1 Q0 a 1 nan t\n", r":1: score 'nan' is not a finite number"),  # NaN
        ("1 Q0 a 1 -inf t\n", r":1: score '-inf' is not a finite number"),  # infinity
        ("1 Q0 a 1 1_000 t\n", r":1: score '1_000' is not a finite number"),  # Python-only float syntax
        ("1 Q0 a 0.9 1 t\n", r":1: rank '0.9' is not an integer"),  # swapped rank and score columns
        ("", r"empty run: no result lines"),  # empty file
        ("   \n\n# only a comment\n", r"empty run: no result lines"),  # whitespace and comments only
        (b"1 Q0 a 1 2.0 t\n1 Q0 \xff 2 1.0 t\n", r":2: not valid UTF-8"),  # bad encoding
        (b"1 Q0 a 1 2.0 t\n1 Q0 b\x00 2 1.0 t\n", r":2: contains a NUL byte"),  # binary content
        ('{"qid": 1, "docno": "a"}\n', r":1: score must be a number, found null"),  # JSONL without score
        ('{"qid": 1, "docno": "a", "score": 1}\n{"qid": 1,\n', r":2: invalid JSON"),  # broken JSONL line
        ('{"docno": "a", "score": 1}\n', r":1: no topic"),  # JSONL without topic
    ],
)
def test_malformed_runs_name_line_and_reason(write, content, match):
    path = write("bad.run", content)
    with pytest.raises(RunFormatError, match=match):
        list(RunReader(path).blocks())


def test_find_line_locates_the_second_occurrence(write):
    path = write("run.txt", "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 a 3 1 t\n")
    assert RunReader(path).find_line("1", "a", occurrence=2) == 3

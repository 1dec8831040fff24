"""Chunk mappings: read from a chunker's file, or derived from the chunk ids in a run."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from labeler.errors import MappingFormatError
from labeler.formats.mappings import derive_mapping, parent_of, read_mapping
from labeler.models import Chunk

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance" / "trec_eval"
SEGMENT = "msmarco_v2.1_doc_50_2286987788#13_3087841662"
SEGMENT_PARENT = "msmarco_v2.1_doc_50_2286987788"


def write(folder: Path, name: str, text: str, *, encoding: str = "utf-8", newline: str = "\n") -> Path:
    path = folder / name
    data = text.replace("\n", newline).encode(encoding)
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


# -- read_mapping ----------------------------------------------------------


def test_columns_with_header_comments_and_hash_in_ids(tmp_path):
    path = write(
        tmp_path,
        "map.tsv",
        "chunk_id\tdoc_id\tstart\tend\n"
        "# written by my-chunker\n"
        f"{SEGMENT}\t{SEGMENT_PARENT}\t0\t120\n"
        "\n"
        "c2   d2   120 120\n"
        "c3 d2\n",
    )
    assert list(read_mapping(path)) == [
        (3, Chunk(SEGMENT, SEGMENT_PARENT, 0, 120)),
        (5, Chunk("c2", "d2", 120, 120)),
        (6, Chunk("c3", "d2")),
    ]


def test_jsonl_key_variants(tmp_path):
    path = write(
        tmp_path,
        "map.jsonl",
        '{"chunk_id": "c1", "doc_id": "d1", "start": 0, "end": 10, "text": "ignored"}\n'
        '{"id": 2, "docid": 1}\n'
        '{"chunk_id": "c3", "parent": "é", "start": null, "end": null}\n',
    )
    assert list(read_mapping(path)) == [
        (1, Chunk("c1", "d1", 0, 10)),
        (2, Chunk("2", "1")),
        (3, Chunk("c3", "é")),
    ]


def test_gzip_bom_crlf(tmp_path):
    path = write(tmp_path, "map.gz", "c1\td1\t0\t5\nc2\td1\t5\t9\n", encoding="utf-8-sig", newline="\r\n")
    assert list(read_mapping(path)) == [(1, Chunk("c1", "d1", 0, 5)), (2, Chunk("c2", "d1", 5, 9))]


@pytest.mark.parametrize(
    "name, text, match",
    [
        # three columns: offsets must come in pairs
        ("m.tsv", "c1 d1\nc2 d1 5\n", r"m\.tsv:2: expected 2 or 4 fields \(chunk_id doc_id \[start end\]\), found 3"),
        # one column
        ("m.tsv", "c1\n", r"m\.tsv:1: expected 2 or 4 fields .*found 1"),
        # an offset that is not an integer
        ("m.tsv", "c1 d1 0 1.5\n", r"m\.tsv:1: end offset must be an integer, found '1\.5'"),
        # a negative offset
        ("m.tsv", "c1 d1 -1 4\n", r"m\.tsv:1: chunk c1: offsets must not be negative, found -1\.\.4"),
        # end before start
        ("m.tsv", "c1 d1 0 5\nc2 d1 9 5\n", r"m\.tsv:2: chunk c2: end 5 is before start 9"),
        # the same chunk twice
        ("m.tsv", "c1 d1\nc2 d1\n\nc1 d2\n", r"m\.tsv:4: chunk c1 appears twice \(first at line 1\)"),
        # JSONL: start without end
        (
            "m.jsonl",
            '{"chunk_id": "c1", "doc_id": "d1", "start": 3}\n',
            r"m\.jsonl:1: chunk c1 has a start offset but no end \(give both or neither\)",
        ),
        # JSONL: end without start
        (
            "m.jsonl",
            '{"chunk_id": "c1", "doc_id": "d1", "end": 3}\n',
            r"m\.jsonl:1: chunk c1 has an end offset but no start",
        ),
        # JSONL: an offset of the wrong type
        (
            "m.jsonl",
            '{"chunk_id": "c1", "doc_id": "d1", "start": "0", "end": 3}\n',
            r'm\.jsonl:1: "start" must be an integer, found a string',
        ),
        # JSONL: a negative offset
        (
            "m.jsonl",
            '{"chunk_id": "c1", "doc_id": "d1", "start": 0, "end": -3}\n',
            r"m\.jsonl:1: .*must not be negative",
        ),
        # JSONL: no chunk id
        ("m.jsonl", '{"doc_id": "d1"}\n', r'm\.jsonl:1: expected a chunk id key \("chunk_id" or "id"\), found none'),
        # JSONL: no document id
        (
            "m.jsonl",
            '{"chunk_id": "c1", "doc": "d1"}\n',
            r'm\.jsonl:1: expected a document id key \("doc_id" or "docid" or "parent"\), found none',
        ),
        # JSONL: an id with a space
        ("m.jsonl", '{"chunk_id": "c 1", "doc_id": "d1"}\n', r"m\.jsonl:1: chunk id 'c 1' contains white space"),
        # JSONL: not JSON
        ("m.jsonl", '{"chunk_id": "c1", "doc_id": "d1"}\n{chunk_id: c2}\n', r"m\.jsonl:2: invalid JSON"),
        # JSONL: a duplicate chunk id
        (
            "m.jsonl",
            '{"chunk_id": "c1", "doc_id": "d1"}\n{"id": "c1", "doc_id": "d2"}\n',
            r"m\.jsonl:2: chunk c1 appears twice \(first at line 1\)",
        ),
    ],
)
def test_read_mapping_errors(tmp_path, name, text, match):
    with pytest.raises(MappingFormatError, match=match):
        list(read_mapping(write(tmp_path, name, text)))


@pytest.mark.parametrize("text", ["", "# just a comment\n\n", "chunk_id doc_id\n"])
def test_read_mapping_empty(tmp_path, text):
    with pytest.raises(MappingFormatError, match=r"m\.tsv: no chunks found$"):
        list(read_mapping(write(tmp_path, "m.tsv", text)))


# -- parent_of -------------------------------------------------------------


@pytest.mark.parametrize(
    "chunk_id, separator, expected",
    [
        (SEGMENT, "#", SEGMENT_PARENT),  # MS MARCO v2.1 segment
        ("d1#2#3", "#", "d1"),  # the first separator counts
        ("d1", "#", None),  # no separator
        ("#3", "#", None),  # nothing before it
        ("d1#", "#", None),  # nothing after it
        ("d1::p3", "::", "d1"),  # another separator
        ("d1#p3", "::", None),  # the separator asked for is absent
    ],
)
def test_parent_of(chunk_id, separator, expected):
    assert parent_of(chunk_id, separator) == expected


def test_parent_of_refuses_an_empty_separator():
    with pytest.raises(ValueError, match="separator"):
        parent_of("d1#1", "")


# -- derive_mapping --------------------------------------------------------


def test_derive_from_run_keeps_first_seen_order(tmp_path):
    path = write(
        tmp_path,
        "run.txt",
        "# produced by bm25\n"
        "q1 Q0 d1#2 1 9.5 bm25\n"
        "q1 Q0 d1#1 2 9.0 bm25 extra-field\n"
        "q2 Q0 d1#2 1 3.0 bm25\n"
        "q2 Q0 d2#0 2 2.0 bm25\n",
    )
    assert list(derive_mapping(path)) == [
        (2, Chunk("d1#2", "d1")),
        (3, Chunk("d1#1", "d1")),
        (5, Chunk("d2#0", "d2")),
    ]


def test_derive_from_qrels_gz_crlf(tmp_path):
    path = write(tmp_path, "qrels.gz", "q1 0 d1#1 2\nq1 0 d2#1 0\nq2 0 d1#1 1\n", newline="\r\n")
    assert list(derive_mapping(path)) == [(1, Chunk("d1#1", "d1")), (2, Chunk("d2#1", "d2"))]


def test_derive_from_id_list_with_bom_and_custom_separator(tmp_path):
    path = write(tmp_path, "ids.txt", "dé::1\n\ndé::2\ndf::1\n", encoding="utf-8-sig")
    assert list(derive_mapping(path, separator="::")) == [
        (1, Chunk("dé::1", "dé")),
        (3, Chunk("dé::2", "dé")),
        (4, Chunk("df::1", "df")),
    ]


@pytest.mark.parametrize(
    "text, match",
    [
        # a chunk id with no separator
        ("d1#1\nd2\n", r"ids:2: chunk id d2 does not name its parent \(no '#'\)"),
        # a chunk id with nothing after the separator
        ("q1 Q0 d1# 1 1.0 r\n", r"ids:1: chunk id d1# does not name its parent \(nothing before or after '#'\)"),
        # 5 fields: neither a run nor qrels
        (
            "q1 Q0 d1#1 1 1.0\n",
            r"ids:1: expected a TREC run \(6 fields\), TREC qrels \(4 fields\) or one chunk id per line, found 5",
        ),
        # a run line that lost a field
        (
            "q1 Q0 d1#1 1 1.0 r\nq1 Q0 d1#2 2 r\n",
            r"ids:2: expected 6 or more fields like line 1 \(a TREC run\), found 5",
        ),
        # a qrels line with an extra field
        ("q1 0 d1#1 1\n\nq1 0 d1#2 1 x\n", r"ids:3: expected 4 fields like line 1 \(a TREC qrels file\), found 5"),
        # a list of ids with two ids on one line
        ("d1#1\nd1#2 d1#3\n", r"ids:2: expected 1 field like line 1 \(a list of ids\), found 2"),
    ],
)
def test_derive_mapping_errors(tmp_path, text, match):
    with pytest.raises(MappingFormatError, match=match):
        list(derive_mapping(write(tmp_path, "ids", text)))


@pytest.mark.parametrize("text", ["", "\n# nothing here\n"])
def test_derive_mapping_empty(tmp_path, text):
    with pytest.raises(MappingFormatError, match=r"ids: no chunk ids found$"):
        list(derive_mapping(write(tmp_path, "ids", text)))


def test_derive_from_the_msmarco_conformance_run():
    run = CONFORMANCE / "results.comment.test"
    chunks = [chunk for _, chunk in derive_mapping(run)]
    assert len(chunks) == 29_865
    assert len({chunk.chunk_id for chunk in chunks}) == 29_865
    assert len({chunk.doc_id for chunk in chunks}) == 11_891
    assert chunks[0] == Chunk(SEGMENT, SEGMENT_PARENT)
    assert all(chunk.chunk_id.startswith(chunk.doc_id + "#") for chunk in chunks)

"""Reading documents from TSV, JSONL and BEIR folders, streaming."""

from __future__ import annotations

import gzip
import types
from pathlib import Path

import pytest

from labeler.errors import CorpusFormatError
from labeler.formats.corpus import detect_corpus_format, read_corpus
from labeler.models import Document


def write(folder: Path, name: str, text: str, *, encoding: str = "utf-8", newline: str = "\n") -> Path:
    path = folder / name
    data = text.replace("\n", newline).encode(encoding)
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


def test_tsv_two_and_three_columns_with_header(tmp_path):
    path = write(
        tmp_path,
        "collection.tsv",
        "DocID\ttext\n"
        "d1\tplain text, no title\n"
        "\n"
        "d2\tA Title\tbody with ünïcödé\n"
        "#3\t\tthe id starts with a hash and the title is empty\n",
    )
    assert list(read_corpus(path)) == [
        (2, Document("d1", "", "plain text, no title")),
        (4, Document("d2", "A Title", "body with ünïcödé")),
        (5, Document("#3", "", "the id starts with a hash and the title is empty")),
    ]


def test_tsv_without_header_keeps_first_line(tmp_path):
    path = write(tmp_path, "c.tsv", "0\tzero\n1\tone\n")
    assert [doc.doc_id for _, doc in read_corpus(path)] == ["0", "1"]


def test_only_the_first_line_can_be_a_header(tmp_path):
    path = write(tmp_path, "c.tsv", "id\ttext\nid\ta document whose id is 'id'\n")
    assert list(read_corpus(path)) == [(2, Document("id", "", "a document whose id is 'id'"))]


def test_jsonl_ids_titles_and_extra(tmp_path):
    path = write(
        tmp_path,
        "c.jsonl",
        '{"_id": "d1", "title": "T", "text": "body", "metadata": {"url": "http://x"}}\n'
        '{"id": 42, "text": ""}\n'
        '{"id": "d3", "_id": "other", "text": "日本語", "score": 1.5}\n',
    )
    assert list(read_corpus(path)) == [
        (1, Document("d1", "T", "body", {"metadata": {"url": "http://x"}})),
        (2, Document("42", "", "")),
        (3, Document("d3", "", "日本語", {"_id": "other", "score": 1.5})),
    ]


def test_beir_folder(tmp_path):
    write(tmp_path, "corpus.jsonl", '{"_id": "d1", "title": "", "text": "one"}\n')
    assert detect_corpus_format(tmp_path) == "beir"
    assert list(read_corpus(tmp_path)) == [(1, Document("d1", "", "one"))]


def test_beir_folder_errors_name_the_corpus_file(tmp_path):
    write(tmp_path, "corpus.jsonl", '{"_id": "d1", "title": "", "text": "one"}\nnot json\n')
    with pytest.raises(CorpusFormatError, match=r"corpus\.jsonl:2: invalid JSON"):
        list(read_corpus(tmp_path))


def test_gzip_bom_and_crlf(tmp_path):
    path = write(tmp_path, "c.tsv.gz", "id\ttitle\ttext\nd1\tTítulo\tcuerpo\n", encoding="utf-8-sig", newline="\r\n")
    assert detect_corpus_format(path) == "tsv"
    assert list(read_corpus(path)) == [(2, Document("d1", "Título", "cuerpo"))]


def test_jsonl_with_bom_and_crlf(tmp_path):
    path = write(tmp_path, "c.jsonl", '  {"id": "d1", "text": "x"}\n', encoding="utf-8-sig", newline="\r\n")
    assert detect_corpus_format(path) == "jsonl"
    assert list(read_corpus(path)) == [(1, Document("d1", "", "x"))]


def test_reads_lazily(tmp_path):
    """A bad line late in the file must not stop the documents before it."""
    path = write(tmp_path, "c.tsv", "d1\tone\nd2\ttwo\nbroken\n")
    documents = read_corpus(path)
    assert isinstance(documents, types.GeneratorType)
    assert next(documents) == (1, Document("d1", "", "one"))
    assert next(documents) == (2, Document("d2", "", "two"))
    with pytest.raises(CorpusFormatError, match=r"c\.tsv:3: expected 2 or 3"):
        next(documents)


def test_duplicate_ids_are_left_to_the_store(tmp_path):
    path = write(tmp_path, "c.tsv", "d1\tone\nd1\tagain\n")
    assert [doc.text for _, doc in read_corpus(path)] == ["one", "again"]


@pytest.mark.parametrize(
    "name, text, match",
    [
        # TSV: one field
        (
            "c.tsv",
            "d1\tok\nd2 no tab\n",
            r"c\.tsv:2: expected 2 or 3 tab-separated fields \(id, \[title,\] text\), found 1",
        ),
        # TSV: four fields
        ("c.tsv", "d1\ta\tb\tc\n", r"c\.tsv:1: expected 2 or 3 tab-separated fields .*found 4"),
        # TSV: a comment is not skipped, so it is a malformed line
        ("c.tsv", "d1\tok\n# comment\n", r"c\.tsv:2: expected 2 or 3 tab-separated fields .*found 1"),
        # TSV: empty id
        ("c.tsv", "d1\tok\n \ttext\n", r"c\.tsv:2: document id '' is empty"),
        # TSV: id with a space
        ("c.tsv", "d 1\ttext\n", r"c\.tsv:1: document id 'd 1' contains white space \(U\+0020\)"),
        # JSONL: invalid JSON
        ("c.jsonl", '{"id": "d1", "text": "x"}\n{"id": "d2", "text": "x"\n', r"c\.jsonl:2: invalid JSON"),
        # JSONL: not an object
        ("c.jsonl", '{"id": "d1", "text": "x"}\n"d2"\n', r"c\.jsonl:2: expected a JSON object, found a string"),
        # JSONL: no id
        ("c.jsonl", '{"docid": "d1", "text": "x"}\n', r'c\.jsonl:1: expected an "id" or "_id" key, found neither'),
        # JSONL: empty id
        ("c.jsonl", '{"id": "", "text": "x"}\n', r"c\.jsonl:1: document id '' is empty"),
        # JSONL: id with whitespace
        ("c.jsonl", '{"id": "d\\t1", "text": "x"}\n', r"c\.jsonl:1: document id 'd\\t1' contains white space"),
        # JSONL: id of the wrong type
        (
            "c.jsonl",
            '{"id": ["d1"], "text": "x"}\n',
            r"c\.jsonl:1: document id must be a string or an integer, found an array",
        ),
        # JSONL: no text
        ("c.jsonl", '{"id": "d1", "title": "x"}\n', r'c\.jsonl:1: document d1 has no "text" key'),
        # JSONL: text is not a string
        ("c.jsonl", '{"id": "d1", "text": null}\n', r'c\.jsonl:1: document d1: "text" must be a string, found null'),
        # JSONL: title is not a string
        (
            "c.jsonl",
            '{"id": "d1", "title": 3, "text": "x"}\n',
            r'c\.jsonl:1: document d1: "title" must be a string, found a number',
        ),
    ],
)
def test_errors(tmp_path, name, text, match):
    with pytest.raises(CorpusFormatError, match=match):
        list(read_corpus(write(tmp_path, name, text)))


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty file
        "\n  \n",  # blank lines only
        "doc_id\ttitle\ttext\n",  # a header and nothing else
    ],
)
def test_no_documents(tmp_path, text):
    with pytest.raises(CorpusFormatError, match=r"c\.tsv: no documents found$"):
        list(read_corpus(write(tmp_path, "c.tsv", text)))


def test_beir_folder_without_corpus(tmp_path):
    write(tmp_path, "queries.jsonl", '{"_id": "1", "text": "q"}\n')
    with pytest.raises(CorpusFormatError, match=r": expected a BEIR folder with corpus\.jsonl, found none"):
        list(read_corpus(tmp_path))


def test_missing_file(tmp_path):
    with pytest.raises(CorpusFormatError, match=r"nope\.tsv: no such file"):
        list(read_corpus(tmp_path / "nope.tsv"))


def test_nul_byte_names_the_line(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_bytes(b"d1\tok\nd2\tbad\x00\n")
    with pytest.raises(CorpusFormatError, match=r"c\.tsv:2: contains a NUL byte"):
        list(read_corpus(path))

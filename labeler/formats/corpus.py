"""Read a document collection: a BEIR folder, JSONL, or TSV, one line at a time.

Corpora run to millions of documents, so the reader is a generator that never
holds more than one line; duplicate ids are left to the store, which sees
them all anyway. The small JSON and id functions here are shared with the
topic and mapping readers so that every file obeys the same id rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

from labeler.errors import CorpusFormatError
from labeler.formats.fields import clean_id, json_object, json_type
from labeler.formats.lines import TextLines, data_lines
from labeler.models import Document

TSV_HEADER_IDS = {"id", "_id", "docid", "doc_id"}
JSON_ID_KEYS = ("id", "_id")


def detect_corpus_format(path: str | Path) -> str:
    """ "beir" (a folder), "jsonl" (the first line starts with `{`) or "tsv"."""
    path = Path(path)
    if path.is_dir():
        return "beir"
    with closing(data_lines(TextLines(path, CorpusFormatError), comments=False)) as rows:
        for _, text in rows:
            return "jsonl" if text.lstrip().startswith("{") else "tsv"
    return "tsv"


def _source(path: Path) -> Path:
    """The file inside a BEIR folder holding the documents."""
    for name in ("corpus.jsonl", "corpus.jsonl.gz"):
        if (path / name).is_file():
            return path / name
    raise CorpusFormatError("expected a BEIR folder with corpus.jsonl, found none", path=path)


def read_corpus(path: str | Path) -> Iterator[tuple[int, Document]]:
    """Yield `(line, Document)` for each document, streaming.

    Lines starting with `#` are data here, not comments: nothing marks
    comments in corpus files, and skipping them would silently drop documents.
    """
    kind = detect_corpus_format(path)
    source = _source(Path(path)) if kind == "beir" else Path(path)
    parse = _json_document if kind in ("beir", "jsonl") else _tsv_document
    found = False
    rows = data_lines(TextLines(source, CorpusFormatError), comments=False)
    for index, (number, text) in enumerate(rows):
        if index == 0 and kind == "tsv" and _is_header(text):
            continue
        found = True
        yield number, parse(text, source, number)
    if not found:
        raise CorpusFormatError("no documents found", path=source)


def _is_header(text: str) -> bool:
    return text.split("\t", 1)[0].strip().lower() in TSV_HEADER_IDS


def _tsv_document(text: str, path: Path, number: int) -> Document:
    fields = text.split("\t")
    if len(fields) not in (2, 3):
        raise CorpusFormatError(
            f"expected 2 or 3 tab-separated fields (id, [title,] text), found {len(fields)}",
            path=path,
            line=number,
        )
    doc_id = clean_id(fields[0], "document id", path=path, line=number, error=CorpusFormatError)
    title = fields[1] if len(fields) == 3 else ""
    return Document(doc_id, title, fields[-1])


def _json_document(text: str, path: Path, number: int) -> Document:
    record = json_object(text, path=path, line=number, error=CorpusFormatError)
    id_key = next((key for key in JSON_ID_KEYS if key in record), None)
    if id_key is None:
        raise CorpusFormatError('expected an "id" or "_id" key, found neither', path=path, line=number)
    doc_id = clean_id(record.pop(id_key), "document id", path=path, line=number, error=CorpusFormatError)
    if "text" not in record:
        raise CorpusFormatError(f'document {doc_id} has no "text" key', path=path, line=number)
    body = record.pop("text")
    title = record.pop("title", "")
    for key, value in (("title", title), ("text", body)):
        if not isinstance(value, str):
            raise CorpusFormatError(
                f'document {doc_id}: "{key}" must be a string, found {json_type(value)}',
                path=path,
                line=number,
            )
    return Document(doc_id, title, body, record)

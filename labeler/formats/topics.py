"""Read topics (queries) from the files people actually have.

TREC topic files, BEIR `queries.jsonl`, other JSONL and plain TSV all turn
into the same `Topic` values, so nobody has to convert a topic file before
labeling. Topic files are small, so the whole file is read at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from labeler.errors import TopicFormatError
from labeler.formats.fields import clean_id, json_object, json_type
from labeler.formats.lines import TextLines, data_lines, first_of_each
from labeler.models import Topic
from labeler.stems import LANGUAGE_KEYS, language_name, languages

JSON_ID_KEYS = ("id", "_id", "qid", "query_id", "topic_id", "num")
JSON_TITLE_KEYS = ("title", "text", "query")
JSON_DESCRIPTION_KEYS = ("description", "desc")
JSON_NARRATIVE_KEYS = ("narrative", "narr")
TSV_HEADER_IDS = {"id", "qid", "query_id", "topic_id", "_id"}

TREC_TAG = re.compile(r"<(/?)([A-Za-z]+)>")
TREC_TOP = re.compile(r"<top>", re.IGNORECASE)
# Old TREC files repeat the field's name inside it: "<num> Number: 301".
TREC_PREFIXES = {"num": "number:", "title": "topic:", "desc": "description:", "narr": "narrative:"}


def read_topics(path: str | Path) -> list[tuple[int, Topic]]:
    """Every topic with the line it starts on, in file order; the format is detected."""
    path = Path(path)
    if path.is_dir():
        path = _beir_queries(path)
        kind = "jsonl"
    else:
        kind = _detect(TextLines(path, TopicFormatError))
    lines = TextLines(path, TopicFormatError)
    readers = {"jsonl": _jsonl_topics, "trec": _trec_topics, "tsv": _tsv_topics}
    topics = list(readers[kind](lines, path))
    if not topics:
        raise TopicFormatError("no topics found", path=path)
    return topics


def _beir_queries(folder: Path) -> Path:
    for name in ("queries.jsonl", "queries.jsonl.gz"):
        if (folder / name).is_file():
            return folder / name
    raise TopicFormatError("expected a BEIR folder with queries.jsonl, found none", path=folder)


def _detect(lines: TextLines) -> str:
    """JSONL when the first data line opens an object, TREC when any line has `<top>`."""
    kind = None
    for _, text in data_lines(lines):
        if kind is None:
            kind = "jsonl" if text.lstrip().startswith("{") else "tsv"
            if kind == "jsonl":
                return kind
        if TREC_TOP.search(text):
            return "trec"
    return kind or "tsv"


def _unique(topics: Iterable[tuple[int, Topic]], path: Path) -> Iterator[tuple[int, Topic]]:
    """Refuse a topic id seen before: two topics with one id cannot both be judged."""
    return first_of_each(topics, lambda topic: topic.topic_id, "topic", path, TopicFormatError)


def _jsonl_topics(lines: TextLines, path: Path) -> Iterator[tuple[int, Topic]]:
    topics = ((number, _json_topic(text, path, number)) for number, text in data_lines(lines))
    return _unique(topics, path)


def _json_topic(text: str, path: Path, number: int) -> Topic:
    record = json_object(text, path=path, line=number, error=TopicFormatError)
    id_key = _first_key(record, JSON_ID_KEYS)
    if id_key is None:
        raise TopicFormatError(
            f"expected a topic id key ({', '.join(JSON_ID_KEYS)}), found none", path=path, line=number
        )
    topic_id = clean_id(record.pop(id_key), "topic id", path=path, line=number, error=TopicFormatError)
    title_key = _first_key(record, JSON_TITLE_KEYS)
    if title_key is None:
        raise TopicFormatError(
            f"topic {topic_id} has no title (expected a title, text or query key)", path=path, line=number
        )
    title = _text_field(record, title_key, topic_id, path, number)
    if not title:
        raise TopicFormatError(f"topic {topic_id} has an empty {title_key}", path=path, line=number)
    description = _text_field(record, _first_key(record, JSON_DESCRIPTION_KEYS), topic_id, path, number)
    narrative = _text_field(record, _first_key(record, JSON_NARRATIVE_KEYS), topic_id, path, number)
    return _checked(Topic(topic_id, title, description, narrative, record), path, number)


def _checked(topic: Topic, path: Path, number: int) -> Topic:
    """The topic, once its optional language field names a language a stemmer covers (see labeler.stems)."""
    for key in LANGUAGE_KEYS:
        value = topic.extra.get(key)
        if key in topic.extra and not (isinstance(value, str) and language_name(value) is not None):
            found = repr(value) if isinstance(value, str) else json_type(value)
            raise TopicFormatError(
                f'topic {topic.topic_id}: "{key}" must name a language Snowball stems ({", ".join(languages())}) '
                f"or give its two-letter ISO 639-1 code, found {found}",
                path=path,
                line=number,
            )
    return topic


def _first_key(record: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    return next((key for key in keys if key in record), None)


def _text_field(record: dict[str, Any], key: str | None, topic_id: str, path: Path, number: int) -> str:
    """Remove `key` from the record and return its stripped string value ("" when absent)."""
    if key is None:
        return ""
    value = record.pop(key)
    if not isinstance(value, str):
        raise TopicFormatError(
            f'topic {topic_id}: "{key}" must be a string, found {json_type(value)}', path=path, line=number
        )
    return value.strip()


# -- TSV -------------------------------------------------------------------


def _tsv_topics(lines: TextLines, path: Path) -> Iterator[tuple[int, Topic]]:
    def parse() -> Iterator[tuple[int, Topic]]:
        for index, (number, text) in enumerate(data_lines(lines)):
            fields = [field.strip() for field in text.split("\t")]
            if index == 0 and fields[0].lower() in TSV_HEADER_IDS:
                continue
            yield number, _tsv_topic(fields, path, number)

    return _unique(parse(), path)


def _tsv_topic(fields: list[str], path: Path, number: int) -> Topic:
    if not 2 <= len(fields) <= 4:
        found = "no tab" if len(fields) == 1 else f"{len(fields)} fields"
        raise TopicFormatError(
            f"expected id<TAB>title[<TAB>description[<TAB>narrative]], found {found}", path=path, line=number
        )
    topic_id = clean_id(fields[0], "topic id", path=path, line=number, error=TopicFormatError)
    if not fields[1]:
        raise TopicFormatError(f"topic {topic_id} has an empty title", path=path, line=number)
    title, description, narrative = (*fields[1:], "", "")[:3]
    return Topic(topic_id, title, description, narrative)


# -- TREC ------------------------------------------------------------------


def _trec_topics(lines: TextLines, path: Path) -> Iterator[tuple[int, Topic]]:
    return _unique(_trec_blocks(lines, path), path)


def _trec_blocks(lines: TextLines, path: Path) -> Iterator[tuple[int, Topic]]:
    """Walk the tags in order; text belongs to the last opened field.

    Closing tags are optional, as in the TREC files themselves. Tags other
    than num, title, desc and narr (TREC-1's <dom>, <con> ...) go to `extra`.
    """
    top_line: int | None = None
    fields: dict[str, list[str]] = {}
    current: str | None = None

    def fail(reason: str, number: int) -> TopicFormatError:
        return TopicFormatError(reason, path=path, line=number)

    def add(text: str, number: int) -> None:
        if not text.strip():
            return
        if top_line is None:
            raise fail(f"expected <top>, found text outside a topic: {text.strip()[:40]!r}", number)
        if current is None:
            raise fail(f"expected a tag such as <title>, found text: {text.strip()[:40]!r}", number)
        fields[current].append(text)

    for number, line in lines:
        position = 0
        for tag in TREC_TAG.finditer(line):
            add(line[position : tag.start()], number)
            position = tag.end()
            closing, name = tag.group(1) == "/", tag.group(2).lower()
            if name == "top" and not closing:
                if top_line is not None:
                    raise fail(f"expected </top> to close the topic at line {top_line}, found <top>", number)
                top_line, fields, current = number, {}, None
            elif top_line is None:
                raise fail(f"expected <top>, found {tag.group(0)} outside a topic", number)
            elif name == "top":
                yield top_line, _trec_topic(fields, path, top_line)
                top_line, current = None, None
            elif closing:
                if name != current:
                    expected = f"</{current}> or a new tag" if current else "a tag such as <title>"
                    raise fail(f"expected {expected}, found {tag.group(0)}", number)
                current = None
            else:
                if name in fields:
                    raise fail(f"<{name}> appears twice in the topic at line {top_line}", number)
                current = name
                fields[name] = []
        add(line[position:], number)
    if top_line is not None:
        raise fail("<top> is never closed: expected </top> before the end of the file", top_line)


def _trec_topic(fields: dict[str, list[str]], path: Path, top_line: int) -> Topic:
    values = {name: _trec_text(name, parts) for name, parts in fields.items()}
    topic_id = values.pop("num", "")
    if not topic_id:
        raise TopicFormatError("topic has no <num> (expected <num> Number: ID)", path=path, line=top_line)
    topic_id = clean_id(topic_id, "topic number", path=path, line=top_line, error=TopicFormatError)
    title = values.pop("title", "")
    if not title:
        raise TopicFormatError(f"topic {topic_id} has no title (expected <title> TEXT)", path=path, line=top_line)
    return _checked(Topic(topic_id, title, values.pop("desc", ""), values.pop("narr", ""), values), path, top_line)


def _trec_text(name: str, parts: list[str]) -> str:
    """Join a field's lines, collapse whitespace, and drop the old `Number:`-style prefix."""
    text = " ".join(" ".join(parts).split())
    prefix = TREC_PREFIXES.get(name)
    if prefix and text.lower().startswith(prefix):
        text = text[len(prefix) :].strip()
    return text

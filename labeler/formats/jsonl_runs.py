"""The JSONL run format: one JSON object per result, recognised by a first result line starting with `{`.

Ids may sit under any of their usual key names (`qid`, `docno`, ...); `rank`
is optional (the position within the topic in the file).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labeler.errors import RunFormatError
from labeler.formats.fields import INT64_MAX, INT64_MIN, clean_id, json_object, json_type
from labeler.formats.run_formats import RUN_FORMATS, RunBlock, RunFormat, RunSource

TOPIC_KEYS = ("topic", "qid", "query_id", "topic_id")
UNIT_KEYS = ("unit", "docno", "doc_id", "docid", "chunk_id", "id")


def read_jsonl_blocks(source: RunSource) -> Iterator[RunBlock]:
    """The file's results grouped into blocks of consecutive lines of one topic."""
    block: RunBlock | None = None
    for number, topic_id, unit_id, score, rank in _jsonl_rows(source):
        if block is None or topic_id != block.topic_id:
            if block is not None:
                yield block
            block = RunBlock(topic_id, number)
        block.units.append(unit_id)
        block.scores.append(score)
        block.ranks.append(rank)
    if block is not None:
        yield block


def _jsonl_rows(source: RunSource) -> Iterator[tuple[int, str, str, float, int]]:
    path = source.path
    position: dict[str, int] = {}
    count = 0
    for number, line in source.lines:
        if not line.strip() or line.startswith("#"):
            continue
        row = json_object(line, path=path, line=number, error=RunFormatError)
        topic_id, unit_id = jsonl_ids(row, path, number)
        score = _score(row.get("score"), path, number)
        position[topic_id] = position.get(topic_id, 0) + 1
        rank = row.get("rank", position[topic_id])
        if isinstance(rank, bool) or not isinstance(rank, int):
            raise RunFormatError(f"rank must be an integer, found {json_type(rank)}", path=path, line=number)
        if not INT64_MIN <= rank <= INT64_MAX:
            raise RunFormatError(f"rank {rank} is out of range (a 64-bit integer)", path=path, line=number)
        if "tag" in row or "run" in row:
            source.tags.add(str(row.get("tag", row.get("run"))))
        count += 1
        yield number, topic_id, unit_id, score, rank
    source.line_count = count


def _score(value: Any, path: Path, number: int) -> float:
    """A result's score: a JSON number that is finite as a float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RunFormatError(f"score must be a number, found {json_type(value)}", path=path, line=number)
    try:
        score = float(value)
    except OverflowError:  # an integer too large for a float
        score = math.inf
    if not math.isfinite(score):
        raise RunFormatError(f"score {score!r} is not a finite number", path=path, line=number)
    return score


def jsonl_ids(row: dict[str, Any], path: Path, line: int) -> tuple[str, str]:
    """The topic and unit ids of a JSONL result, under any of their usual key names."""
    found = []
    for keys, what in ((TOPIC_KEYS, "topic id"), (UNIT_KEYS, "unit id")):
        key = next((k for k in keys if k in row), None)
        if key is None:
            raise RunFormatError(f"no {what} (one of {', '.join(keys)})", path=path, line=line)
        found.append(clean_id(row[key], what, path=path, line=line, error=RunFormatError))
    return found[0], found[1]


def jsonl_line_ids(line: str, path: Path, number: int) -> tuple[str, str | None]:
    """The topic and unit ids of a JSONL line (read once the file has been validated)."""
    return jsonl_ids(json_object(line, path=path, line=number, error=RunFormatError), path, number)


RUN_FORMATS.register(
    "jsonl",
    RunFormat(
        "jsonl",
        description=(
            "one JSON object per result: topic (topic, qid, query_id or topic_id), unit (unit, docno, doc_id, "
            "docid, chunk_id or id), score, optional rank"
        ),
        example='{"qid": "301", "docno": "FBIS3-10082", "score": 12.52, "rank": 1}',
        detected_by="the first result line starts with `{`",
        detects=lambda line: line.startswith("{"),
        read_blocks=read_jsonl_blocks,
        line_ids=jsonl_line_ids,
    ),
)

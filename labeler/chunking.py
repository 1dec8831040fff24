"""Splitting documents into chunks, and identifying a chunking by its content.

A chunking is immutable: its name, parameters and a hash over every chunk it
holds identify it, so labels made on one chunking are never silently read
against another. Chunk ids are `DOCID#k` (k from 0); offsets are character
positions into the document text, so a chunk can always be shown inside its
parent document.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

from labeler.errors import BadArgumentError
from labeler.models import Chunk, Document, content_hash
from labeler.validation import window_problem

WINDOW_KINDS = ("words", "sentences")  # what a chunking's windows count
WORD = re.compile(r"\S+")
# A sentence ends at . ! or ? (optionally followed by closing quotes or brackets) before white space.
SENTENCE_END = re.compile(r"[.!?][\"'\)\]]*(?=\s)")


def validate_window(size: int, overlap: int) -> None:
    """Refuse a window that would not advance: a `BadArgumentError` naming `size` or `overlap`."""
    problem = window_problem(size, overlap)
    if problem is not None:
        raise BadArgumentError(problem[1], argument=problem[0])


def _windows(spans: list[tuple[int, int]], size: int, overlap: int) -> Iterator[tuple[int, int]]:
    """(start, end) character spans of windows of `size` spans, stepping by size - overlap.

    The last window ends at the last span; no window is a suffix of the one before it.
    """
    if not spans:
        return
    step = size - overlap
    first = 0
    while True:
        last = min(first + size, len(spans)) - 1
        yield spans[first][0], spans[last][1]
        if last == len(spans) - 1:
            return
        first += step


@functools.lru_cache(maxsize=16)
def _word_windows(size: int) -> re.Pattern[str]:
    """A pattern matching `size` consecutive words (fewer at the end of the text), with the space between them.

    \\S and \\s split the text exactly as WORD does, and greedy matching takes
    `size` words whenever there are that many left, so the matches are the
    non-overlapping windows `_windows` builds from every word's span.
    """
    return re.compile(rf"\S+(?:\s+\S+){{0,{size - 1}}}")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of sentences (a simple rule: split after . ! ? before white space)."""
    spans = []
    position = 0
    for match in SENTENCE_END.finditer(text):
        end = match.end()
        segment = text[position:end]
        stripped_start = position + (len(segment) - len(segment.lstrip()))
        if segment.strip():
            spans.append((stripped_start, end))
        position = end
    tail = text[position:]
    if tail.strip():
        start = position + (len(tail) - len(tail.lstrip()))
        spans.append((start, len(text.rstrip())))
    return spans


def chunk_document(document: Document, *, size: int, overlap: int, by: str = "words") -> list[Chunk]:
    """Chunks of one document in order. An empty document gives one empty chunk.

    Every document gets at least one chunk so that a chunk-level pool can always
    reach every document.
    """
    text = document.text
    if by == "words" and overlap == 0:
        # one regex match per window, not one per word: the same spans as _windows over every word's span
        windows = [m.span() for m in _word_windows(size).finditer(text)] or [(0, 0)]
    else:
        spans = [m.span() for m in WORD.finditer(text)] if by == "words" else sentence_spans(text)
        windows = list(_windows(spans, size, overlap)) or [(0, 0)]
    return [
        Chunk(f"{document.doc_id}#{index}", document.doc_id, start, end, content_hash(text[start:end]))
        for index, (start, end) in enumerate(windows)
    ]


class ChunkHasher:
    """SHA-256 over a chunking's kind, parameters and every chunk (id, parent, offsets, content hash).

    Incremental, so that a chunking of millions of chunks is hashed as it streams.
    """

    def __init__(self, kind: str, params: dict[str, Any]):
        self._digest = hashlib.sha256()
        self._digest.update(json.dumps({"kind": kind, "params": params}, sort_keys=True).encode())

    def add(self, chunk: Chunk) -> None:
        self._digest.update(f"\n{chunk.chunk_id}\t{chunk.doc_id}\t{chunk.start}\t{chunk.end}\t{chunk.hash}".encode())

    def hexdigest(self) -> str:
        return self._digest.hexdigest()

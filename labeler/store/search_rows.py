"""Full-text search over a unit space with SQLite FTS5, and the unit texts retrievers index.

The `fts5` retriever needs SQL, which lives only here: its domain class gets
`build_unit_search` and `search_units` passed in. The index is a TEMP table,
built on demand for one retrieval and private to this connection, so the
workbench file never carries a second copy of the corpus.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator

from labeler.errors import LabelerError
from labeler.store.rows import Rows

FTS5_TOKENIZER = "porter unicode61"
_TABLE = "unit_search"
_BATCH = 1000
_TERM = re.compile(r"\w+")


def fts5_query(text: str) -> str | None:
    """An FTS5 MATCH expression that ORs the words of `text`, each quoted; None when it has no words.

    Quoting every term makes FTS5 read it as a string, never as syntax, so
    punctuation, `AND`/`NOT`/`NEAR` or a stray `"` in a topic title cannot
    cause a syntax error.
    """
    terms = dict.fromkeys(term.casefold() for term in _TERM.findall(text))
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms) or None


class SearchRows(Rows):
    def sqlite_version(self) -> str:
        return sqlite3.sqlite_version

    def build_unit_search(self, units: Iterable[tuple[str, str]]) -> int:
        """(Re)build the TEMP FTS5 index over `(unit_id, text)` pairs; returns how many it holds."""
        self.drop_unit_search()
        try:
            self.db.execute(
                f"CREATE VIRTUAL TABLE temp.{_TABLE} USING fts5(unit_id UNINDEXED, body, tokenize = '{FTS5_TOKENIZER}')"
            )
        except sqlite3.OperationalError as exc:
            raise LabelerError(
                f"this Python's SQLite cannot build an FTS5 index ({exc}): use another retriever"
            ) from None
        count = 0
        batch: list[tuple[str, str]] = []
        insert = f"INSERT INTO temp.{_TABLE} (unit_id, body) VALUES (?, ?)"
        for unit in units:
            batch.append(unit)
            if len(batch) >= _BATCH:
                self.db.conn.executemany(insert, batch)
                count += len(batch)
                batch.clear()
        self.db.conn.executemany(insert, batch)
        return count + len(batch)

    def search_units(self, query: str, k: int) -> list[tuple[str, float]]:
        """The top `k` units for a free-text query by FTS5's BM25, best first, as `(unit_id, -bm25)`.

        SQLite's bm25() is lower-is-better, so the score is negated; ties are
        broken by unit id descending, like a run's canonical order.
        """
        expression = fts5_query(query)
        if expression is None or k < 1:
            return []
        rows = self.db.execute(
            f"SELECT unit_id, bm25({_TABLE}) AS score FROM temp.{_TABLE} WHERE {_TABLE} MATCH ? "
            "ORDER BY score, unit_id DESC LIMIT ?",
            [expression, k],
        ).fetchall()
        return [(unit_id, -score) for unit_id, score in rows]

    def drop_unit_search(self) -> None:
        self.db.execute(f"DROP TABLE IF EXISTS temp.{_TABLE}")

    def iter_document_texts(self) -> Iterator[tuple[str, str, str]]:
        """`(doc_id, title, text)` of every document in id order, streamed."""
        cursor = self.db.conn.cursor()
        cursor.execute("SELECT doc_id, title, text FROM documents ORDER BY doc_id")
        while rows := cursor.fetchmany(_BATCH):
            yield from rows

    def iter_chunk_spans(self, chunking: str) -> Iterator[tuple[str, int | None, int | None, str]]:
        """`(chunk_id, start, end, parent text)` of a chunking's chunks whose parent is in the corpus."""
        cursor = self.db.conn.cursor()
        cursor.execute(
            "SELECT c.chunk_id, c.start, c.end, d.text FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
            "WHERE c.chunking_id = ? ORDER BY c.doc_id, c.ordinal",
            [self._chunking_id(chunking)],
        )
        while rows := cursor.fetchmany(_BATCH):
            yield from rows

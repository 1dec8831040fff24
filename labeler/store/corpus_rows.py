"""Documents, their recorded changes, chunkings and chunks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from labeler.store.digests import chunks_sha256
from labeler.store.rows import Rows

if TYPE_CHECKING:  # built where a row is read: the judging queue reads none of these
    from labeler.models import Chunk, Chunking, Document

_TEMP_IDS = "temp_ids"


class CorpusRows(Rows):
    # -- documents ------------------------------------------------------------

    def document_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM documents").fetchone()[0]

    def existing_documents(self, doc_ids: list[str]) -> dict[str, tuple[str, str]]:
        """`doc_id -> (hash, import_id)` for the ids that exist already."""
        rows = self._batched("SELECT doc_id, hash, import_id FROM documents WHERE doc_id IN ({marks})", [], doc_ids)
        return {doc_id: (hash_, import_id) for doc_id, hash_, import_id in rows}

    def insert_documents(self, documents: list[Document], import_id: str) -> None:
        self.db.conn.executemany(
            "INSERT INTO documents (doc_id, title, text, hash, extra, import_id) VALUES (?, ?, ?, ?, ?, ?)",
            [(d.doc_id, d.title, d.text, d.hash, json.dumps(d.extra, sort_keys=True), import_id) for d in documents],
        )

    def replace_document(self, document: Document, old_hash: str, import_id: str, changed: str, source: str) -> None:
        """Update a document's content and record the change (judgments of the old text get re-queued)."""
        self.db.execute(
            "UPDATE documents SET title = ?, text = ?, hash = ?, extra = ?, import_id = ?, updated = ?"
            " WHERE doc_id = ?",
            [
                document.title,
                document.text,
                document.hash,
                json.dumps(document.extra, sort_keys=True),
                import_id,
                changed,
                document.doc_id,
            ],
        )
        self.db.execute(
            "INSERT INTO document_changes (doc_id, old_hash, new_hash, changed, source) VALUES (?, ?, ?, ?, ?)",
            [document.doc_id, old_hash, document.hash, changed, source],
        )

    def document(self, doc_id: str) -> Document | None:
        from labeler.models import Document

        row = self.db.execute("SELECT doc_id, title, text, extra FROM documents WHERE doc_id = ?", [doc_id]).fetchone()
        return Document(row[0], row[1], row[2], json.loads(row[3])) if row else None

    def iter_documents(self) -> Iterator[Document]:
        """Every document in id order, streamed."""
        from labeler.models import Document

        cursor = self.db.conn.cursor()
        cursor.execute("SELECT doc_id, title, text, extra FROM documents ORDER BY doc_id")
        while rows := cursor.fetchmany(1000):
            for row in rows:
                yield Document(row[0], row[1], row[2], json.loads(row[3]))

    # -- id checks ------------------------------------------------------------

    def missing_ids(
        self, ids: Iterable[str], *, table: str, column: str, where: str = "", params: tuple[Any, ...] = ()
    ) -> list[str]:
        """The ids not present in `table.column` (sorted), using a temp table join."""
        self.db.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_TEMP_IDS} (id TEXT PRIMARY KEY) WITHOUT ROWID")
        self.db.execute(f"DELETE FROM {_TEMP_IDS}")
        self.db.conn.executemany(f"INSERT OR IGNORE INTO {_TEMP_IDS} (id) VALUES (?)", ((i,) for i in ids))
        condition = f"AND {where}" if where else ""
        rows = self.db.execute(
            f"SELECT t.id FROM {_TEMP_IDS} t WHERE NOT EXISTS "
            f"(SELECT 1 FROM {table} x WHERE x.{column} = t.id {condition}) ORDER BY t.id",
            list(params),
        ).fetchall()
        self.db.execute(f"DELETE FROM {_TEMP_IDS}")
        return [row[0] for row in rows]

    def missing_documents(self, doc_ids: Iterable[str]) -> list[str]:
        return self.missing_ids(doc_ids, table="documents", column="doc_id")

    def missing_chunks(self, chunking: str, chunk_ids: Iterable[str]) -> list[str]:
        chunking_id = self._chunking_id(chunking)
        return self.missing_ids(
            chunk_ids, table="chunks", column="chunk_id", where="x.chunking_id = ?", params=(chunking_id,)
        )

    def chunkings_holding(self, ids: Iterable[str]) -> dict[str, int]:
        """Per chunking, how many of `ids` are its chunk ids (chunkings holding none left out).

        For the unknown-ids error: ids a document import does not know are
        often a chunk run imported without `--unit chunk:NAME`. One primary-key
        seek per id and chunking, through the same temp table as `missing_ids`.
        """
        self.db.execute(f"CREATE TEMP TABLE IF NOT EXISTS {_TEMP_IDS} (id TEXT PRIMARY KEY) WITHOUT ROWID")
        self.db.execute(f"DELETE FROM {_TEMP_IDS}")
        self.db.conn.executemany(f"INSERT OR IGNORE INTO {_TEMP_IDS} (id) VALUES (?)", ((i,) for i in ids))
        counts = {}
        for chunking_id, name in self.db.execute("SELECT chunking_id, name FROM chunkings ORDER BY chunking_id"):
            (count,) = self.db.execute(
                f"SELECT COUNT(*) FROM {_TEMP_IDS} t WHERE EXISTS "
                "(SELECT 1 FROM chunks x WHERE x.chunking_id = ? AND x.chunk_id = t.id)",
                [chunking_id],
            ).fetchone()
            if count:
                counts[name] = count
        self.db.execute(f"DELETE FROM {_TEMP_IDS}")
        return counts

    # -- chunkings ------------------------------------------------------------

    def _chunking_id(self, name: str) -> int:
        chunking_id: int = self._named("SELECT chunking_id FROM chunkings WHERE name = ?", name, "chunking")[0]
        return chunking_id

    def chunking(self, name: str) -> Chunking | None:
        row = self.db.execute(
            "SELECT name, kind, params, hash, created, documents, chunks FROM chunkings WHERE name = ?", [name]
        ).fetchone()
        return _chunking(row) if row else None

    def chunkings(self) -> list[Chunking]:
        rows = self.db.execute(
            "SELECT name, kind, params, hash, created, documents, chunks FROM chunkings ORDER BY chunking_id"
        ).fetchall()
        return [_chunking(row) for row in rows]

    def next_chunking_id(self) -> int:
        """The id the next chunking will get: its chunks are written before its row (call inside a transaction)."""
        return self.db.execute("SELECT coalesce(max(chunking_id), 0) + 1 FROM chunkings").fetchone()[0]

    def insert_chunking(self, chunking: Chunking, *, chunking_id: int) -> None:
        """The chunking's row, written last, once its hash and counts are known; records its chunks' digest."""
        self.db.execute(
            "INSERT INTO chunkings (chunking_id, name, kind, params, hash, created, documents, chunks, chunks_sha256) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                chunking_id,
                chunking.name,
                chunking.kind,
                json.dumps(chunking.params, sort_keys=True),
                chunking.hash,
                chunking.created,
                chunking.documents,
                chunking.chunks,
                chunks_sha256(self.db, chunking_id),
            ],
        )

    def chunk_documents(self, chunking_id: int) -> int:
        """How many distinct parent documents a chunking's chunks name."""
        return self.db.execute(
            "SELECT count(DISTINCT doc_id) FROM chunks WHERE chunking_id = ?", [chunking_id]
        ).fetchone()[0]

    def chunkings_changed_since(self, name: str) -> bool:
        """True when a document of this chunking changed after the chunking was made."""
        chunking_id = self._chunking_id(name)  # refuses an unknown name
        chunking = self.chunking(name)
        assert chunking is not None
        return (
            self.db.execute(
                "SELECT EXISTS (SELECT 1 FROM document_changes dc JOIN chunks ch ON ch.doc_id = dc.doc_id "
                "AND ch.chunking_id = ? WHERE dc.changed >= ?)",
                [chunking_id, chunking.created],
            ).fetchone()[0]
            == 1
        )

    def insert_chunks(self, chunking_id: int, chunks: Iterable[tuple[int, Chunk]]) -> None:
        """Chunks with their ordinal inside the parent document."""
        self.db.conn.executemany(
            "INSERT INTO chunks (chunking_id, chunk_id, doc_id, ordinal, start, end, hash)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            ((chunking_id, c.chunk_id, c.doc_id, ordinal, c.start, c.end, c.hash) for ordinal, c in chunks),
        )

    def chunk(self, chunking: str, chunk_id: str) -> Chunk | None:
        from labeler.models import Chunk

        row = self.db.execute(
            "SELECT chunk_id, doc_id, start, end, hash FROM chunks WHERE chunking_id = ? AND chunk_id = ?",
            [self._chunking_id(chunking), chunk_id],
        ).fetchone()
        return Chunk(*row) if row else None

    def chunks_of(self, chunking: str, doc_id: str) -> list[Chunk]:
        from labeler.models import Chunk

        rows = self.db.execute(
            "SELECT chunk_id, doc_id, start, end, hash FROM chunks"
            " WHERE chunking_id = ? AND doc_id = ? ORDER BY ordinal",
            [self._chunking_id(chunking), doc_id],
        ).fetchall()
        return [Chunk(*row) for row in rows]

    def iter_chunk_texts(self, chunking: str) -> Iterator[tuple[str, str, int | None, int | None, str | None]]:
        """(chunk id, doc id, start, end, text) of every chunk, by document and ordinal, a few rows at a time.

        The text is the span of the document's text, cut by SQLite (`substr` counts characters, as
        Python's offsets do); None when the chunking has no offsets or the parent is not in the corpus.
        A chunking can hold millions of chunks: nothing here holds them all.
        """
        cursor = self.db.conn.execute(
            "SELECT c.chunk_id, c.doc_id, c.start, c.end, "
            "CASE WHEN c.start IS NULL OR c.end IS NULL THEN NULL "
            "ELSE substr(d.text, c.start + 1, c.end - c.start) END "
            "FROM chunks c LEFT JOIN documents d ON d.doc_id = c.doc_id "
            "WHERE c.chunking_id = ? ORDER BY c.doc_id, c.ordinal",
            [self._chunking_id(chunking)],
        )
        while rows := cursor.fetchmany(256):
            yield from (tuple(row) for row in rows)

    def parents_of(self, chunking: str, chunk_ids: Iterable[str]) -> dict[str, str]:
        """`chunk_id -> doc_id` for the given chunks of a chunking (unknown ids are left out)."""
        return dict(
            self._batched(
                "SELECT chunk_id, doc_id FROM chunks WHERE chunking_id = ? AND chunk_id IN ({marks})",
                [self._chunking_id(chunking)],
                chunk_ids,
            )
        )

    def chunk_counts(self, chunking: str, doc_ids: Iterable[str]) -> dict[str, int]:
        """How many chunks each of the given documents has in a chunking."""
        return dict(
            self._batched(
                "SELECT doc_id, count(*) FROM chunks WHERE chunking_id = ? AND doc_id IN ({marks}) GROUP BY doc_id",
                [self._chunking_id(chunking)],
                doc_ids,
            )
        )

    def _batched(self, sql: str, params: list[Any], ids: Iterable[str], size: int = 500) -> list[tuple[Any, ...]]:
        """Run `sql` (with an `IN ({marks})` list) over ids in batches small enough for SQLite."""
        unique = list(dict.fromkeys(ids))
        rows: list[tuple[Any, ...]] = []
        for start in range(0, len(unique), size):
            batch = unique[start : start + size]
            rows.extend(self.db.execute(sql.format(marks=",".join("?" * len(batch))), [*params, *batch]))
        return rows

    def chunk_parents(self, chunking: str) -> dict[str, str]:
        """`chunk_id -> doc_id` for a whole chunking (pooling and scoring at document level)."""
        rows = self.db.execute(
            "SELECT chunk_id, doc_id FROM chunks WHERE chunking_id = ?", [self._chunking_id(chunking)]
        )
        return dict(rows)


def _chunking(row: tuple[Any, ...]) -> Chunking:
    from labeler.models import Chunking

    return Chunking(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6])

"""What `merge` reads from another workbench, as plain values, and nothing it could trip on.

The other file is data from another machine: its columns may hold any type,
bytes that are not UTF-8, or a damaged page. Everything here returns plain
rows for the domain to check, and turns SQLite's errors into one
`LabelerError` naming the file.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.store.rows import Rows

# events column -> log field (the log says `order` where the table says `judging_order`)
_LOG_NAMES = {"judging_order": "order"}


@contextlib.contextmanager
def read_errors(path: str | Path) -> Iterator[None]:
    """SQLite errors while reading another workbench, as `path: cannot be read as a workbench (...)`."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise LabelerError(f"cannot be read as a workbench ({exc})", path=path) from None


def _json_or_text(text: str) -> Any:
    """The JSON `text` holds, or `text` itself when it is not JSON (the log's checks then refuse it)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


class MergeRows(Rows):
    def log_columns(self) -> list[str]:
        """The events table's columns as stored, in table order, without `seq` and `link` (both are local)."""
        if "events" not in self.db.table_names():
            return []
        return [row[1] for row in self.db.execute("PRAGMA table_info(events)") if row[1] not in ("seq", "link")]

    def log_row_batches(self, columns: list[str], size: int = 5000) -> Iterator[list[tuple[Any, ...]]]:
        """Every event's `columns` (from `log_columns`) as stored, in local order, `size` rows at a time."""
        if not columns:
            return
        quoted = ", ".join('"' + name.replace('"', '""') + '"' for name in columns)
        cursor = self.db.conn.cursor()
        cursor.execute(f"SELECT {quoted} FROM events ORDER BY seq")
        while rows := cursor.fetchmany(size):
            yield rows

    def chunking_signatures(self) -> dict[str, tuple[Any, Any, Any]]:
        """`name -> (kind, params as stored, hash)` of every chunking."""
        if "chunkings" not in self.db.table_names():
            return {}
        return {row[0]: tuple(row[1:]) for row in self.db.execute("SELECT name, kind, params, hash FROM chunkings")}

    def document_hash_rows(self) -> Iterator[tuple[Any, Any]]:
        """`(doc id, text hash)` of every document, by id, streamed (a corpus may hold millions)."""
        if "documents" not in self.db.table_names():
            return
        cursor = self.db.conn.cursor()
        cursor.execute("SELECT doc_id, hash FROM documents ORDER BY doc_id")
        while rows := cursor.fetchmany(5000):
            yield from rows

    def scale_text(self) -> Any:
        """The grade scale as stored (JSON text), or None for the default scale."""
        return self.get_meta("scale")


def log_row(columns: list[str], values: tuple[Any, ...]) -> dict[str, Any]:
    """A stored event (`MergeRows.log_row_batches`) as a log row: field -> value, the probabilities decoded.

    Only the columns the file has: a workbench from before the logical clock
    has no `clock`, and its events are then given the clock their time gives.
    """
    row = dict(zip((_LOG_NAMES.get(name, name) for name in columns), values, strict=True))
    if isinstance(row.get("probs"), str):  # stored as JSON text: the log's field is the object
        row["probs"] = _json_or_text(row["probs"])
    return row

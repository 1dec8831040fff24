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
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from labeler.answers.spaces import NUGGETS
from labeler.errors import LabelerError
from labeler.store.event_rows import _COLUMNS, _INSERT_COLUMNS
from labeler.store.rows import Rows

_STAGED_VALUES = _INSERT_COLUMNS
"""A staged event's values, in the order `EventRows.append_rows` takes them (the events table's, without seq)."""
_STAGED_EVENT = _STAGED_VALUES.replace("event_id, ", "event_id, NULL, ", 1)
"""The same as a row `labeler.store.event_rows.event_from_row` reads (a staged event has no seq yet)."""
_EVENT_COLUMNS = _COLUMNS
"""A stored event's columns as `labeler.store.event_rows.event_from_row` reads them."""
STAGE_BATCH = 5000
_GRADE_COLUMNS = "unit_id, seq, kind, source, grade, time, assessor, clock, event_id"
"""A pair event as a merge's label changes read it (`MergeRows.topic_grades`)."""

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

    def all_clocked(self) -> bool:
        """Whether every event has its logical clock (a workbench from before the clock has none)."""
        return not self.db.execute("SELECT 1 FROM events WHERE clock IS NULL LIMIT 1").fetchone()

    def log_rows_in_log_order(self, columns: list[str], size: int = STAGE_BATCH) -> Iterator[list[tuple[Any, ...]]]:
        """Every event's `columns` then its `seq`, in log order (clock, then id), `size` rows at a time.

        Read in the order a merge appends them, so nothing need be staged to put them in order.
        """
        quoted = ", ".join('"' + name.replace('"', '""') + '"' for name in columns)
        cursor = self.db.conn.cursor()
        cursor.execute(f"SELECT {quoted}, seq FROM events ORDER BY clock, event_id")
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

    def stage_begin(self) -> None:
        """An empty `merge_staged`: the connection's temporary table of the events a merge will append.

        Temporary (a file SQLite deletes, outside the workbench): it holds the other log's new events,
        so that they are compared, checked and put in log order on disk, not in memory. Untyped
        columns keep each value's type (1 and 1.0 stay apart).
        """
        self.db.execute("DROP TABLE IF EXISTS temp.merge_staged")
        columns = _STAGED_VALUES.replace("event_id, ", "", 1)
        self.db.execute(f"CREATE TEMP TABLE merge_staged (event_id PRIMARY KEY, {columns}, line, future)")

    @contextlib.contextmanager
    def cache_restored(self) -> Iterator[None]:
        """Inside: a bulk append may raise the page cache (`labeler.store.bulk_writes`); after, its size is back.

        SQLite frees the pages beyond it, so what a merge derives after its append does not add to them.
        """
        (size,) = self.db.execute("PRAGMA cache_size").fetchone()
        try:
            yield
        finally:
            self.db.execute(f"PRAGMA cache_size = {int(size)}")

    def stage_end(self) -> None:
        self.db.execute("DROP TABLE IF EXISTS temp.merge_staged")

    def stage_rows(self, rows: list[list[Any]]) -> None:
        """Stage rows of `_STAGED_VALUES` followed by the line (or None) and whether the event is in the future."""
        marks = ", ".join("?" * (len(_STAGED_VALUES.split(", ")) + 2))  # the event's values, its line, future
        self.db.conn.executemany(f"INSERT INTO temp.merge_staged VALUES ({marks})", rows)

    def staged_by_id(self, event_ids: list[str]) -> dict[str, tuple[tuple[Any, ...], Any]]:
        """`id -> (row as event_from_row reads it, line)` of the staged events among `event_ids`."""
        found: dict[str, tuple[tuple[Any, ...], Any]] = {}
        for start in range(0, len(event_ids), 500):
            ids = event_ids[start : start + 500]
            rows = self.db.execute(
                f"SELECT {_STAGED_EVENT}, line FROM temp.merge_staged WHERE event_id IN ({','.join('?' * len(ids))})",
                ids,
            )
            found.update((row[0], (row[:-1], row[-1])) for row in rows)
        return found

    def staged_retracts(self) -> Iterator[list[tuple[Any, ...]]]:
        """The staged retracts (rows as `event_from_row` reads them, then the line), in the order staged, by batch."""
        cursor = self.db.conn.cursor()
        cursor.execute(f"SELECT {_STAGED_EVENT}, line FROM temp.merge_staged WHERE kind = 'retract' ORDER BY rowid")
        while rows := cursor.fetchmany(STAGE_BATCH):
            yield rows

    def staged_in_log_order(self, size: int = STAGE_BATCH) -> Iterator[list[list[Any]]]:
        """The staged events' values in log order (clock, then id), `size` at a time, for `append_rows`."""
        cursor = self.db.conn.cursor()
        cursor.execute(f"SELECT {_STAGED_VALUES} FROM temp.merge_staged ORDER BY clock, event_id")
        while rows := cursor.fetchmany(size):
            yield [list(row) for row in rows]

    def staged_summary(self) -> tuple[int, list[str], list[str]]:
        """How many events are staged, their assessors and their topics (each sorted)."""
        (count,) = self.db.execute("SELECT count(*) FROM temp.merge_staged").fetchone()
        assessors = [row[0] for row in self.db.execute("SELECT DISTINCT assessor FROM temp.merge_staged ORDER BY 1")]
        topics = [row[0] for row in self.db.execute("SELECT DISTINCT topic_id FROM temp.merge_staged ORDER BY 1")]
        return count, assessors, topics

    def staged_future(self) -> list[tuple[Any, Any, Any]]:
        """`(id, time, line)` of the staged events dated in the future, in the order staged."""
        return list(self.db.execute("SELECT event_id, time, line FROM temp.merge_staged WHERE future ORDER BY rowid"))

    def appended_pairs(self, after: int) -> Iterator[tuple[str, str, list[tuple[Any, ...]]]]:
        """Per unit space and topic (in order), the pair events appended after seq `after`, by unit id.

        Each as `(unit id, seq, kind, source, grade, time, assessor, clock, event id)`: the unit id,
        then what `topic_grades` gives of an event. Pairs that take a label: nugget versions (the
        `nuggets` space) are left out.
        """
        cursor = self.db.conn.cursor()
        cursor.execute(
            f"SELECT unit, topic_id, {_GRADE_COLUMNS} FROM events WHERE seq > ? AND unit_id IS NOT NULL "
            "AND unit != ? ORDER BY unit, topic_id, unit_id",
            [after, NUGGETS],
        )
        return _by_topic(cursor)

    def appended_retracts(self, after: int) -> Iterator[list[tuple[Any, ...]]]:
        """`staged_retracts` of the events appended after seq `after` (no line: they come from a workbench)."""
        cursor = self.db.conn.cursor()
        cursor.execute(
            f"SELECT {_EVENT_COLUMNS}, NULL FROM events WHERE seq > ? AND kind = 'retract' ORDER BY seq", [after]
        )
        while rows := cursor.fetchmany(STAGE_BATCH):
            yield rows

    def topic_grades(
        self, unit: str, topic_id: str, before: int, unit_ids: Collection[str]
    ) -> dict[str, list[tuple[Any, ...]]]:
        """`unit id -> (seq, kind, source, grade, time, assessor, clock, event id) of its pair events`.

        The pairs of one topic of a unit space among `unit_ids`, review events left out, up to seq
        `before`: what a merge needs to tell most pairs' labels before and after it without reading
        whole events. In two steps: the pair index alone (no table row read) gives the topic's events,
        and only those of `unit_ids` are read, by seq (a merge touches some of a topic's pairs).
        """
        seqs = [
            seq
            for unit_id, seq in self.db.execute(
                "SELECT unit_id, seq FROM events WHERE unit = ? AND topic_id = ? AND unit_id IS NOT NULL AND seq <= ?",
                [unit, topic_id, before],
            )
            if unit_id in unit_ids
        ]
        by_unit: dict[str, list[tuple[Any, ...]]] = {}
        for start in range(0, len(seqs), 500):
            batch = seqs[start : start + 500]
            rows = self.db.execute(
                f"SELECT {_GRADE_COLUMNS} FROM events WHERE seq IN ({','.join('?' * len(batch))}) AND kind != 'review'",
                batch,
            )
            for row in rows:
                by_unit.setdefault(row[0], []).append(row[1:])
        return by_unit

    def scale_text(self) -> Any:
        """The grade scale as stored (JSON text), or None for the default scale."""
        return self.get_meta("scale")


def _by_topic(cursor: sqlite3.Cursor) -> Iterator[tuple[str, str, list[tuple[Any, ...]]]]:
    """Rows of `(unit, topic, ...)` sorted by unit and topic, grouped per unit and topic (each row without them)."""
    key: tuple[str, str] | None = None
    rows_of: list[tuple[Any, ...]] = []
    while rows := cursor.fetchmany(STAGE_BATCH):
        for row in rows:
            if key != row[:2]:
                if key is not None:
                    yield key[0], key[1], rows_of
                key, rows_of = row[:2], []
            rows_of.append(row[2:])
    if key is not None:
        yield key[0], key[1], rows_of


def log_rows(columns: list[str], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Stored events (`MergeRows.log_row_batches`) as log rows: field -> value, the probabilities decoded.

    Only the columns the file has: a workbench from before the logical clock has no `clock`,
    and its events are then given the clock their time gives. A row may hold values past
    `columns` (its seq), which are left out.
    """
    names = _log_names(columns)
    return [_decoded(dict(zip(names, values, strict=False))) for values in rows]


def _log_names(columns: list[str]) -> list[str]:
    return [_LOG_NAMES.get(name, name) for name in columns]


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    if isinstance(row.get("probs"), str):  # stored as JSON text: the log's field is the object
        row["probs"] = _json_or_text(row["probs"])
    return row

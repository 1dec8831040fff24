"""The judgment log: append-only events (triggers refuse UPDATE and DELETE).

Every append stamps the event's logical clock inside the write transaction,
from the workbench's latest clock, so that clocks grow with every event
however many writers there are (see `labeler.judgments.log.next_clock`). It also
chains the event to the log (`link`, see `labeler.store.digests.event_link`)
and records the chain's head and length in `meta`, in the same transaction,
so that `labeler check` sees an event changed, removed or inserted behind the
append-only guards, at the end of the log too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from os import urandom
from time import time_ns
from typing import TYPE_CHECKING, Any

from labeler.answers.spaces import is_answer_unit
from labeler.judgments.log import CLOCK_END, GRADE, MAX_CLOCK, REVIEW, Event, clock_from_time, next_clock
from labeler.store.bulk_writes import guard_held
from labeler.store.digests import event_link, link_rows
from labeler.store.rows import Rows

if TYPE_CHECKING:
    from labeler.store.connection import Connection

_COLUMNS = (
    "event_id, seq, topic_id, unit_id, kind, assessor, time, grade, reason, note, source, model, active_ms, "
    "content_hash, judging_order, seed, target, pool, unit, clock, probs, shown_model, shown_others"
)
_CHAIN_V5_COLUMNS = (
    "event_id, topic_id, unit_id, kind, assessor, time, grade, reason, note, source, model, active_ms, "
    "content_hash, judging_order, seed, target, pool, unit, clock"
)
"""The columns the chain covered when migration 5 made it (the events table of then has no others)."""
_CHAIN_V9_COLUMNS = f"{_CHAIN_V5_COLUMNS}, probs, shown_model"
"""The columns after migration 9 (model labels), before migration 10 (blind overlap)."""
_INSERT_COLUMNS = f"{_CHAIN_V9_COLUMNS}, shown_others"
_INSERT = f"INSERT INTO events ({_INSERT_COLUMNS}, link) VALUES ({', '.join('?' * 23)})"
_PROBS = 20  # where `probs` is in a row of `_COLUMNS`
_OTHERS = 22  # where `shown_others` is
_NONE_6 = (None,) * 6  # an imported grade's active_ms, content_hash, judging_order, seed, target, pool
LOG_HEAD, LOG_LENGTH = "log_head", "log_length"  # meta keys: the last link, and how many events the chain holds


def probs_text(probs: Mapping[int, float] | None) -> str | None:
    """The canonical JSON of a model's probabilities (grades ascending, as strings; no spaces), or None."""
    if probs is None:
        return None
    return json.dumps({str(grade): float(probs[grade]) for grade in sorted(probs)}, separators=(",", ":"))


def probs_from_text(text: str | None) -> dict[int, float] | None:
    """`probs_text` read back (None stays None)."""
    if text is None:
        return None
    return {int(grade): float(p) for grade, p in json.loads(text).items()}


def others_text(others: Sequence[str] | None) -> str | None:
    """The JSON list of assessors whose labels were on screen (`[]`: none), or None off an overlap pair."""
    return None if others is None else json.dumps(list(others), separators=(",", ":"))


def has_model_columns(db: Connection) -> bool:
    """Whether the events table has `probs` and `shown_model` (a file before migration 9 has not)."""
    names = {row[1] for row in db.execute("SELECT * FROM pragma_table_info('events')")}
    return {"probs", "shown_model"} <= names


def chained_columns(db: Connection) -> str:
    """The event columns the chain covers in this file (one before migration 9 or 10 has fewer)."""
    names = {row[1] for row in db.execute("SELECT * FROM pragma_table_info('events')")}
    if "shown_others" in names:
        return _INSERT_COLUMNS
    return _CHAIN_V9_COLUMNS if {"probs", "shown_model"} <= names else _CHAIN_V5_COLUMNS


def plain_row(row: Sequence[Any]) -> bool:
    """Whether a row of `_COLUMNS` reads straight into an `Event` (no probabilities, no others shown: most rows)."""
    return row[_PROBS] is None and row[_OTHERS] is None


def event_from_row(row: Sequence[Any]) -> Event:
    """An event from a row of `_COLUMNS` (the stored probabilities and others shown decoded; most events have none)."""
    if plain_row(row):
        return Event(*row)
    others = row[_OTHERS]
    return replace(
        Event(*row[:_PROBS]),
        probs=probs_from_text(row[_PROBS]),
        shown_model=row[_PROBS + 1],
        shown_others=None if others is None else tuple(json.loads(others)),
    )


def _same_values(stored: tuple[Any, ...] | None, row: tuple[Any, ...]) -> bool:
    """Whether a stored row and another are the same values of the same types (SQLite's 1 and 1.0 differ)."""
    return stored is not None and stored == row and list(map(type, stored)) == list(map(type, row))


def new_event_id() -> str:
    """An id unique across workbenches, so logs can be merged by id: 32 hex digits, clock first.

    The first 12 digits are the wall clock in milliseconds, the other 20 are 80 random bits:
    the same length and alphabet as the uuid4 hex ids of older logs, unique across
    workbenches by the random bits alone, and in the order they are made, so the log's
    unique index on ids is appended to rather than written at random places.
    """
    return f"{time_ns() // 1_000_000:012x}{urandom(10).hex()}"


def event_values(e: Event, clock: int) -> list[Any]:
    """An event's column values as `append_rows` takes them (an id made when it has none), with `clock`."""
    return [
        e.event_id or new_event_id(),
        e.topic_id,
        e.unit_id,
        e.kind,
        e.assessor,
        e.time,
        e.grade,
        e.reason,
        e.note,
        e.source,
        e.model,
        e.active_ms,
        e.content_hash,
        e.order,
        e.seed,
        e.target,
        e.pool,
        e.unit,
        clock,
        probs_text(e.probs),
        e.shown_model,
        others_text(e.shown_others),
    ]


NEAR_END = 366 * 86_400 * 1_000_000
"""How close to the clock's bound (in microseconds: a year) the log's clock is near its end for `check`."""


def _room(head: int) -> str:
    """How many more events the log's clock can count, from `head` to `CLOCK_END`."""
    room = CLOCK_END - head
    return f"room for {room} more events before its end" if room else "no room for another event before its end"


class EventRows(Rows):
    def append_event(self, event: Event) -> Event:
        """Write one event (inside a transaction); returns it with its id, clock and log position."""
        (row,) = self._linked(self._stamped_rows([event]))
        seq = self.db.execute(_INSERT, row).lastrowid
        assert seq is not None  # SQLite sets it on every INSERT
        return replace(event, event_id=row[0], clock=row[18], seq=seq)

    def append_events(self, events: Iterable[Event]) -> int:
        """Bulk append (imports, merges; inside a transaction); returns how many were written."""
        return self._insert(self._linked(self._stamped_rows(events)))

    def append_rows(self, rows: list[list[Any]]) -> int:
        """Bulk append of rows of `event_values` with their clocks set (a merge's, in log order; in a transaction)."""
        return self._insert(self._linked(rows))

    def last_seq(self) -> int:
        """The local sequence number of the log's last event (0 when it is empty)."""
        return self.db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]

    def append_grades(
        self,
        grades: Iterable[tuple[str, str, int]],
        *,
        assessor: str,
        time: str,
        source: str,
        model: str | None,
        unit: str,
    ) -> int:
        """Bulk append of imported grades, one per (topic, unit id, grade) (inside a transaction).

        The rows `append_events` writes for `Event("", 0, topic, unit_id, GRADE, assessor, time,
        grade=grade, source=source, model=model, unit=unit)` each, built without the events: a qrels
        import appends millions, a part at a time.
        """
        latest = self.latest_clock()
        physical = clock_from_time(time)
        rows = []
        for topic_id, unit_id, grade in grades:
            latest = next_clock(physical, latest)
            row = [new_event_id(), topic_id, unit_id, GRADE, assessor, time, grade, None, None, source, model]
            rows.append([*row, *_NONE_6, unit, latest, None, None, None])
        return self._insert(self._linked(rows))

    def _insert(self, rows: list[list[Any]]) -> int:
        """Insert linked rows as one batch, the no-replace guard held for the batch (`labeler.store.bulk_writes`)."""
        with guard_held(self.db, "events", len(rows)):
            self.db.conn.executemany(_INSERT, rows)
        return len(rows)

    def _linked(self, rows: list[list[Any]]) -> list[list[Any]]:
        """Rows with their chain links, from the log's head; the new head and length go to `meta`."""
        if not rows:
            return rows
        head = self.db.execute("SELECT link FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        link = link_rows(head[0] if head and head[0] is not None else b"", rows)
        length = self.get_meta(LOG_LENGTH)
        self.set_meta(LOG_HEAD, link.hex())
        self.set_meta(LOG_LENGTH, str((int(length) if length else 0) + len(rows)))
        return rows

    def log_chain_problems(self) -> Iterator[str]:
        """Where the log's chain breaks: an event whose link is not the one its fields and the links before give.

        Recomputed in local order from each stored link, so one changed event is one
        finding (at it), and a removed one shows at the event after it; the end of
        the chain is compared with the head and length recorded in `meta`.
        """
        cursor = self.db.conn.cursor()
        columns = chained_columns(self.db)  # `check` of an older file
        cursor.execute(f"SELECT seq, link, {columns} FROM events ORDER BY seq")
        previous, count = b"", 0
        while rows := cursor.fetchmany(5000):
            for seq, link, *values in rows:
                count += 1
                if link is None:
                    yield f"event {values[0]} (seq {seq}) has no chain link"
                elif event_link(previous, values) != link:
                    yield (
                        f"event {values[0]} (seq {seq}) does not match its chain link: it was changed, or an event "
                        "before it was removed or inserted, after it was written"
                    )
                previous = link if link is not None else b""
        head, length = self.get_meta(LOG_HEAD), self.get_meta(LOG_LENGTH)
        if (head or "") != previous.hex() or int(length or 0) != count:
            yield (
                f"the log holds {count} events ending in link {previous.hex()[:12] or '-'}, but its recorded end is "
                f"{length or 0} events ending in {(head or '')[:12] or '-'}: events were removed from its end "
                "(or added without the log's chain)"
            )

    def clock_problems(self) -> Iterator[str]:
        """Clocks out of the clock's range, and a log clock near its end (`labeler.judgments.log.MAX_CLOCK`).

        Within the range every clock is sound. Past the bound a workbench only counts,
        one per event it records, from the latest clock it held: so its clocks beyond
        the bound are MAX_CLOCK + 1, + 2, ... each once, and a clock further than their
        count is one written past the bound (before merges refused such clocks).
        """
        (head,) = self.db.execute(
            "SELECT coalesce(max(clock), 0) FROM events WHERE typeof(clock) = 'integer'"
        ).fetchone()
        bad = self.db.execute(
            "SELECT event_id, seq, clock FROM events WHERE typeof(clock) != 'integer' OR clock < 0 ORDER BY seq LIMIT 5"
        )
        for event_id, seq, clock in bad:
            yield f"event {event_id} (seq {seq}) has clock {clock!r}: a clock is an integer, 0 or more"
        (counted,) = self.db.execute("SELECT count(*) FROM events WHERE clock > ?", [MAX_CLOCK]).fetchone()
        jump = self.db.execute(
            "SELECT event_id, seq, clock FROM events WHERE clock > ? ORDER BY clock LIMIT 1", [MAX_CLOCK + counted]
        ).fetchone()
        if jump is not None:
            yield (
                f"event {jump[0]} (seq {jump[1]}) has clock {jump[2]}, beyond the clock's bound {MAX_CLOCK} (the end "
                f"of year 9999), written before merges refused such clocks: the log's clock is at {head}, {_room(head)}"
            )
        elif head > MAX_CLOCK - NEAR_END:
            where = (
                "at"
                if head == MAX_CLOCK
                else f"{abs(head - MAX_CLOCK)} " + ("past" if head > MAX_CLOCK else "short of")
            )
            yield (
                f"the log's clock is near its end: it is at {head}, {where} the clock's bound {MAX_CLOCK} (the end of "
                f"year 9999), where an event merged from the far future put it; events recorded here count on from "
                f"it ({_room(head)}), and no other workbench merges those past the bound"
            )

    def log_head(self) -> tuple[int, str]:
        """How many events the log holds and the last one's link (hex; '' for an empty log), from the events."""
        count, link = self.db.execute(
            "SELECT count(*), (SELECT link FROM events ORDER BY seq DESC LIMIT 1) FROM events"
        ).fetchone()
        return count, link.hex() if isinstance(link, bytes) else ""

    def link_at(self, length: int) -> str | None:
        """The link (hex) of the `length`-th event in local order ('' for 0); None when the log is shorter."""
        if length <= 0:
            return ""
        row = self.db.execute("SELECT link FROM events ORDER BY seq LIMIT 1 OFFSET ?", [length - 1]).fetchone()
        if row is None:
            return None
        return row[0].hex() if isinstance(row[0], bytes) else ""

    def _stamped_rows(self, events: Iterable[Event]) -> list[list[Any]]:
        """Each event's column values with an id and a clock: those that bring a clock (merged ones) keep it.

        Rows straight from the events, without a dataclass copy each: an import
        appends hundreds of thousands, and the copies cost more than the insert.
        """
        latest = self.latest_clock()
        rows = []
        time, physical = None, 0
        for e in events:
            clock = e.clock
            if clock is None:
                if e.time != time:  # an import stamps one time on every event: convert it once
                    time, physical = e.time, clock_from_time(e.time)
                clock = next_clock(physical, latest)
            if clock > latest:
                latest = clock
            rows.append(event_values(e, clock))
        return rows

    def latest_clock(self) -> int:
        """The highest clock in the log (0 when it is empty): the next local event comes after it."""
        return self.db.execute("SELECT coalesce(max(clock), 0) FROM events").fetchone()[0]

    def events_by_id(self, event_ids: Iterable[str]) -> dict[str, Event]:
        """The events among `event_ids` that the log holds, by id (merge compares them)."""
        ids = list(dict.fromkeys(event_ids))
        found: dict[str, Event] = {}
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            rows = self.db.execute(
                f"SELECT {_COLUMNS} FROM events WHERE event_id IN ({','.join('?' * len(batch))})", batch
            )
            found.update((row[0], event_from_row(row)) for row in rows)
        return found

    def identical_rows(self, columns: list[str], rows: list[tuple[Any, ...]]) -> list[bool]:
        """For each row of `columns` (this log's own columns, `event_id` among them): whether the log holds it exactly.

        The same id with every value equal and of the same type: an event merged before.
        """
        return self.rows_held(columns, rows)[0]

    def rows_held(self, columns: list[str], rows: list[tuple[Any, ...]]) -> tuple[list[bool], set[Any]]:
        """`identical_rows`, and the ids of `rows` the log holds at all (the same or not).

        One query per 500 rows, through the unique index on ids. A row may hold values past
        `columns` (its seq in the other log), which are left out of the comparison.
        """
        at, width = columns.index("event_id"), len(columns)
        quoted = ", ".join('"' + name.replace('"', '""') + '"' for name in columns)
        stored: dict[Any, tuple[Any, ...]] = {}
        for start in range(0, len(rows), 500):
            ids = [row[at] for row in rows[start : start + 500]]
            found = self.db.execute(f"SELECT {quoted} FROM events WHERE event_id IN ({','.join('?' * len(ids))})", ids)
            stored.update((row[at], row) for row in found)
        if not stored:  # most rows of a first merge: nothing to compare
            return [False] * len(rows), set()
        return [_same_values(stored.get(row[at]), row[:width]) for row in rows], set(stored)

    def pair_events(self, unit: str, topic_id: str, unit_id: str) -> list[Event]:
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM events WHERE unit = ? AND topic_id = ? AND unit_id = ? ORDER BY seq",
            [unit, topic_id, unit_id],
        )
        return [event_from_row(row) for row in rows]

    def topic_events(self, unit: str, topic_id: str) -> list[Event]:
        """Every pair event of a topic in one unit space (review events excluded)."""
        rows = self.db.execute(
            f"SELECT {_COLUMNS} FROM events WHERE unit = ? AND topic_id = ? AND unit_id IS NOT NULL ORDER BY seq",
            [unit, topic_id],
        )
        return [Event(*row) if plain_row(row) else event_from_row(row) for row in rows]

    def latest_label_clocks(self, unit: str) -> dict[str, int]:
        """Per topic of one unit space, the logical clock of its latest grade or adjudication.

        Lets the all-topics review statuses skip reading a topic's events when nothing
        was judged after its mark (one grouped scan instead of one query per topic).
        """
        rows = self.db.execute(
            "SELECT topic_id, MAX(clock) FROM events WHERE unit = ? AND kind IN ('grade', 'adjudicate') "
            "GROUP BY topic_id",
            [unit],
        )
        return {topic: clock for topic, clock in rows if clock is not None}

    def unit_events(self, unit: str) -> Iterator[Event]:
        """Every pair event in one unit space, in log order, streamed."""
        cursor = self.db.conn.cursor()
        cursor.execute(f"SELECT {_COLUMNS} FROM events WHERE unit = ? AND unit_id IS NOT NULL ORDER BY seq", [unit])
        while rows := cursor.fetchmany(5000):
            for row in rows:
                yield Event(*row) if plain_row(row) else event_from_row(row)  # most events: no call

    def log_events(self) -> Iterator[Event]:
        """Every event of the log, in local order, streamed (the log's export holds one batch, not the log)."""
        cursor = self.db.conn.cursor()
        cursor.execute(f"SELECT {_COLUMNS} FROM events ORDER BY seq")
        while rows := cursor.fetchmany(5000):
            for row in rows:
                yield Event(*row) if plain_row(row) else event_from_row(row)

    def model_source_events(self, unit: str | None = None, model: str | None = None) -> list[Event]:
        """Models' pair events (one model's, of one unit space, if given) and the retracts that target them.

        In local order; `labeler.judgments.log.model_events` gives those still in force.
        """
        where, params = "source = 'model' AND unit_id IS NOT NULL", []
        if unit is not None:
            where += " AND unit = ?"
            params.append(unit)
        if model is not None:
            where += " AND model = ?"
            params.append(model)
        sql = (
            f"SELECT {_COLUMNS} FROM events WHERE {where} UNION ALL "
            f"SELECT {_COLUMNS} FROM events WHERE kind = 'retract' AND target IN "
            f"(SELECT event_id FROM events WHERE {where}) "
            "ORDER BY seq"
        )
        return [event_from_row(row) for row in self.db.execute(sql, params + params)]

    def review_events(self, topic_id: str | None = None) -> list[Event]:
        sql = f"SELECT {_COLUMNS} FROM events WHERE kind = ?"
        params: list[Any] = [REVIEW]
        if topic_id is not None:
            # `unit IN (every unit of the log)` holds for every row (unit is NOT NULL); it lets SQLite
            # seek the events_by_pair index (unit, topic_id, ...) instead of scanning the whole log.
            units = self._log_units()
            if not units:
                return []
            sql += f" AND unit IN ({','.join('?' * len(units))}) AND topic_id = ?"
            params.extend([*units, topic_id])
        return [event_from_row(row) for row in self.db.execute(sql + " ORDER BY seq", params)]

    def event(self, event_id: str) -> Event | None:
        row = self.db.execute(f"SELECT {_COLUMNS} FROM events WHERE event_id = ?", [event_id]).fetchone()
        return event_from_row(row) if row else None

    def recent_events(
        self, assessor: str | None = None, limit: int = 10, kinds: tuple[str, ...] | None = None
    ) -> list[Event]:
        """The latest events, newest first in log order (history and undo).

        Log order, not local order: after a merge brought older events, the newest
        decision is still the one with the highest clock.
        """
        sql = f"SELECT {_COLUMNS} FROM events WHERE 1 = 1"
        params: list[Any] = []
        if assessor is not None:
            sql += " AND assessor = ?"
            params.append(assessor)
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        rows = self.db.execute(sql + " ORDER BY clock DESC, event_id DESC LIMIT ?", [*params, limit])
        return [event_from_row(row) for row in rows]

    def kind_events(self, kind: str, unit: str | None = None, topic_id: str | None = None) -> list[Event]:
        """Every event of one kind (e.g. every flag), of one unit space and topic if given, in local order."""
        sql = f"SELECT {_COLUMNS} FROM events WHERE kind = ?"
        params: list[Any] = [kind]
        if unit is not None:
            sql += " AND unit = ?"
            params.append(unit)
        if topic_id is not None:
            sql += " AND topic_id = ?"
            params.append(topic_id)
        return [event_from_row(row) for row in self.db.execute(sql + " ORDER BY seq", params)]

    def retracted_ids(self, event_ids: Iterable[str]) -> set[str]:
        ids = list(event_ids)
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        return {
            row[0]
            for row in self.db.execute(f"SELECT target FROM events WHERE kind = 'retract' AND target IN ({marks})", ids)
        }

    def recent_active_ms(self, assessor: str | None = None, limit: int = 50) -> list[int]:
        """Active milliseconds of the latest human grade events that measured their time, newest first.

        One assessor's (`assessor`) or the team's; the judging pace is their median.
        """
        sql = "SELECT active_ms FROM events WHERE source = 'human' AND kind = 'grade' AND active_ms > 0"
        params: list[object] = []
        if assessor is not None:
            sql += " AND assessor = ?"
            params.append(assessor)
        rows = self.db.execute(sql + " ORDER BY clock DESC, event_id DESC LIMIT ?", [*params, limit])
        return [row[0] for row in rows]

    def unit_spaces(self) -> list[str]:
        """The relevance unit spaces (`doc`, `chunk:NAME`) that have judgment events; answer spaces are not listed."""
        return [
            unit
            for unit in self._log_units()
            if not is_answer_unit(unit)
            and self.db.execute(
                "SELECT EXISTS (SELECT 1 FROM events WHERE unit = ? AND unit_id IS NOT NULL)", [unit]
            ).fetchone()[0]
        ]

    def answer_units(self) -> list[str]:
        """The answer spaces (`nuggets`, `nugget:RUN`, `support:RUN`) that have events, ascending."""
        return [unit for unit in self._log_units() if is_answer_unit(unit)]

    def _log_units(self) -> list[str]:
        """Every distinct `unit` in the log, ascending: one index seek per unit, not a scan of the log.

        (`SELECT DISTINCT unit FROM events` reads every row: ~35 ms with 500,000 events.)
        """
        rows = self.db.execute(
            "WITH RECURSIVE units(unit) AS ("
            "SELECT (SELECT min(unit) FROM events) "
            "UNION ALL SELECT (SELECT min(unit) FROM events WHERE unit > units.unit) FROM units "
            "WHERE units.unit IS NOT NULL) "
            "SELECT unit FROM units WHERE unit IS NOT NULL"
        )
        return [row[0] for row in rows]

    def event_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM events").fetchone()[0]

    def has_assessor(self, assessor: str) -> bool:
        """Whether the log holds an event by `assessor` (one index seek)."""
        return bool(
            self.db.execute("SELECT EXISTS (SELECT 1 FROM events WHERE assessor = ?)", [assessor]).fetchone()[0]
        )

    def assessor_names(self) -> list[str]:
        """Every distinct assessor of the log, ascending: one index seek per name, as `_log_units` reads units."""
        rows = self.db.execute(
            "WITH RECURSIVE names(name) AS ("
            "SELECT (SELECT min(assessor) FROM events) "
            "UNION ALL SELECT (SELECT min(assessor) FROM events WHERE assessor > names.name) FROM names "
            "WHERE names.name IS NOT NULL) "
            "SELECT name FROM names WHERE name IS NOT NULL"
        )
        return [row[0] for row in rows]

    def event_topics(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT DISTINCT topic_id FROM events")}

    def change_times(self, unit: str) -> dict[str, str]:
        """`unit id -> time of the latest content change of its document`, for staleness."""
        if unit == "doc":
            rows = self.db.execute("SELECT doc_id, max(changed) FROM document_changes GROUP BY doc_id")
        elif not unit.startswith("chunk:"):
            return {}  # an answer space: its items (nuggets, sentences) are not a corpus's texts
        else:
            rows = self.db.execute(
                "SELECT ch.chunk_id, max(dc.changed) FROM document_changes dc "
                "JOIN chunks ch ON ch.doc_id = dc.doc_id JOIN chunkings c ON c.chunking_id = ch.chunking_id "
                "WHERE c.name = ? GROUP BY ch.chunk_id",
                [unit.split(":", 1)[1]],
            )
        return dict(rows)

    def unit_content_hash(self, unit: str, unit_id: str) -> str | None:
        """The hash of the text an assessor sees for a unit now (None when the workbench has no text)."""
        if unit == "doc":
            row = self.db.execute("SELECT hash FROM documents WHERE doc_id = ?", [unit_id]).fetchone()
        elif not unit.startswith("chunk:"):
            return None  # an answer space
        else:
            row = self.db.execute(
                "SELECT ch.hash FROM chunks ch JOIN chunkings c ON c.chunking_id = ch.chunking_id "
                "WHERE c.name = ? AND ch.chunk_id = ?",
                [unit.split(":", 1)[1], unit_id],
            ).fetchone()
        return row[0] if row else None

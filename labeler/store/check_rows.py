"""Queries that inspect the file itself, for `labeler check`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.answers.spaces import ASSIGNMENT_LABELS, ASSIGNMENT_PREFIX, NUGGETS, SUPPORT_PREFIX
from labeler.errors import LabelerError
from labeler.judgments.log import Event
from labeler.store.digests import chunks_sha256, rankings_sha256, text_sha256
from labeler.store.event_rows import _COLUMNS as EVENT_COLUMNS
from labeler.store.event_rows import chained_columns, event_from_row, has_model_columns
from labeler.store.guards import GUARDED_TABLES, IMMUTABLE_KEYS
from labeler.store.lean_sqlite_utils import import_sqlite_utils
from labeler.store.rows import Rows

ANSWER_GRADES = ", ".join(str(grade) for grade in sorted(ASSIGNMENT_LABELS))
"""An answer judgment's grades as SQL lists them (citation support has the same three)."""

if TYPE_CHECKING:
    from sqlite_utils import Database

    from labeler.store.connection import Connection

APPEND_ONLY_TABLES = tuple(IMMUTABLE_KEYS)
RECOMPUTABLE_CHUNKINGS = ("words", "sentences")
"""Chunkings made from the corpus: their creation hash follows (document id, ordinal), which is stored."""


@cache
def _reference() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """Tables' columns and triggers' SQL as this labeler's migrations make them, in an empty in-memory file."""
    import_sqlite_utils()
    from sqlite_utils import Database

    from labeler.store.schema import migrations

    db = Database(memory=True)
    try:
        migrations().apply(db)
        triggers = {name: sql for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")}
        return _table_columns(db), triggers
    finally:
        db.close()


def reference_columns() -> dict[str, tuple[str, ...]]:
    return _reference()[0]


def reference_triggers() -> dict[str, str]:
    """Every trigger the schema makes (the guards, and any other a migration adds), name -> SQL."""
    return _reference()[1]


def _table_columns(db: Connection | Database) -> dict[str, tuple[str, ...]]:
    names = [
        row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    ]
    return {name: tuple(row[1] for row in db.execute("SELECT * FROM pragma_table_info(?)", [name])) for name in names}


class CheckRows(Rows):
    def integrity_problems(self) -> list[str]:
        """SQLite's integrity_check, a finding per line (one of its rows can hold several lines)."""
        rows = [row[0] for row in self.db.execute("PRAGMA integrity_check")]
        if rows == ["ok"]:
            return []
        return [
            line
            for row in rows
            for line in str(row).splitlines()
            if line.strip() and not line.startswith("*** in database")
        ]

    def foreign_key_problems(self) -> list[str]:
        return [
            f"{table} row {rowid} -> {parent}"
            for table, rowid, parent, _ in self.db.execute("PRAGMA foreign_key_check")
        ]

    def triggers(self) -> dict[str, tuple[str, str | None]]:
        """Trigger name -> (its table, its SQL as `sqlite_master` holds it)."""
        return {
            name: (table, sql)
            for name, table, sql in self.db.execute(
                "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'"
            )
        }

    def unexpected_triggers(self, expected: set[str]) -> list[str]:
        """Triggers on a guarded table that labeler's schema does not make (one could rewrite rows as they land)."""
        known = expected | set(reference_triggers())
        return sorted(
            name for name, (table, _) in self.triggers().items() if table in GUARDED_TABLES and name not in known
        )

    def column_problems(self) -> list[str]:
        """Tables missing, or whose columns are not the ones this labeler's schema makes."""
        found = _table_columns(self.db)
        problems = []
        for table, columns in reference_columns().items():
            if table not in found:
                problems.append(f"table {table} is missing")
            elif found[table] != columns:
                problems.append(
                    f"table {table} has columns ({', '.join(found[table])}), expected ({', '.join(columns)})"
                )
        return problems

    def grades_off_scale(self, grades: tuple[int, ...]) -> list[str]:
        """Events and snapshot labels whose grade is not an integer on the scale (negative: pooled, not judged)."""
        allowed = ", ".join(str(int(g)) for g in grades)
        # an answer space's grades are its own labels (support 2, partial 1, none 0), whatever the scale
        in_answer_space = " OR ".join(f"substr(unit, 1, {len(p)}) = '{p}'" for p in (ASSIGNMENT_PREFIX, SUPPORT_PREFIX))
        events = self.db.execute(
            "SELECT event_id, kind, grade FROM events WHERE grade IS NOT NULL AND (typeof(grade) != 'integer' OR "
            f"(CASE WHEN {in_answer_space} THEN grade NOT IN ({ANSWER_GRADES}) "
            f"ELSE grade >= 0 AND grade NOT IN ({allowed}) END)) ORDER BY seq"
        )
        labels = self.db.execute(
            "SELECT s.name, l.topic_id, l.unit_id, l.grade FROM snapshot_labels l JOIN snapshots s USING (snapshot_id) "
            f"WHERE typeof(l.grade) != 'integer' OR (l.grade >= 0 AND l.grade NOT IN ({allowed}))"
        )
        return [
            f"event {event_id} ({kind}): grade {grade!r} is not on the scale" for event_id, kind, grade in events
        ] + [
            f"snapshot {name}: label {topic_id} {unit_id} has grade {grade!r}, not on the scale"
            for name, topic_id, unit_id, grade in labels
        ]

    def snapshot_label_problems(self) -> list[str]:
        """Snapshot labels whose deciding event is gone from the log, or now holds another pair or grade.

        A label is the grade of the event that decided it, so an event rewritten
        behind the guards shows here when a snapshot cites it.
        """
        rows = self.db.execute(
            "SELECT s.name, l.topic_id, l.unit_id, l.grade, l.event_id, e.event_id, e.topic_id, e.unit_id, e.grade "
            "FROM snapshot_labels l JOIN snapshots s USING (snapshot_id) "
            "LEFT JOIN events e ON e.event_id = l.event_id WHERE l.event_id IS NOT NULL AND "
            "(e.event_id IS NULL OR e.topic_id != l.topic_id OR e.unit_id != l.unit_id OR e.grade IS NOT l.grade)"
        )
        return [
            f"snapshot {name}: label {topic_id} {unit_id} cites event {event_id}, "
            + (
                "which is not in the log"
                if found is None
                else f"which now says {e_topic} {e_unit} grade {e_grade!r}, not grade {grade!r}"
            )
            for name, topic_id, unit_id, grade, event_id, found, e_topic, e_unit, e_grade in rows
        ]

    def snapshot_answer_problems(self) -> list[str]:
        """Snapshot nuggets and answer labels whose event is gone or now says another pair, grade or space.

        A nugget cites the event of its version (a `nuggets` event of the same topic and nugget);
        an answer label cites the event that decided it, in the label's space, with its grade, which
        must be one of 0, 1, 2.
        """
        nuggets = self.db.execute(
            "SELECT s.name, n.topic_id, n.nugget_id, n.event_id FROM snapshot_nuggets n JOIN snapshots s "
            "USING (snapshot_id) LEFT JOIN events e ON e.event_id = n.event_id WHERE e.event_id IS NULL "
            "OR e.topic_id != n.topic_id OR e.unit_id != n.nugget_id OR e.unit != 'nuggets'"
        )
        labels = self.db.execute(
            "SELECT s.name, l.space, l.topic_id, l.item_id, l.grade, l.event_id FROM snapshot_answer_labels l "
            "JOIN snapshots s USING (snapshot_id) LEFT JOIN events e ON e.event_id = l.event_id "
            f"WHERE typeof(l.grade) != 'integer' OR l.grade NOT IN ({ANSWER_GRADES}) OR (l.event_id IS NOT NULL AND "
            "(e.event_id IS NULL OR e.topic_id != l.topic_id OR e.unit_id != l.item_id OR e.unit != l.space "
            "OR e.grade IS NOT l.grade))"
        )
        return [
            f"snapshot {name}: nugget {topic_id} {nugget_id} cites event {event_id}, which is not that nugget's"
            for name, topic_id, nugget_id, event_id in nuggets
        ] + [
            f"snapshot {name}: {space} label {topic_id} {item} (grade {grade!r}) does not agree with event {event_id}"
            for name, space, topic_id, item, grade, event_id in labels
        ]

    def scale_problems(self) -> list[str]:
        """The scale in `meta` must be a valid scale and hash to the SHA-256 recorded with it."""
        meta = dict(self.db.execute("SELECT key, value FROM meta WHERE key IN ('scale', 'scale_sha256')").fetchall())
        text, recorded = meta.get("scale"), meta.get("scale_sha256")
        if text is None:
            return ["no grade scale recorded (meta 'scale')"]
        from labeler.scales import GradeScale

        problems = []
        try:
            GradeScale.from_dict(json.loads(text))
        except (LabelerError, ValueError, KeyError, TypeError, AttributeError) as exc:
            problems.append(f"the recorded scale is not a valid scale ({exc})")
        if recorded is None:
            problems.append("no SHA-256 recorded for the scale (meta 'scale_sha256')")
        elif text_sha256(str(text)) != recorded:
            problems.append(f"the scale hashes to {text_sha256(str(text))[:12]}, recorded {str(recorded)[:12]}")
        return problems

    def document_hash_mismatches(self) -> Iterator[str]:
        """Documents whose text (title, newline, text) no longer hashes to the hash recorded with it."""
        from labeler.models import Document  # here: only `check` builds one

        cursor = self.db.conn.cursor()
        cursor.execute("SELECT doc_id, title, text, hash FROM documents ORDER BY doc_id")
        while rows := cursor.fetchmany(1000):
            for doc_id, title, text, recorded in rows:
                if not isinstance(title, str) or not isinstance(text, str):
                    yield f"document {doc_id}: title or text is not text"
                elif Document(doc_id, title, text).hash != recorded:
                    yield (
                        f"document {doc_id}: its text hashes to {Document(doc_id, title, text).hash[:12]}, "
                        f"recorded {str(recorded)[:12]}"
                    )

    def chunking_mismatches(self) -> list[str]:
        """Chunkings whose stored chunks no longer match the digests and counts recorded at creation."""
        problems = []
        rows = self.db.execute(
            "SELECT chunking_id, name, kind, params, hash, documents, chunks, chunks_sha256 "
            "FROM chunkings ORDER BY chunking_id"
        ).fetchall()
        for chunking_id, name, kind, params, recorded, documents, count, digest in rows:
            found_chunks, found_documents = self.db.execute(
                "SELECT count(*), count(DISTINCT doc_id) FROM chunks WHERE chunking_id = ?", [chunking_id]
            ).fetchone()
            if (found_chunks, found_documents) != (count, documents):
                problems.append(
                    f"chunking {name}: {count} chunks of {documents} documents recorded, "
                    f"{found_chunks} of {found_documents} stored"
                )
            if digest is None:
                problems.append(f"chunking {name}: no digest of its chunks recorded")
            elif chunks_sha256(self.db, chunking_id) != digest:
                problems.append(f"chunking {name}: its stored chunks differ from those recorded at creation")
            if kind in RECOMPUTABLE_CHUNKINGS:
                from labeler.chunking import ChunkHasher  # here: only `check` re-derives a chunking
                from labeler.models import Chunk

                hasher = ChunkHasher(kind, json.loads(params))
                for chunk_id, doc_id, start, end, chunk_hash in self.db.execute(
                    "SELECT chunk_id, doc_id, start, end, hash FROM chunks WHERE chunking_id = ? "
                    "ORDER BY doc_id, ordinal",
                    [chunking_id],
                ):
                    hasher.add(Chunk(chunk_id, doc_id, start, end, chunk_hash))
                if hasher.hexdigest() != recorded:
                    problems.append(
                        f"chunking {name}: its chunks hash to {hasher.hexdigest()[:12]}, recorded {str(recorded)[:12]}"
                    )
        return problems

    def run_digest_mismatches(self) -> list[str]:
        """Runs whose stored rankings differ from the digest recorded when the import sealed them."""
        problems = []
        for run_id, name, digest in self.db.execute(
            "SELECT run_id, name, rankings_sha256 FROM runs ORDER BY run_id"
        ).fetchall():
            if digest is None:
                problems.append(f"run {name}: not sealed (no digest of its rankings recorded)")
            elif rankings_sha256(self.db, run_id) != digest:
                problems.append(f"run {name}: its stored rankings differ from those recorded at import")
        return problems

    def applied_migrations(self) -> list[str]:
        if "_sqlite_migrations" not in self.db.table_names():
            return []
        return [
            row[0]
            for row in self.db.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = 'labeler' ORDER BY rowid"
            )
        ]

    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def retracts_without_target(self) -> list[str]:
        return [
            row[0]
            for row in self.db.execute(
                "SELECT r.event_id FROM events r WHERE r.kind = 'retract' AND NOT EXISTS "
                "(SELECT 1 FROM events e WHERE e.event_id = r.target)"
            )
        ]

    def malformed_events(self) -> list[str]:
        """Events whose fields do not fit their kind."""
        model_rules = (
            " OR (probs IS NOT NULL AND (kind != 'grade' OR source != 'model' OR json_valid(probs) = 0 "
            "OR json_type(probs) != 'object')) OR (shown_model IS NOT NULL AND source = 'model')"
        )
        others_rule = (
            " OR (shown_others IS NOT NULL AND (source = 'model' OR json_valid(shown_others) = 0 "
            "OR json_type(shown_others) != 'array'))"
        )
        rows = self.db.execute(
            "SELECT event_id, kind FROM events WHERE "
            "(kind IN ('grade', 'adjudicate') AND grade IS NULL) OR "
            "(kind = 'review' AND (reason NOT IN ('reviewed', 'no_answer', 'unreviewed') OR unit_id IS NOT NULL)) OR "
            "(kind = 'retract' AND target IS NULL) OR "
            "(kind NOT IN ('review') AND unit_id IS NULL) OR "
            "(kind = 'unsure' AND (reason IS NULL OR reason = ''))"
            + (model_rules if has_model_columns(self.db) else "")  # a file before migration 9: none to check
            + (others_rule if "shown_others" in chained_columns(self.db) else "")  # before migration 10: none
        )
        return [f"{event_id} ({kind})" for event_id, kind in rows] + self._malformed_nugget_events()

    def _malformed_nugget_events(self) -> list[str]:
        """`nuggets` events that are not a note holding a valid nugget version (or a retract of one)."""
        from labeler.answers.nuggets import parse_version  # read by check alone, not by every command's store

        problems = []
        rows = self.db.execute(
            "SELECT event_id, kind, note FROM events WHERE unit = ? AND kind != 'retract' ORDER BY seq", [NUGGETS]
        )
        for event_id, kind, note in rows:
            version = parse_version(note) if kind == "note" else f"a nugget event must be a note, not a {kind}"
            if isinstance(version, str):
                problems.append(f"{event_id} ({kind}: {version})")
        return problems

    def run_entry_mismatches(self) -> list[str]:
        """Runs whose stored rankings do not add up to the counts recorded at import."""
        rows = self.db.execute(
            "SELECT r.name, r.topics, count(k.topic_id), r.entries, "
            "coalesce(sum(length(k.scores) / 8), 0) FROM runs r LEFT JOIN run_rankings k ON k.run_id = r.run_id "
            "GROUP BY r.run_id"
        )
        return [
            f"run {name}: {topics} topics and {entries} results recorded, {found_topics} and {found_entries} stored"
            for name, topics, found_topics, entries, found_entries in rows
            if topics != found_topics or entries != found_entries
        ]

    def all_events(self) -> list[Event]:
        """Every event, in local order (merge and log export)."""
        return [event_from_row(row) for row in self.db.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY seq")]

    def event_ids(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT event_id FROM events")}

    def backup_to(self, path: str | Path) -> None:
        """A consistent copy of the whole workbench, taken with SQLite's online backup (writers may go on)."""
        import sqlite3

        target = sqlite3.connect(str(path))
        try:
            self.db.conn.backup(target)
            # a lease is this workbench's local state: the copy holds no claims (nobody is shown its pairs)
            if target.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'claims'").fetchone():
                target.execute("DELETE FROM claims")
                target.commit()
        finally:
            target.close()

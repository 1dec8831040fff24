"""Queries that inspect the file itself, for `labeler check`."""

from __future__ import annotations

from labeler.judgments import Event
from labeler.store.event_rows import _COLUMNS as EVENT_COLUMNS

APPEND_ONLY_TABLES = ("events", "snapshots", "snapshot_labels", "pools", "pool_entries", "chunkings", "chunks",
                      "document_changes")


class CheckRows:
    db: object

    def integrity_problems(self) -> list[str]:
        rows = [row[0] for row in self.db.execute("PRAGMA integrity_check")]
        return [] if rows == ["ok"] else rows

    def foreign_key_problems(self) -> list[str]:
        return [f"{table} row {rowid} -> {parent}" for table, rowid, parent, _ in
                self.db.execute("PRAGMA foreign_key_check")]

    def trigger_names(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}

    def applied_migrations(self) -> list[str]:
        if "_sqlite_migrations" not in self.db.table_names():
            return []
        return [row[0] for row in self.db.execute(
            "SELECT name FROM _sqlite_migrations WHERE migration_set = 'labeler' ORDER BY rowid")]

    def schema_version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def retracts_without_target(self) -> list[str]:
        return [row[0] for row in self.db.execute(
            "SELECT r.event_id FROM events r WHERE r.kind = 'retract' AND NOT EXISTS "
            "(SELECT 1 FROM events e WHERE e.event_id = r.target)")]

    def malformed_events(self) -> list[str]:
        """Events whose fields do not fit their kind."""
        rows = self.db.execute(
            "SELECT event_id, kind FROM events WHERE "
            "(kind IN ('grade', 'adjudicate') AND grade IS NULL) OR "
            "(kind = 'review' AND (reason NOT IN ('reviewed', 'no_answer', 'unreviewed') OR unit_id IS NOT NULL)) OR "
            "(kind = 'retract' AND target IS NULL) OR "
            "(kind NOT IN ('review') AND unit_id IS NULL) OR "
            "(kind = 'unsure' AND (reason IS NULL OR reason = ''))")
        return [f"{event_id} ({kind})" for event_id, kind in rows]

    def run_entry_mismatches(self) -> list[str]:
        """Runs whose stored rankings do not add up to the counts recorded at import."""
        rows = self.db.execute(
            "SELECT r.name, r.topics, count(k.topic_id), r.entries, "
            "coalesce(sum(length(k.scores) / 8), 0) FROM runs r LEFT JOIN run_rankings k ON k.run_id = r.run_id "
            "GROUP BY r.run_id")
        return [f"run {name}: {topics} topics and {entries} results recorded, {found_topics} and {found_entries} stored"
                for name, topics, found_topics, entries, found_entries in rows
                if topics != found_topics or entries != found_entries]

    def all_events(self) -> list[Event]:
        """Every event, in local order (merge and log export)."""
        return [Event(*row) for row in self.db.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY seq")]

    def event_ids(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT event_id FROM events")}

    def backup_to(self, path) -> None:
        """A consistent copy of the whole workbench, taken with SQLite's online backup (writers may go on)."""
        import sqlite3

        target = sqlite3.connect(str(path))
        try:
            self.db.conn.backup(target)
        finally:
            target.close()

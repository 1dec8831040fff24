"""Snapshots and their labels (immutable once written)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from labeler.models import SnapshotInfo
from labeler.store.rows import Rows

_COLUMNS = "name, parent, message, created, unit, manifest, sha256"


class SnapshotRows(Rows):
    def snapshots(self) -> list[SnapshotInfo]:
        return [_snapshot(r) for r in self.db.execute(f"SELECT {_COLUMNS} FROM snapshots ORDER BY snapshot_id")]

    def latest_snapshot(self) -> SnapshotInfo | None:
        row = self.db.execute(f"SELECT {_COLUMNS} FROM snapshots ORDER BY snapshot_id DESC LIMIT 1").fetchone()
        return _snapshot(row) if row else None

    def snapshot(self, name: str) -> SnapshotInfo:
        return _snapshot(self._named(f"SELECT {_COLUMNS} FROM snapshots WHERE name = ?", name, "snapshot"))

    def next_snapshot_id(self) -> int:
        return self.db.execute("SELECT coalesce(max(snapshot_id), 0) + 1 FROM snapshots").fetchone()[0]

    def insert_snapshot(
        self, snapshot_id: int, info: SnapshotInfo, labels: Iterable[tuple[str, str, int, str | None]]
    ) -> None:
        self.db.conn.executemany(
            "INSERT INTO snapshot_labels (snapshot_id, topic_id, unit_id, grade, event_id) VALUES (?, ?, ?, ?, ?)",
            ((snapshot_id, *label) for label in labels),
        )
        self.db.execute(
            f"INSERT INTO snapshots (snapshot_id, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                snapshot_id,
                info.name,
                info.parent,
                info.message,
                info.created,
                info.unit,
                json.dumps(info.manifest, sort_keys=True),
                info.sha256,
            ],
        )

    def snapshot_labels(self, name: str) -> list[tuple[str, str, int, str | None]]:
        """(topic, unit, grade, deciding event id) of a snapshot."""
        row = self._named("SELECT snapshot_id FROM snapshots WHERE name = ?", name, "snapshot")
        return [
            tuple(r)
            for r in self.db.execute(
                "SELECT topic_id, unit_id, grade, event_id FROM snapshot_labels WHERE snapshot_id = ?", [row[0]]
            )
        ]


def _snapshot(row: tuple[Any, ...]) -> SnapshotInfo:
    return SnapshotInfo(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6])

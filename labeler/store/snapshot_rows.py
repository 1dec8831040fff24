"""Snapshots and their labels (immutable once written)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from labeler.store.bulk_writes import guard_held
from labeler.store.rows import Rows

if TYPE_CHECKING:
    from labeler.models import SnapshotInfo

_COLUMNS = "name, parent, message, created, unit, manifest, sha256"
SNAPSHOTS_MADE = "snapshots_made"
"""The meta key holding the number of the latest snapshot made (`vN`): removing it leaves a gap to see."""


class SnapshotRows(Rows):
    def _snapshot_columns(self) -> str:
        """The columns read, `seal` among them when the file has it (`check` reads files of an older schema)."""
        names = {row[1] for row in self.db.execute("SELECT * FROM pragma_table_info('snapshots')")}
        return f"{_COLUMNS}, seal" if "seal" in names else _COLUMNS

    def snapshots(self) -> list[SnapshotInfo]:
        return [
            _snapshot(r)
            for r in self.db.execute(f"SELECT {self._snapshot_columns()} FROM snapshots ORDER BY snapshot_id")
        ]

    def latest_snapshot(self) -> SnapshotInfo | None:
        row = self.db.execute(
            f"SELECT {self._snapshot_columns()} FROM snapshots ORDER BY snapshot_id DESC LIMIT 1"
        ).fetchone()
        return _snapshot(row) if row else None

    def snapshot(self, name: str) -> SnapshotInfo:
        return _snapshot(
            self._named(f"SELECT {self._snapshot_columns()} FROM snapshots WHERE name = ?", name, "snapshot")
        )

    def snapshot_numbers(self) -> list[tuple[int, str]]:
        """(number, name) of every stored snapshot, in order (`check` looks for gaps)."""
        return [tuple(row) for row in self.db.execute("SELECT snapshot_id, name FROM snapshots ORDER BY snapshot_id")]

    def snapshots_made(self) -> int:
        """The number of the latest snapshot made, as recorded (0: none recorded)."""
        made = self.get_meta(SNAPSHOTS_MADE)
        return int(made) if made and made.isdecimal() else 0

    def next_snapshot_id(self) -> int:
        """After every snapshot stored and every one made: a removed snapshot's name is never given again."""
        stored = self.db.execute("SELECT coalesce(max(snapshot_id), 0) FROM snapshots").fetchone()[0]
        return max(stored, self.snapshots_made()) + 1

    def stage_snapshot_begin(self) -> None:
        """An empty `snapshot_staged`: the connection's temporary table of the label rows a snapshot will hold.

        Temporary (a file SQLite deletes, outside the workbench): the labels are derived and staged
        a topic at a time before the write begins, so neither memory nor the write lock holds them.
        """
        self.db.execute("DROP TABLE IF EXISTS temp.snapshot_staged")
        self.db.execute("CREATE TEMP TABLE snapshot_staged (topic_id, unit_id, grade, event_id)")

    def stage_snapshot_labels(self, labels: Iterable[tuple[str, str, int, str | None]]) -> None:
        """Stage a batch of (topic, unit, grade, deciding event) rows."""
        self.db.conn.executemany("INSERT INTO temp.snapshot_staged VALUES (?, ?, ?, ?)", labels)

    def stage_snapshot_end(self) -> None:
        self.db.execute("DROP TABLE IF EXISTS temp.snapshot_staged")

    def insert_snapshot(self, snapshot_id: int, info: SnapshotInfo) -> None:
        """Store a snapshot with the label rows staged (`stage_snapshot_labels`)."""
        (count,) = self.db.execute("SELECT count(*) FROM temp.snapshot_staged").fetchone()
        with guard_held(self.db, "snapshot_labels", count):  # its key refuses a repeated pair
            self.db.execute(
                "INSERT INTO snapshot_labels (snapshot_id, topic_id, unit_id, grade, event_id) "
                "SELECT ?, topic_id, unit_id, grade, event_id FROM temp.snapshot_staged ORDER BY rowid",
                [snapshot_id],
            )
        self.db.execute(
            f"INSERT INTO snapshots (snapshot_id, {_COLUMNS}, seal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                snapshot_id,
                info.name,
                info.parent,
                info.message,
                info.created,
                info.unit,
                json.dumps(info.manifest, sort_keys=True),
                info.sha256,
                info.seal,
            ],
        )
        self.set_meta(SNAPSHOTS_MADE, str(snapshot_id))

    def insert_snapshot_answers(
        self,
        snapshot_id: int,
        nuggets: Iterable[tuple[str, str, str, int, str, str, str]],
        labels: Iterable[tuple[str, str, str, int, str | None]],
    ) -> None:
        """Store a snapshot's nuggets and answer labels (inside the write that stores the snapshot)."""
        self.db.conn.executemany(
            "INSERT INTO snapshot_nuggets (snapshot_id, topic_id, nugget_id, importance, rank, text, origin, event_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ([snapshot_id, *row] for row in nuggets),
        )
        self.db.conn.executemany(
            "INSERT INTO snapshot_answer_labels (snapshot_id, space, topic_id, item_id, grade, event_id) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            ([snapshot_id, *row] for row in labels),
        )

    def snapshot_nuggets(self, name: str) -> list[tuple[str, str, str, int, str, str, str]]:
        """(topic, nugget id, importance, rank, text, origin, event id) of a snapshot's nuggets."""
        row = self._named("SELECT snapshot_id FROM snapshots WHERE name = ?", name, "snapshot")
        return [
            tuple(r)
            for r in self.db.execute(
                "SELECT topic_id, nugget_id, importance, rank, text, origin, event_id FROM snapshot_nuggets "
                "WHERE snapshot_id = ?",
                [row[0]],
            )
        ]

    def snapshot_answer_labels(self, name: str) -> list[tuple[str, str, str, int, str | None]]:
        """(space, topic, item, grade, deciding event id) of a snapshot's answer labels."""
        row = self._named("SELECT snapshot_id FROM snapshots WHERE name = ?", name, "snapshot")
        return [
            tuple(r)
            for r in self.db.execute(
                "SELECT space, topic_id, item_id, grade, event_id FROM snapshot_answer_labels WHERE snapshot_id = ?",
                [row[0]],
            )
        ]

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
    from labeler.models import SnapshotInfo  # here: the judging queue and the status read no snapshot

    seal = row[7] if len(row) > 7 else None
    return SnapshotInfo(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], seal)

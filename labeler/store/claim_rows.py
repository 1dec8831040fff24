"""Claims: which assessor is being shown which pair, and until when (epoch milliseconds, UTC).

Not a log: a claim is replaced when renewed and deleted when released, and a
lease whose time has ended is no claim (those rows are ignored, and deleted
lazily by the next claim). Every method runs inside the caller's transaction;
`labeler.workbench.claims` takes one write transaction per decision, so two
processes never claim the same pair.
"""

from __future__ import annotations

from typing import Any

from labeler.store.rows import Rows


class ClaimRows(Rows):
    def drop_expired_claims(self, now_ms: int) -> int:
        """Delete the leases that ended at or before `now_ms`; returns how many."""
        return self.db.execute("DELETE FROM claims WHERE lease_until <= ?", [now_ms]).rowcount

    def live_claims(self, unit: str, now_ms: int, topic_id: str | None = None) -> dict[tuple[str, str], set[str]]:
        """`(topic, unit id) -> assessors` holding a lease that ends after `now_ms`, in one unit space."""
        sql = "SELECT topic_id, unit_id, assessor FROM claims WHERE unit = ? AND lease_until > ?"
        params: list[Any] = [unit, now_ms]
        if topic_id is not None:
            sql += " AND topic_id = ?"
            params.append(topic_id)
        held: dict[tuple[str, str], set[str]] = {}
        for topic, unit_id, assessor in self.db.execute(sql, params):
            held.setdefault((topic, unit_id), set()).add(assessor)
        return held

    def live_leases(self, unit: str, now_ms: int) -> list[tuple[str, str, str, int]]:
        """Every live lease of a unit space: `(topic, unit id, assessor, lease_until)`, the soonest to end first."""
        return [
            tuple(row)
            for row in self.db.execute(
                "SELECT topic_id, unit_id, assessor, lease_until FROM claims WHERE unit = ? AND lease_until > ? "
                "ORDER BY lease_until, topic_id, unit_id, assessor",
                [unit, now_ms],
            )
        ]

    def put_claim(
        self, unit: str, topic_id: str, unit_id: str, assessor: str, claimed_ms: int, lease_until_ms: int
    ) -> None:
        """Record or renew an assessor's lease on a pair (a renewal keeps when it was first claimed)."""
        self.db.execute(
            "INSERT INTO claims (unit, topic_id, unit_id, assessor, claimed, lease_until) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (unit, topic_id, unit_id, assessor) DO UPDATE SET lease_until = excluded.lease_until",
            [unit, topic_id, unit_id, assessor, claimed_ms, lease_until_ms],
        )

    def delete_claim(self, unit: str, topic_id: str, unit_id: str, assessor: str) -> bool:
        """Release an assessor's lease on a pair; False when there was none."""
        return (
            self.db.execute(
                "DELETE FROM claims WHERE unit = ? AND topic_id = ? AND unit_id = ? AND assessor = ?",
                [unit, topic_id, unit_id, assessor],
            ).rowcount
            > 0
        )

    def assessor_claims(self, assessor: str, unit: str, now_ms: int) -> list[tuple[str, str, int]]:
        """The assessor's live leases in a unit space: `(topic, unit id, lease_until)`, oldest claim first."""
        return [
            tuple(row)
            for row in self.db.execute(
                "SELECT topic_id, unit_id, lease_until FROM claims WHERE assessor = ? AND unit = ? AND lease_until > ? "
                "ORDER BY claimed, topic_id, unit_id",
                [assessor, unit, now_ms],
            )
        ]

    def change_token(self) -> tuple[int, int]:
        """What tells a reader kept in memory that the workbench may have changed: `(data_version, total_changes)`.

        SQLite's `data_version` changes when another connection (another process, a worker's
        own connection) commits; `total_changes` counts the rows this connection changed. The
        judging session keeps its queue between keys while both stay where its own writes left
        them (`labeler.workbench.session`).
        """
        return self.db.execute("PRAGMA data_version").fetchone()[0], self.db.conn.total_changes

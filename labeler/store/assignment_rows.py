"""Assignment events: appended, and read back as the latest row per topic."""

from __future__ import annotations

import json
from collections.abc import Iterable

from labeler.assignment import TopicAssignment
from labeler.store.rows import Rows


class AssignmentRows(Rows):
    def add_assignments(self, rows: Iterable[tuple[str, str | None, list[str], float, int, str, str]]) -> int:
        """Append `(topic, assessor or None to clear, plan order, overlap, seed, time, by)` rows; how many."""
        values = [
            (topic, assessor, json.dumps(list(order)), overlap, seed, assigned, by)
            for topic, assessor, order, overlap, seed, assigned, by in rows
        ]
        self.db.conn.executemany(
            "INSERT INTO assignments (topic_id, assessor, assessors, overlap, seed, assigned, assigned_by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            values,
        )
        return len(values)

    def current_assignments(self) -> dict[str, TopicAssignment]:
        """`topic -> its assignment`, from each topic's latest event; cleared topics are left out."""
        rows = self.db.execute(
            "SELECT topic_id, assessor, assessors, overlap, seed, assigned, assigned_by FROM assignments a "
            "WHERE assignment_id = (SELECT max(assignment_id) FROM assignments b WHERE b.topic_id = a.topic_id)"
        )
        return {
            topic: TopicAssignment(topic, assessor, tuple(json.loads(order)), overlap, seed, assigned, by)
            for topic, assessor, order, overlap, seed, assigned, by in rows
            if assessor is not None
        }

"""Assignment events: appended, and read back as the latest row per topic; the campaign's model setting.

The model setting lives in `meta` (key `show_model`, no schema change) as the JSON list of every
change, oldest first: the latest is in force, and who turned a model label on, and when, stays traceable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from labeler.assignment import ShowModel, TopicAssignment
from labeler.store.rows import Rows

SHOW_MODEL = "show_model"  # meta key: the list of the campaign's model settings, oldest first


class AssignmentRows(Rows):
    def show_model_history(self) -> list[ShowModel]:
        """Every change of the model setting, oldest first ([] when it was never set: blind)."""
        text = self.get_meta(SHOW_MODEL)
        return [ShowModel(row["model"], row["set"], row["by"]) for row in json.loads(text)] if text else []

    def add_show_model(self, setting: ShowModel) -> None:
        """Append one change of the model setting (inside the caller's write transaction)."""
        history = [row.to_json() for row in self.show_model_history()] + [setting.to_json()]
        self.set_meta(SHOW_MODEL, json.dumps(history, sort_keys=True))

    def add_assignments(
        self, rows: Iterable[tuple[str, str | None, list[str], float, int, str, str]], *, show_others: bool = False
    ) -> int:
        """Append `(topic, assessor or None to clear, plan order, overlap, seed, time, by)` rows; how many.

        `show_others`: each judge of an overlap pair sees the other's label (else blind until both judged).
        """
        values = [
            (topic, assessor, json.dumps(list(order)), overlap, seed, assigned, by, int(show_others))
            for topic, assessor, order, overlap, seed, assigned, by in rows
        ]
        self.db.conn.executemany(
            "INSERT INTO assignments (topic_id, assessor, assessors, overlap, seed, assigned, assigned_by, "
            "show_others) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )
        return len(values)

    def current_assignments(self) -> dict[str, TopicAssignment]:
        """`topic -> its assignment`, from each topic's latest event; cleared topics are left out."""
        rows = self.db.execute(
            "SELECT topic_id, assessor, assessors, overlap, seed, assigned, assigned_by, show_others "
            "FROM assignments a "
            "WHERE assignment_id = (SELECT max(assignment_id) FROM assignments b WHERE b.topic_id = a.topic_id)"
        )
        return {
            topic: TopicAssignment(topic, assessor, tuple(json.loads(order)), overlap, seed, assigned, by, bool(shown))
            for topic, assessor, order, overlap, seed, assigned, by, shown in rows
            if assessor is not None
        }

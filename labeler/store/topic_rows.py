"""Topic rows."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from labeler.pool_models import topic_sort_key
from labeler.store.rows import Rows

if TYPE_CHECKING:
    from labeler.models import Topic


class TopicRows(Rows):
    def topic_count(self) -> int:
        return self.db.execute("SELECT count(*) FROM topics").fetchone()[0]

    def topic_ids(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT topic_id FROM topics")}

    def topics(self) -> list[Topic]:
        rows = self.db.execute(
            "SELECT topic_id, title, description, narrative, extra FROM topics ORDER BY topic_id"
        ).fetchall()
        return sorted((_topic(row) for row in rows), key=lambda t: topic_sort_key(t.topic_id))

    def topic(self, topic_id: str) -> Topic | None:
        row = self.db.execute(
            "SELECT topic_id, title, description, narrative, extra FROM topics WHERE topic_id = ?", [topic_id]
        ).fetchone()
        return _topic(row) if row else None

    def put_topics(self, topics: Iterable[Topic], imported: str) -> None:
        """Insert or replace topics (the caller decided replacing is wanted)."""
        self.db.conn.executemany(
            "INSERT INTO topics (topic_id, title, description, narrative, extra, imported) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(topic_id) DO UPDATE SET title = excluded.title, description = excluded.description, "
            "narrative = excluded.narrative, extra = excluded.extra, imported = excluded.imported",
            [
                (t.topic_id, t.title, t.description, t.narrative, json.dumps(t.extra, sort_keys=True), imported)
                for t in topics
            ],
        )


def _topic(row: tuple[Any, ...]) -> Topic:
    from labeler.models import Topic  # here: the judging queue and the status read no topic row

    return Topic(row[0], row[1], row[2], row[3], json.loads(row[4]))

"""Assignments and support labels logged as grade events of the answer spaces, for tests of scores and snapshots."""

from __future__ import annotations

from collections.abc import Mapping

from labeler.store import Store

TIME = "2026-12-02T00:00:00+00:00"


def add_grades(
    store: Store,
    space: str,
    topic_id: str,
    grades: Mapping[str, int],
    *,
    assessor: str = "ann",
    source: str = "human",
    model: str | None = None,
) -> None:
    """Log one grade event per item (nugget id or sentence number) of `topic_id` in `space`."""
    with store.transaction():
        store.append_grades(
            [(topic_id, item, grade) for item, grade in grades.items()],
            assessor=assessor,
            time=TIME,
            source=source,
            model=model,
            unit=space,
        )

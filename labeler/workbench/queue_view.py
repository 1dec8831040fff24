"""`labeler queue`: the first units an assessor would be shown, pairs other assessors hold left out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from labeler.json_form import JsonResult
from labeler.ordering import is_seeded
from labeler.store import Store
from labeler.workbench.assessors import current_plan
from labeler.workbench.claims import WhyNothing, free_queue
from labeler.workbench.queue import QueueItem, check_model, current_pool, pool_topics

if TYPE_CHECKING:
    from labeler.workbench.nothing_left import Reason


@dataclass(frozen=True)
class QueuedUnit(JsonResult):
    """One unit of the queue shown: its id, its 1-based position, and whether it was put off (skipped or unsure)."""

    unit: str
    position: int
    later: bool


@dataclass(frozen=True)
class QueueView(WhyNothing, JsonResult):
    """`labeler queue`'s result: the topic's first units for the assessor, and why there are none (`reasons`).

    `remaining` counts every unit left for them (not only those in `next`); `held_by_others` the units
    other assessors hold, left out; `seed` only for a seeded order.
    """

    json_extra = {"reason": "next"}

    topic: str | None
    order: str
    seed: int | None
    model: str | None
    remaining: int
    held_by_others: int
    next: tuple[QueuedUnit, ...]
    reasons: tuple[Reason, ...] = ()


def queue_view(
    store: Store,
    topic_id: str | None,
    *,
    assessor: str,
    order: str = "pool",
    seed: int = 0,
    pool: str | None = None,
    limit: int = 20,
    now: datetime | None = None,
    model: str | None = None,
) -> QueueView:
    """`labeler queue`: what this assessor would be shown (pairs held by others left out, and counted)."""
    check_model(order, model)
    if topic_id is not None:
        from labeler.workbench.topics import require_topic

        require_topic(store, topic_id, pool=current_pool(store, pool).name)
    topics = [topic_id] if topic_id is not None else current_plan(store).order_for(assessor, pool_topics(store, pool))
    items: list[QueueItem] = []
    held = 0
    for topic in topics:
        items, held_here = free_queue(
            store, topic, assessor=assessor, order=order, seed=seed, pool=pool, now=now, model=model
        )
        held += held_here
        if items or topic_id is not None:
            topic_id = topic
            break
    reasons: tuple[Reason, ...] = ()
    if not items:
        from labeler.workbench.nothing_left import nothing_left  # it reads the claims: imported when needed

        reasons = nothing_left(store, assessor, topic=topic_id, pool=pool, now=now).reasons
    return QueueView(
        topic=topic_id,
        order=order,
        seed=seed if is_seeded(order) else None,
        model=model,
        remaining=len(items),
        held_by_others=held,
        next=tuple(QueuedUnit(i.unit_id, i.position, i.later) for i in items[:limit]),
        reasons=reasons,
    )

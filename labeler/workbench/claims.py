"""Claims with leases: a pair shown to one assessor is not shown to another until it is judged or let go.

Without claims, two annotators on one workbench would be handed the same next unit. The
pair an assessor is shown is claimed for a lease (15 minutes unless asked
otherwise), renewed while it is shown, and released by its judgment, by moving
on, or by the lease's end: a lease whose time has ended is no claim, so a
closed laptop returns its pair to the others by itself. Each claim is decided
in one write transaction (`BEGIN IMMEDIATE`), so two processes never get the
same pair.

An assessor's own claims never stand in their way: asking again gives the same
pair until it is judged, and two terminals of one person share their claims.

Times are stored as epoch milliseconds (UTC) and shown as UTC ISO 8601, like
the log's times (`labeler.workbench.setup.now`). Every function takes `now`
(an aware datetime) so that tests drive time instead of sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from labeler.assignment import Plan
from labeler.errors import LabelerError
from labeler.ids import check_id
from labeler.json_form import JsonResult
from labeler.store import Store
from labeler.workbench.assessors import check_assessor, current_plan
from labeler.workbench.queue import QueueItem, check_model, current_pool, pool_topics, queue
from labeler.workbench.read_labels import unit_space

if TYPE_CHECKING:
    from labeler.workbench.nothing_left import NothingLeft, Reason

DEFAULT_LEASE = timedelta(minutes=15)


@dataclass(frozen=True)
class Claim(JsonResult):
    """The pair an assessor was given, where it sits in what is left for them, and until when it is theirs."""

    topic: str
    unit: str
    unit_space: str
    position: int  # 1-based, in the topic's queue for this assessor (pairs held by others left out)
    remaining: int  # pairs left for this assessor in the topic, this one included
    lease_until: str  # UTC ISO 8601
    overlap: bool  # an overlap pair: its other judge may hold it too


def _shared_pair(plan: Plan, topic: str, unit_id: str) -> bool:
    """Whether two assessors may hold the pair at once: a planned overlap pair, claimed by each of its judges.

    The queue already offers an overlap pair only to its two judges (`labeler.assignment`), so a
    second claim on it can only be the other judge's.
    """
    return plan.is_overlap(topic, unit_id)


def utc_now(now: datetime | None = None) -> datetime:
    return now if now is not None else datetime.now(timezone.utc)


def epoch_ms(moment: datetime) -> int:
    return int(round(moment.timestamp() * 1000))


def iso_time(ms: int) -> str:
    """Epoch milliseconds as UTC ISO 8601 with microseconds (the log's format)."""
    return datetime.fromtimestamp(ms / 1000, timezone.utc).isoformat(timespec="microseconds")


def check_lease(lease: timedelta, where: str | None = None) -> timedelta:
    if not isinstance(lease, timedelta) or lease <= timedelta(0):
        raise LabelerError(f"a lease must be a positive time, not {lease}", path=where)
    return lease


def held_by_others(
    store: Store, unit: str, assessor: str, now: datetime | None = None, topic_id: str | None = None
) -> set[tuple[str, str]]:
    """The pairs of a unit space another assessor holds a live lease on (overlap pairs left out)."""
    held = store.live_claims(unit, epoch_ms(utc_now(now)), topic_id)
    plan = current_plan(store) if held else Plan()
    return {pair for pair, who in held.items() if who - {assessor} and not _shared_pair(plan, *pair)}


def free_items(items: list[QueueItem], held: set[tuple[str, str]]) -> tuple[list[QueueItem], int]:
    """A queue without the pairs held by others, renumbered from 1, and how many were left out."""
    free = [item for item in items if (item.topic_id, item.unit_id) not in held]
    return [replace(item, position=i) for i, item in enumerate(free, 1)], len(items) - len(free)


def free_queue(
    store: Store,
    topic_id: str,
    *,
    assessor: str,
    order: str = "pool",
    seed: int = 0,
    pool: str | None = None,
    now: datetime | None = None,
    model: str | None = None,
) -> tuple[list[QueueItem], int]:
    """What this assessor would be shown of a topic (`queue` less the pairs held by others), and how many are held."""
    items = queue(store, topic_id, assessor=assessor, order=order, seed=seed, pool=pool, model=model)
    if not items:
        return [], 0
    return free_items(items, held_by_others(store, items[0].unit, assessor, now, topic_id))


def claim_next(
    store: Store,
    assessor: str,
    *,
    topic: str | None = None,
    lease: timedelta = DEFAULT_LEASE,
    order: str = "pool",
    seed: int = 0,
    pool: str | None = None,
    now: datetime | None = None,
    model: str | None = None,
) -> Claim | None:
    """Claim the assessor's next pair: their own live claim if one is still waiting, else the first free one.

    Topics in natural order (the assessor's assigned ones first, then unassigned ones; or the one
    given), each in the queue's order;
    None when nothing is left that nobody else holds.
    """
    assessor = check_assessor(store, assessor)
    if topic is not None:
        topic = check_id(topic, "topic id")
    check_lease(lease)
    check_model(order, model)
    moment = utc_now(now)
    now_ms = epoch_ms(moment)
    info = current_pool(store, pool)
    if topic is not None:
        from labeler.workbench.topics import require_topic  # only a named topic is checked

        require_topic(store, topic, pool=info.name)
    with store.transaction():
        store.drop_expired_claims(now_ms)
        held = held_by_others(store, info.unit, assessor, moment)
        plan = current_plan(store)
        topics = [topic] if topic is not None else plan.order_for(assessor, pool_topics(store, info.name))
        chosen = _own_claim(store, assessor, topics, held, order, seed, info, now_ms, model)
        if chosen is None:
            chosen = _first_free(store, assessor, topics, held, order, seed, info.name, model)
        if chosen is None:
            return None
        item, items = chosen
        lease_until = now_ms + int(lease.total_seconds() * 1000)
        store.put_claim(info.unit, item.topic_id, item.unit_id, assessor, now_ms, lease_until)
    return Claim(
        item.topic_id,
        item.unit_id,
        info.unit,
        item.position,
        len(items),
        iso_time(lease_until),
        _shared_pair(plan, item.topic_id, item.unit_id),
    )


def _own_claim(store, assessor, topics, held, order, seed, info, now_ms, model=None):
    mine = {(t, u) for t, u, _ in store.assessor_claims(assessor, info.unit, now_ms)}
    for topic in [t for t in topics if any(t == mt for mt, _ in mine)]:
        ranked = queue(store, topic, assessor=assessor, order=order, seed=seed, pool=info.name, model=model)
        items, _ = free_items(ranked, held)
        for item in items:
            if (topic, item.unit_id) in mine:
                return item, items
    return None


def _first_free(store, assessor, topics, held, order, seed, pool, model=None):
    for topic in topics:
        ranked = queue(store, topic, assessor=assessor, order=order, seed=seed, pool=pool, model=model)
        items, _ = free_items(ranked, held)
        if items:
            return items[0], items
    return None


def claim_pair(
    store: Store,
    assessor: str,
    topic_id: str,
    unit_id: str,
    *,
    lease: timedelta = DEFAULT_LEASE,
    unit: str | None = None,
    now: datetime | None = None,
) -> str | None:
    """Claim (or renew) one pair for the assessor; the lease's end (ISO), or None when another assessor holds it."""
    return hold_pair(store, assessor, unit_space(store, unit), topic_id, unit_id, lease=lease, now=now)


def hold_pair(
    store: Store,
    assessor: str,
    space: str,
    topic_id: str,
    unit_id: str,
    *,
    lease: timedelta = DEFAULT_LEASE,
    now: datetime | None = None,
) -> str | None:
    """`claim_pair` in a space already known (a relevance space, or an answer space `nugget:RUN`, `support:RUN`)."""
    check_lease(lease)
    now_ms = epoch_ms(utc_now(now))
    with store.transaction():
        store.drop_expired_claims(now_ms)
        holders = store.live_claims(space, now_ms, topic_id).get((topic_id, unit_id), set())
        if holders - {assessor} and not _shared_pair(current_plan(store), topic_id, unit_id):
            return None
        lease_until = now_ms + int(lease.total_seconds() * 1000)
        store.put_claim(space, topic_id, unit_id, assessor, now_ms, lease_until)
    return iso_time(lease_until)


def renew(
    store: Store,
    assessor: str,
    topic_id: str,
    unit_id: str,
    lease: timedelta = DEFAULT_LEASE,
    *,
    unit: str | None = None,
    now: datetime | None = None,
) -> str | None:
    """Extend the assessor's lease on a pair (taking it again if it ended and nobody else took it).

    None when another assessor holds it now: the lease ended and the pair went to them.
    """
    return claim_pair(store, assessor, topic_id, unit_id, lease=lease, unit=unit, now=now)


def release(store: Store, assessor: str, topic_id: str, unit_id: str, *, unit: str | None = None) -> bool:
    """Let the pair go (the assessor moved on or quit, undecided); False when they held no claim on it."""
    return let_go(store, assessor, unit_space(store, unit), topic_id, unit_id)


def let_go(store: Store, assessor: str, space: str, topic_id: str, unit_id: str) -> bool:
    """`release` in a space already known."""
    with store.transaction():
        return store.delete_claim(space, topic_id, unit_id, assessor)


class WhyNothing:
    """Why there is nothing to judge: `reasons` (none when there is work), and the first one's code."""

    reasons: tuple[Reason, ...]

    @property
    def reason(self) -> str | None:
        """The first reason's code (None when there is work)."""
        return self.reasons[0].reason if self.reasons else None


@dataclass(frozen=True)
class NextSummary(WhyNothing, JsonResult):
    """`labeler next`'s result: the claim's pair, or (`unit` None) nothing to judge and why (`reasons`)."""

    json_extra = {"reason": "overlap"}

    topic: str | None
    unit: str | None
    unit_space: str
    position: int | None
    remaining: int
    lease_until: str | None
    overlap: bool
    reasons: tuple[Reason, ...] = ()


def next_summary(
    claim: Claim | None, *, topic: str | None, unit_space: str, nothing: NothingLeft | None = None
) -> NextSummary:
    """`labeler next`: the claim, or the nothing-left result with the same fields and why (`nothing`)."""
    if claim is not None:
        return NextSummary(
            claim.topic, claim.unit, claim.unit_space, claim.position, claim.remaining, claim.lease_until, claim.overlap
        )
    reasons = nothing.reasons if nothing is not None else ()
    return NextSummary(topic, None, unit_space, None, 0, None, False, reasons)

"""Why an assessor has nothing to judge: a reason from a small vocabulary, with counts and what would help.

An empty queue means different things: the pairs left are assigned to other assessors, other
assessors hold leases on them, they are in conflict and wait for adjudication, the topic asked for
is not in the pool or is done, or every pair is judged. Saying "done" when the work is someone
else's is a dead end, so `nothing_left` tells them apart (several may hold at once; the most useful
comes first) and says, as structured hints, what would give the assessor work. `labeler next`,
`labeler queue` and the judging screen all say it from here.

A stopping rule is never one of the reasons: it advises (the judging screen shows it), and a topic
it says stop on keeps its pairs in the queue.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from labeler.assignment import Plan, waiting_for
from labeler.errors import Hint, argument_hint
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import NO_ANSWER, REVIEWED, PairState
from labeler.pool_models import PoolInfo, topic_sort_key
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.assignments import current_plan
from labeler.workbench.claims import epoch_ms, held_by_others, iso_time, utc_now
from labeler.workbench.queue import current_pool, pool_topics
from labeler.workbench.read_labels import current_labels, topic_labels
from labeler.workbench.review import topic_review_state

NOT_IN_POOL = "topic not in pool"
ASSIGNED = "assigned to others"
HELD = "held by others"
ADJUDICATION = "waiting for adjudication"
TOPIC_DONE = "topic done"
ALL_JUDGED = "everything judged"
# Every reason, most useful first: the order in which several are reported.
REASONS = (NOT_IN_POOL, ASSIGNED, HELD, ADJUDICATION, TOPIC_DONE, ALL_JUDGED)


@dataclass(frozen=True)
class Reason(JsonResult):
    """One reason there is nothing to judge, with its counts and what would help.

    `pairs`: the pairs it is about (waiting for others, held, in conflict, judged); `assessors`:
    for `assigned to others` whom those pairs wait for, for `held by others` who holds them (pairs
    each); `lease_ends`: when the first of those leases ends (UTC ISO 8601); `status`: the topic's
    review status for `topic done`.
    """

    reason: str
    words: str = ""
    pairs: int = 0
    topics: tuple[str, ...] = ()
    assessors: dict[str, int] = field(default_factory=dict)
    lease_ends: str | None = None
    status: str | None = None
    hints: tuple[Hint, ...] = ()


@dataclass(frozen=True)
class NothingLeft(JsonResult):
    """Why `assessor` has nothing to judge in `pool` (or in `topic` of it): `reasons`, most useful first.

    No reason means there is work after all (a lease ended since the queue was read).
    """

    json_extra = {"reason": None}

    assessor: str = json_field(omit=True)
    pool: str = json_field(omit=True)
    unit: str = json_field(omit=True)
    topic: str | None = json_field(omit=True)
    reasons: tuple[Reason, ...] = json_field()

    @property
    def reason(self) -> str | None:
        """The first reason's code (None when there is work after all)."""
        return self.reasons[0].reason if self.reasons else None


def headline(assessor: str, topic: str | None) -> str:
    """What every front end says first: `Nothing for carol to judge in this pool` (or `in topic 3`)."""
    return f"Nothing for {assessor} to judge in " + (f"topic {topic}" if topic is not None else "this pool")


@dataclass
class _Tally:
    """Where the pool's pairs stand for one assessor."""

    topics: list[str]
    mine: list[tuple[str, str]] = field(default_factory=list)  # waiting for this assessor
    others: Counter[str] = field(default_factory=Counter)  # waiting for other assessors, pairs each
    others_pairs: int = 0
    others_topics: set[str] = field(default_factory=set)
    conflicts: int = 0
    conflict_topics: set[str] = field(default_factory=set)
    judged: int = 0

    def add(self, plan: Plan, assessor: str, topic: str, unit_id: str, state: PairState | None) -> None:
        if state is not None and state.conflict:
            self.conflicts += 1
            self.conflict_topics.add(topic)
            return
        waiting = _waiting(plan, assessor, topic, unit_id, state)
        if assessor in waiting:
            self.mine.append((topic, unit_id))
        others = [name for name in waiting if name != assessor]
        self.others.update(others)
        if others:
            self.others_pairs += 1
            self.others_topics.add(topic)
        if not waiting:
            self.judged += 1


def _waiting(plan: Plan, assessor: str, topic: str, unit_id: str, state: PairState | None) -> list[str]:
    """Whom the pair waits for: its judges under the plan (anyone, so this assessor, in an unassigned topic)."""
    entry = plan.topics.get(topic)
    if entry is None:
        return [assessor] if waiting_for(state, assessor, overlap=False) else []
    overlap = entry.is_overlap(unit_id)
    judges = entry.judges if overlap else (entry.assessor,)
    return [name for name in judges if waiting_for(state, name, overlap=overlap)]


def nothing_left(
    store: Store,
    assessor: str,
    *,
    topic: str | None = None,
    pool: str | None = None,
    now: datetime | None = None,
) -> NothingLeft:
    """Why the assessor has nothing to judge in the pool (the latest by default), or in one topic of it."""
    info = current_pool(store, pool)
    if topic is not None and not store.pool_has_topic(info.name, topic):
        reason = Reason(
            NOT_IN_POOL,
            topics=(topic,),
            hints=(Hint("list_topics"),),
            words=f"topic {topic} has nothing in {info.name}",
        )
        return NothingLeft(assessor, info.name, info.unit, topic, (reason,))
    plan = current_plan(store)
    tally = _tally(store, info, plan, assessor, topic)
    moment = utc_now(now)
    held = held_by_others(store, info.unit, assessor, moment) & set(tally.mine) if tally.mine else set()
    if len(held) < len(tally.mine):
        return NothingLeft(assessor, info.name, info.unit, topic, ())  # a pair is free: there is work after all
    reasons = [*_assigned(tally, plan, assessor), *_held(store, info.unit, assessor, held, moment), *_conflicts(tally)]
    if not reasons:
        reasons.append(_judged(store, info, tally, topic))
    return NothingLeft(assessor, info.name, info.unit, topic, tuple(reasons))


def _tally(store: Store, info: PoolInfo, plan: Plan, assessor: str, topic: str | None) -> _Tally:
    if topic is not None:
        labels = {(topic, u): s for u, s in topic_labels(store, info.unit, topic).items()}
        tally = _Tally([topic])
    else:
        labels = current_labels(store, info.unit)
        tally = _Tally(pool_topics(store, info.name))
    for topic_id in tally.topics:
        for unit_id in sorted(store.pool_topic_units(info.name, topic_id)):
            tally.add(plan, assessor, topic_id, unit_id, labels.get((topic_id, unit_id)))
    return tally


def _topics(topics: set[str]) -> tuple[str, ...]:
    return tuple(sorted(topics, key=topic_sort_key))


def _counts(counts: Counter[str]) -> str:
    """`ann 80, bob 72`: most pairs first."""
    return ", ".join(f"{name} {n}" for name, n in counts.most_common())


def _assigned(tally: _Tally, plan: Plan, assessor: str) -> list[Reason]:
    if not tally.others_pairs:
        return []
    planned = plan.assessors()
    names = [*planned, assessor] if assessor not in planned else planned
    hints = [Hint("assign_assessors", value=",".join(names), why=f"to give {assessor} topics")]
    shares = {(e.overlap, e.seed) for e in plan.topics.values()}
    if len(shares) == 1 and (share := shares.pop())[0] > 0:
        hints.append(argument_hint("overlap", f"{share[0]:g}", why="to keep the planned overlap"))
        hints.append(argument_hint("seed", str(share[1]), why="to keep the same overlap pairs"))
    whose = "has no topic in the assignment plan" if assessor not in planned else "has judged every pair assigned"
    words = (
        f"{plural(tally.others_pairs, 'pair')} in {plural(len(tally.others_topics), 'topic')} "
        f"{'is' if tally.others_pairs == 1 else 'are'} assigned to others ({_counts(tally.others)}); "
        f"{assessor} {whose}"
    )
    return [
        Reason(
            ASSIGNED,
            pairs=tally.others_pairs,
            topics=_topics(tally.others_topics),
            assessors=dict(tally.others.most_common()),
            hints=tuple(hints),
            words=words,
        )
    ]


def _held(store: Store, unit: str, assessor: str, held: set[tuple[str, str]], moment: datetime) -> list[Reason]:
    if not held:
        return []
    holders: Counter[str] = Counter()
    first_end: int | None = None
    for topic_id, unit_id, name, until in store.live_leases(unit, epoch_ms(moment)):
        if (topic_id, unit_id) in held and name != assessor:
            holders[name] += 1
            first_end = until if first_end is None else min(first_end, until)
    ends = iso_time(first_end) if first_end is not None else None
    words = (
        f"{plural(len(held), 'pair')} {'is' if len(held) == 1 else 'are'} held by other assessors "
        f"({_counts(holders)}); they come back when judged or let go, or when the lease ends"
        + (f" (the first at {ends})" if ends else "")
    )
    topics = _topics({t for t, _ in held})
    return [
        Reason(
            HELD, pairs=len(held), topics=topics, assessors=dict(holders.most_common()), lease_ends=ends, words=words
        )
    ]


def _conflicts(tally: _Tally) -> list[Reason]:
    if not tally.conflicts:
        return []
    topics = _topics(tally.conflict_topics)
    words = (
        f"{plural(tally.conflicts, 'pair')} in conflict {'waits' if tally.conflicts == 1 else 'wait'} "
        f"for adjudication (topic{'s' if len(topics) != 1 else ''} {', '.join(topics)})"
    )
    return [Reason(ADJUDICATION, pairs=tally.conflicts, topics=topics, hints=(Hint("adjudicate"),), words=words)]


def _judged(store: Store, info: PoolInfo, tally: _Tally, topic: str | None) -> Reason:
    if topic is None:
        words = (
            f"every pair of {info.name} is judged "
            f"({plural(tally.judged, 'pair')} in {plural(len(tally.topics), 'topic')})"
        )
        hints = (Hint("create_snapshot"), Hint("build_pool", why="when new runs arrive"))
        return Reason(ALL_JUDGED, pairs=tally.judged, topics=tuple(tally.topics), hints=hints, words=words)
    return _topic_judged(store, info, tally, topic)


def _topic_judged(store: Store, info: PoolInfo, tally: _Tally, topic: str) -> Reason:
    status = topic_review_state(store, topic, info.unit).status
    if status in (REVIEWED, NO_ANSWER):
        words = f"topic {topic} is done: every pair is judged and it is marked {status}"
        return Reason(TOPIC_DONE, pairs=tally.judged, topics=(topic,), status=status, words=words)
    words = f"every pair of topic {topic} is judged ({plural(tally.judged, 'pair')}); it is not marked done"
    return Reason(
        ALL_JUDGED,
        pairs=tally.judged,
        topics=(topic,),
        status=status,
        hints=(Hint("mark_topic", value=topic),),
        words=words,
    )

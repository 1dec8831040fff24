"""Who judges what: topics dealt to assessors, and a planned overlap judged by two.

The plan is derived from assignment events (the latest per topic wins), never
from per-pair rows: whether a pair is an overlap pair is a keyed hash of
(seed, topic, unit id) compared with the share, so a pair a later pool adds
gets the same treatment as one already there, and nothing is stored per pair.

The campaign's model setting (`ShowModel`) says whose model label, if any, the
judging UI may show beside a pair: none unless a campaign turns it on (blind by default).

Second judgments are blind too (`seen_state`): on a planned overlap pair, each of its two
judges sees only their own grade, note and reason until both have graded it (or it was
adjudicated), unless the assignment was made to show the others' labels (`show_others`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from labeler.json_form import JsonResult
from labeler.judgments.log import GRADE, Event, PairState, effective_events, event_order
from labeler.pool_models import topic_sort_key

_SCALE = float(2**64)


def overlap_draw(seed: int, topic_id: str, unit_id: str) -> float:
    """A number in [0, 1) fixed by (seed, topic, unit): the pair is an overlap pair when it is below the share.

    NUL separates the parts, which no id may hold, so ("1", "23") and ("12", "3") never collide.
    """
    import hashlib  # here: a campaign without overlap (and `labeler next` in one) never loads OpenSSL

    digest = hashlib.blake2b(f"{seed}\0{topic_id}\0{unit_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / _SCALE


def deal(topics: Sequence[str], assessors: Sequence[str]) -> dict[str, str]:
    """`topic -> primary assessor`, round-robin over the topics in the order given."""
    return {topic: assessors[i % len(assessors)] for i, topic in enumerate(topics)}


@dataclass(frozen=True)
class TopicAssignment:
    """One topic's current assignment: its assessor, the plan's assessor order, overlap share and seed."""

    topic_id: str
    assessor: str
    order: tuple[str, ...]  # the plan's assessors in the order given; the second judge is the next one
    overlap: float
    seed: int
    assigned: str
    assigned_by: str
    show_others: bool = False  # a review campaign: each judge of an overlap pair sees the other's label

    @property
    def second(self) -> str | None:
        """Who judges the overlap pairs with the assessor: the next one in the plan's order (wrapping)."""
        if self.overlap <= 0 or len(self.order) < 2 or self.assessor not in self.order:
            return None
        return self.order[(self.order.index(self.assessor) + 1) % len(self.order)]

    @property
    def judges(self) -> tuple[str, ...]:
        second = self.second
        return (self.assessor, second) if second else (self.assessor,)

    def is_overlap(self, unit_id: str) -> bool:
        return self.second is not None and overlap_draw(self.seed, self.topic_id, unit_id) < self.overlap


@dataclass(frozen=True)
class Plan:
    """The current assignments; an empty plan means everyone may judge everything (as before assignments)."""

    topics: dict[str, TopicAssignment] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.topics)

    def assigned(self, topic_id: str) -> tuple[str, ...]:
        """The topic's judges (its assessor, and the second one when it has an overlap); () when unassigned."""
        entry = self.topics.get(topic_id)
        return entry.judges if entry else ()

    def is_overlap(self, topic_id: str, unit_id: str) -> bool:
        entry = self.topics.get(topic_id)
        return entry is not None and entry.is_overlap(unit_id)

    def judges(self, topic_id: str, unit_id: str) -> tuple[str, ...]:
        """Who must judge this pair: () anyone (unassigned topic), (assessor,) or (assessor, second) if overlap."""
        entry = self.topics.get(topic_id)
        if entry is None:
            return ()
        return entry.judges if entry.is_overlap(unit_id) else (entry.assessor,)

    def topics_for(self, assessor: str) -> list[str]:
        """The topics where the assessor has pairs to judge (as its assessor or as second judge), natural order."""
        return sorted((t for t, entry in self.topics.items() if assessor in entry.judges), key=topic_sort_key)

    def own_topics(self, assessor: str) -> list[str]:
        """The topics the assessor is the assessor of (not only second judge on), natural order."""
        return sorted((t for t, entry in self.topics.items() if entry.assessor == assessor), key=topic_sort_key)

    def second_on(self, assessor: str) -> list[str]:
        """The topics where the assessor only judges the overlap pairs, natural order."""
        return sorted(
            (t for t, entry in self.topics.items() if entry.second == assessor and entry.assessor != assessor),
            key=topic_sort_key,
        )

    def assessors(self) -> list[str]:
        """Everyone the plan names, in the order they first appear (topics in natural order)."""
        names: dict[str, None] = {}
        for topic in sorted(self.topics, key=topic_sort_key):
            names.update(dict.fromkeys(self.topics[topic].judges))
        return list(names)

    def order_for(self, assessor: str, topics: Iterable[str]) -> list[str]:
        """`topics` as the assessor should meet them: their own first, then those where they judge the
        overlap pairs, then unassigned ones; others' left out."""
        topics = list(topics)
        if not self:
            return topics
        own, second = set(self.own_topics(assessor)), set(self.second_on(assessor))
        return (
            [t for t in topics if t in own]
            + [t for t in topics if t in second]
            + [t for t in topics if t not in self.topics]
        )


def blind_for(assignment: TopicAssignment | None, unit_id: str, assessor: str, state: PairState | None) -> bool:
    """Whether `assessor` must not see the others' grades, notes and reasons on this pair now.

    So on a planned overlap pair of a blind assignment, for each of its two judges, until both
    have a real grade in force (a skip, unsure or flag is no judgment, and an undone grade no
    longer counts) or the pair was adjudicated. Anyone else (an adjudicator, a lead) sees it all.
    """
    if assignment is None or assignment.show_others or state is None or state.adjudicated:
        return False
    judges = assignment.judges
    if assessor not in judges or not assignment.is_overlap(unit_id):
        return False
    return not all(state.grades.get(judge, -1) >= 0 for judge in judges)


def seen_state(
    assignment: TopicAssignment | None, unit_id: str, assessor: str, state: PairState | None
) -> PairState | None:
    """What `assessor` may see of a pair: the whole state, or only their own part while it is blind for them.

    The one rule every view of a judge goes through (the judging screen's status, queue and
    stopping line, the topic list's counts, the flagged list, `next` and `queue`).
    """
    if state is None or not blind_for(assignment, unit_id, assessor, state):
        return state
    own = state.grades.get(assessor)
    mine = PairState(state.topic_id, state.unit_id, stale=state.stale)
    if own is not None:
        mine.grades = {assessor: own}
        mine.label = own
    if assessor in state.states:
        mine.states = {assessor: state.states[assessor]}
    mine.notes = [(who, note) for who, note in state.notes if who == assessor]
    return mine


def seen_states(plan: Plan, assessor: str, states: Mapping[str, PairState], topic_id: str) -> dict[str, PairState]:
    """One topic's `unit -> state`, as `assessor` may see them (`seen_state` of each)."""
    assignment = plan.topics.get(topic_id)
    if assignment is None or assignment.show_others or assessor not in assignment.judges:
        return dict(states)
    seen = {unit_id: seen_state(assignment, unit_id, assessor, state) for unit_id, state in states.items()}
    return {unit_id: state for unit_id, state in seen.items() if state is not None}


def seen_labels(
    plan: Plan, assessor: str, labels: Mapping[tuple[str, str], PairState]
) -> dict[tuple[str, str], PairState]:
    """Every `(topic, unit) -> state` of a space, as `assessor` may see them (`seen_state` of each)."""
    seen: dict[tuple[str, str], PairState] = {}
    for (topic_id, unit_id), state in labels.items():
        shown = seen_state(plan.topics.get(topic_id), unit_id, assessor, state)
        if shown is not None:
            seen[(topic_id, unit_id)] = shown
    return seen


def shown_others(
    assignment: TopicAssignment | None, unit_id: str, assessor: str, state: PairState | None
) -> tuple[str, ...] | None:
    """What a judgment on this pair records of the others' labels on screen: None off a planned overlap pair;
    else the other assessors whose grade the judge could see (empty: judged blind)."""
    if assignment is None or assessor not in assignment.judges or not assignment.is_overlap(unit_id):
        return None
    seen = seen_state(assignment, unit_id, assessor, state)
    if seen is None:
        return ()
    return tuple(sorted(who for who, grade in seen.grades.items() if who != assessor and grade >= 0))


JUDGED_CONDITIONS = ("blind", "shown", "unrecorded")
"""What the later of a pair's graders had on screen: no other label, another's label, or not recorded."""


def judged_condition(events: Iterable[Event]) -> str:
    """The condition a pair graded by two or more was judged in: that of its latest grade in force.

    The earlier grader could see no grade of the other; the later one's event records whose labels
    were on screen (`shown_others`): `blind` when none, `shown` when some; `unrecorded` when the event
    does not say (imported, added from a script, or written before it was recorded).
    """
    latest: dict[str, Event] = {}
    for event in effective_events(events):
        if event.kind == GRADE and event.grade is not None and event.grade >= 0:
            latest[event.assessor] = event
    if not latest:
        return "unrecorded"
    later = max(latest.values(), key=event_order)
    if later.shown_others is None:
        return "unrecorded"
    return "shown" if later.shown_others else "blind"


@dataclass(frozen=True)
class ShowModel(JsonResult):
    """One change of the campaign's model setting: `model` None for blind (no model label shown), when, by whom."""

    model: str | None
    set: str
    by: str


def shown_model(history: Sequence[ShowModel]) -> ShowModel | None:
    """The setting in force: the latest change (None when the campaign never set one: blind)."""
    return history[-1] if history else None


def waiting_for(state: PairState | None, assessor: str, *, overlap: bool) -> bool:
    """Whether the pair is still to be judged by this assessor.

    A pair in conflict waits for adjudication, not for a judge. An ordinary pair is done once anyone
    judged it; an overlap pair is done for a judge once *that* judge graded it (the second judgment
    is the point of the overlap), or once it was adjudicated.
    """
    if state is None:
        return True
    if state.conflict:
        return False
    if overlap:
        mine = state.grades.get(assessor)
        return not state.adjudicated and (mine is None or mine < 0)
    return not state.judged

"""Stopping rules on the live log: per topic, does the rule (`labeler.stopping`) say stop now?

A rule reads one topic's judgments in the order they were made, each True when
the unit was relevant (`StoppingRule.decide`). From the judgment log that
sequence is, for one topic of a pool:

- **which pairs**: the topic's pool pairs that are judged now (`PairState.judged`,
  exactly those `status` counts in `judged`): a pair whose grades were all
  undone or retracted, whose only grades were made before its text changed
  (stale), that is in conflict, or that has only negative grades (skipped,
  unsure) is not in it, as it is not in the labels;
- **in which order**: by the first event that judged the pair, in log order
  (`event_order`: logical clock, then event id): the earliest grade of 0 or more,
  or adjudication, among the pair's effective events (retracted ones and the
  retracts left out) that is not stale. A pair judged again later keeps its
  first place: that is when a unit of the pool was first looked at;
- **relevant**: the pair's *current* label at or above the scale's threshold
  (`is_relevant`), so a unit first graded 0 and then regraded 2 counts as a
  relevant find at its first place.

`labels_and_first_judgments` reads the log once for both the labels (the same as
`current_labels`) and each judged pair's first judging event, so `status` pays
one pass over the log, not two. `TopicFound` keeps one topic's sequence in the
judging session and updates it pair by pair, one small query per key.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from labeler.assignment import TopicAssignment, blind_for
from labeler.errors import BadArgumentError
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import (
    ADJUDICATE,
    GRADE,
    REVIEW,
    Event,
    PairState,
    derive_pair,
    effective_events,
    event_order,
)
from labeler.stopping import DEFAULT_WINDOW, WINDOW, StopDecision, StoppingRule, parse_rule
from labeler.store import Store
from labeler.workbench.review import is_relevant

DEFAULT_RULE = f"{WINDOW}:{DEFAULT_WINDOW}"

Pair = tuple[str, str]
Order = tuple[int, str]


def stopping_rule(text: str) -> StoppingRule:
    """The rule a user wrote (`window:10`, `knee`, `knee:40`); a `BadArgumentError` naming `stop` otherwise."""
    try:
        return parse_rule(text)
    except ValueError as error:
        raise BadArgumentError(str(error), argument="stop") from None


def first_judgment(effective: Iterable[Event], changed_after: str | None) -> Event | None:
    """The first of a pair's effective events (log order) that judged it: a grade >= 0 or adjudication, not stale."""
    for event in effective:
        if event.kind not in (GRADE, ADJUDICATE) or event.grade is None or event.grade < 0:
            continue
        if changed_after is not None and event.time < changed_after:
            continue  # made before the text changed: counts for nothing (as in `derive_pair`)
        return event
    return None


def _derive(
    topic_id: str, unit_id: str, events: list[Event], changed_after: str | None
) -> tuple[PairState, Event | None]:
    """A pair's state (`derive_pair`'s) and, when it is judged, its first judging event.

    Most judged pairs have one event, which is then the one that judged them: the log order of
    the pair's events is only worked out for the others.
    """
    state = derive_pair(topic_id, unit_id, events, changed_after)
    if not state.judged:
        return state, None
    if len(events) == 1:
        return state, events[0]
    return state, first_judgment(effective_events(events), changed_after)


def labels_and_first_judgments(store: Store, unit: str) -> tuple[dict[Pair, PairState], dict[Pair, Event]]:
    """`current_labels(store, unit)` and, for each judged pair, its first judging event: one pass over the log."""
    by_pair: dict[Pair, list[Event]] = {}
    for event in store.unit_events(unit):
        if event.unit_id is not None and event.kind != REVIEW:
            by_pair.setdefault((event.topic_id, event.unit_id), []).append(event)
    changes = store.change_times(unit)
    labels: dict[Pair, PairState] = {}
    firsts: dict[Pair, Event] = {}
    for pair, events in by_pair.items():
        state, first = _derive(pair[0], pair[1], events, changes.get(pair[1]))
        labels[pair] = state
        if first is not None:
            firsts[pair] = first
    return labels, firsts


def found_sequence(
    topic_id: str,
    units: Iterable[str],
    labels: Mapping[Pair, PairState],
    firsts: Mapping[Pair, Event],
    threshold: int,
) -> list[bool]:
    """A topic's judged pool pairs in the order of their first judgment, each True when its label is relevant.

    `units`: the topic's pool units, or any part of them that holds every judged one (`status` passes
    the judged ones it counted).
    """
    judged: list[tuple[Order, bool]] = []
    for unit_id in units:
        first = firsts.get((topic_id, unit_id))
        if first is not None:
            judged.append((event_order(first), is_relevant(labels[(topic_id, unit_id)], threshold)))
    judged.sort()
    return [hit for _, hit in judged]


@dataclass(frozen=True)
class TopicStop(JsonResult):
    """What the rule says about one topic: the decision, with the rule written as the user wrote it."""

    decision: StopDecision = json_field(flatten=True)  # its `rule` key is the rule's name ...
    rule: StoppingRule = json_field(encode=lambda rule: rule.spec)  # ... replaced by the rule as written


def stopping(
    store: Store, rule: StoppingRule | str = DEFAULT_RULE, *, pool: str | None = None, unit: str | None = None
) -> dict[str, TopicStop]:
    """Per topic of a pool (the latest by default), what the rule says now, from the judgment log."""
    from labeler.workbench.queue import pool_topics
    from labeler.workbench.read_labels import unit_space

    chosen = stopping_rule(rule) if isinstance(rule, str) else rule
    with store.damage_as_error():
        info = store.pool(pool) if pool else store.latest_pool()
        if info is None:
            return {}
        space = info.unit if unit is None else unit_space(store, unit)
        labels, firsts = labels_and_first_judgments(store, space)
        threshold = store.scale().threshold
        return {
            topic_id: TopicStop(
                rule=chosen,
                decision=chosen.decide(
                    found_sequence(topic_id, store.pool_topic_units(info.name, topic_id), labels, firsts, threshold)
                ),
            )
            for topic_id in pool_topics(store, info.name)
        }


class TopicFound:
    """One topic's found sequence in a judging session, kept between keys and updated pair by pair.

    Loaded from the topic's events once (`load`); after the session writes a pair, `dirty` holds it
    and `decide` derives only those pairs again (one `pair_events` seek each): a new judgment
    lands at the end of the order (its clock is the newest), a regrade changes a relevance in
    place, an undo takes a pair out. The same sequence `found_sequence` gives from the whole log.
    """

    def __init__(
        self, store: Store, unit: str, topic_id: str, pool_units: Collection[str], threshold: int, changes: dict
    ):
        self.store, self.unit, self.topic_id = store, unit, topic_id
        self.pool_units = pool_units
        self.threshold = threshold
        self.changes = changes  # unit id -> its text's last change, for the pool's units that have one
        self.order: list[tuple[Order, str]] = []  # sorted: (first judging event's order, unit id)
        self.places: dict[str, Order] = {}
        self.relevant: dict[str, bool] = {}
        self.dirty: set[str] = set()
        self.viewer: tuple[TopicAssignment | None, str] | None = None  # whose view (see `load`); None: the whole log

    @classmethod
    def load(
        cls, store: Store, unit: str, pool: str, topic_id: str, viewer: tuple[TopicAssignment | None, str] | None = None
    ) -> TopicFound:
        """`viewer` (the topic's assignment, an assessor): the sequence as that assessor may see it: an overlap
        pair still blind for them counts only their own decisions (`labeler.assignment.seen_state`)."""
        units = store.pool_topic_units(pool, topic_id)
        every_change = store.change_times(unit)
        changes = {u: every_change[u] for u in units if u in every_change}
        found = cls(store, unit, topic_id, units, store.scale().threshold, changes)
        found.viewer = viewer
        by_unit: dict[str, list[Event]] = {}
        for event in store.topic_events(unit, topic_id):
            if event.unit_id in units:
                by_unit.setdefault(event.unit_id, []).append(event)
        for unit_id, events in by_unit.items():
            found._set(unit_id, events)
        found.order.sort()
        return found

    def _set(self, unit_id: str, events: list[Event], *, keep_sorted: bool = False) -> None:
        place = self.places.pop(unit_id, None)
        if place is not None:
            self.relevant.pop(unit_id)
            if keep_sorted:
                del self.order[bisect_left(self.order, (place, unit_id))]
            else:
                self.order.remove((place, unit_id))
        state, first = _derive(self.topic_id, unit_id, events, self.changes.get(unit_id))
        if self.viewer is not None and blind_for(self.viewer[0], unit_id, self.viewer[1], state):
            own = [e for e in events if e.assessor == self.viewer[1]]
            state, first = _derive(self.topic_id, unit_id, own, self.changes.get(unit_id))
        if first is None:
            return
        place = event_order(first)
        self.places[unit_id] = place
        self.relevant[unit_id] = is_relevant(state, self.threshold)
        if keep_sorted:
            insort(self.order, (place, unit_id))
        else:
            self.order.append((place, unit_id))

    def found(self) -> list[bool]:
        """The topic's sequence now, the pairs the session wrote derived again first."""
        if self.dirty:
            for unit_id in sorted(self.dirty):
                if unit_id in self.pool_units:
                    self._set(unit_id, self.store.pair_events(self.unit, self.topic_id, unit_id), keep_sorted=True)
            self.dirty.clear()
        return [self.relevant[unit_id] for _, unit_id in self.order]

    def decide(self, rule: StoppingRule) -> StopDecision:
        return rule.decide(self.found())

"""Flagged pairs: every flag an assessor raised (and did not undo), with what the pair's label is now.

A flag asks for a second look; grading the pair afterwards does not answer it,
so a flag stays listed after the pair is graded, with the grade beside it. Only
an undo (a `retract` of the flag event) takes it off the list. One use case,
shared by `labeler judgments flagged` and the UI's flagged screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.assignment import TopicAssignment, blind_for, seen_state
from labeler.errors import UnknownIdError
from labeler.ids import check_id
from labeler.json_form import JsonResult
from labeler.judgments.log import FLAG, Event, PairState, event_order
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.workbench.assignments import current_plan
from labeler.workbench.read_labels import topic_labels, unit_space


@dataclass(frozen=True)
class FlaggedPair(JsonResult):
    """One flag event that stands, and the flagged pair's current state.

    `state` is `judged` (then `label` is its grade), `conflict`, `stale` (judged
    before the unit's text changed) or `unjudged`; `open` says whether the
    flagger's latest decision on the pair is still the flag (no grade since).
    """

    topic: str
    unit_id: str
    unit: str
    assessor: str
    time: str
    reason: str | None
    note: str | None
    label: int | None
    state: str
    grades: dict[str, int]
    open: bool
    event: str


def flagged_pairs(
    store: Store, *, topic: str | None = None, unit: str | None = None, viewer: str | None = None
) -> list[FlaggedPair]:
    """The flags that stand, by topic (natural order) then log order; in one unit space, or in every one.

    `unit=None` lists every unit space's flags (each row names its space): a
    flag raised on a chunk pool must not hide behind the latest document pool.
    `viewer`: as that assessor may see them (`labeler.assignment.seen_state`): on an overlap pair
    still blind for them, only their own flags, with only their own grade.
    """
    if topic is not None:
        topic = check_id(topic, "topic id")
        if store.topic(topic) is None and topic not in store.event_topics():
            raise UnknownIdError(f"no topic {topic!r} in the workbench")
    spaces = [unit_space(store, unit)] if unit is not None else store.unit_spaces()
    rows: list[FlaggedPair] = []
    plan = current_plan(store) if viewer is not None else None
    for space in spaces:
        flags = store.kind_events(FLAG, space, topic)
        retracted = store.retracted_ids(e.event_id for e in flags)
        standing = sorted((e for e in flags if e.event_id not in retracted), key=event_order)
        states: dict[str, dict] = {}
        for event in standing:
            if event.unit_id is None:  # a flag is raised on a pair: one without a unit is not a flag to list
                continue
            if event.topic_id not in states:
                states[event.topic_id] = topic_labels(store, space, event.topic_id)
            pair = states[event.topic_id].get(event.unit_id)
            if plan is not None and viewer is not None:
                seen = _seen_flag(plan.topics.get(event.topic_id), event, viewer, pair)
                if seen is None:
                    continue  # another judge's flag (and its reason) on a pair still blind for the viewer
                pair = seen[0]
            rows.append(
                FlaggedPair(
                    topic=event.topic_id,
                    unit_id=event.unit_id,
                    unit=space,
                    assessor=event.assessor,
                    time=event.time,
                    reason=event.reason,
                    note=event.note,
                    label=pair.label if pair is not None and pair.judged else None,
                    state=_state(pair),
                    grades=dict(pair.grades) if pair is not None else {},
                    open=pair is not None and pair.states.get(event.assessor) == FLAG,
                    event=event.event_id,
                )
            )
    rows.sort(key=lambda r: topic_sort_key(r.topic))  # stable: log order within a topic
    return rows


def _seen_flag(
    assignment: TopicAssignment | None, event: Event, viewer: str, pair: PairState | None
) -> tuple[PairState | None] | None:
    """The flagged pair as `viewer` may see it (in a 1-tuple), or None: another's flag they may not see."""
    unit_id = event.unit_id or ""
    if event.assessor != viewer and blind_for(assignment, unit_id, viewer, pair):
        return None
    return (seen_state(assignment, unit_id, viewer, pair),)


def _state(pair) -> str:
    if pair is None:
        return "unjudged"
    if pair.conflict:
        return "conflict"
    if pair.judged:
        return "judged"
    return "stale" if pair.stale else "unjudged"

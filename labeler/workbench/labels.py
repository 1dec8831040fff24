"""Reading the judgment log as current labels, per unit space.

A unit space is `doc` or `chunk:NAME`: the same chunk id under two chunkings
names two different texts, so labels are always read within one space.
"""

from __future__ import annotations

from labeler.checks import parsed_unit, unit_problem
from labeler.errors import BadArgumentError, Hint
from labeler.judgments import Event, PairState, derive_pair, derive_pairs
from labeler.pace import PACE_WINDOW, Pace, pace
from labeler.store import Store


def unit_space(store: Store, unit: str | None) -> str:
    """The unit space a command works in: the one asked for, else the latest pool's, else `doc`."""
    if unit is not None:
        parsed = parsed_unit(unit)
        if parsed is None:
            raise BadArgumentError(str(unit_problem(unit)), argument="unit")
        if parsed.kind == "chunk" and store.chunking(str(parsed.chunking)) is None:
            raise BadArgumentError(
                f"no chunking named {parsed.chunking!r}", argument="unit", hints=Hint("list_chunkings")
            )
        return str(parsed)
    latest = store.latest_pool()
    return latest.unit if latest else "doc"


def current_labels(store: Store, unit: str) -> dict[tuple[str, str], PairState]:
    """Every pair with events in a unit space, as the log says it is now."""
    return derive_pairs(store.unit_events(unit), store.change_times(unit))


def topic_labels(store: Store, unit: str, topic_id: str) -> dict[str, PairState]:
    """`unit id -> state` for one topic (what the judging screen needs, fast)."""
    changes = store.change_times(unit)
    by_unit: dict[str, list[Event]] = {}
    for event in store.topic_events(unit, topic_id):
        if event.unit_id is not None:  # always: the store returns pair events only, review events excluded
            by_unit.setdefault(event.unit_id, []).append(event)
    return {u: derive_pair(topic_id, u, events, changes.get(u)) for u, events in by_unit.items()}


def pair_state(store: Store, unit: str, topic_id: str, unit_id: str) -> PairState:
    changes = store.change_times(unit)
    return derive_pair(topic_id, unit_id, store.pair_events(unit, topic_id, unit_id), changes.get(unit_id))


def judging_pace(store: Store, assessor: str | None = None) -> Pace:
    """The median pace over the last `PACE_WINDOW` timed human judgments (one assessor's, or the team's)."""
    return pace(store.recent_active_ms(assessor, PACE_WINDOW))


def judging_rate(store: Store, assessor: str | None = None) -> float | None:
    """The measured judgments per hour (the median pace), None until a judgment is timed."""
    measured = judging_pace(store, assessor)
    return measured.per_hour if measured.measured else None

"""The judgment log's meaning: from append-only events to the current label of each pair.

Nothing is ever updated or deleted: an undo or a correction is a new event,
and the current state of a (topic, unit) pair is derived here from all of its
events, in log order. Keeping this a pure function over plain values means the
store, the CLI, the TUI and `merge` all agree on what the log says.

Rules:
- Each assessor's own latest grade counts (a later grade replaces an earlier
  one of the same assessor; a `retract` event cancels the event it targets).
- Assessors whose latest grades differ make a **conflict**; the pair has no
  label until an `adjudicate` event sets one. Grades given after the latest
  adjudication that differ from it reopen the conflict.
- `skip`, `unsure` and `flag` are states, not labels: an assessor's latest
  state is kept so the queue can put skipped and unsure pairs last.
- A negative grade (from imported qrels) means "pooled, not judged", as in
  trec_eval: it is a label only while no real grade exists.
- A judgment made before the unit's text changed is **stale**: it no longer
  counts, and the pair goes back in the queue.
- A **model's** event (`source` `model`) is never part of the label: the label
  is what people decided (an assessor, or imported qrels). Model labels are
  kept in the same log, read apart (`model_events`, and
  `labeler.workbench.read_labels`), so a model cannot fill the queue's gaps,
  make a conflict, close a pair or count in a snapshot or an evaluation.

Log order is a hybrid logical clock, not the wall clock alone (see
`event_order`): a machine whose clock is wrong cannot put its events ahead of
decisions made after them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone

from labeler.errors import LabelerError

GRADE = "grade"
SKIP = "skip"
UNSURE = "unsure"
FLAG = "flag"
NOTE = "note"
RETRACT = "retract"
ADJUDICATE = "adjudicate"
REVIEW = "review"
EVENT_KINDS = (GRADE, SKIP, UNSURE, FLAG, NOTE, RETRACT, ADJUDICATE, REVIEW)
PAIR_STATES = (SKIP, UNSURE, FLAG)
SOURCES = ("human", "import", "model")
MODEL = "model"  # the source of a model's events: kept out of the labels (see the rules above)

UNREVIEWED = "unreviewed"
IN_PROGRESS = "in_progress"
REVIEWED = "reviewed"
NO_ANSWER = "no_answer"
REVIEW_MARKS = (REVIEWED, NO_ANSWER, UNREVIEWED)


@dataclass(frozen=True)
class Event:
    """One line of the judgment log."""

    event_id: str
    seq: int
    topic_id: str
    unit_id: str | None
    kind: str
    assessor: str
    time: str
    grade: int | None = None
    reason: str | None = None
    note: str | None = None
    source: str = "human"
    model: str | None = None
    active_ms: int | None = None
    content_hash: str | None = None
    order: str | None = None
    seed: int | None = None
    target: str | None = None
    pool: str | None = None
    unit: str = "doc"
    clock: int | None = None  # the hybrid logical clock (see `event_order`); None: derived from `time`
    probs: dict[int, float] | None = None  # a model's probability per grade (model grade events only)
    shown_model: str | None = None  # a human judgment: the model whose label was on screen (None: none was)
    # a person's judgment of a planned overlap pair: the other assessors whose labels were on screen
    # (empty: judged blind); None off an overlap pair, or not recorded (imported, added from a script)
    shown_others: tuple[str, ...] | None = None


@dataclass
class PairState:
    """What the log says about one (topic, unit) pair now."""

    topic_id: str
    unit_id: str
    label: int | None = None
    conflict: bool = False
    stale: bool = False
    grades: dict[str, int] = field(default_factory=dict)  # assessor -> latest grade
    states: dict[str, str] = field(default_factory=dict)  # assessor -> latest skip/unsure/flag
    notes: list[tuple[str, str]] = field(default_factory=list)  # (assessor, note)
    deciding_event: Event | None = None
    adjudicated: bool = False

    @property
    def judged(self) -> bool:
        """True when the pair has a real (non-negative) label."""
        return self.label is not None and self.label >= 0


EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 time as an aware UTC datetime (naive means UTC); None when it is not one."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def clock_of(moment: datetime) -> int:
    """The physical part of the clock: microseconds since 1970-01-01 UTC."""
    delta = moment - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def clock_from_time(text: str) -> int:
    """The clock an event without one is given: its time in microseconds (0 when `text` is not a time).

    The same on every workbench (it depends on the event alone), and it keeps
    the order the log had when it was ordered by time, so no label moves.
    """
    moment = parse_time(text)
    return max(clock_of(moment), 0) if moment is not None else 0


MAX_CLOCK = 253_402_300_799_999_999
"""The clock's bound: the last microsecond of year 9999 UTC, the latest time a clock can name.

A clock counts microseconds since 1970, and every time a log can carry (ISO
8601, four-digit years) has its clock at or below this bound, so it is the
latest clock an event can bring from another machine: a merged clock beyond
it (or below 0) names no time and is refused, whatever the clock tolerance
allows. It sits far below `CLOCK_END`: past the latest clock it holds, a
workbench counts one microsecond per event it records (`next_clock`), and
the room between the bound and the end, about 9.0e18 events, is more than
any workbench can hold (an SQLite file holds at most 2^48 bytes, fewer than
3e12 events of 100 bytes). So no merge can push a workbench's clock to its
end. The one cost of counting past the bound: events recorded after a merge
brought a clock at the very bound carry clocks beyond it, which no other
workbench accepts (`check` reports a log whose clock has come to it).
"""

CLOCK_END = 2**63 - 1
"""The largest clock a workbench can store (SQLite's largest integer)."""


class ClockEndError(LabelerError):
    """The log's clock cannot count past its latest event: the next event would not fit."""


def clock_problem(clock: int) -> str | None:
    """Why a clock brought from elsewhere (a merged event) is out of the clock's range, or None."""
    if 0 <= clock <= MAX_CLOCK:
        return None
    where = "before 1970" if clock < 0 else "beyond the end of year 9999"
    return f"clock {clock} is out of range ({where}): a clock counts microseconds since 1970, from 0 to {MAX_CLOCK}"


def next_clock(physical: int, latest: int) -> int:
    """The clock of a new event: the wall clock, or just past every clock already seen if that is later.

    A hybrid logical clock folded into one integer (the logical counter is the
    last microseconds): each event is after everything its workbench held
    when it was recorded (an undo after what it undoes, a grade after the
    merge that brought the events it saw), whatever the wall clock says.
    `ClockEndError` when it would pass `CLOCK_END` (only a workbench written
    before merges refused clocks beyond `MAX_CLOCK` can be so close to it).
    """
    clock = max(physical, latest + 1)
    if clock > CLOCK_END:
        raise ClockEndError(
            f"the judgment log's clock is at {latest}, the largest a clock can be: no event can be recorded after "
            f"it (an event with a clock beyond {MAX_CLOCK}, the end of year 9999, was written into this workbench "
            "before merges refused such clocks; checking the workbench names it)"
        )
    return clock


def event_clock(event: Event) -> int:
    return event.clock if event.clock is not None else clock_from_time(event.time)


def event_order(event: Event) -> tuple[int, str]:
    """The order of the log: logical clock, then event id.

    Not the local sequence number: after `merge` two workbenches hold the same
    events in different local orders, and both must read the same labels. Not
    the wall time: one machine with a clock in 2099 would outrank every later
    decision. A merge refuses events from the future (beyond a tolerance) and
    advances the workbench's clock past those it takes.
    """
    return event_clock(event), event.event_id


def effective_events(events: Iterable[Event]) -> list[Event]:
    """The people's events in log order: without those a `retract` cancelled, the retracts, and models' events.

    A model's events are left out here, the one place every reading of the log
    goes through (labels, conflicts, review marks, the stopping rules' first
    judgments), so no model label counts as a person's: see `model_events`.
    """
    ordered = sorted(events, key=event_order)
    cancelled = {e.target for e in ordered if e.kind == RETRACT and e.target}
    return [e for e in ordered if e.kind != RETRACT and e.source != MODEL and e.event_id not in cancelled]


def model_events(events: Iterable[Event]) -> list[Event]:
    """A model's events in log order, without those a `retract` cancelled (retracts by anyone count)."""
    ordered = sorted(events, key=event_order)
    cancelled = {e.target for e in ordered if e.kind == RETRACT and e.target}
    return [e for e in ordered if e.kind != RETRACT and e.source == MODEL and e.event_id not in cancelled]


def derive_pair(topic_id: str, unit_id: str, events: Iterable[Event], changed_after: str | None = None) -> PairState:
    """The current state of one pair from its events.

    `changed_after` is the time of the unit's latest content change, if any:
    judgments made before it are stale. Two steps: fold the events into each
    assessor's latest grade and state, then settle the label from those.
    """
    state = PairState(topic_id, unit_id)
    latest_grade, adjudication = _fold_events(state, events, changed_after)
    state.grades = {assessor: e.grade for assessor, e in latest_grade.items() if e.grade is not None}
    real = {a: e for a, e in latest_grade.items() if e.grade is not None and e.grade >= 0}
    if adjudication is not None:
        _settle_adjudicated(state, adjudication, real)
        return state
    _settle_by_grades(state, latest_grade, real)
    if state.label is not None and state.label >= 0:
        state.stale = False
    return state


def _fold_events(
    state: PairState, events: Iterable[Event], changed_after: str | None
) -> tuple[dict[str, Event], Event | None]:
    """Each assessor's latest grade and the latest adjudication, in log order; states and notes go into `state`.

    A grade or an adjudication made before the unit's text changed counts for nothing but makes
    the pair stale; a grade clears its assessor's skip, unsure or flag.
    """
    latest_grade: dict[str, Event] = {}
    adjudication: Event | None = None
    for event in effective_events(events):
        if changed_after is not None and event.time < changed_after and event.kind in (GRADE, ADJUDICATE):
            state.stale = True
            continue
        if event.kind == GRADE:
            latest_grade[event.assessor] = event
            state.states.pop(event.assessor, None)
        elif event.kind == ADJUDICATE:
            adjudication = event
        elif event.kind in PAIR_STATES:
            state.states[event.assessor] = event.kind
        elif event.kind == NOTE and event.note:
            state.notes.append((event.assessor, event.note))
    return latest_grade, adjudication


def _settle_adjudicated(state: PairState, adjudication: Event, real: dict[str, Event]) -> None:
    """The adjudicated grade is the label, unless a later real grade differs from it: then a conflict again."""
    state.adjudicated = True
    if any(event_order(e) > event_order(adjudication) and e.grade != adjudication.grade for e in real.values()):
        state.conflict = True
    else:
        state.label, state.deciding_event = adjudication.grade, adjudication


def _settle_by_grades(state: PairState, latest_grade: dict[str, Event], real: dict[str, Event]) -> None:
    """Real grades that agree are the label (different ones a conflict); else a negative grade: pooled, not judged."""
    if real:
        if len({e.grade for e in real.values()}) > 1:
            state.conflict = True
        else:
            deciding = max(real.values(), key=event_order)
            state.label, state.deciding_event = deciding.grade, deciding
    elif latest_grade:
        deciding = max(latest_grade.values(), key=event_order)
        state.label, state.deciding_event = deciding.grade, deciding  # negative: pooled, not judged


def derive_pairs(events: Iterable[Event], changes: Mapping[str, str] | None = None) -> dict[tuple[str, str], PairState]:
    """States of every pair that has events; `changes` maps unit id -> time of its last content change."""
    by_pair: dict[tuple[str, str], list[Event]] = {}
    for event in events:
        if event.unit_id is not None and event.kind != REVIEW:
            by_pair.setdefault((event.topic_id, event.unit_id), []).append(event)
    changes = changes or {}
    return {
        pair: derive_pair(pair[0], pair[1], pair_events, changes.get(pair[1])) for pair, pair_events in by_pair.items()
    }


PROBS_TOLERANCE = 1e-6
"""How far a model's probabilities may sum from 1 (rounding in the model's output)."""


def probs_problem(probs: Mapping[int, float], grades: Iterable[int]) -> str | None:
    """Why a model's probabilities per grade are not sound for a scale, or None.

    Sound: exactly the scale's grades as keys, each value a finite number in [0, 1], summing
    to 1 within `PROBS_TOLERANCE`.
    """
    scale = sorted(set(grades))
    keys = sorted(probs)
    if keys != scale:
        wanted, found = ", ".join(map(str, scale)), ", ".join(map(str, keys))
        return f"probs must give one probability per grade of the scale ({wanted}), found grades ({found})"
    for grade in keys:
        value = probs[grade]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            return f"probs: the probability of grade {grade} must be a number in [0, 1], found {value!r}"
    total = math.fsum(float(probs[grade]) for grade in keys)
    if abs(total - 1.0) > PROBS_TOLERANCE:
        return f"probs must sum to 1 (within {PROBS_TOLERANCE:g}), found {total!r}"
    return None


def probs_from_json(value: object) -> dict[int, float]:
    """A JSON object of grade (as text) -> probability as `{grade: p}`; `ValueError` saying why it is not one.

    Only the shape: whether the grades and values fit the scale is `probs_problem`'s.
    """
    if not isinstance(value, dict):
        raise ValueError(f"probs must be an object of grade -> probability, found {type(value).__name__}")
    probs: dict[int, float] = {}
    for key, p in value.items():
        text = str(key).strip()
        if not text.lstrip("-").isdigit() or len(text) > 19:
            raise ValueError(f"probs: {str(key)!r} is not a grade (an integer)")
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise ValueError(f"probs: the probability of grade {text} must be a number, found {type(p).__name__}")
        if int(text) in probs:
            raise ValueError(f"probs: grade {int(text)} is given twice")
        probs[int(text)] = float(p)
    return probs

"""Deriving current labels from the append-only log: conflicts, adjudication, undo, staleness, review status."""

from __future__ import annotations

import pytest

from labeler.judgments.log import Event, derive_pair, derive_pairs


def ev(seq, kind="grade", assessor="ann", grade=None, *, target=None, time=None, reason=None, unit_id="d1", note=None):
    return Event(
        f"e{seq}",
        seq,
        "1",
        unit_id,
        kind,
        assessor,
        time or f"2026-01-01T00:00:{seq:02d}",
        grade=grade,
        target=target,
        reason=reason,
        note=note,
    )


@pytest.mark.parametrize(
    ("events", "label", "conflict"),
    [
        ([ev(1, grade=2)], 2, False),  # one grade
        ([ev(1, grade=2), ev(2, grade=0)], 0, False),  # the same assessor corrects herself
        ([ev(1, grade=2), ev(2, assessor="bob", grade=2)], 2, False),  # two assessors agree
        ([ev(1, grade=2), ev(2, assessor="bob", grade=1)], None, True),  # they disagree: conflict
        ([ev(1, grade=2), ev(2, assessor="bob", grade=1), ev(3, "adjudicate", "cat", 1)], 1, False),  # resolved
        (
            [
                ev(1, grade=2),
                ev(2, assessor="bob", grade=1),
                ev(3, "adjudicate", "cat", 1),
                ev(4, assessor="dan", grade=3),
            ],
            None,
            True,
        ),  # a later differing grade reopens it
        ([ev(1, grade=2), ev(2, "retract", target="e1")], None, False),  # undo: nothing left
        ([ev(1, grade=2), ev(2, grade=3), ev(3, "retract", target="e2")], 2, False),  # undo goes back one step
        ([ev(1, grade=2), ev(2, assessor="bob", grade=1), ev(3, "retract", "bob", target="e2")], 2, False),
        ([ev(1, grade=-1)], -1, False),  # pooled, not judged (trec_eval's negative grade)
        ([ev(1, grade=-1), ev(2, assessor="bob", grade=0)], 0, False),  # a real grade wins over -1
        ([ev(1, "skip")], None, False),  # skip is a state, not a label
    ],
)
def test_label_of_a_pair(events, label, conflict):
    state = derive_pair("1", "d1", events)
    assert (state.label, state.conflict) == (label, conflict)


def test_skip_and_unsure_are_kept_per_assessor_until_a_grade():
    state = derive_pair("1", "d1", [ev(1, "skip"), ev(2, "unsure", "bob", reason="jargon")])
    assert state.states == {"ann": "skip", "bob": "unsure"} and not state.judged
    state = derive_pair("1", "d1", [ev(1, "skip"), ev(2, grade=1)])
    assert state.states == {} and state.label == 1


def test_a_judgment_of_text_that_changed_since_is_stale():
    events = [ev(1, grade=3, time="2026-01-01T10:00:00")]
    state = derive_pair("1", "d1", events, changed_after="2026-01-02T00:00:00")
    assert state.label is None and state.stale and not state.judged
    fresh = events + [ev(2, grade=1, time="2026-01-03T00:00:00")]
    state = derive_pair("1", "d1", fresh, changed_after="2026-01-02T00:00:00")
    assert state.label == 1 and not state.stale


def test_derive_pairs_groups_by_pair_and_ignores_review_events():
    events = [
        ev(1, grade=1),
        ev(2, grade=0, unit_id="d2"),
        Event("r", 3, "1", None, "review", "ann", "t", reason="reviewed"),
    ]
    states = derive_pairs(events)
    assert {k: s.label for k, s in states.items()} == {("1", "d1"): 1, ("1", "d2"): 0}


def test_the_log_follows_the_logical_clock_not_the_wall_clock():
    """A grade stamped 2099 by a wrong clock, but clocked before the correction, does not win."""
    wrong = ev(1, grade=3, time="2099-01-01T00:00:00+00:00")
    wrong = Event(wrong.event_id, 1, "1", "d1", "grade", "ann", wrong.time, grade=3, clock=100)
    later = Event("e2", 2, "1", "d1", "grade", "ann", "2026-01-01T00:00:00+00:00", grade=1, clock=101)
    assert derive_pair("1", "d1", [later, wrong]).label == 1


def test_an_event_without_a_clock_is_ordered_by_the_clock_its_time_gives():
    from labeler.judgments.log import clock_from_time, event_order

    same_instant = [
        clock_from_time(t)
        for t in (
            "2026-01-01T10:00:00Z",
            "2026-01-01T11:00:00+01:00",
            "2026-01-01T10:00:00.000000+00:00",
            "2026-01-01T10:00:00",
        )
    ]
    assert len(set(same_instant)) == 1 and same_instant[0] == 1_767_261_600_000_000
    assert clock_from_time("yesterday") == 0  # not a time: it outranks nothing
    assert event_order(ev(1, grade=1)) < event_order(ev(2, grade=1))


@pytest.mark.parametrize(
    ("physical", "latest", "clock"),
    [
        (1_000, 10, 1_000),  # the wall clock is ahead of the log: it is the clock
        (1_000, 5_000, 5_001),  # the log has seen later events: just past them, whatever the wall says
        (1_000, 1_000, 1_001),  # two events in one microsecond still get two clocks
    ],
)
def test_next_clock_is_the_wall_clock_or_just_past_the_latest_seen(physical, latest, clock):
    from labeler.judgments.log import next_clock

    assert next_clock(physical, latest) == clock


def test_the_clock_s_range_ends_with_year_9999_and_the_local_clock_counts_on_to_sqlite_s_end():
    from datetime import datetime, timezone

    from labeler.judgments.log import CLOCK_END, MAX_CLOCK, ClockEndError, clock_of, clock_problem, next_clock

    assert MAX_CLOCK == clock_of(datetime.max.replace(tzinfo=timezone.utc))  # the latest time a clock can name
    assert clock_problem(0) is None and clock_problem(MAX_CLOCK) is None
    assert clock_problem(MAX_CLOCK + 1) == (
        f"clock {MAX_CLOCK + 1} is out of range (beyond the end of year 9999): a clock counts microseconds since "
        f"1970, from 0 to {MAX_CLOCK}"
    )
    assert clock_problem(-5).startswith("clock -5 is out of range (before 1970)")
    assert next_clock(0, MAX_CLOCK) == MAX_CLOCK + 1  # past the bound the local clock counts on
    assert next_clock(0, CLOCK_END - 1) == CLOCK_END
    with pytest.raises(ClockEndError, match=f"the judgment log's clock is at {CLOCK_END}, the largest a clock can be"):
        next_clock(0, CLOCK_END)

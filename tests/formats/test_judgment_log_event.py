"""`log_event` builds the same events `Event(...)` does, and its rules' per-unit answers depend on the unit alone."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from labeler.formats.judgment_log import LOG_FIELDS, EventProblem, LogRules, log_event, log_line
from labeler.judgments.log import GRADE, MODEL, NOTE, RETRACT, Event

EVEN = {0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25}
TIME = "2026-01-31T09:30:00.000000+00:00"
NOW = 1_800_000_000_000_000


def _rules() -> LogRules:
    return LogRules(frozenset({0, 1, 2, 3}), "default", frozenset({"p"}), NOW, 300_000_000)


EVENTS = [
    Event("e1", 0, "t1", "d1", GRADE, "ann", TIME, grade=2, source="import", clock=5),
    Event("e2", 0, "t1", "d1", GRADE, "gpt", TIME, grade=1, source=MODEL, model="m", probs=EVEN, clock=6),
    Event("e3", 0, "t1", "d2", GRADE, "bob", TIME, grade=3, shown_model="m", shown_others=("ann",), clock=7),
    Event("e4", 0, "t1", "c1", NOTE, "ann", TIME, note="hm", unit="chunk:p", active_ms=40, seed=-3, clock=8),
    Event("e5", 0, "t1", "d1", RETRACT, "ann", TIME, target="e1", order="o", pool="p1", clock=9),
]


@pytest.mark.parametrize("event", EVENTS, ids=[e.event_id for e in EVENTS])
def test_a_checked_event_equals_the_event_its_constructor_builds(event: Event) -> None:
    built, future = log_event(json.loads(log_line(event)), _rules())
    again = Event(**{f.name: getattr(built, f.name) for f in fields(Event)})
    assert not future
    assert built == event == again
    if event.probs is None:  # an event with probabilities holds a dict, and has no hash either way
        assert hash(built) == hash(again)
    assert sorted(vars(built)) == sorted(f.name for f in fields(Event))  # every field, no other attribute
    with pytest.raises(AttributeError):
        built.grade = 0  # type: ignore[misc]  # still frozen


def test_a_unit_answered_once_per_rules_and_a_refusal_each_time() -> None:
    rules, other = _rules(), LogRules(frozenset({0, 1}), "binary", frozenset(), NOW, 300_000_000)
    row = json.loads(log_line(EVENTS[3]))
    assert log_event(row, rules)[0].unit == "chunk:p"
    for _ in range(2):  # the chunking is not in the other workbench: refused every time, whatever was kept
        with pytest.raises(EventProblem, match="chunkings: none"):
            log_event(row, other)
    graded = json.loads(log_line(EVENTS[0]))
    with pytest.raises(EventProblem, match="grade 2"):
        log_event(graded, other)  # the other scale's grades, not the first rules'
    assert log_event(graded, rules)[0].grade == 2


UNUSUAL = {  # a value each field refuses, on a person's grade whose other fields are all given, null
    "target": "e0",
    "pool": "a pool",
    "order": 7,
    "reason": 5,
    "note": ["x"],
    "model": 5,
    "content_hash": "abc",
    "active_ms": -1,
    "seed": "z",
    "probs": {"0": 1.0},
    "shown_model": 5,
    "shown_others": "ann",
}


@pytest.mark.parametrize("name", sorted(UNUSUAL))
def test_a_field_most_events_leave_null_is_checked_when_it_is_not(name: str) -> None:
    row = dict.fromkeys(LOG_FIELDS) | json.loads(log_line(EVENTS[0]))
    assert log_event(row, _rules())[0] == EVENTS[0]  # every field given, the usual ones null
    with pytest.raises(EventProblem):
        log_event({**row, name: UNUSUAL[name]}, _rules())

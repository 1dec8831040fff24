"""The two views of a judgment event: the log's line (every field, by the log's names) and `--json`'s."""

from __future__ import annotations

import json
from dataclasses import replace

from labeler.formats.judgment_log import DECISION_KEYS, LOG_FIELDS, OPTIONAL_FIELDS, log_line, shown_event
from labeler.judgments.log import Event

EVENT = Event("e1", 7, "t1", "d1", "grade", "ann", "2026-01-02T03:04:05Z", grade=2, note="n", pool="p1", clock=9)


def test_the_json_view_uses_the_short_names_in_the_documented_order():
    assert list(shown_event(EVENT).items()) == [
        ("event", "e1"),
        ("seq", 7),
        ("topic", "t1"),
        ("unit_id", "d1"),
        ("unit", "doc"),
        ("kind", "grade"),
        ("grade", 2),
        ("reason", None),
        ("note", "n"),
        ("assessor", "ann"),
        ("source", "human"),
        ("model", None),
        ("time", "2026-01-02T03:04:05Z"),
        ("probs", None),
        ("shown_model", None),
    ]


def test_a_log_line_holds_every_log_field_and_no_local_sequence_number():
    """Every field, but the model fields only when set: a line without them reads as it did before they existed."""
    row = json.loads(log_line(EVENT))
    assert list(row) == sorted(set(LOG_FIELDS) - set(OPTIONAL_FIELDS))
    assert (row["event_id"], row["pool"], row["clock"], row["grade"]) == ("e1", "p1", 9, 2)
    assert "seq" not in row
    shown = json.loads(log_line(replace(EVENT, shown_model="m1")))
    assert list(shown) == sorted(set(LOG_FIELDS) - {"probs", "shown_others"}) and shown["shown_model"] == "m1"
    blind = json.loads(log_line(replace(EVENT, shown_others=())))
    assert blind["shown_others"] == [] and "shown_model" not in blind  # [] (judged blind) is kept, unlike None
    assert json.loads(log_line(replace(EVENT, shown_others=("ann",))))["shown_others"] == ["ann"]
    model = replace(EVENT, source="model", model="m1", probs={2: 0.75, 0: 0.25})
    assert json.loads(log_line(model))["probs"] == {"0": 0.25, "2": 0.75}


def test_the_recent_decisions_view_shows_fewer_fields_in_its_own_order():
    assert shown_event(EVENT, DECISION_KEYS) == {
        "event": "e1",
        "topic": "t1",
        "unit": "doc",
        "unit_id": "d1",
        "kind": "grade",
        "grade": 2,
        "reason": None,
        "note": "n",
        "time": "2026-01-02T03:04:05Z",
    }
    assert list(shown_event(EVENT, DECISION_KEYS)) == list(DECISION_KEYS)

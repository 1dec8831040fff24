"""Why an assessor has nothing to judge: each reason with its counts and hints, several at once, none with work left."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from support import Cli, trec_run

from labeler.errors import Hint, argument_hint
from labeler.store import Store
from labeler.workbench.assignments import assign
from labeler.workbench.claims import claim_next, claim_pair
from labeler.workbench.nothing_left import (
    ADJUDICATION,
    ALL_JUDGED,
    ASSIGNED,
    HELD,
    NOT_IN_POOL,
    TOPIC_DONE,
    nothing_left,
)
from labeler.workbench.record_judgments import Judgment, mark_topic, record_judgment

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
POOL = {"1": ["d1", "d2", "d3"], "2": ["d3", "d4"], "3": ["d5"]}
PAIRS = [(t, u) for t, units in POOL.items() for u in units]


@pytest.fixture
def pooled(db_path, write) -> Cli:
    """Six pool pairs: topic 1 d1 d2 d3, topic 2 d3 d4, topic 3 d5."""
    cli = Cli(db_path)
    cli("runs", "import", write("r.run", trec_run("r", POOL)), "--name", "r")
    cli("pool", "build", "--depth", "3")
    return cli


def judge_all(store: Store, *, but: tuple[tuple[str, str], ...] = ()) -> None:
    for topic, unit in PAIRS:
        if (topic, unit) not in but:
            record_judgment(store, Judgment(topic_id=topic, unit_id=unit, assessor="ann", grade=1))


def test_a_pool_dealt_to_others_is_assigned_to_others_not_done(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"])  # 1 and 3 to ann, 2 to bob
        assert claim_next(store, "carol", now=T0) is None
        found = nothing_left(store, "carol", now=T0)
    assert found.reason == ASSIGNED and len(found.reasons) == 1
    reason = found.reasons[0]
    assert (reason.pairs, reason.topics, reason.assessors) == (6, ("1", "2", "3"), {"ann": 4, "bob": 2})
    assert reason.hints == (Hint("assign_assessors", value="ann,bob,carol", why="to give carol topics"),)
    assert "6 pairs in 3 topics are assigned to others (ann 4, bob 2)" in reason.words
    assert "carol has no topic in the assignment plan" in reason.words


def test_the_hint_keeps_a_planned_overlap(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"], overlap=0.5, seed=3)
        reason = nothing_left(store, "carol", now=T0).reasons[0]
    assert reason.hints[1:] == (
        argument_hint("overlap", "0.5", why="to keep the planned overlap"),
        argument_hint("seed", "3", why="to keep the same overlap pairs"),
    )
    assert reason.pairs == 6 and sum(reason.assessors.values()) > 6  # an overlap pair waits for both its judges


def test_an_assessor_whose_own_pairs_are_judged_is_told_what_others_still_have(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"])
        for topic, unit in PAIRS:
            if topic != "2":
                record_judgment(store, Judgment(topic_id=topic, unit_id=unit, assessor="ann", grade=1))
        found = nothing_left(store, "ann", now=T0)
    assert found.reason == ASSIGNED and found.reasons[0].assessors == {"bob": 2}
    assert "ann has judged every pair assigned" in found.reasons[0].words


def test_pairs_leased_by_others_are_held_by_others_with_the_first_lease_end(pooled):
    with Store(pooled.db) as store:
        for i, (topic, unit) in enumerate(PAIRS):
            claim_pair(store, "bob" if i < 4 else "cy", topic, unit, now=T0 + timedelta(minutes=i))
        assert claim_next(store, "ann", now=T0 + timedelta(minutes=6)) is None
        found = nothing_left(store, "ann", now=T0 + timedelta(minutes=6))
    assert found.reason == HELD and len(found.reasons) == 1
    reason = found.reasons[0]
    assert (reason.pairs, reason.assessors, reason.topics) == (6, {"bob": 4, "cy": 2}, ("1", "2", "3"))
    assert reason.lease_ends == "2026-01-01T09:15:00.000000+00:00"  # bob's first claim, of a 15-minute lease


def test_a_lease_that_ended_leaves_work_and_no_reason(pooled):
    with Store(pooled.db) as store:
        for topic, unit in PAIRS:
            claim_pair(store, "bob", topic, unit, now=T0)
        found = nothing_left(store, "ann", now=T0 + timedelta(minutes=16))
    assert found.reasons == () and found.reason is None


def test_conflicts_wait_for_adjudication(pooled):
    with Store(pooled.db) as store:
        judge_all(store)
        record_judgment(store, Judgment(topic_id="3", unit_id="d5", assessor="bob", grade=0))
        found = nothing_left(store, "carol", now=T0)
    assert [(r.reason, r.pairs, r.topics) for r in found.reasons] == [(ADJUDICATION, 1, ("3",))]
    assert found.reasons[0].hints == (Hint("adjudicate"),)


def test_a_judged_pool_is_everything_judged(pooled):
    with Store(pooled.db) as store:
        judge_all(store)
        found = nothing_left(store, "carol", now=T0)
    assert [(r.reason, r.pairs, r.topics) for r in found.reasons] == [(ALL_JUDGED, 6, ("1", "2", "3"))]
    assert [h.action for h in found.reasons[0].hints] == ["create_snapshot", "build_pool"]


def test_a_judged_topic_is_done_once_marked_and_asks_for_the_mark_before(pooled):
    with Store(pooled.db) as store:
        judge_all(store)
        before = nothing_left(store, "ann", topic="2", now=T0)
        mark_topic(store, "2", "reviewed", assessor="ann")
        after = nothing_left(store, "ann", topic="2", now=T0)
    assert [(r.reason, r.pairs, r.status) for r in before.reasons] == [(ALL_JUDGED, 2, "in_progress")]
    assert before.reasons[0].hints == (Hint("mark_topic", value="2"),)
    assert [(r.reason, r.pairs, r.status) for r in after.reasons] == [(TOPIC_DONE, 2, "reviewed")]


def test_a_topic_not_in_the_pool_is_named_so(pooled):
    with Store(pooled.db) as store:
        found = nothing_left(store, "ann", topic="9", now=T0)
    assert [(r.reason, r.topics) for r in found.reasons] == [(NOT_IN_POOL, ("9",))]
    assert found.reasons[0].hints == (Hint("list_topics"),)


def test_several_reasons_are_all_reported_most_useful_first(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann"], topics=["1"])
        claim_pair(store, "bob", "2", "d3", now=T0)
        claim_pair(store, "bob", "2", "d4", now=T0)
        record_judgment(store, Judgment(topic_id="3", unit_id="d5", assessor="ann", grade=2))
        record_judgment(store, Judgment(topic_id="3", unit_id="d5", assessor="bob", grade=0))
        assert claim_next(store, "carol", now=T0) is None
        found = nothing_left(store, "carol", now=T0)
        one_topic = nothing_left(store, "carol", topic="2", now=T0)
    assert [(r.reason, r.pairs, r.topics) for r in found.reasons] == [
        (ASSIGNED, 3, ("1",)),
        (HELD, 2, ("2",)),
        (ADJUDICATION, 1, ("3",)),
    ]
    assert [r.reason for r in one_topic.reasons] == [HELD]


def test_the_json_form_has_every_key_for_every_reason(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"])
        as_json = nothing_left(store, "carol", now=T0).to_json()
    assert as_json["reason"] == ASSIGNED
    assert list(as_json["reasons"][0]) == [
        "reason",
        "words",
        "pairs",
        "topics",
        "assessors",
        "lease_ends",
        "status",
        "hints",
    ]
    assert as_json["reasons"][0]["hints"][0] == {
        "action": "assign_assessors",
        "argument": None,
        "value": "ann,bob,carol",
        "why": "to give carol topics",
    }

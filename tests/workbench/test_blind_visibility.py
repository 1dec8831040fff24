"""Blind second judgments: on a planned overlap pair neither judge sees the other's grade, note or reason
until both have graded it; an assignment made with `show_others` shows them; agreement says which it was."""

from __future__ import annotations

import pytest
from support import Cli

from labeler.store import Store
from labeler.workbench.agreement import agreement_report
from labeler.workbench.assignments import assign, current_plan
from labeler.workbench.flagged import flagged_pairs
from labeler.workbench.queue import queue
from labeler.workbench.read_labels import pair_state
from labeler.workbench.record_judgments import Judgment, record_judgment, undo
from labeler.workbench.session import JudgingSession
from labeler.workbench.status import status

RUN = "".join(f"{t} Q0 d{t}-{r} {r} {100 - r} A\n" for t in ("1", "2") for r in range(1, 7))
REVERSED = "".join(f"{t} Q0 d{t}-{7 - r} {r} {100 - r} B\n" for t in ("1", "2") for r in range(1, 7))


@pytest.fixture
def overlapping(db_path, write) -> Cli:
    """Two topics of six pooled documents; ann has topic 1, bob topic 2, each the other's second judge
    on nearly every pair (share 0.99)."""
    cli = Cli(db_path)
    cli("runs", "import", write("a.run", RUN), "--name", "A")
    cli("runs", "import", write("b.run", REVERSED), "--name", "B")
    cli("pool", "build", "--depth", "6")
    with Store(db_path) as store:
        assign(store, ["ann", "bob"], overlap=0.99, seed=1)
    return cli


def overlap_unit(store: Store, topic: str = "1") -> str:
    plan = current_plan(store)
    return next(u for u in sorted(store.pool_topic_units("P1", topic)) if plan.is_overlap(topic, u))


def grade(store: Store, assessor: str, unit_id: str, value: int, **fields) -> None:
    record_judgment(store, Judgment(topic_id="1", unit_id=unit_id, assessor=assessor, grade=value, **fields))


def bob_on(store: Store, unit_id: str) -> JudgingSession:
    session = JudgingSession(store, "bob")
    session.start("1")
    session.reopen("1", unit_id)
    return session


def test_the_second_judge_sees_nothing_of_the_first_until_both_graded(overlapping):
    with Store(overlapping.db) as store:
        unit_id = overlap_unit(store)
        grade(store, "ann", unit_id, 2, note="clearly about pests")
        record_judgment(
            store,
            Judgment(topic_id="1", unit_id=unit_id, assessor="ann", kind="flag", reason="ask the lead about pests"),
        )
        session = bob_on(store, unit_id)
        assert session.pair_status() == "unjudged"  # not "judged by others (2)"
        assert unit_id in {item.unit_id for item in queue(store, "1", assessor="bob")}
        seen = status(store, viewer="bob").topics["1"]
        assert (seen.judged, seen.relevant) == (0, 0)  # ann's grade counts nowhere bob looks
        assert status(store).topics["1"].judged == 1  # the lead's status counts it
        assert [f.assessor for f in flagged_pairs(store, viewer="bob")] == []  # nor her flag's reason
        assert [f.reason for f in flagged_pairs(store)] == ["ask the lead about pests"]
        session.judge(1)
        # both graded: the pair is a conflict for everyone, with both grades
        state = pair_state(store, "doc", "1", unit_id)
        assert state.conflict and state.grades == {"ann": 2, "bob": 1}
        assert bob_on(store, unit_id).pair_status() == "conflict"
        assert [f.reason for f in flagged_pairs(store, viewer="bob")] == ["ask the lead about pests"]
        assert status(store, viewer="bob").topics["1"].conflicts == 1


def test_the_first_judge_does_not_see_the_second_either(overlapping):
    with Store(overlapping.db) as store:
        unit_id = overlap_unit(store)
        ann = JudgingSession(store, "ann")
        ann.start("1")
        before = ann.stop_decision()
        grade(store, "bob", unit_id, 3, note="on topic")
        ann.reopen("1", unit_id)
        assert ann.pair_status() == "unjudged"
        assert ann.stop_decision() == before  # the stopping line counts nothing of bob's either
        assert status(store, viewer="ann").topics["1"].judged == 0


def test_skip_is_no_judgment_and_an_undone_grade_hides_the_pair_again(overlapping):
    with Store(overlapping.db) as store:
        unit_id = overlap_unit(store)
        grade(store, "ann", unit_id, 2)
        session = bob_on(store, unit_id)
        session.skip()  # a skip is not a grade: still blind for bob
        assert bob_on(store, unit_id).pair_status() == "skipped"
        grade(store, "bob", unit_id, 2)
        assert bob_on(store, unit_id).pair_status() == "judged by you (2)"
        assert status(store, viewer="bob").topics["1"].judged == 1
        record_judgment(
            store, Judgment(topic_id="1", unit_id=unit_id, assessor="ann", kind="note", note="second thoughts")
        )
        undo(store, "ann")  # the note
        undo(store, "ann")  # her grade: only bob's grade is in force, so the pair is blind for him again
        record_judgment(
            store, Judgment(topic_id="1", unit_id=unit_id, assessor="ann", kind="note", note="regrading later")
        )
        seen = JudgingSession(store, "bob")
        seen.start("1")
        seen.reopen("1", unit_id)
        assert seen._seen_state(("1", unit_id)).notes == []
        assert pair_state(store, "doc", "1", unit_id).notes == [("ann", "regrading later")]


def test_show_others_lets_the_second_judge_see_and_records_it(overlapping):
    with Store(overlapping.db) as store:
        assign(store, ["ann", "bob"], topics=["1"], overlap=0.99, seed=1, show_others=True)
        assert current_plan(store).topics["1"].show_others
        unit_id = overlap_unit(store)
        grade(store, "ann", unit_id, 2)
        session = bob_on(store, unit_id)
        assert session.pair_status() == "judged by others (2)"
        event = session.judge(2)
        assert event.shown_others == ("ann",)
        assert store.events_by_id([event.event_id])[event.event_id].shown_others == ("ann",)


def test_a_blind_judgment_records_that_nothing_was_shown_and_agreement_splits_by_condition(overlapping):
    with Store(overlapping.db) as store:
        units = sorted(u for u in store.pool_topic_units("P1", "1") if current_plan(store).is_overlap("1", u))
        blind, shown, scripted = units[:3]
        grade(store, "ann", blind, 2)
        session = bob_on(store, blind)
        first = session.judge(2)
        assert first.shown_others == ()  # on an overlap pair, judged blind
        assign(store, ["ann", "bob"], topics=["1"], overlap=0.99, seed=1, show_others=True)
        grade(store, "ann", shown, 1)
        bob_on(store, shown).judge(0)
        grade(store, "ann", scripted, 3)
        grade(store, "bob", scripted, 3)  # added as a script would: what was on screen is not known
        report = agreement_report(store)
        assert report.conditions == {"blind": 1, "shown": 1, "unrecorded": 1}
        assert {row.unit_id: row.condition for row in report.pair_conditions} == {
            blind: "blind",
            shown: "shown",
            scripted: "unrecorded",
        }
        assert report.by_condition["blind"].overlap.value == 1.0
        assert report.by_condition["shown"].overlap.value == 0.0
        assert report.summary.overall.pairs == 3


def test_next_and_queue_json_do_not_reveal_the_first_judgment(overlapping):
    before = overlapping.json("queue", "--assessor", "bob", "--topic", "1", "--order", "mtf")
    unit_id = before["next"][0]["unit"]
    # a relevant grade on the pair at the front would keep its run reading on in a move-to-front order
    overlapping("judgments", "add", "1", unit_id, "3", "--assessor", "ann", "--note", "ann thinks highly relevant")
    after = overlapping.json("queue", "--assessor", "bob", "--topic", "1", "--order", "mtf")
    assert after == before  # the pair is still bob's, in the same place: the order read nothing of ann's grade
    claimed = overlapping.json("next", "--assessor", "bob", "--topic", "1", "--order", "mtf")
    text = str(claimed) + str(after)
    assert "ann" not in text and "highly" not in text
    assert claimed["unit"] == before["next"][0]["unit"]

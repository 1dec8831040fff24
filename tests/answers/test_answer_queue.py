"""The answer judging use cases: the queue of one assessor's items, leases, recorded decisions, undo."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from answers.judged_answers import add_judged_answers
from support import new_workbench

from labeler.errors import BadArgumentError, LabelerError, NotFoundError, UnknownIdError
from labeler.judgments.log import GRADE, NOTE, RETRACT, SKIP
from labeler.store import Store
from labeler.workbench import answer_judging
from labeler.workbench.answer_judging import (
    AnswerJudgingSession,
    AnswerJudgment,
    answer_queue,
    record_answer_judgment,
    undo_answer_judgment,
)
from labeler.workbench.answer_labels import answer_labels
from labeler.workbench.assignments import assign
from labeler.workbench.record_judgments import Judgment, record_judgment

T0 = datetime(2026, 12, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path):
    with Store(new_workbench(tmp_path / "w.db")) as opened:
        yield opened


@pytest.fixture
def nuggets(store):
    return add_judged_answers(store, ("rag1", "rag2"))


def keys(items):
    return [(i.run, i.topic_id, i.item_id) for i in items]


def test_the_nugget_queue_is_every_answer_and_nugget_without_the_assessors_grade(store, nuggets):
    one, two = nuggets["1"], nuggets["2"]
    assert keys(answer_queue(store, "ann", "nuggets")) == [
        ("rag1", "1", one[0]),
        ("rag1", "1", one[1]),
        ("rag2", "1", one[0]),
        ("rag2", "1", one[1]),
        ("rag1", "2", two[0]),
        ("rag2", "2", two[0]),
    ]
    record_answer_judgment(store, AnswerJudgment("nugget:rag1", "1", one[0], "ann", grade=2))
    record_answer_judgment(store, AnswerJudgment("nugget:rag1", "1", one[1], "ann", kind=SKIP))
    items = answer_queue(store, "ann", "nuggets", runs=["rag1"])
    assert keys(items) == [("rag1", "2", two[0]), ("rag1", "1", one[1])]  # the skipped one last
    assert [i.later for i in items] == [False, True]


def test_the_support_queue_is_every_sentence_with_a_citation(store, nuggets):
    assert keys(answer_queue(store, "ann", "support", runs=["rag2"])) == [
        ("rag2", "1", "1"),
        ("rag2", "1", "2"),  # sentence 3 cites nothing: not judged
        ("rag2", "2", "1"),
    ]


def test_the_assignment_plan_deals_topics_and_its_overlap_draw_picks_the_second_judges_items(store, nuggets):
    one, two = nuggets["1"], nuggets["2"]
    assign(store, ["ann", "bob"], topics=["1", "2"], overlap=0.5, seed=0)  # topic 1 is ann's, topic 2 bob's
    ann = [(i.topic_id, i.item_id, i.overlap) for i in answer_queue(store, "ann", "nuggets", runs=["rag1"])]
    assert ann == [("1", one[0], True), ("1", one[1], False), ("2", two[0], True)]  # her own topic first
    bob = [(i.topic_id, i.item_id, i.overlap) for i in answer_queue(store, "bob", "nuggets", runs=["rag1"])]
    assert bob == [("2", two[0], True), ("1", one[0], True)]  # on ann's topic only the overlap item
    assert [i.overlap for i in answer_queue(store, "ann", "nuggets", runs=["rag2"])] == [True, False, True]


def test_a_grade_is_an_event_in_the_runs_space_and_undo_retracts_only_answer_judgments(store, nuggets):
    one = nuggets["1"]
    event = record_answer_judgment(store, AnswerJudgment("support:rag1", "1", "2", "ann", grade=1))
    assert (event.unit, event.kind, event.grade) == ("support:rag1", GRADE, 1)
    record_answer_judgment(store, AnswerJudgment("nugget:rag1", "1", one[1], "ann", kind=NOTE, note="bags named"))
    undone = undo_answer_judgment(store, "ann")
    assert (undone.unit, undone.kind) == ("nugget:rag1", NOTE)
    undone = undo_answer_judgment(store, "ann")
    assert undone.event_id == event.event_id
    assert answer_labels(store, "support:rag1", "1")["2"].grades == {}
    retracts = [e for e in store.recent_events("ann", limit=10) if e.kind == RETRACT]
    assert {e.unit for e in retracts} == {"support:rag1", "nugget:rag1"}
    with pytest.raises(NotFoundError):
        undo_answer_judgment(store, "ann")


def test_undo_leaves_a_relevance_decision_alone(store, nuggets):
    record_judgment(store, Judgment("1", "d1", "ann", grade=2, allow_unknown=True))
    with pytest.raises(NotFoundError):
        undo_answer_judgment(store, "ann")


@pytest.mark.parametrize(
    ("judgment", "error", "words"),
    [
        (AnswerJudgment("nugget:rag1", "1", "n1-1", "ann", grade=3), BadArgumentError, "not 3"),
        (AnswerJudgment("support:rag1", "1", "1", "ann", grade=-1), BadArgumentError, "not -1"),
        (AnswerJudgment("nugget:rag1", "1", "nope", "ann", grade=2), UnknownIdError, "no nugget 'nope'"),
        (AnswerJudgment("nugget:rag1", "2", "n1-1", "ann", grade=2), UnknownIdError, "no nugget 'n1-1'"),
        (
            AnswerJudgment("support:rag1", "1", "3", "ann", grade=2),
            UnknownIdError,
            "sentence 3 of the answer of run rag1 to topic 1 cites nothing to judge",
        ),
        (AnswerJudgment("nugget:rag1", "3", "n1-1", "ann", grade=2), UnknownIdError, "no answer to topic '3'"),
        (AnswerJudgment("nugget:zz", "1", "n1-1", "ann", grade=2), NotFoundError, "no answer run named 'zz'"),
        (AnswerJudgment("doc", "1", "d1", "ann", grade=2), BadArgumentError, "not an answer space"),
        (AnswerJudgment("nugget:rag1", "1", "n1-1", "ann", kind="unsure"), BadArgumentError, "not 'unsure'"),
        (AnswerJudgment("nugget:rag1", "1", "n1-1", "ann", kind=NOTE, note=" "), BadArgumentError, "some text"),
    ],
)
def test_a_bad_judgment_is_refused_and_nothing_is_written(store, nuggets, judgment, error, words):
    before = store.last_seq()
    with pytest.raises(error, match=words):
        record_answer_judgment(store, judgment)
    assert store.last_seq() == before


def test_the_item_shown_is_leased_so_a_second_annotator_gets_another(store, nuggets):
    clock = [T0]
    ann = AnswerJudgingSession(store, "ann", runs=("rag1",), now=lambda: clock[0])
    bob = AnswerJudgingSession(store, "bob", runs=("rag1",), now=lambda: clock[0])
    first = ann.advance()
    second = bob.advance()
    assert first is not None and second is not None and first.key != second.key
    assert first.key not in [i.key for i in answer_queue(store, "bob", "nuggets", runs=["rag1"], now=T0)]
    ann.judge(2)  # the decision releases the item; ann moves to the next free one
    assert ann.current is not None and ann.current.key not in (first.key, second.key)
    clock[0] = T0 + timedelta(minutes=16)  # bob's lease ended: his item is free for ann again
    assert second.key in [i.key for i in answer_queue(store, "ann", "nuggets", runs=["rag1"], now=clock[0])]
    assert bob.keep_claim(force=True)  # nobody took it meanwhile: renewed
    ann.close()
    assert store.live_claims("nugget:rag1", 0) == {(bob.current.topic_id, bob.current.item_id): {"bob"}}


def test_moving_on_when_every_other_item_is_taken_keeps_the_current_one_held(store, nuggets, monkeypatch):
    """`next_item` lets the current item go while it tries the others; when each is taken between the queue's
    read and its claim (another annotator was quicker), it holds the current one again, never shows it unheld."""
    ann = AnswerJudgingSession(store, "ann", runs=("rag1",), now=lambda: T0)
    first = ann.advance()
    held = answer_judging.hold_pair

    def quicker_annotator(store, assessor, space, topic, unit, **kwargs):
        if (space, topic, unit) != first.key:
            return None  # someone claimed it first
        return held(store, assessor, space, topic, unit, **kwargs)

    monkeypatch.setattr(answer_judging, "hold_pair", quicker_annotator)
    assert ann.next_item() == first
    assert store.live_claims("nugget:rag1", 0)[(first.topic_id, first.item_id)] == {"ann"}


def test_a_session_judges_skips_and_undoes_in_order(store, nuggets):
    session = AnswerJudgingSession(store, "ann", task="support", runs=("rag1",))
    assert session.advance().key == ("support:rag1", "1", "1")
    session.judge(2)
    assert session.current.key == ("support:rag1", "1", "2")
    session.skip()
    assert session.current.key == ("support:rag1", "2", "1")
    undone = session.undo()
    assert undone.kind == SKIP and session.current.key == ("support:rag1", "1", "2")
    with pytest.raises(LabelerError, match="not 5"):
        session.judge(5)

"""The answer judging session's view of a model: the set model's labels of the answer shown, only when the
campaign's model setting names it; decisions record it as `shown_model`, so model agreement splits the
shown and blind conditions as for relevance."""

from __future__ import annotations

import pytest
from answers.judged_answers import add_judged_answers
from support import new_workbench

from labeler.ids import InvalidIdError
from labeler.judgments.log import GRADE, MODEL
from labeler.store import Store
from labeler.workbench.agreement import model_agreement_report
from labeler.workbench.answer_judging import AnswerJudgingSession, AnswerJudgment, record_answer_judgment
from labeler.workbench.assignments import set_show_model
from labeler.workbench.record_judgments import Judgment, record_judgment


@pytest.fixture
def judged(tmp_path):
    """`(store, topic -> nugget ids)`: run rag1's judged answers, with model `lex`'s assignments of topic 1's
    nuggets (2 and 0) and its support grade of sentence 1 (1)."""
    with Store(new_workbench(tmp_path / "w.db")) as store:
        found = add_judged_answers(store, ("rag1",))
        n1, n2 = found["1"]
        for space, item, grade in (("nugget:rag1", n1, 2), ("nugget:rag1", n2, 0), ("support:rag1", "1", 1)):
            record_judgment(store, Judgment("1", item, "lex", grade=grade, unit=space, source=MODEL, model="lex"))
        yield store, found


def grades(session):
    return {item: (label.model, label.grade) for item, label in session.model_labels.items()}


def people(store, space):
    return [(e.unit_id, e.shown_model) for e in store.unit_events(space) if e.kind == GRADE and e.source != MODEL]


def test_blind_by_default_nothing_of_the_model_is_held_or_recorded(judged):
    store, nuggets = judged
    session = AnswerJudgingSession(store, "ann", topic="1")
    session.advance()
    assert session.model_labels == {} and session.shown_model is None
    session.judge(2)
    assert people(store, "nugget:rag1") == [(nuggets["1"][0], None)]


def test_the_set_models_assignments_of_every_nugget_are_held_and_each_decision_records_it(judged):
    store, nuggets = judged
    n1, n2 = nuggets["1"]
    set_show_model(store, "lex", by="lead")
    session = AnswerJudgingSession(store, "ann", topic="1")
    assert session.advance().item_id == n1
    assert grades(session) == {n1: ("lex", 2), n2: ("lex", 0)} and session.shown_model == "lex"
    session.judge(1)
    assert session.current.item_id == n2 and grades(session) == {n1: ("lex", 2), n2: ("lex", 0)}
    session.judge(0)
    assert people(store, "nugget:rag1") == [(n1, "lex"), (n2, "lex")]
    report = model_agreement_report(store, "lex", unit="nugget:rag1")
    assert {name: block.pairs for name, block in report.conditions.items()}["shown"] == 2


def test_the_support_session_holds_the_models_grade_of_the_sentence_shown_only(judged):
    store, nuggets = judged
    set_show_model(store, "lex", by="lead")
    session = AnswerJudgingSession(store, "ann", task="support", topic="1")
    assert session.advance().item_id == "1"
    assert grades(session) == {"1": ("lex", 1)}
    session.judge(2)
    assert session.current.item_id == "2" and session.model_labels == {} and session.shown_model is None
    session.judge(0)
    assert people(store, "support:rag1") == [("1", "lex"), ("2", None)]


def test_setting_another_model_or_none_shows_nothing_of_this_one(judged):
    store, nuggets = judged
    set_show_model(store, "gpt", by="lead")
    session = AnswerJudgingSession(store, "ann", topic="1")
    session.advance()
    assert session.model_labels == {}
    set_show_model(store, "lex", by="lead")  # the model with labels here: shown ...
    session.next_item()
    assert session.model_labels and session.shown_model == "lex"
    set_show_model(store, None, by="lead")  # ... until the campaign names none
    session.next_item()
    assert session.model_labels == {} and session.shown_model is None


def test_a_shown_model_that_is_no_id_is_refused_and_nothing_is_written(judged):
    store, nuggets = judged
    before = list(store.unit_events("nugget:rag1"))
    judgment = AnswerJudgment("nugget:rag1", "1", nuggets["1"][0], "ann", grade=2, shown_model="a b")
    with pytest.raises(InvalidIdError, match="shown model"):
        record_answer_judgment(store, judgment)
    assert list(store.unit_events("nugget:rag1")) == before

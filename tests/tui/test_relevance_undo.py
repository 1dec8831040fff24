"""The relevance undo (`labeler judgments undo`, the judging screen's session) retracts relevance decisions only.

An assessor who judged a unit, then assigned nuggets, judged a citation's support and wrote a nugget,
undoes the unit's judgment: the answer judgments and the nugget versions stand, read back from the log.
"""

from __future__ import annotations

import pytest
from answers.judged_answers import add_judged_answers
from support import Cli

from labeler.errors import NotFoundError
from labeler.judgments.log import GRADE, RETRACT
from labeler.store import Store
from labeler.workbench.answer_judging import AnswerJudgment, record_answer_judgment
from labeler.workbench.answer_labels import answer_labels, nuggets_now
from labeler.workbench.nugget_edits import add_nugget
from labeler.workbench.read_labels import topic_labels
from labeler.workbench.session import JudgingSession


def _answer_work(store: Store) -> str:
    """ann's answer judgments and a nugget of hers, made after her relevance judgment; the nugget's id."""
    one = add_judged_answers(store)["1"]
    record_answer_judgment(store, AnswerJudgment("nugget:rag1", "1", one[0], "ann", grade=2))
    record_answer_judgment(store, AnswerJudgment("support:rag1", "1", "1", "ann", grade=1))
    return add_nugget(store, "1", "weevils spoil stored grain", "okay", assessor="ann").nuggets[0].nugget_id


def _answer_state(store: Store) -> tuple[object, ...]:
    """What ann's answer work holds now: her assignment, her support grade, the topic's nuggets."""
    assigned = {k: v.grades for k, v in answer_labels(store, "nugget:rag1", "1").items()}
    supported = {k: v.grades for k, v in answer_labels(store, "support:rag1", "1").items()}
    return assigned, supported, [(n.nugget_id, n.text, n.versions) for n in nuggets_now(store, "1")]


def _anns_grade(store: Store, unit_id: str) -> bool:
    state = topic_labels(store, "doc", "1").get(unit_id)
    return state is not None and "ann" in state.grades


def _retracted_units(store: Store) -> list[str]:
    return [e.unit for e in store.recent_events("ann", limit=50) if e.kind == RETRACT]


def test_the_judging_sessions_undo_leaves_answer_judgments_and_nuggets(judging_db):
    with Store(judging_db) as store:
        session = JudgingSession(store, "ann")
        first = session.start("1")
        assert first is not None
        judged = session.judge(2)
        mine = _answer_work(store)
        before = _answer_state(store)
        assert mine in [n for n, _, _ in before[2]] and before[0] and before[1]
        undone = session.undo()
        assert (undone.event_id, undone.kind, undone.unit) == (judged.event_id, GRADE, "doc")
        assert not _anns_grade(store, first.unit_id)
        assert _answer_state(store) == before
        assert _retracted_units(store) == ["doc"]
        with pytest.raises(NotFoundError):  # nothing left to undo: the answer work is not the session's
            session.undo()
        assert _answer_state(store) == before and _retracted_units(store) == ["doc"]


def test_judgments_undo_leaves_answer_judgments_and_nuggets(judging_db):
    cli = Cli(judging_db)
    cli("judgments", "add", "1", "d1", "2", "--assessor", "ann")
    with Store(judging_db) as store:
        assert _anns_grade(store, "d1")
    with Store(judging_db) as store:
        _answer_work(store)
        before = _answer_state(store)
    undone = cli.json("judgments", "undo", "--assessor", "ann")
    assert (undone["kind"], undone["unit_id"]) == ("grade", "d1")
    with Store(judging_db) as store:
        assert _answer_state(store) == before
        assert _retracted_units(store) == ["doc"]
        assert not _anns_grade(store, "d1")
    refused = cli("judgments", "undo", "--assessor", "ann", expect=1)
    assert refused.stderr.startswith("Error: nothing to undo") and refused.stderr.count("\n") == 1
    with Store(judging_db) as store:
        assert _answer_state(store) == before and _retracted_units(store) == ["doc"]

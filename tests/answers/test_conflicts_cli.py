"""`labeler judgments conflicts`: the pairs to adjudicate, relevance and answer judgments alike."""

from __future__ import annotations

import pytest
from answers.judged_answers import add_judged_answers
from support import Cli, new_workbench

from labeler.store import Store
from labeler.workbench.answer_judging import AnswerJudgment, record_answer_judgment


@pytest.fixture
def cli(tmp_path):
    path = new_workbench(tmp_path / "w.db")
    with Store(path) as store:
        ids = add_judged_answers(store)
        for assessor, grade in (("ann", 2), ("bob", 1)):
            record_answer_judgment(store, AnswerJudgment("nugget:rag1", "1", ids["1"][0], assessor, grade=grade))
            record_answer_judgment(store, AnswerJudgment("nugget:rag1", "1", ids["1"][1], assessor, grade=0))
    return Cli(path), ids


def test_an_answer_conflict_is_listed_by_label_name_then_settled(cli):
    run, ids = cli
    listed = run.json("judgments", "conflicts", "--unit", "nugget:rag1")
    assert [(c["topic"], c["unit_id"]) for c in listed] == [("1", ids["1"][0])]
    assert [(g["assessor"], g["grade"], g["kind"]) for g in listed[0]["grades"]] == [
        ("ann", 2, "grade"),
        ("bob", 1, "grade"),
    ]
    text = run("judgments", "conflicts", "--unit", "nugget:rag1").stdout
    assert "ann support, bob partial_support" in text
    run("judgments", "adjudicate", "1", ids["1"][0], "2", "--unit", "nugget:rag1", "--assessor", "lead")
    assert run.json("judgments", "conflicts", "--unit", "nugget:rag1") == []
    assert "No pairs in conflict." in run("judgments", "conflicts", "--unit", "nugget:rag1").stderr


def test_relevance_conflicts_are_listed_in_their_space(cli):
    run, _ = cli
    run("judgments", "add", "1", "d1", "3", "--assessor", "ann")
    run("judgments", "add", "1", "d1", "0", "--assessor", "bob")
    listed = run.json("judgments", "conflicts", "--topic", "1")
    assert [(c["unit"], c["unit_id"]) for c in listed] == [("doc", "d1")]
    assert run.json("judgments", "conflicts", "--topic", "2") == []


def test_the_log_shows_each_events_space_and_a_nugget_versions_text(cli):
    run, _ = cli
    text = run("judgments", "log", "--limit", "50").stdout
    assert "create: armyworm eats maize leaves (vital)" in text
    assert "nugget:rag1" in text and "nuggets" in text
    assert '{"action"' not in text


def test_an_uncited_sentence_is_refused_on_every_road(cli):
    """`judgments add --unit support:RUN` follows the judging screen's rule: only a cited sentence is judged."""
    run, _ = cli
    refused = run("judgments", "add", "1", "3", "2", "--unit", "support:rag1", "--assessor", "ann", expect=1)
    assert "sentence 3 of the answer of run rag1 to topic 1 cites nothing to judge" in refused.stderr
    run("judgments", "add", "1", "1", "2", "--unit", "support:rag1", "--assessor", "ann")

"""Nugget versions and answers in the workbench: what is written is read back, and the log stays one chain."""

from __future__ import annotations

import json
import sqlite3

import pytest
from support import new_workbench

from labeler.answers.model import Answer, AnswerRunInfo, Sentence
from labeler.answers.nuggets import (
    CREATE,
    DELETE,
    DRAFTED,
    EDIT,
    EDITED,
    MERGE,
    OKAY,
    VITAL,
    WRITTEN,
    NuggetVersion,
    parse_version,
)
from labeler.answers.spaces import NUGGETS, answer_space, assignment_space, is_answer_unit, support_space
from labeler.errors import LabelerError
from labeler.judgments.log import Event
from labeler.store import Store
from labeler.workbench.answer_labels import NuggetChange, nugget_history, nuggets_now, record_nugget_changes
from labeler.workbench.check import check_file


@pytest.fixture
def store(tmp_path):
    with Store(new_workbench(tmp_path / "w.db")) as opened:
        yield opened


def _version(text: str, importance: str = VITAL, rank: int = 1, **more) -> NuggetVersion:
    return NuggetVersion(
        action=more.pop("action", CREATE),
        text=text,
        importance=importance,
        rank=rank,
        origin=more.pop("origin", WRITTEN),
        **more,
    )


def test_spaces_are_told_apart():
    assert answer_space(assignment_space("r1")).kind == "nugget"
    assert answer_space(support_space("r1")).run == "r1"
    assert answer_space("doc") is None and answer_space("chunk:w30") is None and answer_space("nugget:") is None
    assert is_answer_unit(NUGGETS) and not is_answer_unit("doc")


def test_a_version_round_trips_through_its_note():
    version = _version("Paris is the capital", sources=("d1", "d2"), draft="nabc", merged_from=("n1",))
    assert parse_version(version.note()) == version
    assert parse_version('{"action": "create"}') == "a nugget event's 'text' is missing or not text"
    assert parse_version("[1]") == "a nugget event's note is not a JSON object"
    assert "importance" in str(parse_version(_version("x", importance="huge").note()))


def test_the_latest_version_is_the_nugget_and_history_is_kept(store):
    record_nugget_changes(
        store,
        [
            NuggetChange("1", "n1", _version("Paris is the capital"), "ann"),
            NuggetChange("1", "n2", _version("It has 2M people", OKAY, 2), "ann"),
        ],
    )
    record_nugget_changes(store, [NuggetChange("1", "n1", _version("Paris is France's capital", action=EDIT), "bob")])
    now = nuggets_now(store, "1")
    assert [(n.nugget_id, n.text, n.importance, n.assessor, n.versions) for n in now] == [
        ("n1", "Paris is France's capital", VITAL, "bob", 2),
        ("n2", "It has 2M people", OKAY, "ann", 1),
    ]
    assert len(nugget_history(store, "1", "n1")) == 2
    record_nugget_changes(store, [NuggetChange("1", "n2", _version("It has 2M people", OKAY, 2, action=DELETE), "ann")])
    assert [n.nugget_id for n in nuggets_now(store, "1")] == ["n1"]
    assert [n.nugget_id for n in nuggets_now(store, "1", include_deleted=True)] == ["n1", "n2"]
    assert store.unit_spaces() == []  # the answer spaces are not relevance spaces
    assert store.answer_units() == [NUGGETS]
    assert not list(store.log_chain_problems())


def test_model_drafts_are_kept_apart_from_peoples_nuggets(store):
    record_nugget_changes(
        store,
        [
            NuggetChange("1", "m1", _version("Draft fact", origin=DRAFTED), "m", source="model", model="gpt"),
            NuggetChange("1", "n1", _version("Edited fact", origin=EDITED, draft="m1"), "ann"),
        ],
    )
    assert [n.nugget_id for n in nuggets_now(store, "1")] == ["n1"]
    assert [n.nugget_id for n in nuggets_now(store, "1", model="gpt")] == ["m1"]
    merged = _version("Merged", action=MERGE, merged_into="n1")
    record_nugget_changes(store, [NuggetChange("1", "m1", merged, "m", source="model", model="gpt")])
    assert nuggets_now(store, "1", model="gpt") == []


def test_a_bad_change_refuses_the_whole_set(store):
    before = store.event_count()
    with pytest.raises(LabelerError, match="importance"):
        record_nugget_changes(
            store,
            [
                NuggetChange("1", "n1", _version("fine"), "ann"),
                NuggetChange("1", "n2", _version("bad", importance="meh"), "ann"),
            ],
        )
    with pytest.raises(LabelerError, match="names its model"):
        record_nugget_changes(store, [NuggetChange("1", "n1", _version("fine"), "ann", source="model")])
    assert store.event_count() == before


def test_an_answer_run_is_read_back_whole(store):
    answers = [
        Answer("r1", "2", (Sentence("B.", ("d2",)),), ("d2",), line=1, original='{"topic_id":"2"}'),
        Answer(
            "r1",
            "1",
            (Sentence("A.", ("d1", "d3")), Sentence("No cite.")),
            ("d1", "d3"),
            "q one",
            12,
            2,
            '{"topic_id":"1"}',
        ),
    ]
    info = AnswerRunInfo("r1", "a.jsonl", "0" * 64, "trec-rag-2024", "doc", "2026-12-02T00:00:00Z", 2, 2)
    with store.transaction():
        assert store.insert_answer_run(info, answers) == 2
    assert store.answer_run("r1") == info
    assert list(store.answers("r1")) == sorted(answers, key=lambda a: a.topic_id)
    assert [a.topic_id for a in store.answers_in_file_order("r1")] == ["2", "1"]
    assert store.answer("r1", "1").sentences[0].first_citation == "d1"
    assert store.answer_topics() == {"1": ["r1"], "2": ["r1"]}
    with store.transaction():
        assert store.retire_answer_run("r1", retired="2026-12-02T01:00:00Z", reason="old")
        assert not store.retire_answer_run("r1", retired="2026-12-02T02:00:00Z", reason="again")
    assert store.answer_run("r1").retired_reason == "old"


def test_check_holds_answer_events_to_their_own_rules(tmp_path):
    """A nugget event must hold a valid version; an answer grade is on the three labels, not the workbench's scale."""
    path = new_workbench(tmp_path / "c.db")
    with Store(path) as store:
        record_nugget_changes(store, [NuggetChange("1", "n1", _version("A fact"), "ann")])
        with store.transaction():
            store.append_event(
                Event("", 0, "1", "n1", "grade", "ann", "2026-12-02T00:00:00Z", grade=2, unit=assignment_space("r1"))
            )
    assert check_file(path).ok
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET note = '{\"text\": 1}' WHERE unit = 'nuggets'")
    conn.execute("UPDATE events SET grade = 3 WHERE unit = 'nugget:r1'")
    conn.execute(
        "INSERT INTO events (event_id, topic_id, unit, unit_id, kind, grade, assessor, source, time, clock) "
        "VALUES ('e-negative', '1', 'support:r1', '1', 'grade', -1, 'ann', 'human', '2026-12-02', 1)"
    )
    conn.commit()
    conn.close()
    printed = json.dumps(check_file(path).to_json())
    assert "a nugget event's 'action' is missing or not text" in printed
    assert "grade 3 is not on the scale" in printed
    assert "e-negative (grade): grade -1 is not on the scale" in printed  # no "pooled, not judged" for an answer

"""Writing nuggets from a topic's relevant units: each use case's versions in the log, and what it refuses."""

from __future__ import annotations

import json

import pytest
from support import new_workbench

from labeler.answers.nuggets import CREATE, DRAFTED, EDITED, MERGE, OKAY, VITAL, WRITTEN, NuggetVersion
from labeler.errors import BadArgumentError, ConflictError, LabelerError, UnknownIdError
from labeler.store import Store
from labeler.workbench.answer_labels import NuggetChange, nugget_history, nuggets_now, record_nugget_changes
from labeler.workbench.corpus import import_corpus
from labeler.workbench.nugget_edits import add_nugget, delete_nugget, edit_nugget, merge_nuggets, move_nugget
from labeler.workbench.nugget_writing import nugget_desk
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.topics import import_topics

DOCS = {
    "d1": ("Maize pests", "Fall armyworm caterpillars eat maize leaves."),
    "d2": ("Stored grain", "Weevils damage stored maize grain."),
    "d3": ("Cheese", "Cheese is made from milk."),
}


@pytest.fixture
def store(tmp_path):
    (tmp_path / "corpus.jsonl").write_text(
        "".join(json.dumps({"id": k, "title": t, "text": x}) + "\n" for k, (t, x) in DOCS.items())
    )
    (tmp_path / "topics.tsv").write_text("1\tmaize pests\tHow to control pests of maize?\tNames a pest.\n")
    with Store(new_workbench(tmp_path / "w.db")) as opened:
        import_corpus(opened, tmp_path / "corpus.jsonl")
        import_topics(opened, tmp_path / "topics.tsv")
        for unit_id, grade in (("d1", 2), ("d2", 1), ("d3", 0)):
            record_judgment(opened, Judgment(topic_id="1", unit_id=unit_id, assessor="ann", grade=grade))
        yield opened


def _texts(store, **more):
    return [(n.text, n.importance, n.origin) for n in nuggets_now(store, "1", **more)]


def test_the_desk_holds_the_relevant_units_with_their_texts(store):
    desk = nugget_desk(store, "1")
    assert [(u.unit_id, u.label, u.text) for u in desk.units] == [
        ("d1", 2, DOCS["d1"][1]),
        ("d2", 1, DOCS["d2"][1]),
    ]
    assert desk.title == "maize pests" and desk.nuggets == () and desk.drafts == ()


def test_written_edited_reranked_and_deleted_nuggets_are_versions_in_the_log(store):
    first = add_nugget(store, "1", "  armyworm\n eats maize ", VITAL, assessor="ann", sources=("d1",)).nuggets[0]
    second = add_nugget(store, "1", "weevils damage grain", VITAL, assessor="bob", sources=("d2",)).nuggets[0]
    assert (first.text, first.rank, first.sources, first.origin) == ("armyworm eats maize", 1, ("d1",), WRITTEN)
    assert second.rank == 2 and second.assessor == "bob"
    edit_nugget(store, "1", first.nugget_id, assessor="bob", text="fall armyworm eats maize")
    edit_nugget(store, "1", second.nugget_id, assessor="ann", importance=OKAY)
    assert _texts(store) == [("fall armyworm eats maize", VITAL, WRITTEN), ("weevils damage grain", OKAY, WRITTEN)]
    history = nugget_history(store, "1", first.nugget_id)
    assert [(e.assessor, json.loads(e.note)["action"]) for e in history] == [("ann", "create"), ("bob", "edit")]
    assert json.loads(history[-1].note)["sources"] == ["d1"]
    delete_nugget(store, "1", second.nugget_id, assessor="ann")
    assert [n.nugget_id for n in nuggets_now(store, "1")] == [first.nugget_id]
    assert json.loads(nugget_history(store, "1", second.nugget_id)[-1].note)["action"] == "delete"


def test_moving_a_nugget_swaps_ranks_within_its_importance(store):
    ids = [add_nugget(store, "1", f"fact {i}", VITAL, assessor="ann").nuggets[0].nugget_id for i in range(3)]
    add_nugget(store, "1", "an okay fact", OKAY, assessor="ann")
    moved = move_nugget(store, "1", ids[2], -1, assessor="ann").nuggets
    assert [n.nugget_id for n in moved] == [ids[0], ids[2], ids[1]]
    assert [n.rank for n in moved] == [1, 2, 3]
    before = len(store.recent_events(limit=100))
    at_top = move_nugget(store, "1", ids[0], -1, assessor="ann")
    assert [n.nugget_id for n in at_top.nuggets] == [ids[0], ids[2], ids[1]] and not at_top.changed
    assert len(store.recent_events(limit=100)) == before  # at the top: nothing logged


def test_merging_keeps_one_and_records_where_the_others_went(store):
    keep = add_nugget(store, "1", "armyworm eats maize", VITAL, assessor="ann", sources=("d1",)).nuggets[0]
    other = add_nugget(store, "1", "caterpillars eat maize", OKAY, assessor="ann", sources=("d2",)).nuggets[0]
    kept = merge_nuggets(store, "1", keep.nugget_id, (other.nugget_id,), assessor="bob").nuggets[0]
    assert kept.sources == ("d1", "d2") and kept.assessor == "bob"
    assert [n.nugget_id for n in nuggets_now(store, "1")] == [keep.nugget_id]
    gone = json.loads(nugget_history(store, "1", other.nugget_id)[-1].note)
    assert gone["action"] == MERGE and gone["merged_into"] == keep.nugget_id
    took = json.loads(nugget_history(store, "1", keep.nugget_id)[-1].note)
    assert took["action"] == MERGE and took["merged_from"] == [other.nugget_id]


def test_a_post_edited_draft_is_a_new_nugget_and_the_draft_stays_the_models(store):
    draft = NuggetVersion(CREATE, "armyworm pest", VITAL, 1, DRAFTED, ("d1",))
    record_nugget_changes(store, [NuggetChange("1", "ndraft", draft, "ann", source="model", model="gpt")])
    assert nugget_desk(store, "1", drafts_from="gpt").drafts[0].nugget_id == "ndraft"
    edited = edit_nugget(store, "1", "ndraft", assessor="ann", text="fall armyworm is a maize pest").nuggets[0]
    assert (edited.origin, edited.draft, edited.sources, edited.source) == (EDITED, "ndraft", ("d1",), "human")
    assert edited.nugget_id != "ndraft"
    assert _texts(store, model="gpt") == [("armyworm pest", VITAL, DRAFTED)]
    assert _texts(store) == [("fall armyworm is a maize pest", VITAL, EDITED)]
    again = edit_nugget(store, "1", "ndraft", assessor="ann", text="armyworm, a maize pest").nuggets[0]
    assert (again.nugget_id, again.draft, again.versions) == (edited.nugget_id, "ndraft", 2)  # the same nugget
    assert _texts(store) == [("armyworm, a maize pest", VITAL, EDITED)]
    assert _texts(store, model="gpt") == [("armyworm pest", VITAL, DRAFTED)]
    with pytest.raises(UnknownIdError, match="no nugget 'nwhat'"):  # neither a nugget nor a draft of the topic
        edit_nugget(store, "1", "nwhat", assessor="ann", text="again")


def test_a_text_the_topic_holds_already_is_refused_when_written_or_post_edited(store):
    draft = NuggetVersion(CREATE, "armyworm pest", VITAL, 1, DRAFTED, ("d1",))
    record_nugget_changes(store, [NuggetChange("1", "ndraft", draft, "ann", source="model", model="gpt")])
    add_nugget(store, "1", "armyworm eats maize", VITAL, assessor="ann")
    _refused(
        store, lambda: add_nugget(store, "1", " armyworm eats\nmaize", OKAY, assessor="bob"), ConflictError, "already"
    )
    _refused(
        store,
        lambda: edit_nugget(store, "1", "ndraft", assessor="bob", text="armyworm eats maize"),
        ConflictError,
        "already",
    )


def _refused(store, call, error, match):
    before = [e.event_id for e in store.recent_events(limit=100)]
    with pytest.raises(error, match=match):
        call()
    assert [e.event_id for e in store.recent_events(limit=100)] == before


def test_bad_requests_are_refused_and_log_nothing(store):
    one = add_nugget(store, "1", "armyworm eats maize", VITAL, assessor="ann").nuggets[0].nugget_id
    _refused(store, lambda: add_nugget(store, "1", "x", "huge", assessor="ann"), BadArgumentError, "vital")
    _refused(store, lambda: add_nugget(store, "1", " \n ", VITAL, assessor="ann"), LabelerError, "empty")
    _refused(store, lambda: edit_nugget(store, "1", one, assessor="ann", text=""), LabelerError, "empty")
    _refused(store, lambda: edit_nugget(store, "1", one, assessor="ann", importance="x"), BadArgumentError, "okay")
    _refused(store, lambda: merge_nuggets(store, "1", one, (one,), assessor="ann"), LabelerError, "itself")
    _refused(store, lambda: merge_nuggets(store, "1", one, (), assessor="ann"), LabelerError, "at least one")
    _refused(store, lambda: merge_nuggets(store, "1", one, ("nope",), assessor="ann"), UnknownIdError, "nope")
    _refused(store, lambda: delete_nugget(store, "1", "nope", assessor="ann"), UnknownIdError, "no nugget 'nope'")
    _refused(store, lambda: move_nugget(store, "1", "nope", 1, assessor="ann"), UnknownIdError, "nope")
    _refused(store, lambda: add_nugget(store, "9", "x", VITAL, assessor="ann"), UnknownIdError, "topic")

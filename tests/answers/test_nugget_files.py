"""nuggetizer's nugget and assignment files in and out of the workbench, and nuggets edited by hand."""

from __future__ import annotations

import json

import pytest
from answers.answer_support import add_answers
from answers.nuggetizer_files import NUGGETS, TOPICS, assigned, jsonl
from nuggetizer.core.metrics import calculate_global_metrics
from support import new_workbench

from labeler.answers.nuggets import DELETE, DRAFTED, EDITED, IMPORTED, MERGE, WRITTEN
from labeler.answers.spaces import assignment_space
from labeler.errors import BadArgumentError, ConflictError, LabelerError, NotFoundError, UnknownIdError
from labeler.formats.nuggets import NuggetFormatError, read_assignments, read_nuggets
from labeler.judgments.log import MODEL
from labeler.models import Topic
from labeler.store import Store
from labeler.workbench.answer_labels import answer_labels, nugget_history, nuggets_now
from labeler.workbench.nugget_edits import add_nugget, delete_nugget, edit_nugget, merge_nuggets
from labeler.workbench.nugget_files import (
    export_assignments,
    export_nuggets,
    import_assignments,
    import_nuggets,
    list_nuggets,
)


@pytest.fixture
def store(tmp_path):
    with Store(new_workbench(tmp_path / "w.db")) as opened:
        with opened.transaction():
            opened.put_topics([Topic(t, title) for t, title in TOPICS.items()], "2026-12-02T00:00:00Z")
        yield opened


@pytest.fixture
def nugget_file(write):
    return write("nuggets.jsonl", jsonl(NUGGETS))


def test_import_then_export_gives_the_file_back(store, nugget_file, write):
    result = import_nuggets(store, nugget_file, assessor="nist")
    assert (result.topics, result.nuggets, result.unchanged) == (2, 5, 0)
    held = nuggets_now(store)
    assert [(n.topic_id, n.text, n.rank, n.origin, n.source) for n in held][:2] == [
        ("1", "Scouting finds pests early", 1, IMPORTED, "import"),
        ("1", "Biological control uses natural enemies", 2, IMPORTED, "import"),
    ]
    exported = export_nuggets(store)
    assert [json.loads(line) for line in exported.text.splitlines()] == NUGGETS
    assert (exported.topics, exported.nuggets) == (2, 5)
    assert [list(json.loads(line)) for line in exported.text.splitlines()][0] == ["query", "qid", "nuggets"]


def test_a_file_listing_an_okay_nugget_before_a_vital_one_comes_back_in_its_order(store, write):
    mixed = [
        dict(
            NUGGETS[0],
            nuggets=[
                {"text": "Airtight storage kills weevils", "importance": "okay"},
                {"text": "Scouting finds pests early", "importance": "vital"},
                {"text": "Traps catch moths", "importance": "okay"},
                {"text": "Biological control uses natural enemies", "importance": "vital"},
            ],
        )
    ]
    import_nuggets(store, write("mixed.jsonl", jsonl(mixed)), assessor="nist")
    assert [json.loads(line) for line in export_nuggets(store).text.splitlines()] == mixed
    listed = list_nuggets(store, "1").nuggets  # a list people read: vital first, then by rank
    assert [(n.importance, n.rank) for n in listed] == [("vital", 2), ("vital", 4), ("okay", 1), ("okay", 3)]


def test_importing_the_same_nuggets_again_adds_nothing(store, nugget_file):
    import_nuggets(store, nugget_file, assessor="nist")
    events = len(list(store.unit_events("nuggets")))
    again = import_nuggets(store, nugget_file, assessor="nist")
    assert (again.nuggets, again.unchanged) == (0, 5)
    assert len(list(store.unit_events("nuggets"))) == events


def test_a_text_held_at_another_rank_is_refused(store, nugget_file, write):
    import_nuggets(store, nugget_file, assessor="nist")
    moved = [dict(NUGGETS[0], nuggets=list(reversed(NUGGETS[0]["nuggets"])))]
    with pytest.raises(ConflictError, match="holds nugget .* with this text already") as caught:
        import_nuggets(store, write("moved.jsonl", jsonl(moved)), assessor="nist")
    assert caught.value.line == 1


def test_a_models_nuggets_are_drafts_kept_apart(store, nugget_file):
    result = import_nuggets(store, nugget_file, assessor="nist", source=MODEL, model="gpt")
    assert result.nuggets == 5
    assert nuggets_now(store) == []
    drafts = list_nuggets(store, topic="1", model="gpt").nuggets
    assert [(d.origin, d.source, d.model) for d in drafts] == [(DRAFTED, MODEL, "gpt")] * 3
    assert export_nuggets(store).text == ""


def test_two_copies_importing_one_file_hold_the_same_nuggets(store, nugget_file, tmp_path):
    """A nugget read from a file has the id its topic and text give: copies agree, a model's draft stands apart."""
    store.backup_to(tmp_path / "copy.db")
    import_nuggets(store, nugget_file, assessor="nist")
    with Store(tmp_path / "copy.db") as copy:
        import_nuggets(copy, nugget_file, assessor="nist")
        assert [n.nugget_id for n in nuggets_now(copy)] == [n.nugget_id for n in nuggets_now(store)]
        import_nuggets(copy, nugget_file, assessor="nist", source=MODEL, model="gpt")
        drafts = {n.nugget_id for n in nuggets_now(copy, model="gpt")}
        assert len(drafts) == 5 and not drafts & {n.nugget_id for n in nuggets_now(copy)}


def test_an_unknown_topic_is_refused_at_its_line_and_nothing_is_logged(store, write):
    rows = [NUGGETS[0], dict(NUGGETS[1], qid="9")]
    with pytest.raises(UnknownIdError, match="topic 9 is not a topic") as caught:
        import_nuggets(store, write("n.jsonl", jsonl(rows)), assessor="nist")
    assert caught.value.line == 2 and caught.value.hints[0].action == "import_topics"
    assert nuggets_now(store) == []


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('{"qid": "1", "query": "q", "nuggets": []}\n{"qid": "1"', 2, "invalid JSON"),
        ('{"qid": "1", "nuggets": []}\n', 1, "missing key(s) 'query'"),
        ('{"qid": "1", "query": "q", "nuggets": [{"text": "a", "importance": "failed"}]}\n', 1, "importance"),
        ('{"qid": "1", "query": "q", "nuggets": [{"text": "a"}]}\n', 1, "lacks 'importance'"),
        ('{"qid": "a b", "query": "q", "nuggets": []}\n', 1, "white space"),
        ('{"qid": "1", "query": "q", "nuggets": []}\n{"qid": "1", "query": "q", "nuggets": []}\n', 2, "twice"),
        (
            '{"qid": "1", "query": "q", "nuggets": [{"text": "a", "importance": "vital"}, '
            '{"text": "a", "importance": "okay"}]}\n',
            1,
            "has the text of nugget 1",
        ),
        ('{"qid": "1", "query": "q", "nuggets": [{"text": " ", "importance": "vital"}]}\n', 1, "empty"),
        ('{"qid": "1", "query": "q", "nuggets": {}}\n', 1, "must be an array"),
    ],
)
def test_a_bad_nugget_line_is_named(write, text, line, fragment):
    path = write("bad.jsonl", text)
    with pytest.raises(NuggetFormatError) as caught:
        list(read_nuggets(path))
    assert caught.value.line == line and fragment in caught.value.reason


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"run_id": "r 1"}, "white space"),
        ({"response_length": "5"}, "response_length"),
        ({"nuggets": [{"text": "a", "importance": "vital", "assignment": "yes"}]}, "assignment must be one of"),
        ({"nuggets": [{"text": "a", "importance": "vital"}]}, "lacks 'assignment'"),
    ],
)
def test_a_bad_assignment_line_is_named(write, change, fragment):
    path = write("bad.jsonl", jsonl([dict(assigned("1", "r1", ["support"] * 3), **change)]))
    with pytest.raises(NuggetFormatError) as caught:
        list(read_assignments(path))
    assert caught.value.line == 1 and fragment in caught.value.reason


def test_one_answer_given_twice_is_refused(write):
    row = assigned("1", "r1", ["support"] * 3)
    with pytest.raises(NuggetFormatError, match="run r1 to topic 1 appears twice"):
        list(read_assignments(write("a.jsonl", jsonl([row, row]))))


def _answered(store, runs=("r1", "r2")):
    for run in runs:
        add_answers(store, run, {"1": [("Scout the fields.", ["d1"])], "2": [("Give calcium.", ["d2"])]})


def test_assignments_round_trip_and_nuggetizer_scores_the_export(store, nugget_file, write):
    import_nuggets(store, nugget_file, assessor="nist")
    _answered(store)
    rows = [
        assigned("1", "r1", ["support", "partial_support", "not_support"]),
        assigned("2", "r1", ["support", "support"]),
        assigned("1", "r2", ["not_support", "not_support", "support"]),
        assigned("2", "r2", ["partial_support", "not_support"]),
    ]
    result = import_assignments(store, write("a.jsonl", jsonl(rows)), assessor="nist")
    assert (result.runs, result.answers, result.assignments) == (("r1", "r2"), 4, 10)
    first = nuggets_now(store, "1")[0]
    assert answer_labels(store, assignment_space("r1"), "1")[first.nugget_id].label == 2
    exported = export_assignments(store)
    records = [json.loads(line) for line in exported.text.splitlines()]
    assert [r["nuggets"] for r in records] == [r["nuggets"] for r in rows]
    assert [(r["qid"], r["run_id"], r["query"]) for r in records] == [(r["qid"], r["run_id"], r["query"]) for r in rows]
    scores = calculate_global_metrics(records)
    assert scores["strict_vital_score"] == pytest.approx((1 / 2 + 1 + 0 + 0) / 4)
    assert scores["all_score"] == pytest.approx((1.5 / 3 + 1 + 1 / 3 + 0.5 / 2) / 4)
    again = import_assignments(store, write("a.jsonl", jsonl(rows)), assessor="nist")
    assert (again.assignments, again.unchanged) == (0, 10)


def test_an_answer_with_a_nugget_unassigned_is_left_out_and_named(store, nugget_file, write):
    import_nuggets(store, nugget_file, assessor="nist")
    _answered(store, runs=("r1",))
    import_assignments(store, write("a.jsonl", jsonl([assigned("2", "r1", ["support", "support"])])), assessor="nist")
    exported = export_assignments(store)
    assert [json.loads(line)["qid"] for line in exported.text.splitlines()] == ["2"]
    assert exported.left_out == ("run r1 topic 1: 3 of 3 nuggets not assigned",)


def test_a_models_assignments_never_count_as_peoples(store, nugget_file, write):
    import_nuggets(store, nugget_file, assessor="nist")
    _answered(store, runs=("r1",))
    path = write("a.jsonl", jsonl([assigned("2", "r1", ["support", "support"])]))
    result = import_assignments(store, path, assessor="nist", source=MODEL, model="gpt")
    assert result.assignments == 2
    states = answer_labels(store, assignment_space("r1"), "2").values()
    assert [(s.label, s.grades) for s in states] == [(None, {})] * 2
    assert export_assignments(store).text == ""
    assert import_assignments(store, path, assessor="nist", source=MODEL, model="gpt").unchanged == 2


@pytest.mark.parametrize(
    ("row", "error", "fragment"),
    [
        (assigned("1", "r9", ["support"] * 3), NotFoundError, "answer run r9 is not in the workbench"),
        (dict(assigned("1", "r1", ["support"] * 3), qid="9"), UnknownIdError, "topic 9 is not a topic"),
        (
            dict(
                assigned("2", "r2", ["support"] * 2),
                nuggets=[{"text": "x", "importance": "vital", "assignment": "support"}],
            ),
            NuggetFormatError,
            "nugget 1 ('x') is not one of topic 2's nuggets",
        ),
    ],
)
def test_an_assignment_that_matches_nothing_is_refused(store, nugget_file, write, row, error, fragment):
    import_nuggets(store, nugget_file, assessor="nist")
    for run in ("r1", "r2"):
        add_answers(store, run, {"2": [("Give calcium.", ["d2"])]})
    good = assigned("2", "r1", ["support", "support"])
    with pytest.raises(error) as caught:
        import_assignments(store, write("a.jsonl", jsonl([good, row])), assessor="nist")
    assert caught.value.line == 2 and fragment in caught.value.reason
    assert answer_labels(store, assignment_space("r1"), "2") == {}


def test_a_run_without_an_answer_to_the_topic_is_refused(store, nugget_file, write):
    import_nuggets(store, nugget_file, assessor="nist")
    add_answers(store, "r1", {"2": [("Give calcium.", ["d2"])]})
    with pytest.raises(NotFoundError, match="has no answer to topic 1"):
        import_assignments(store, write("a.jsonl", jsonl([assigned("1", "r1", ["support"] * 3)])), assessor="nist")


def test_a_model_source_needs_its_model(store, nugget_file):
    with pytest.raises(BadArgumentError) as caught:
        import_nuggets(store, nugget_file, assessor="nist", source=MODEL)
    assert caught.value.argument == "model"


def test_editing_by_hand_is_logged_as_versions(store):
    made = add_nugget(store, "1", "Pheromone traps monitor moths", "okay", assessor="ann", sources=["d1"])
    nugget = made.nuggets[0]
    assert (nugget.origin, nugget.sources, nugget.rank) == (WRITTEN, ("d1",), 1)
    other = add_nugget(store, "1", "Netting keeps insects out", "vital", assessor="ann").nuggets[0]
    assert other.rank == 2
    edited = edit_nugget(store, "1", nugget.nugget_id, assessor="bob", importance="vital", rank=3).nuggets[0]
    assert (edited.importance, edited.rank, edited.assessor, edited.versions) == ("vital", 3, "bob", 2)
    same = edit_nugget(store, "1", nugget.nugget_id, assessor="bob", rank=3)
    assert not same.changed
    merged = merge_nuggets(store, "1", other.nugget_id, [nugget.nugget_id], assessor="ann")
    assert merged.action == MERGE
    assert [n.nugget_id for n in nuggets_now(store, "1")] == [other.nugget_id]
    history = nugget_history(store, "1", nugget.nugget_id)
    assert json.loads(history[-1].note)["merged_into"] == other.nugget_id
    assert json.loads(nugget_history(store, "1", other.nugget_id)[-1].note)["merged_from"] == [nugget.nugget_id]
    assert delete_nugget(store, "1", other.nugget_id, assessor="ann").action == DELETE
    assert nuggets_now(store, "1") == []


def test_a_person_editing_a_draft_makes_a_nugget_of_their_own(store, nugget_file):
    import_nuggets(store, nugget_file, assessor="nist", source=MODEL, model="gpt")
    draft = list_nuggets(store, "1", model="gpt").nuggets[0]
    mine = edit_nugget(store, "1", draft.nugget_id, assessor="ann", text="Scouting finds pests before damage")
    nugget = mine.nuggets[0]
    assert (nugget.origin, nugget.draft, nugget.source) == (EDITED, draft.nugget_id, "human")
    assert nugget.nugget_id != draft.nugget_id
    again = edit_nugget(store, "1", draft.nugget_id, assessor="ann", importance="okay").nuggets[0]
    assert again.nugget_id == nugget.nugget_id and again.importance == "okay"
    assert [n.nugget_id for n in nuggets_now(store, "1")] == [nugget.nugget_id]
    assert list_nuggets(store, "1", model="gpt").nuggets[0] == draft


def test_two_nuggets_of_a_topic_never_share_a_text(store):
    add_nugget(store, "1", "Netting keeps insects out", "vital", assessor="ann")
    with pytest.raises(ConflictError, match="has this text already"):
        add_nugget(store, "1", "Netting keeps insects out", "okay", assessor="ann")


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda s: add_nugget(s, "9", "x", "vital", assessor="ann"), "topic 9 is not a topic"),
        (lambda s: edit_nugget(s, "1", "n0", assessor="ann", rank=2), "has no nugget 'n0'"),
        (lambda s: edit_nugget(s, "1", "n0", assessor="ann"), "nothing to change"),
        (lambda s: delete_nugget(s, "1", "n0", assessor="ann"), "has no nugget"),
        (lambda s: merge_nuggets(s, "1", "n0", [], assessor="ann"), "at least one"),
        (lambda s: merge_nuggets(s, "1", "n0", ["n0"], assessor="ann"), "named twice"),
    ],
)
def test_an_impossible_edit_is_refused(store, call, fragment):
    with pytest.raises(LabelerError, match=fragment):
        call(store)
    assert list(store.unit_events("nuggets")) == []


def test_assignment_grades_are_on_their_own_labels_whatever_the_scale(tmp_path, nugget_file, write):
    """On a binary scale, `support` (2) is an assignment's label, not a relevance grade off the scale."""
    from labeler.workbench.init import init_workbench

    init_workbench(tmp_path / "b.db", scale="binary")
    with Store(tmp_path / "b.db") as store:
        with store.transaction():
            store.put_topics([Topic(t, title) for t, title in TOPICS.items()], "2026-12-02T00:00:00Z")
        import_nuggets(store, nugget_file, assessor="nist")
        add_answers(store, "r1", {"2": [("Give calcium.", ["d2"])]})
        import_assignments(
            store, write("a.jsonl", jsonl([assigned("2", "r1", ["support", "partial_support"])])), assessor="nist"
        )
        assert store.grades_off_scale(store.scale().values) == []
        store.append_grades(
            [("2", "d2", 2)], assessor="nist", time="2026-12-02T00:00:00Z", source="import", model=None, unit="doc"
        )
        assert len(store.grades_off_scale(store.scale().values)) == 1


def test_an_exported_nugget_cannot_act_on_a_terminal(store):
    """Bidi and C1 controls in a nugget's text are written as JSON escapes: the parsed text is the same."""
    add_nugget(store, "1", "Scouting \u202efinds\x9b pests", importance="vital", assessor="ann")
    text = export_nuggets(store).text
    assert "\u202e" not in text and "\x9b" not in text and "\\u202e" in text
    assert json.loads(text)["nuggets"][0]["text"] == "Scouting \u202efinds\x9b pests"

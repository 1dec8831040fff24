"""`labeler.validation`: one rule per incoming value, said alike on every road (a judgment, qrels, a merged log)."""

from __future__ import annotations

import json

import pytest
from support import new_workbench

from labeler.errors import BadArgumentError, LabelerError
from labeler.store import Store
from labeler.validation import (
    choice_problem,
    decision_problem,
    grade_problem,
    tolerance_problem,
    unit_problem,
    window_problem,
)
from labeler.workbench.record_judgments import Judgment, JudgmentImport, import_judgments, record_judgment
from labeler.workbench.runs import RunImport, import_run
from labeler.workbench.team import MergeResult, merge

SCALE = (0, 1, 2, 3)


def test_grades():
    assert grade_problem(2, SCALE, "default") is None
    assert grade_problem(7, SCALE, "default") == "grade 7 is not on the scale 'default' (0, 1, 2, 3)"
    assert grade_problem(-1, SCALE, "default") == "grade -1 is not on the scale 'default' (0, 1, 2, 3)"
    assert grade_problem(-1, SCALE, "default", pooled=True) is None  # imported qrels: pooled, not judged
    assert grade_problem(7, SCALE, "default", pooled=True) == (
        "grade 7 is not on the scale 'default' (0, 1, 2, 3; a negative grade means pooled, not judged)"
    )
    assert grade_problem(None, SCALE, "default") == "a grade is needed (an integer on the scale 'default' (0, 1, 2, 3))"


def test_choices_units_windows_and_tolerances():
    assert choice_problem("grade", ("grade", "skip"), "event kind") is None
    assert choice_problem("smile", ("grade", "skip"), "event kind") == "unknown event kind 'smile' (one of grade, skip)"
    assert choice_problem(3, ("grade",), "event kind") == "unknown event kind 3 (one of grade)"
    assert unit_problem("doc") is None and unit_problem("chunk:w5", {"w5"}) is None
    assert unit_problem("chunk:w5") is None  # no chunkings given: only the form is checked
    assert unit_problem("chunk:nope", {"w5"}) == "no chunking named 'nope'"
    assert unit_problem("passage") == "unit must be 'doc' or 'chunk:NAME', not 'passage'"
    assert unit_problem("chunk:a b") == "unit must be 'doc' or 'chunk:NAME', not 'chunk:a b'"  # the name is an id
    assert window_problem(5, 1) is None
    assert window_problem(0, 0) == ("size", "must be at least 1, not 0")
    assert window_problem(5, 5) == ("chunk_overlap", "must be smaller than the window's size (5), not 5")
    assert tolerance_problem(0) is None
    assert tolerance_problem(31_622_400) is None
    assert tolerance_problem(float("nan")) == "must be a number of seconds from 0 to 31622400 (366 days), not nan"
    assert tolerance_problem(1e300) == "must be a number of seconds from 0 to 31622400 (366 days), not 1e+300"


@pytest.mark.parametrize(
    ("kind", "source", "model", "reason", "note", "expected"),
    [
        ("grade", "human", None, None, None, None),
        ("unsure", "human", None, "  ", None, ("reason", "an unsure judgment needs a reason")),
        ("note", "human", None, None, "", ("note", "a note needs its text")),
        ("grade", "model", " ", None, None, ("model", "a model judgment needs the model's name")),
        ("grade", "model", "gpt", None, None, None),
    ],
)
def test_what_a_decision_carries(kind, source, model, reason, note, expected):
    assert decision_problem(kind, source=source, model=model, reason=reason, note=note) == expected


def test_one_judgment_a_qrels_file_and_a_merged_log_refuse_a_grade_in_the_same_words(tmp_path):
    db = new_workbench(tmp_path / "wb.db")
    said = "grade 7 is not on the scale 'default' (0, 1, 2, 3"
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 d1 7\n")
    log = tmp_path / "log.jsonl"
    event = {"event_id": "e1", "topic_id": "1", "unit": "doc", "unit_id": "d1", "kind": "grade", "grade": 7}
    event |= {"assessor": "ann", "source": "human", "time": "2026-01-01T00:00:00+00:00"}
    log.write_text(json.dumps(event) + "\n")
    with Store(db) as store:
        with pytest.raises(LabelerError) as one:
            record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="ann", grade=7, allow_unknown=True))
        with pytest.raises(LabelerError) as imported:
            import_judgments(store, qrels, assessor="ann", allow_unknown=True)
        with pytest.raises(LabelerError) as merged:
            merge(store, log)
        assert store.event_count() == 0
    assert one.value.reason == said + ")"
    assert imported.value.reason == said + "; a negative grade means pooled, not judged)"
    assert merged.value.reason == said + ")" and merged.value.line == 1


def test_a_missing_reason_or_model_is_a_bad_argument_on_every_road(tmp_path):
    db = new_workbench(tmp_path / "wb.db")
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 d1 1\n")
    with Store(db) as store:
        with pytest.raises(BadArgumentError) as unsure:
            record_judgment(
                store, Judgment(topic_id="1", unit_id="d1", assessor="ann", kind="unsure", allow_unknown=True)
            )
        with pytest.raises(BadArgumentError) as model:
            import_judgments(store, qrels, assessor="ann", source="model", allow_unknown=True)
        with pytest.raises(BadArgumentError) as source:
            import_judgments(store, qrels, assessor="ann", source="human", allow_unknown=True)
    assert (unsure.value.argument, unsure.value.reason) == ("reason", "an unsure judgment needs a reason")
    assert (model.value.argument, model.value.reason) == ("model", "a model judgment needs the model's name")
    assert (source.value.argument, source.value.reason) == ("source", "unknown source 'human' (one of import, model)")


def test_import_and_merge_results_are_typed(tmp_path):
    db = new_workbench(tmp_path / "wb.db")
    other = new_workbench(tmp_path / "other.db")
    run = tmp_path / "r.run"
    run.write_text("1 Q0 d1 1 2.0 t\n1 Q0 d1 2 1.0 t\n2 Q0 d2 1 1.0 t\n")
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 d1 2\n2 0 d2 -1\n")
    with Store(other) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="bob", grade=0, allow_unknown=True))
    with Store(db) as store:
        ran = import_run(store, run, "r", dedupe="first", allow_unknown=True)
        judged = import_judgments(store, qrels, assessor="ann", reviewed=True, allow_unknown=True)
        merged = merge(store, other)
    assert isinstance(ran, RunImport) and (ran.topics, ran.entries, ran.duplicates_dropped) == (2, 2, 1)
    assert ran.to_json()["tags"] == ["t"] and ran.to_json()["replaced"] is False
    assert isinstance(judged, JudgmentImport) and (judged.judgments, judged.pooled_unjudged) == (2, 1)
    assert judged.marked == {"1": "reviewed"} and judged.unmarked == ["2"]  # 2: only pooled, not judged
    assert isinstance(merged, MergeResult) and (merged.added, merged.assessors) == (1, ("bob",))
    assert [(c.topic, c.unit_id) for c in merged.new_conflicts] == [("1", "d1")]
    assert merged.to_json()["new_conflicts"] == [{"unit": "doc", "topic": "1", "unit_id": "d1"}]
    with Store(db) as store, pytest.raises(BadArgumentError) as dedupe:
        import_run(store, run, "r2", dedupe="last", allow_unknown=True)
    assert (dedupe.value.argument, dedupe.value.reason) == ("dedupe", "unknown dedupe 'last' (one of error, first)")

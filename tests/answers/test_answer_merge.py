"""Answer work merges like relevance labels: nugget versions, nugget assignments and citation support.

Two annotators work on copies of one workbench holding the same answers: ann writes a nugget and
assigns nuggets, bob assigns the same answers. Merged both ways, both workbenches hold the same
nuggets and labels; where they disagree the merge reports a conflict, as for relevance.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from answers.answer_support import add_answers
from answers.judged_answers import ANSWERS, add_judged_answers
from badinput.badinput_support import Unchanged, assert_refused, invoke
from support import new_workbench

from labeler.answers.nuggets import CREATE, VITAL, WRITTEN, NuggetVersion
from labeler.answers.spaces import NUGGETS
from labeler.store import Store
from labeler.workbench.answer_judging import AnswerJudgment, record_answer_judgment
from labeler.workbench.answer_labels import NuggetChange, answer_labels, nuggets_now, record_nugget_changes
from labeler.workbench.check import check_workbench
from labeler.workbench.team import export_log, merge

SPACES = ("nugget:rag1", "support:rag1")


@pytest.fixture
def base(tmp_path) -> Path:
    """A workbench holding run rag1's answers to topics 1 and 2 and their nuggets (n1-1, n1-2, n2-1)."""
    path = new_workbench(tmp_path / "base.db")
    with Store(path) as store:
        add_judged_answers(store)
    return path


def _copy(base: Path, name: str) -> Path:
    """A copy of `base` alone in a folder of its own (the bad-input checks compare the folder's files)."""
    folder = base.parent / name
    folder.mkdir()
    return Path(shutil.copyfile(base, folder / "wb.db"))


def _grade(store: Store, space: str, topic: str, item: str, assessor: str, grade: int) -> None:
    record_answer_judgment(store, AnswerJudgment(space, topic, item, assessor, grade=grade))


@pytest.fixture
def pair(base) -> tuple[Path, Path]:
    """ann's copy (a nugget of her own and her assignments) and bob's (his assignments of the same answers)."""
    ann, bob = _copy(base, "ann"), _copy(base, "bob")
    with Store(ann) as store:
        version = NuggetVersion(CREATE, "weekly scouting finds armyworm early", VITAL, 3, WRITTEN, sources=("d1",))
        record_nugget_changes(store, [NuggetChange("1", "n-ann", version, "ann")])
        _grade(store, "nugget:rag1", "1", "n1-1", "ann", 2)
        _grade(store, "nugget:rag1", "1", "n1-2", "ann", 1)
        _grade(store, "nugget:rag1", "1", "n-ann", "ann", 0)
        _grade(store, "support:rag1", "1", "1", "ann", 2)
    with Store(bob) as store:
        _grade(store, "nugget:rag1", "1", "n1-1", "bob", 2)
        _grade(store, "nugget:rag1", "1", "n1-2", "bob", 0)
        _grade(store, "nugget:rag1", "2", "n2-1", "bob", 2)
        _grade(store, "support:rag1", "1", "1", "bob", 1)
    return ann, bob


def _state(path: Path) -> tuple[list, dict]:
    """What a workbench holds of answer work: its nuggets now, and every answer label (label, conflict)."""
    with Store(path) as store:
        nuggets = [(n.topic_id, n.nugget_id, n.text, n.importance, n.rank, n.assessor) for n in nuggets_now(store)]
        labels = {
            (space, topic): {item: (s.label, s.conflict) for item, s in answer_labels(store, space, topic).items()}
            for space in SPACES
            for topic in ANSWERS
        }
    return nuggets, labels


def test_two_annotators_merge_both_ways_to_the_same_nuggets_and_labels(pair):
    ann, bob = pair
    with Store(ann) as store:
        result = merge(store, bob)
    assert result.added == 4 and result.assessors == ("bob",)
    assert [(c.unit, c.topic, c.unit_id) for c in result.new_conflicts] == [
        ("nugget:rag1", "1", "n1-2"),
        ("support:rag1", "1", "1"),
    ]
    changes = {(c.unit, c.topic, c.unit_id): (c.before, c.after, c.conflict) for c in result.changes}
    assert changes == {
        ("nugget:rag1", "1", "n1-2"): (1, None, True),
        ("nugget:rag1", "2", "n2-1"): (None, 2, False),
        ("support:rag1", "1", "1"): (2, None, True),
    }  # n1-1: both said support, its label is unchanged
    with Store(bob) as store:
        back = merge(store, ann)
    assert back.added == 5  # ann's 4 grades and her nugget version
    assert back.already_present == 7  # the 3 nuggets both copies started with, and bob's 4 grades
    assert NUGGETS not in {c.unit for c in back.changes}  # a nugget version is no label change
    assert ("nugget:rag1", "1", "n-ann") in {(c.unit, c.topic, c.unit_id) for c in back.changes}
    assert _state(ann) == _state(bob)
    nuggets, labels = _state(ann)
    assert ("1", "n-ann", "weekly scouting finds armyworm early", VITAL, 3, "ann") in nuggets
    assert labels[("nugget:rag1", "1")] == {
        "n1-1": (2, False),
        "n1-2": (None, True),
        "n-ann": (0, False),
    }
    assert labels[("support:rag1", "1")] == {"1": (None, True)}
    for path in (ann, bob):
        with Store(path) as store:
            assert check_workbench(store).ok
            again = merge(store, bob if path == ann else ann)
        assert again.added == 0 and again.changes == () and again.new_conflicts == ()


def test_an_exported_log_merges_into_a_fresh_copy_to_the_same_answer_work(base, pair, tmp_path):
    ann, bob = pair
    with Store(ann) as store:
        merge(store, bob)
        log = tmp_path / "ann.jsonl"
        log.write_text("".join(export_log(store)), encoding="utf-8")
    fresh = _copy(base, "fresh")
    with Store(fresh) as store:
        result = merge(store, log)
        assert check_workbench(store).ok
    assert result.format == "jsonl" and result.added == 9  # the 8 grades and ann's nugget (the base's already held)
    assert _state(fresh) == _state(ann)
    result = invoke(fresh, ["merge", log, "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["added"] == 0


SOUND = {
    "event_id": "e-sound",
    "topic_id": "1",
    "unit": "nugget:rag1",
    "unit_id": "n1-1",
    "kind": "grade",
    "grade": 2,
    "assessor": "carl",
    "source": "human",
    "time": "2026-01-01T00:00:00.000000+00:00",
}


def _bad(**fields) -> dict:
    return {**SOUND, "event_id": "e-bad", "assessor": "dora", **fields}


@pytest.mark.parametrize(
    ("event", "fragment"),
    [
        (_bad(unit="nugget:r9"), "answer run 'r9' is not in this workbench: import its answers first"),
        (_bad(unit="support:r9", unit_id="1"), "answer run 'r9' is not in this workbench"),
        (_bad(unit="nugget:a b"), "unit 'nugget:a b' names no answer run"),
        (_bad(grade=3), "grade 3 is not on the scale 'assignment' (0, 1, 2)"),
        (_bad(unit="support:rag1", unit_id="1", grade=-1), "grade -1 is not on the scale 'support'"),
        (_bad(unit=NUGGETS, kind="note", grade=None, note="armyworm"), "a nugget event's note is not JSON"),
        (
            _bad(unit=NUGGETS, kind="note", grade=None, note=json.dumps({"action": "create", "text": "x"})),
            "a nugget event's 'importance' is missing or not text",
        ),
        (_bad(unit=NUGGETS), "a grade event in the nuggets space: a nugget event is a note"),
    ],
)
def test_an_unsound_answer_event_refuses_the_whole_log_at_its_line(base, event, fragment):
    target = _copy(base, "target")
    log = target.parent.parent / "log.jsonl"
    log.write_text(json.dumps(SOUND) + "\n" + json.dumps(event) + "\n", encoding="utf-8")
    with Unchanged(target):
        assert_refused(invoke(target, ["merge", log]), log, 2, fragment)


def test_a_workbench_with_an_answer_run_not_held_here_is_refused(base, pair):
    ann, bob = pair
    with Store(bob) as store:
        add_answers(store, "rag2", {"1": [("Armyworm eats maize.", ["d1"])]})
        _grade(store, "support:rag2", "1", "1", "bob", 2)
    with Unchanged(ann):
        assert_refused(invoke(ann, ["merge", bob]), bob, None, "answer run 'rag2' is not in this workbench")

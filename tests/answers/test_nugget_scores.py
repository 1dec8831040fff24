"""Nugget scores and citation support: the hand-worked example of docs/metrics.md, the rules for what is left
out, snapshots that freeze nuggets and answer labels, and `labeler nuggets score`."""

from __future__ import annotations

import json
import sqlite3

import pytest
from answers.answer_support import add_answers, add_nuggets
from answers.score_support import add_grades
from badinput.badinput_support import Unchanged, assert_bad_argument
from nuggetizer.core.metrics import calculate_global_metrics, calculate_nugget_scores

from labeler.answers.scores import NO_ANSWER, NO_NUGGETS, UNASSIGNED, UNJUDGED, nugget_score, support_score
from labeler.answers.spaces import ASSIGNMENT_LABELS, assignment_space, support_space
from labeler.store import Store
from labeler.workbench.check import check_workbench
from labeler.workbench.nugget_scores import NuggetScoreRequest, score_nuggets
from labeler.workbench.snapshots import create_snapshot, diff_snapshots, verify_snapshots

# The worked example of docs/metrics.md: topic 1 has three vital and two okay nuggets, topic 2 two okay ones.
TOPIC_1 = [("vital", 2), ("vital", 1), ("vital", 0), ("okay", 2), ("okay", 1)]
TOPIC_2 = [("okay", 2), ("okay", 0)]


def _nuggetizer(nuggets):
    return [
        {"text": f"n{i}", "importance": imp, "assignment": ASSIGNMENT_LABELS[g]} for i, (imp, g) in enumerate(nuggets)
    ]


def test_the_worked_example_matches_nuggetizer():
    one = nugget_score(
        "1", {f"n{i}": imp for i, (imp, _) in enumerate(TOPIC_1)}, {f"n{i}": g for i, (_, g) in enumerate(TOPIC_1)}
    )
    two = nugget_score(
        "2", {f"n{i}": imp for i, (imp, _) in enumerate(TOPIC_2)}, {f"n{i}": g for i, (_, g) in enumerate(TOPIC_2)}
    )
    assert (one.strict_vital_score, one.strict_all_score, one.vital_score, one.all_score) == (1 / 3, 0.4, 0.5, 0.6)
    assert (one.vital, one.nuggets, one.supported, one.partially_supported) == (3, 5, 2, 2)
    assert (two.strict_vital_score, two.strict_all_score, two.vital_score, two.all_score) == (0.0, 0.5, 0.0, 0.5)
    assert two.vital == 0
    for ours, nuggets in ((one, TOPIC_1), (two, TOPIC_2)):
        theirs = calculate_nugget_scores(ours.topic, _nuggetizer(nuggets))
        assert (ours.strict_vital_score, ours.strict_all_score, ours.vital_score, ours.all_score) == (
            theirs.strict_vital_score,
            theirs.strict_all_score,
            theirs.vital_score,
            theirs.all_score,
        )
    means = calculate_global_metrics(
        [{"qid": "1", "nuggets": _nuggetizer(TOPIC_1)}, {"qid": "2", "nuggets": _nuggetizer(TOPIC_2)}]
    )
    assert means["strict_vital_score"] == pytest.approx(1 / 6) and means["all_score"] == pytest.approx(0.55)


def test_support_precision_and_recall_by_hand():
    # three sentences: the first cites and is fully supported, the second partly, the third cites nothing
    scored = support_score("1", [True, True, False], {1: 2, 2: 1})
    assert (scored.precision, scored.recall, scored.judged, scored.sentences) == (0.75, 0.5, 2, 3)
    assert support_score("1", [False], {}).precision is None
    left = support_score("1", [True, True], {1: 2})
    assert (left.reason, left.unassigned) == (UNJUDGED, 1)


def test_a_missing_assignment_leaves_the_answer_out_rather_than_counting_as_not_support():
    left = nugget_score("1", {"a": "vital", "b": "okay"}, {"a": 2})
    assert (left.reason, left.unassigned) == (UNASSIGNED, 1)
    assert nugget_score("1", {}, {}).reason == NO_NUGGETS


@pytest.fixture
def store(db_path):
    with Store(db_path) as opened:
        yield opened


def _example(store: Store) -> dict[str, list[str]]:
    """Run r1 answers topics 1, 2 and 3; nuggets for 1, 2 and 4; topic 3 has none, topic 4 no answer."""
    said = [("Paris is the capital.", ["d1"]), ("It is large.", ["d2"]), ("Nice.", [])]
    add_answers(store, "r1", {"1": said, "2": said[:1], "3": said[:1]})
    ids = {"1": add_nuggets(store, "1", [(f"fact {i}", imp) for i, (imp, _) in enumerate(TOPIC_1)])}
    ids["2"] = add_nuggets(store, "2", [(f"fact {i}", imp) for i, (imp, _) in enumerate(TOPIC_2)])
    ids["4"] = add_nuggets(store, "4", [("lonely", "vital")])
    for topic, nuggets in (("1", TOPIC_1), ("2", TOPIC_2)):
        add_grades(store, assignment_space("r1"), topic, {n: g for n, (_, g) in zip(ids[topic], nuggets, strict=True)})
    add_grades(store, support_space("r1"), "1", {"1": 2, "2": 1})
    return ids


def test_the_workbench_scores_the_example_and_says_what_it_left_out(store):
    _example(store)
    (run,) = score_nuggets(store, NuggetScoreRequest()).runs
    assert [s.topic for s in run.per_topic] == ["1", "2"]
    assert run.strict_vital_score == pytest.approx(1 / 6) and run.all_score == pytest.approx(0.55)
    assert {(o.topic, o.reason) for o in run.left_out} == {("3", NO_NUGGETS), ("4", NO_ANSWER)}
    assert (run.support_precision, run.support_recall, run.support_topics) == (0.75, 0.5, 1)
    assert {o.topic for o in run.support_left_out} == {"2", "3"}  # their cited sentences are not judged


def test_a_snapshot_freezes_nuggets_and_labels_under_its_hash(store):
    ids = _example(store)
    first = create_snapshot(store, "with nuggets", unit="doc")
    manifest = store.snapshot(first.snapshot).manifest
    assert (manifest["nuggets"], manifest["answer_labels"]) == (8, 9)
    assert (first.nuggets, first.answer_labels) == (8, 9)  # what `snapshot create` says it froze
    assert verify_snapshots(store).ok
    add_grades(store, assignment_space("r1"), "1", {ids["1"][2]: 2})  # not supported -> supported
    (now,) = score_nuggets(store, NuggetScoreRequest()).runs
    (then,) = score_nuggets(store, NuggetScoreRequest(snapshot=first.snapshot)).runs
    assert then.per_topic[0].strict_vital_score == pytest.approx(1 / 3)
    assert now.per_topic[0].strict_vital_score == pytest.approx(2 / 3)
    second = create_snapshot(store, "one assignment changed", unit="doc")
    assert second.new and second.sha256 != first.sha256
    diff = diff_snapshots(store, first.snapshot, second.snapshot).to_json()
    assert diff["answers"]["answer_labels"] == [
        {"space": "nugget:r1", "topic": "1", "item": ids["1"][2], "before": 0, "after": 2}
    ]
    assert diff["answers"]["nuggets_added"] == []


def test_a_snapshot_without_answers_keeps_its_manifest(store):
    add_answers(store, "r1", {"1": [("x", ["d1"])]})  # answers are not judgments: nothing frozen
    made = create_snapshot(store, "no nuggets", unit="doc")
    assert "nuggets" not in store.snapshot(made.snapshot).manifest
    assert "nuggets" not in made.to_json() and made.nuggets is None
    assert store.snapshot_nuggets(made.snapshot) == []


def _tampered(db_path, table: str, change: str) -> None:
    """The example frozen as v1, then one of its rows changed behind the table's guard."""
    with Store(db_path) as store:
        _example(store)
        create_snapshot(store, "with nuggets", unit="doc")
    with sqlite3.connect(db_path) as db:
        db.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
        db.execute(f"UPDATE {table} SET {change}")


def test_check_finds_a_nugget_changed_in_a_snapshot(db_path):
    _tampered(db_path, "snapshot_nuggets", "text = 'forged' WHERE topic_id = '1' AND rank = 1")
    with Store(db_path) as store:
        verified = verify_snapshots(store)
        report = check_workbench(store)
    assert not verified.ok
    assert any("snapshot hashes" in str(c) and "labels hash to" in str(c) for c in report.to_json()["checks"]), report


def test_cli_prints_scores_and_json(db_path, run_cli):
    with Store(db_path) as store:
        _example(store)
    shown = run_cli("nuggets", "score")
    text = shown.stdout + shown.stderr
    assert "0.1667" in text and "topic 3 left out: no nuggets" in text
    data = run_cli.json("nuggets", "score", "--runs", "r1")
    (run,) = data["runs"]
    assert list(data) == ["snapshot", "labels", "runs"] and data["snapshot"] == "current"
    assert run["topics"][0] == {
        "topic": "1",
        "strict_vital_score": pytest.approx(1 / 3),
        "strict_all_score": 0.4,
        "vital_score": 0.5,
        "all_score": 0.6,
        "vital": 3,
        "nuggets": 5,
        "supported": 2,
        "partially_supported": 2,
    }
    assert run["left_out"] == [{"topic": "3", "reason": "no nuggets"}, {"topic": "4", "reason": "no answer"}]
    assert json.loads(json.dumps(run["support"])) == [
        {"topic": "1", "precision": 0.75, "recall": 0.5, "sentences": 3, "judged": 2, "credit": 1.5}
    ]


def test_cli_compares_with_a_baseline(db_path, run_cli):
    with Store(db_path) as store:
        ids = _example(store)
        add_answers(store, "r2", {"1": [("x", ["d1"])], "2": [("y", ["d1"])]})
        add_grades(store, assignment_space("r2"), "1", dict.fromkeys(ids["1"], 2))
        add_grades(store, assignment_space("r2"), "2", dict.fromkeys(ids["2"], 0))
    data = run_cli.json("nuggets", "score", "--baseline", "r1", "--correction", "bonferroni")
    comparison = data["baseline"]["comparisons"]["r2"]["strict_vital_score"]
    assert comparison["deltas"] == {"1": pytest.approx(2 / 3), "2": 0.0}
    assert data["baseline"]["correction"]["method"] == "bonferroni"


def test_cli_refusals_leave_the_workbench_unchanged(db_path, run_cli):
    with Store(db_path) as store:
        _example(store)
    with Unchanged(db_path):
        result = run_cli("nuggets", "score", "--labels", "combined", expect=None)
        assert_bad_argument(result, "--model", "combined labels need the model")
        result = run_cli("nuggets", "score", "--runs", "nope", expect=None)
        assert_bad_argument(result, "--runs", "no answer run named 'nope' (run 'labeler answers list')")
        result = run_cli("nuggets", "score", "--labels", "combined", "--model", "m", expect=None)
        assert result.exit_code == 1 and result.stderr.startswith("Error: ") and "fewer than the 50" in result.stderr
        result = run_cli("nuggets", "score", "--snapshot", "v9", expect=None)
        assert result.exit_code == 1 and result.stderr.startswith("Error: no snapshot named 'v9'")
        assert result.stderr.count("\n") == 1
        result = run_cli("nuggets", "score", "--baseline", "r9", expect=None)
        assert_bad_argument(result, "--baseline", "no answer run named 'r9'")
        assert_bad_argument(run_cli("nuggets", "score", "--runs", "r1,r1", expect=None), "--runs", "given twice")


def _combined_workbench(store: Store, *, model_grade) -> tuple[dict[tuple[str, str], int], object]:
    """30 topics of 5 vital nuggets, run r1 answers all; people assign the overlap sample, a model every pair."""
    import random

    from labeler.workbench.assessors import current_plan
    from labeler.workbench.assignments import assign

    rng = random.Random(7)
    topics = [str(t) for t in range(1, 31)]
    add_answers(store, "r1", {t: [("an answer.", ["d1"])] for t in topics})
    truth: dict[tuple[str, str], int] = {}
    for t in topics:
        for nugget in add_nuggets(store, t, [(f"fact {i}", "vital") for i in range(5)]):
            truth[(t, nugget)] = rng.choice([0, 1, 2])
    assign(store, ["ann", "bob"], topics=topics, overlap=0.5, seed=3)
    plan = current_plan(store)
    for t in topics:
        mine = {n: g for (topic, n), g in truth.items() if topic == t}
        add_grades(store, assignment_space("r1"), t, {n: g for n, g in mine.items() if plan.is_overlap(t, n)})
        add_grades(
            store,
            assignment_space("r1"),
            t,
            {n: model_grade(g) for n, g in mine.items()},
            assessor="m",
            source="model",
            model="m",
        )
    return truth, plan


def test_combined_labels_equal_the_truth_when_the_model_agrees_with_people(store):
    truth, _ = _combined_workbench(store, model_grade=lambda g: g)
    (run,) = score_nuggets(store, NuggetScoreRequest(labels="combined", model="m")).runs
    estimate = run.combined.estimate
    true_mean = (
        sum(sum(g == 2 for (t, _), g in truth.items() if t == topic) / 5 for topic in {t for t, _ in truth}) / 30
    )
    assert estimate.mean == pytest.approx(true_mean) and estimate.rectifier == pytest.approx(0.0)
    assert estimate.units == 150 and estimate.human_labels >= 50 and run.combined.model_missing == 0


def test_combined_labels_correct_a_biased_model(store):
    truth, plan = _combined_workbench(store, model_grade=lambda g: 2)  # the model says support everywhere
    (run,) = score_nuggets(store, NuggetScoreRequest(labels="combined", model="m")).runs
    sample = [g for (t, n), g in truth.items() if plan.is_overlap(t, n)]
    # value of a pair: 1 / 5 scaled by N / T = 150 / 30, i.e. 1 when supported
    expected = 1.0 + sum((g == 2) - 1.0 for g in sample) / len(sample)
    assert run.combined.estimate.mean == pytest.approx(expected)
    assert run.combined.estimate.model_mean == pytest.approx(1.0)
    assert run.combined.estimate.human_labels == len(sample)


def test_a_snapshot_without_answers_hashes_its_qrels_alone(store):
    import hashlib

    from labeler.workbench.snapshots import snapshot_text

    add_answers(store, "r1", {"1": [("x", ["d1"])]})
    made = create_snapshot(store, "no nuggets", unit="doc", allow_unchanged=True)
    assert snapshot_text(store, made.snapshot) == ""  # no labels of any kind
    assert made.sha256 == hashlib.sha256(b"").hexdigest()


def test_check_finds_an_answer_label_changed_in_a_snapshot(db_path):
    _tampered(db_path, "snapshot_answer_labels", "grade = 2 WHERE space = 'support:r1' AND item_id = '2'")
    with Store(db_path) as store:
        problems = store.snapshot_answer_problems()
        assert not verify_snapshots(store).ok
    assert problems == [
        f"snapshot v1: support:r1 label 1 2 (grade 2) does not agree with event {problems[0].split()[-1]}"
    ]


@pytest.mark.deprecated_spelling  # `snapshot diff`: `compare --changes` prints the same, but needs a run scored
def test_snapshot_diff_lists_nugget_and_assignment_changes(db_path, run_cli):
    from labeler.answers.nuggets import EDIT, WRITTEN, NuggetVersion
    from labeler.workbench.answer_labels import NuggetChange, record_nugget_changes

    with Store(db_path) as store:
        ids = _example(store)
        create_snapshot(store, "before", unit="doc")
        record_nugget_changes(
            store,
            [NuggetChange("1", ids["1"][0], NuggetVersion(EDIT, "fact zero, sharper", "okay", 1, WRITTEN), "nist")],
        )
        add_grades(store, support_space("r1"), "1", {"1": 0})
        create_snapshot(store, "after", unit="doc")
    shown = run_cli("snapshot", "diff", "v1", "v2")
    assert "Nuggets: 2 changes." in shown.stdout + shown.stderr
    assert "fact zero, sharper" in shown.stdout and "support:r1" in shown.stdout
    changes = run_cli.json("snapshot", "diff", "v1", "v2")["answers"]
    assert changes["nuggets_changed"] == [
        {"topic": "1", "nugget": ids["1"][0], "text": ["fact 0", "fact zero, sharper"], "importance": ["vital", "okay"]}
    ]
    assert changes["answer_labels"] == [{"space": "support:r1", "topic": "1", "item": "1", "before": 2, "after": 0}]

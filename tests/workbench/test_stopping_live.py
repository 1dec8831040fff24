"""Stopping rules on the live log (issue 16 item 3): which judgments, in which order, relevant by the label now.

Hand-worked logs (undo, regrade, conflict, stale text, skips, another assessor, a pair outside
the pool) checked against sequences written out by hand; then seeded random judging sessions
checked against a model the test keeps of what it did (its own stack of decisions), with
no derivation code of labeler's: the session's incremental sequence, the whole-log one and
`status --json` all agree with it after every step.
"""

from __future__ import annotations

import json
import random

import pytest
from support import new_workbench

from labeler.errors import BadArgumentError
from labeler.stopping import parse_rule
from labeler.store import Store
from labeler.workbench.corpus import import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.read_labels import current_labels
from labeler.workbench.record_judgments import Judgment, record_judgment, undo
from labeler.workbench.runs import import_run
from labeler.workbench.session import JudgingSession
from labeler.workbench.status import status
from labeler.workbench.stopping import (
    TopicFound,
    found_sequence,
    labels_and_first_judgments,
    stopping,
    stopping_rule,
)
from labeler.workbench.topics import import_topics

UNITS = [f"d{i:02d}" for i in range(1, 13)]
F, T = False, True


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """Two topics; topic 1 pools d01..d12 (one run, rank order), topic 2 pools d01..d04; d12 is outside 2's pool."""
    folder = tmp_path_factory.mktemp("stopping")
    db = folder / "stop.db"
    new_workbench(db)
    (folder / "corpus.jsonl").write_text(
        "".join(json.dumps({"id": u, "title": f"Title {u}", "text": f"text {u}"}) + "\n" for u in UNITS)
    )
    (folder / "topics.tsv").write_text("1\tone\n2\ttwo\n")
    lines = [f"1 Q0 {u} {rank} {50 - rank} a\n" for rank, u in enumerate(UNITS, 1)]
    lines += [f"2 Q0 {u} {rank} {50 - rank} a\n" for rank, u in enumerate(UNITS[:4], 1)]
    (folder / "a.txt").write_text("".join(lines))
    with Store(db) as store:
        import_corpus(store, folder / "corpus.jsonl")
        import_topics(store, folder / "topics.tsv")
        import_run(store, folder / "a.txt", "a")
        build_pool(store, 20)
    return db.read_bytes()


@pytest.fixture
def db(template, tmp_path):
    path = tmp_path / "stop.db"
    path.write_bytes(template)
    return path


def live_found(store: Store, topic: str) -> list[bool]:
    labels, firsts = labels_and_first_judgments(store, "doc")
    pool = store.latest_pool()
    assert pool is not None
    return found_sequence(topic, store.pool_topic_units(pool.name, topic), labels, firsts, store.scale().threshold)


def grade(store, unit, g, topic="1", assessor="ann"):
    record_judgment(store, Judgment(topic_id=topic, unit_id=unit, assessor=assessor, grade=g))


def test_the_sequence_by_hand_undo_regrade_conflict_skip_and_outside_the_pool(db, tmp_path):
    with Store(db) as store:
        grade(store, "d03", 0)  # 1st: not relevant
        grade(store, "d01", 2)  # 2nd: relevant
        grade(store, "d05", 0)
        grade(store, "d05", 3)  # regraded: stays at its first place (3rd), relevant now
        grade(store, "d07", 1)
        undo(store, "ann")  # d07's only grade retracted: out
        record_judgment(
            store, Judgment(topic_id="1", unit_id="d08", assessor="ann", kind="skip")
        )  # skipped: not judged
        grade(store, "d09", 0)
        grade(store, "d09", 2, assessor="bob")  # conflict: not judged (status counts it unjudged)
        grade(store, "d10", 0, assessor="bob")  # another assessor's grade counts like anyone's
        grade(store, "d02", 0)
        grade(store, "d12", 2, topic="2")  # topic 2, outside its pool: not in topic 2's sequence
        grade(store, "d01", 1, topic="2")
        assert live_found(store, "1") == [F, T, T, F, F]  # d03, d01, d05, d10, d02
        assert live_found(store, "2") == [T]
        labels, _ = labels_and_first_judgments(store, "doc")
        assert labels == current_labels(store, "doc")  # the one pass gives the same labels

        decisions = stopping(store, "window:2")
        assert set(decisions) == {"1", "2"}
        one = decisions["1"].to_json()
        assert one == {
            "rule": "window:2",
            "stop": True,
            "judgments": 5,
            "relevant": 2,
            "reason": "no relevant unit in the last 2 judgments: the rule says stop",
        }
        assert not decisions["2"].decision.stop  # 1 of the 2 judgments the window needs
        assert not stopping(store, "window:3")["1"].decision.stop  # a relevant unit 2 judgments ago

        shown = status(store, stop="window:2").to_json()
        assert shown["topics"]["1"]["stopping"] == one
        assert shown["topics"]["1"]["judged"] == 5 == one["judgments"]  # the same pairs as `judged`
        assert shown["topics"]["1"]["relevant"] == 2 == one["relevant"]
        assert shown["stopping"] == {"rule": "window:2", "stop": 1}
        assert status(store).to_json()["topics"]["1"]["stopping"]["rule"] == "window:10"


def test_a_judgment_of_text_changed_since_drops_out_and_a_new_one_is_placed_where_it_was_made(db, tmp_path):
    with Store(db) as store:
        grade(store, "d01", 2)
        grade(store, "d02", 0)
        grade(store, "d03", 0)
    corpus = "".join(
        json.dumps({"id": u, "title": f"Title {u}", "text": f"text {u}" + (" changed" if u == "d01" else "")}) + "\n"
        for u in UNITS
    )
    (tmp_path / "changed.jsonl").write_text(corpus)
    with Store(db) as store:
        import_corpus(store, tmp_path / "changed.jsonl", update=True)
        assert live_found(store, "1") == [F, F]  # d01's grade is stale
        grade(store, "d01", 3)
        assert live_found(store, "1") == [F, F, T]  # judged again: after the others, when it was judged
        labels, _ = labels_and_first_judgments(store, "doc")
        assert labels == current_labels(store, "doc")


def test_bad_rules_name_the_stop_argument(db):
    for text in ("bogus", "window:0", "knee:x", "window:-3"):
        with pytest.raises(BadArgumentError) as caught:
            stopping_rule(text)
        assert caught.value.argument == "stop"
    with Store(db) as store, pytest.raises(BadArgumentError):
        status(store, stop="nope")
    assert stopping_rule("knee") == parse_rule("knee:150")


def test_no_pool_no_decisions(tmp_path):
    path = new_workbench(tmp_path / "empty.db")
    with Store(path) as store:
        assert stopping(store) == {}
        assert status(store).to_json()["stopping"] == {"rule": "window:10", "stop": 0}


@pytest.mark.parametrize("seed", range(6))
def test_random_sessions_agree_with_the_model_the_test_keeps(db, seed):
    """Grades, skips, undos, going back and regrading, through the session; after each step the session's
    kept sequence, the whole log's and status' are the model's (the first grade's place, the latest grade)."""
    rng = random.Random(seed)
    rule = parse_rule("window:3")
    with Store(db) as store:
        session = JudgingSession(store, "ann", stop_rule=rule)
        session.start("1")
        stack: list[tuple[str, str, int | None]] = []  # the decisions in force, oldest first: (unit, kind, grade)
        for step in range(40):
            action = rng.random()
            if action < 0.6 and session.current is not None:
                g = rng.choice([0, 0, 0, 1, 2])
                stack.append((session.current.unit_id, "grade", g))
                session.judge(g)
            elif action < 0.7 and session.current is not None:
                stack.append((session.current.unit_id, "skip", None))
                session.skip()
            elif action < 0.85 and stack:
                stack.pop()
                session.undo()
            elif session.visited:
                session.previous_pair()
            model = model_found(stack)
            assert session.topic_id == "1"
            assert session.stop_decision() == rule.decide(model), (seed, step, stack)
            assert live_found(store, "1") == model
            assert status(store, stop=rule).topics["1"].stopping.decision == rule.decide(model)
            fresh = TopicFound.load(store, "doc", session.pool_info.name, "1")
            assert fresh.found() == model


def model_found(stack: list[tuple[str, str, int | None]]) -> list[bool]:
    """Each graded unit once, at its first grade in force, relevant when its latest grade is 1 or more."""
    first: dict[str, int] = {}
    latest: dict[str, int] = {}
    for place, (unit, kind, g) in enumerate(stack):
        if kind == "grade" and g is not None:
            first.setdefault(unit, place)
            latest[unit] = g
    return [latest[unit] >= 1 for unit in sorted(first, key=first.__getitem__)]

"""The judging session keeps a topic's queue in memory between keys (issue 15 item 3).

Seeded random sequences of the session's own decisions (grade, skip, unsure, undo, next,
flag, order and topic switches) mixed with other assessors' judgments and claims, written
through another connection (another process) or through the session's own connection,
and time passing (leases ending): after every step the kept queue is the one a fresh
computation gives, and the pairs the session would show are `free_queue`'s.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone

import pytest
from support import new_workbench

from labeler.errors import LabelerError
from labeler.store import Store
from labeler.workbench.claims import claim_pair, free_queue
from labeler.workbench.corpus import import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.queue import queue
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import import_run
from labeler.workbench.session import JudgingSession
from labeler.workbench.topics import import_topics

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
TOPICS = ("1", "2")
UNITS = [f"d{i}" for i in range(1, 11)]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """Two topics of ten documents each, from two runs (so the orders differ)."""
    folder = tmp_path_factory.mktemp("cache")
    db = folder / "cache.db"
    new_workbench(db)
    (folder / "corpus.jsonl").write_text(
        "".join(json.dumps({"id": u, "title": f"Title {u}", "text": f"text {u}"}) + "\n" for u in UNITS)
    )
    (folder / "topics.tsv").write_text("1\tone\n2\ttwo\n")
    for name, seed in (("a", 1), ("b", 2)):
        rng = random.Random(seed)
        lines = []
        for topic in TOPICS:
            for rank, unit in enumerate(rng.sample(UNITS, len(UNITS)), 1):
                lines.append(f"{topic} Q0 {unit} {rank} {20 - rank} {name}\n")
        (folder / f"{name}.txt").write_text("".join(lines))
    with Store(db) as store:
        import_corpus(store, folder / "corpus.jsonl")
        import_topics(store, folder / "topics.tsv")
        import_run(store, folder / "a.txt", "a")
        import_run(store, folder / "b.txt", "b")
        build_pool(store, 10)
    return db.read_bytes()


class Clock:
    def __init__(self) -> None:
        self.moment = T0

    def __call__(self) -> datetime:
        return self.moment


def check(session: JudgingSession, fresh: Store, after_own: bool, step: str = "start") -> None:
    topic = session.topic_id
    if topic is None:
        return
    expected = queue(
        fresh, topic, assessor=session.assessor, order=session.order, seed=session.seed, pool=session.pool_info.name
    )
    assert session.queue_items(topic) == expected
    if after_own:  # what the session loaded with its last step is what it would be shown now
        free, held = free_queue(
            fresh,
            topic,
            assessor=session.assessor,
            order=session.order,
            seed=session.seed,
            pool=session.pool_info.name,
            now=session.now(),
        )
        assert (session.queued, session.held) == (free, held), step


@pytest.mark.parametrize("seed", range(12))
def test_the_kept_queue_is_a_fresh_computation_after_every_step(template, tmp_path, seed):
    db = tmp_path / "w.db"
    db.write_bytes(template)
    rng = random.Random(seed)
    clock = Clock()
    with Store(db) as store, Store(db) as other, Store(db) as fresh:
        session = JudgingSession(store, "ann", lease=timedelta(minutes=5), now=clock)
        session.start(rng.choice(TOPICS))
        check(session, fresh, True)
        for _ in range(60):
            step = rng.choices(
                ["grade", "skip", "unsure", "undo", "next", "flag", "order", "topic", "other", "same", "claim", "time"],
                weights=[8, 2, 2, 2, 2, 1, 1, 1, 3, 2, 2, 2],
            )[0]
            own = step in ("grade", "skip", "unsure", "order", "topic")  # the steps that load the queue again
            try:
                if step == "grade":
                    session.judge(rng.choice([0, 1, 2]))
                elif step == "skip":
                    session.skip()
                elif step == "unsure":
                    session.unsure("not sure")
                elif step == "undo":
                    session.undo()
                elif step == "next":
                    session.next_pair()
                elif step == "flag":
                    session.flag("look")
                elif step == "order":
                    session.set_order(rng.choice(["pool", "rrf", "mtf", "random"]), rng.randrange(3))
                elif step == "topic":
                    session.open_topic(rng.choice(TOPICS))
                elif step in ("other", "same"):  # another assessor, in another process or on this connection
                    writer = other if step == "other" else store
                    record_judgment(
                        writer,
                        Judgment(
                            topic_id=rng.choice(TOPICS),
                            unit_id=rng.choice(UNITS),
                            assessor=rng.choice(["bob", "cat"]),
                            grade=rng.choice([0, 1, 2]),
                        ),
                    )
                elif step == "claim":
                    claim_pair(
                        other,
                        "bob",
                        rng.choice(TOPICS),
                        rng.choice(UNITS),
                        lease=timedelta(minutes=2),
                        now=clock.moment,
                    )
                else:
                    clock.moment += timedelta(minutes=rng.choice([1, 3]))
            except LabelerError:
                own = False  # nothing to judge or undo here: the step did nothing
            check(session, fresh, own, step)


def test_a_decision_and_the_next_claim_are_one_commit(template, tmp_path):
    db = tmp_path / "w.db"
    db.write_bytes(template)
    with Store(db) as store:
        session = JudgingSession(store, "ann", now=Clock())
        first = session.start("1")
        commits = []
        store.db.conn.set_trace_callback(lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
        session.judge(1)
        store.db.conn.set_trace_callback(None)
        assert len(commits) == 1
        assert session.current is not None and session.current.unit_id != first.unit_id
        with Store(db) as fresh:
            assert fresh.live_claims("doc", 0) == {("1", session.current.unit_id): {"ann"}}
            assert [e.unit_id for e in fresh.recent_events("ann", limit=5)] == [first.unit_id]


def test_a_failure_moving_on_keeps_the_decision(template, tmp_path, monkeypatch):
    db = tmp_path / "w.db"
    db.write_bytes(template)
    with Store(db) as store:
        session = JudgingSession(store, "ann", now=Clock())
        first = session.start("1")

        def broken(*args, **kwargs):
            raise RuntimeError("moving on failed")

        monkeypatch.setattr(session, "advance", broken)
        with pytest.raises(RuntimeError):
            session.judge(2)
        with Store(db) as fresh:
            events = fresh.recent_events("ann", limit=5)
            assert [(e.unit_id, e.grade) for e in events] == [(first.unit_id, 2)]

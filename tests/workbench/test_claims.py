"""Claims with leases: two assessors are never handed the same pair (issue 13, item 2)."""

from __future__ import annotations

import json
import multiprocessing
from datetime import datetime, timedelta, timezone

import pytest
from support import new_workbench

from labeler.errors import LabelerError
from labeler.store import Store
from labeler.workbench.claims import claim_next, free_queue, release, renew
from labeler.workbench.corpus import import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
RUN = (
    "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d3 3 7 r\n1 Q0 d4 4 6 r\n"
    "2 Q0 d3 1 9 r\n2 Q0 d4 2 8 r\n"
    "10 Q0 d5 1 9 r\n10 Q0 d4 2 8 r\n"
)


def make_workbench(tmp_path):
    """8 pool pairs: topic 1 d1 d2 d3 d4, topic 2 d3 d4, topic 10 d5 d4."""
    db = tmp_path / "claims.db"
    new_workbench(db)
    (tmp_path / "corpus.jsonl").write_text(
        "".join(json.dumps({"id": f"d{i}", "title": f"Title {i}", "text": f"text {i}"}) + "\n" for i in range(1, 6))
    )
    (tmp_path / "topics.tsv").write_text("1\tone\n2\ttwo\n10\tten\n")
    (tmp_path / "run.txt").write_text(RUN)
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.tsv")
        import_run(store, tmp_path / "run.txt", "bm25")
        build_pool(store, 4)
    return db


@pytest.fixture
def db(tmp_path):
    return make_workbench(tmp_path)


def pair(claim):
    return (claim.topic, claim.unit)


def test_two_assessors_get_different_pairs_and_the_same_one_again(db):
    with Store(db) as store:
        ann = claim_next(store, "ann", now=T0)
        bob = claim_next(store, "bob", now=T0)
        assert pair(ann) == ("1", "d1")
        assert pair(bob) == ("1", "d2")
        assert (bob.position, bob.remaining) == (1, 3)  # ann's d1 is not in bob's queue
        assert pair(claim_next(store, "ann", now=T0 + timedelta(minutes=1))) == ("1", "d1")
        assert pair(claim_next(store, "bob", now=T0 + timedelta(minutes=1))) == ("1", "d2")
        assert ann.lease_until == "2026-01-01T09:15:00.000000+00:00" and ann.unit_space == "doc"
        assert ann.overlap is False


def test_an_own_claim_in_another_topic_is_kept(db):
    with Store(db) as store:
        assert pair(claim_next(store, "ann", topic="10", now=T0)) == ("10", "d5")
        assert pair(claim_next(store, "ann", now=T0)) == ("10", "d5")


@pytest.mark.parametrize("kind", ["grade", "skip", "unsure", "adjudicate"])
def test_a_decision_releases_the_claim(db, kind):
    with Store(db) as store:
        claim_next(store, "ann", now=T0)
        extra = {"grade": 1} if kind in ("grade", "adjudicate") else {"reason": "why"} if kind == "unsure" else {}
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="ann", kind=kind, **extra))
        assert store.live_claims("doc", 0) == {}
        if kind == "skip":  # skipped: back at the end of ann's queue, free for bob now
            assert pair(claim_next(store, "bob", now=T0)) == ("1", "d1")


def test_a_flag_keeps_the_claim(db):
    with Store(db) as store:
        claim_next(store, "ann", now=T0)
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="ann", kind="flag"))
        assert pair(claim_next(store, "bob", now=T0)) == ("1", "d2")


def test_an_expired_lease_returns_the_pair(db):
    with Store(db) as store:
        claim_next(store, "ann", now=T0, lease=timedelta(minutes=5))
        assert pair(claim_next(store, "bob", now=T0 + timedelta(minutes=4))) == ("1", "d2")
        record_judgment(store, Judgment(topic_id="1", unit_id="d2", assessor="bob", grade=0))
        later = T0 + timedelta(minutes=5)  # the lease ends at 9:05: no claim any more
        assert pair(claim_next(store, "bob", now=later)) == ("1", "d1")
        # ann's renewal finds the pair taken
        assert renew(store, "ann", "1", "d1", timedelta(minutes=5), now=later) is None
        assert pair(claim_next(store, "ann", now=later)) == ("1", "d3")


def test_renew_and_release(db):
    with Store(db) as store:
        claim_next(store, "ann", now=T0, lease=timedelta(minutes=1))
        assert renew(store, "ann", "1", "d1", timedelta(minutes=10), now=T0) == "2026-01-01T09:10:00.000000+00:00"
        items, held = free_queue(store, "1", assessor="bob", now=T0 + timedelta(minutes=5))
        assert held == 1 and [i.unit_id for i in items] == ["d2", "d3", "d4"]
        assert release(store, "ann", "1", "d1") is True
        assert release(store, "ann", "1", "d1") is False
        assert pair(claim_next(store, "bob", now=T0)) == ("1", "d1")


def test_nothing_left_when_every_pair_is_held(db):
    with Store(db) as store:
        handed = {pair(claim_next(store, f"a{i}", now=T0)) for i in range(8)}
        assert len(handed) == 8
        assert claim_next(store, "bob", now=T0) is None
        assert free_queue(store, "1", assessor="bob", now=T0) == ([], 4)
        assert pair(claim_next(store, "bob", now=T0 + timedelta(minutes=15))) == ("1", "d1")


def test_bad_lease_and_assessor_are_refused(db):
    with Store(db) as store:
        with pytest.raises(LabelerError, match="lease"):
            claim_next(store, "ann", lease=timedelta(0))
        with pytest.raises(LabelerError, match="assessor"):
            claim_next(store, "ann\nbob")
        assert store.live_claims("doc", 0) == {}


def _claim_and_judge(db, assessor, start, queue):
    """A worker: claim, judge, repeat until nothing is left; reports every pair it was handed."""
    handed = []
    with Store(db) as store:
        start.wait()
        while (claim := claim_next(store, assessor)) is not None:
            handed.append(pair(claim))
            record_judgment(store, Judgment(topic_id=claim.topic, unit_id=claim.unit, assessor=assessor, grade=1))
    queue.put((assessor, handed))


def test_parallel_processes_never_get_the_same_pair(tmp_path):
    db = tmp_path / "many.db"
    new_workbench(db)
    lines = (f"{t} Q0 x{d} {d} {100 - d} r\n" for t in (1, 2, 3) for d in range(1, 21))
    (tmp_path / "many.txt").write_text("".join(lines))
    with Store(db) as store:
        import_run(store, tmp_path / "many.txt", "bm25")
        build_pool(store, 20)
    context = multiprocessing.get_context("spawn")
    results, start = context.Queue(), context.Barrier(3)
    names = ("ann", "bob", "cy")
    workers = [context.Process(target=_claim_and_judge, args=(db, name, start, results)) for name in names]
    for worker in workers:
        worker.start()
    handed = dict(results.get(timeout=300) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    every = [p for pairs in handed.values() for p in pairs]
    assert len(every) == len(set(every)) == 60, handed

"""Queues follow the plan: disjoint between assessors except the overlap pairs, which two judges each grade."""

from __future__ import annotations

import pytest
from support import Cli

from labeler.store import Store
from labeler.workbench.assignments import assign, current_plan
from labeler.workbench.queue import queue
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.session import JudgingSession

TOPICS = ("1", "2", "3", "4", "5")


def run_text(name: str, units: int, prefix: str = "d") -> str:
    return "".join(f"{t} Q0 {prefix}{t}-{r} {r} {1000 - r} {name}\n" for t in TOPICS for r in range(1, units + 1))


@pytest.fixture
def pooled(db_path, write) -> Cli:
    """Five topics of 100 pooled documents each: 500 pairs."""
    cli = Cli(db_path)
    cli("runs", "import", write("a.run", run_text("A", 100)), "--name", "A")
    cli("pool", "build", "--depth", "100")
    return cli


def queued(store: Store, assessor: str) -> set[tuple[str, str]]:
    return {(t, item.unit_id) for t in TOPICS for item in queue(store, t, assessor=assessor)}


def pool_pairs(store: Store, pool: str) -> set[tuple[str, str]]:
    return {(t, u) for t, units in store.pool_entries(pool).items() for u in units}


def test_overlap_share_is_near_the_asked_one_and_stable_across_calls_and_a_re_pool(pooled, write):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"], overlap=0.2, seed=3)
        plan = current_plan(store)
        pairs = pool_pairs(store, "P1")
        chosen = {p for p in pairs if plan.is_overlap(*p)}
        assert len(pairs) == 500 and abs(len(chosen) / 500 - 0.2) <= 0.05
        assign(store, ["ann", "bob"], overlap=0.2, seed=3)  # the same plan again: the same pairs
        assert {p for p in pairs if current_plan(store).is_overlap(*p)} == chosen
    pooled("runs", "import", write("b.run", run_text("B", 50, prefix="n")), "--name", "B")
    pooled("pool", "build", "--depth", "100")
    with Store(pooled.db) as store:
        plan = current_plan(store)
        grown = pool_pairs(store, "P2")
        assert pairs < grown  # the new pool adds pairs...
        assert {p for p in grown if plan.is_overlap(*p)} & pairs == chosen  # ...and keeps the old choice
        assert abs(sum(plan.is_overlap(*p) for p in grown) / len(grown) - 0.2) <= 0.05


def test_queues_are_disjoint_except_overlap_pairs_which_are_in_exactly_two(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob", "carol"], overlap=0.2, seed=1)
        plan = current_plan(store)
        queues = {name: queued(store, name) for name in ("ann", "bob", "carol")}
        pairs = pool_pairs(store, "P1")
        overlap = {p for p in pairs if plan.is_overlap(*p)}
        assert overlap and set.union(*queues.values()) == pairs  # every pair is someone's
        for pair in pairs:
            holders = [name for name, held in queues.items() if pair in held]
            assert len(holders) == (2 if pair in overlap else 1), (pair, holders)
            assert tuple(holders) == tuple(sorted(plan.judges(*pair), key=["ann", "bob", "carol"].index))
        assert queued(store, "dave") == set()  # not in the plan: nothing in assigned topics


def test_an_overlap_pair_leaves_anns_queue_when_she_grades_it_but_stays_in_bobs(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"], topics=["1"], overlap=0.5, seed=0)
        plan = current_plan(store)
        items = queue(store, "1", assessor="ann")
        pair = next(i.unit_id for i in items if plan.is_overlap("1", i.unit_id))
        single = next(i.unit_id for i in items if not plan.is_overlap("1", i.unit_id))
        record_judgment(store, Judgment(topic_id="1", unit_id=pair, assessor="ann", grade=2))
        record_judgment(store, Judgment(topic_id="1", unit_id=single, assessor="ann", grade=1))
        ann = {i.unit_id for i in queue(store, "1", assessor="ann")}
        bob = {i.unit_id for i in queue(store, "1", assessor="bob")}
        assert pair not in ann and single not in ann
        assert pair in bob and single not in bob
        record_judgment(store, Judgment(topic_id="1", unit_id=pair, assessor="bob", grade=2))
        assert pair not in {i.unit_id for i in queue(store, "1", assessor="bob")}
        # topic 2 is unassigned: everyone's queue holds all of it, as without a plan
        assert len(queue(store, "2", assessor="bob")) == len(queue(store, "2", assessor="ann")) == 100


def test_the_judging_session_starts_on_the_assessors_topics_then_unassigned_ones(pooled):
    with Store(pooled.db) as store:
        assign(store, ["ann", "bob"], topics=["1", "2", "3"])
        assert JudgingSession(store, "bob").start().topic_id == "2"
        assert JudgingSession(store, "ann").start().topic_id == "1"
        assert JudgingSession(store, "carol").start().topic_id == "4"  # not in the plan: the unassigned topics
        bob = JudgingSession(store, "bob")
        bob.start()
        assert bob.first_unfinished_topic(after="2") == "4"  # bob's own topics, then the unassigned ones

"""A whole judging campaign through the CLI: three rounds of pooling, three assessors judging in parallel.

This is the issue-13 acceptance test. Each round pools, then three worker processes
(one per assessor) loop `labeler next --json` / `labeler judgments add` until nothing
is left for them, exactly as a script or a remote client would, and the topics are
marked reviewed and snapshotted. Between rounds a re-pool adds units to reviewed
topics: they must show as `reopened`, never be scored as complete, and `compare v1 v3`
must name them and the gain of the run that found what nobody had judged.

The data is synthetic so the truth is known: every topic has eight relevant
documents; runs A and B rank four of them in their top 10 and bury the rest, and
run C (imported in round 2) ranks the buried ones first.
"""

from __future__ import annotations

import json
import multiprocessing
import random
from collections import defaultdict
from pathlib import Path

import pytest
from support import Cli

from labeler.store import Store
from labeler.workbench.assignments import current_plan

ASSESSORS = ("ann", "bob", "cat")
TOPICS = [str(t) for t in range(1, 10)]  # 1..9: natural order puts "9" before "10" were there more
DOCS = [f"d{i:03d}" for i in range(150)]
OVERLAP = 0.2


def _truth() -> dict[str, set[str]]:
    rng = random.Random(13)
    return {t: set(rng.sample(DOCS, 8)) for t in TOPICS}


def _grade(truth: dict[str, set[str]], topic: str, unit: str) -> int:
    return 2 if unit in truth[topic] else 0


def _run(truth: dict[str, set[str]], name: str, seed: int) -> str:
    """A TREC run: A and B find four relevant documents early; C finds the other four."""
    rng = random.Random(seed)
    lines = []
    for topic in TOPICS:
        relevant = sorted(truth[topic])
        others = [d for d in DOCS if d not in truth[topic]]
        rng.shuffle(others)
        if name == "C":
            ranking = relevant[4:] + others[:16] + relevant[:4]
        else:
            early, late = relevant[:4], relevant[4:]
            ranking = early + others[:16] + late
            ranking = ranking[:4] + sorted(ranking[4:20], key=lambda _: rng.random()) + ranking[20:]
        for rank, doc in enumerate(ranking, 1):
            lines.append(f"{topic} Q0 {doc} {rank} {100 - rank} {name}")
    return "\n".join(lines) + "\n"


def _judge_round(cli: Cli, assessor: str, truth: dict[str, set[str]]) -> list:
    """One assessor's loop: claim the next unit, judge it, until `next` says nothing is left."""
    judged = []
    while True:
        claim = cli.json("next", "--assessor", assessor)
        if claim["unit"] is None:
            break
        cli(
            "judgments",
            "add",
            claim["topic"],
            claim["unit"],
            str(_grade(truth, claim["topic"], claim["unit"])),
            "--assessor",
            assessor,
            "--unit",
            claim["unit_space"],
        )
        judged.append((claim["topic"], claim["unit"], claim["overlap"]))
    return judged


def _worker(db: str, assessor: str, truth: dict[str, set[str]], rounds, out) -> None:
    """One assessor's process: judge a round each time it is told to, until told to stop (None)."""
    cli = Cli(Path(db))
    while rounds.get(timeout=600) is not None:
        out.put((assessor, _judge_round(cli, assessor, truth)))


class _Assessors:
    """The three assessors' processes, started once and judging in parallel in every round.

    Each is a fresh interpreter (spawn), as separate terminals would be; they stay up between
    rounds, as the assessors' terminals would, which spares two start-ups of each per campaign.
    """

    def __init__(self, db: Path, truth: dict[str, set[str]]):
        context = multiprocessing.get_context("spawn")
        self.out = context.Queue()
        self.rounds = {a: context.Queue() for a in ASSESSORS}
        self.workers = [
            context.Process(target=_worker, args=(str(db), a, truth, self.rounds[a], self.out)) for a in ASSESSORS
        ]
        for worker in self.workers:
            worker.start()

    def judge_in_parallel(self) -> dict[str, list]:
        for assessor in ASSESSORS:
            self.rounds[assessor].put("judge")
        return dict(self.out.get(timeout=600) for _ in ASSESSORS)

    def stop(self) -> None:
        for assessor in ASSESSORS:
            self.rounds[assessor].put(None)
        for worker in self.workers:
            worker.join(timeout=60)
            if worker.exitcode is None:
                worker.kill()
        assert [w.exitcode for w in self.workers] == [0] * len(ASSESSORS)


def _graders(db: Path) -> dict[tuple[str, str], set[str]]:
    """Who graded each pair, from the log itself."""
    with Store(db) as store:
        graders: dict[tuple[str, str], set[str]] = defaultdict(set)
        for event in store.unit_events("doc"):
            if event.kind == "grade":
                graders[(event.topic_id, event.unit_id)].add(event.assessor)
    return graders


def _pool_pairs(cli: Cli, pool: str) -> set[tuple[str, str]]:
    status = cli.json("status", "--pool", pool)
    with Store(cli.db) as store:
        return {(t, u) for t in status["topics"] for u in store.pool_topic_units(pool, t)}


def _mark_all_reviewed(cli: Cli) -> None:
    for topic in TOPICS:
        cli("topics", "mark", topic, "reviewed", "--assessor", "lead")


def _three_rounds(cli: Cli, folder: Path, assessors: _Assessors) -> None:
    """Pool, judge in parallel, review and snapshot, three times: a new run, then a deeper pool, reopen topics."""
    # Round 1: pool A and B, split the topics with a planned overlap, judge, review, snapshot.
    cli("pool", "build", "--depth", "10")
    cli("assign", "--assessors", ",".join(ASSESSORS), "--overlap", str(OVERLAP), "--seed", "7")
    listing = cli.json("assign", "--list")
    assert listing, "assign --list shows the plan"
    first = assessors.judge_in_parallel()
    assert all(first[a] for a in ASSESSORS), "every assessor had work"
    _mark_all_reviewed(cli)
    cli("snapshot", "create", "-m", "round 1")

    # Round 2: a new run joins; its units reopen the reviewed topics.
    cli("runs", "import", folder / "C.run", "--name", "C")
    cli("pool", "build", "--depth", "10")
    _assert_reopened_never_complete(cli, "P2")
    assessors.judge_in_parallel()
    _mark_all_reviewed(cli)
    cli("snapshot", "create", "-m", "round 2")

    # Round 3: a deeper pool reopens them again.
    cli("pool", "build", "--depth", "20")
    _assert_reopened_never_complete(cli, "P3")
    assessors.judge_in_parallel()
    _mark_all_reviewed(cli)
    cli("snapshot", "create", "-m", "round 3")


@pytest.mark.slow
def test_three_rounds_three_assessors(tmp_path):
    truth = _truth()
    db = tmp_path / "campaign.db"
    cli = Cli(db)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": d, "title": f"Document {d}", "text": f"text of {d}"}) + "\n" for d in DOCS)
    )
    topics = tmp_path / "topics.jsonl"
    topics.write_text("".join(json.dumps({"id": t, "title": f"topic {t}"}) + "\n" for t in TOPICS))
    for name, seed in (("A", 1), ("B", 2), ("C", 3)):
        (tmp_path / f"{name}.run").write_text(_run(truth, name, seed))
    cli("init")
    cli("corpus", "import", corpus)
    cli("topics", "import", topics)
    cli("runs", "import", tmp_path / "A.run", "--name", "A")
    cli("runs", "import", tmp_path / "B.run", "--name", "B")

    assessors = _Assessors(db, truth)
    try:
        _three_rounds(cli, tmp_path, assessors)
    finally:
        assessors.stop()

    # Every pool pair judged; nobody judged a pair twice outside the overlap; the overlap is the planned share.
    graders = _graders(db)
    pairs = _pool_pairs(cli, "P1") | _pool_pairs(cli, "P2") | _pool_pairs(cli, "P3")
    assert pairs <= set(graders), f"{len(pairs - set(graders))} pool pairs never judged"
    with Store(db) as store:
        plan = current_plan(store)
        overlap = {pair for pair in pairs if plan.is_overlap(*pair)}
    for pair, who in graders.items():
        assert len(who) == (2 if pair in overlap else 1), (pair, who)
    assert abs(len(overlap) / len(pairs) - OVERLAP) <= 0.05
    for (topic, _), who in graders.items():
        assert set(plan.judges(topic, _)) == who

    # Everything reviewed again at the end; v3 holds every pool pair's label.
    status = cli.json("status")
    assert {row["review_status"] for row in status["topics"].values()} == {"reviewed"}
    assert status["totals"]["unjudged"] == 0

    # compare v1 v3 names the reopened topics and the new run's gain.
    compared = cli.json("compare", "v1", "v3")
    assert set(compared["reopened_since"]) == set(TOPICS)
    assert "C" in str(compared["ranking"]["gained"])
    assert compared["runs"]["C"]["recall"]["R@10"]["change"]["macro"] > 0
    text = cli("compare", "v1", "v3").stdout
    assert "reopened" in text and "C" in text


def _assert_reopened_never_complete(cli: Cli, pool: str) -> None:
    """After a re-pool, before judging: every topic it added units to is reopened and left out of eval."""
    status = cli.json("status")
    reopened = {t for t, row in status["topics"].items() if row["review_status"] == "reopened"}
    assert reopened == set(TOPICS)
    assert all(status["topics"][t]["reopened"]["pool"] == pool for t in reopened)
    assert all(status["topics"][t]["reopened"]["unjudged"] > 0 for t in reopened)
    scored = cli.json("eval")
    for run in scored["runs"]:
        excluded = run["topics"]["excluded_topics"]
        assert {t for t, why in excluded.items() if why == "reopened"} == set(TOPICS), run["run"]
        assert run["topics"]["scored"] == 0

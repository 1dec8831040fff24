"""`coverage_report` reads runs a batch of topics at a time; the batch size never changes a figure.

The report streams topics so that memory holds one batch's rankings; here the
same workbench is reported on in batches of one topic, of a few, and all at
once, and checked against the all-at-once domain functions fed every ranking.
"""

from __future__ import annotations

import math
import random

import pytest

import labeler.workbench.batches as batches_module
from labeler.coverage import estimate_relevant, judged_coverage, leave_one_run_out, recall_curve
from labeler.store import Store
from labeler.workbench.alignment import aligned_labels, aligned_rankings, scored_topics
from labeler.workbench.batches import topic_batches
from labeler.workbench.coverage import CoverageRequest, coverage_report
from labeler.workbench.snapshots import resolve_snapshot

TOPICS = [str(t) for t in range(1, 13)]


@pytest.fixture
def workbench(run_cli, write, db_path):
    rng = random.Random(7)
    units = [f"d{i}" for i in range(40)]
    pooled: dict[str, set[str]] = {}
    for run in ("A", "B", "C", "D"):
        lines = []
        for topic in TOPICS:
            if run == "D" and topic in ("3", "4"):
                continue  # D has nothing for two topics
            for rank, unit in enumerate(rng.sample(units, rng.randint(5, 30)), 1):
                lines.append(f"{topic} Q0 {unit} {rank} {100 - rank} {run}\n")
                if rank <= 4:
                    pooled.setdefault(topic, set()).add(unit)
        run_cli("runs", "import", write(f"{run}.run", "".join(lines)), "--name", run)
    run_cli("pool", "build", "--depth", "4")
    qrels = "".join(
        f"{topic} 0 {unit} {rng.choice([0, 0, 1, 2])}\n" for topic in TOPICS[:-2] for unit in rng.sample(units, 15)
    )
    # the pool's units too, or the reviewed topics would be reopened by P1 (and left out of the scores)
    qrels += "".join(
        f"{topic} 0 {unit} 0\n" for topic in TOPICS[:-2] for unit in sorted(pooled[topic] - set(_units(qrels, topic)))
    )
    run_cli("judgments", "import", write("truth.qrels", qrels), "--assessor", "ann", "--reviewed")
    run_cli("snapshot", "create", "-m", "v1")
    return db_path


def _units(qrels: str, topic: str) -> list[str]:
    return [line.split()[2] for line in qrels.splitlines() if line.split()[0] == topic]


@pytest.mark.parametrize("batch_units", [1, 60, 250])
def test_batch_size_changes_nothing(workbench, monkeypatch, batch_units):
    with Store(workbench) as store:
        whole = coverage_report(store, CoverageRequest(depth=5))
        monkeypatch.setattr(batches_module, "BATCH_UNITS", batch_units)
        assert len(topic_batches(TOPICS, store.runs())) > 1
        assert coverage_report(store, CoverageRequest(depth=5)) == whole


def test_streamed_report_equals_the_all_at_once_functions(workbench):
    with Store(workbench) as store:
        report = coverage_report(store, CoverageRequest(depth=5))
        info = resolve_snapshot(store, None)
        qrels, _ = aligned_labels(store, info, None)
        rankings = {run.name: aligned_rankings(store, info, run, None)[0] for run in store.runs()}
        scored, _, _ = scored_topics(info, qrels, {}, 1, include_unreviewed=False)
        assert resolve_snapshot(store, None).name == report.snapshot == "v1"
    topics = sorted(set(qrels) | {t for r in rankings.values() for t in r}, key=int)
    judged = judged_coverage(qrels, rankings, topics=topics, depth=5, threshold=1)
    bias = leave_one_run_out(qrels, rankings, topics=scored, depth=5, threshold=1)
    estimates = estimate_relevant(qrels, rankings, topics=topics, depth=5, threshold=1)
    assert report.scored_topics == len(scored) == 10  # the judged, reviewed topics; 11 and 12 have no label
    for run in rankings:
        row = report.runs[run]
        assert row.judged == judged["runs"][run]["judged"]
        assert row.unique == judged["runs"][run]["unique"]
        assert row.recall_curve == recall_curve(qrels, rankings[run], topics=scored, threshold=1)
        for measure, values in bias["runs"][run]["measures"].items():
            assert (row.loro or {})[measure] == {k: values[k] for k in ("full", "without", "drop", "relative_drop")}
    assert report.ranking.kendall_tau == bias["ranking"]["AP"]["kendall_tau"]
    for topic in topics:
        assert report.topics[topic].r_estimate == estimates["topics"][topic]["estimate"]
        assert report.topics[topic].pool == judged["topics"][topic]["pool"]


def test_topic_batches_hold_about_the_units_asked_for(workbench):
    with Store(workbench) as store:
        runs = store.runs()
    per_topic = sum(run.entries / run.topics for run in runs)
    batches = topic_batches(TOPICS, runs, batch_units=math.ceil(per_topic * 3))
    assert [len(b) for b in batches] == [3, 3, 3, 3]
    assert [t for b in batches for t in b] == TOPICS
    assert topic_batches(TOPICS, runs, batch_units=1) == [[t] for t in TOPICS]
    assert topic_batches([], runs) == []


def test_eval_and_compare_in_batches_equal_all_at_once(workbench, write, run_cli, monkeypatch):
    from labeler.coverage import compare_snapshots
    from labeler.workbench.coverage import CompareRequest, compare_report
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs

    # six relevant units no run ranks (the runs draw from d0-d39) for three topics: R grows, scores fall
    more = "".join(f"{t} 0 d{i} 2\n" for t in ("1", "2", "11") for i in range(40, 46))
    run_cli("judgments", "import", write("more.qrels", more), "--assessor", "bob", "--reviewed")
    run_cli("snapshot", "create", "-m", "v2")
    with Store(workbench) as store:
        scores = evaluate_runs(store, EvalRequest(per_query=True, measures="AP nDCG@10 R@5 R@20 RBP(p=0.8) Judged@5"))
        compared = compare_report(store, CompareRequest(old="v1", new="v2", depth=5))
        monkeypatch.setattr(batches_module, "BATCH_UNITS", 1)  # one topic per batch
        assert (
            evaluate_runs(store, EvalRequest(per_query=True, measures="AP nDCG@10 R@5 R@20 RBP(p=0.8) Judged@5"))
            == scores
        )
        assert compare_report(store, CompareRequest(old="v1", new="v2", depth=5)) == compared
        v1, v2 = resolve_snapshot(store, "v1"), resolve_snapshot(store, "v2")
        (before, _), (after, _) = aligned_labels(store, v1, None), aligned_labels(store, v2, None)
        rankings = {run.name: aligned_rankings(store, v1, run, None)[0] for run in store.runs()}
        topics, _, _ = scored_topics(v2, after, {}, 1, include_unreviewed=False)
    whole = compare_snapshots(before, after, rankings, topics=topics, threshold=1, depth=5)
    assert compared.runs == whole["runs"]
    # topics 1 and 2 gain six each; topic 11's six are not compared (reopened, below)
    assert compared.labels == whole["labels"] == {"added": 12, "changed": 0, "retracted": 0}
    assert set(compared.topics_grown) == {"1", "2"}
    assert compared.ranking.after == whole["ranking"]["after"]
    # topic 11 is marked reviewed in v2 with a relevant label, but none of its P1 units is judged: reopened
    assert compared.topics == len(topics) == 10 and compared.reopened["11"]["pool"] == "P1"

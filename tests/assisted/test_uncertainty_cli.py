"""`--order uncertainty --model NAME` on queue, next, the judging session and replay, on a tiny workbench."""

from __future__ import annotations

import json

import pytest
from support import Cli

from labeler.ordering import ORDERS
from labeler.store import Store
from labeler.workbench.corpus import import_corpus
from labeler.workbench.init import init_workbench
from labeler.workbench.pools import build_pool
from labeler.workbench.runs import import_run
from labeler.workbench.session import JudgingSession
from labeler.workbench.topics import import_topics

CORPUS = "".join(json.dumps({"id": f"d{i}", "title": f"t{i}", "text": f"text {i}"}) + "\n" for i in range(1, 5))
RUN = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d3 3 7 r\n1 Q0 d4 4 6 r\n"
# Stated margins (top two): d1 0.8, d2 0.1, d3 0.4; d4 has no model label. With no human label the calibrator
# has no example and the stated probabilities rank them: d4 (no label) first, then d2, d3, d1.
MODEL = [
    {"topic": "1", "unit": "d1", "grade": 0, "probs": {"0": 0.9, "1": 0.1, "2": 0.0, "3": 0.0}},
    {"topic": "1", "unit": "d2", "grade": 1, "probs": {"0": 0.45, "1": 0.55, "2": 0.0, "3": 0.0}},
    {"topic": "1", "unit": "d3", "grade": 2, "probs": {"0": 0.0, "1": 0.3, "2": 0.7, "3": 0.0}},
]


@pytest.fixture
def cli(tmp_path):
    db = tmp_path / "wb.db"
    init_workbench(db)
    (tmp_path / "corpus.jsonl").write_text(CORPUS)
    (tmp_path / "topics.tsv").write_text("1\tmaize\tmaize?\tmaize.\n")
    (tmp_path / "run.txt").write_text(RUN)
    (tmp_path / "model.jsonl").write_text("".join(json.dumps(line) + "\n" for line in MODEL))
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.tsv")
        import_run(store, tmp_path / "run.txt", "r")
        build_pool(store, 4)
    runner = Cli(db)
    runner("judgments", "import", tmp_path / "model.jsonl", "--source", "model", "--model", "m")
    return runner


def refused(cli, *args) -> str:
    result = cli(*args, expect=2)
    return result.output + (result.stderr or "")


def units(out):
    return [n["unit"] for n in out["next"]]


def test_queue_and_next_rank_by_the_models_uncertainty(cli):
    out = cli.json("queue", "--order", "uncertainty", "--model", "m", "--assessor", "ann")
    assert units(out) == ["d4", "d2", "d3", "d1"]
    assert out["model"] == "m" and out["order"] == "uncertainty"
    assert cli.json("queue", "--assessor", "ann")["model"] is None  # other orders: no model read
    assert cli.json("next", "--order", "uncertainty", "--model", "m", "--assessor", "ann")["unit"] == "d4"
    cli("judgments", "add", "1", "d4", "0", "--assessor", "ann")
    assert units(cli.json("queue", "--order", "uncertainty", "--model", "m", "--assessor", "ann")) == ["d2", "d3", "d1"]


def test_an_uncertainty_order_without_a_model_or_with_an_unknown_one_is_refused(cli):
    for command in ("queue", "next"):
        result = refused(cli, command, "--order", "uncertainty", "--assessor", "ann")
        assert "--model" in result and "needs a model" in result
        result = refused(cli, command, "--order", "uncertainty", "--model", "nope", "--assessor", "ann")
        assert "nope" in result and "models with labels: m" in result


def test_the_judging_session_ranks_by_the_model_and_keeps_its_cache(cli):
    with Store(cli.db) as store:
        session = JudgingSession(store, "ann", order="uncertainty", model="m")
        assert session.start().unit_id == "d4"
        assert session.judge(0) is not None
        assert session.current.unit_id == "d2"
        session.judge(1)
        assert session.current.unit_id == "d3"
        blind = JudgingSession(store, "bob", order="uncertainty")  # no model: every unit unlabelled, pool order
        assert blind.start().unit_id == "d1"


def test_replay_replays_uncertainty_only_with_a_model(cli):
    for unit, grade in (("d1", 0), ("d2", 2), ("d3", 2), ("d4", 0)):
        cli("judgments", "add", "1", unit, str(grade), "--assessor", "ann")
    cli("snapshot", "create", "-m", "all")
    args = ("replay", "--depth", "4", "--runs", "r", "--measure", "P@5", "--stop", "")
    plain = cli.json(*args)
    assert list(plain["orders"]) == ["oracle", *(o.name for o in ORDERS.values() if not o.needs_model)]
    assert plain["model"] is None
    out = cli.json(*args, "--orders", "uncertainty", "--model", "m")
    assert list(out["orders"]) == ["oracle", "uncertainty"] and out["model"] == "m"
    # d4 (no model label, grade 0) first; d4 gives the calibrator no example (the model did not label it), so
    # the stated margins pick d2 (0.1, grade 2: relevant) next
    relevant_found = [found for _, found in out["orders"]["uncertainty"]["curve"]]
    assert relevant_found[:2] == [0, 1] and relevant_found[-1] == 2
    assert "needs a model" in refused(cli, *args, "--orders", "uncertainty")


def test_the_models_labels_are_read_again_when_the_workbench_changes(cli):
    from labeler.workbench.queue import queue
    from labeler.workbench.record_judgments import Judgment, record_judgment

    with Store(cli.db) as store:
        first = [i.unit_id for i in queue(store, "1", assessor="ann", order="uncertainty", model="m")]
        assert first == ["d4", "d2", "d3", "d1"]
        # the same store again: the labels read once serve the second queue
        assert [i.unit_id for i in queue(store, "1", assessor="ann", order="uncertainty", model="m")] == first
        # the model now labels d4 and is torn on d1: the next queue reads its labels again
        for unit, probs in (("d4", {0: 1.0, 1: 0.0, 2: 0.0, 3: 0.0}), ("d1", {0: 0.5, 1: 0.5, 2: 0.0, 3: 0.0})):
            grade = max(probs, key=probs.get)
            record_judgment(
                store,
                Judgment(
                    topic_id="1", unit_id=unit, assessor="bot", grade=grade, source="model", model="m", probs=probs
                ),
            )
        assert [i.unit_id for i in queue(store, "1", assessor="ann", order="uncertainty", model="m")] == [
            "d1",
            "d2",
            "d3",
            "d4",
        ]

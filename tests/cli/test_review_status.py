"""Review status per (topic, unit space), derived with the pool: reopened, in_progress after a mark, per space."""

from __future__ import annotations

import pytest

# topic 1: a1..a4 (A) and b1..b4 (B); topic 2: c1..c3 (A only)
RUN_A = "".join(f"1 Q0 a{r} {r} {100 - r} A\n" for r in range(1, 5)) + "".join(
    f"2 Q0 c{r} {r} {100 - r} A\n" for r in range(1, 4)
)
RUN_B = "".join(f"1 Q0 b{r} {r} {100 - r} B\n" for r in range(1, 5))
PRIOR = "1 0 a1 2\n1 0 a2 0\n2 0 c1 1\n2 0 c2 0\n2 0 c3 0\n"  # prior labels: topic 1 partly, topic 2 fully


@pytest.fixture
def prior(run_cli, write):
    """Prior judgments imported as reviewed, then a pool P1 of run A at depth 4."""
    run_cli("runs", "import", write("a.run", RUN_A), "--name", "A", "--allow-unknown")
    run_cli("judgments", "import", write("prior.qrels", PRIOR), "--assessor", "nist", "--reviewed", "--allow-unknown")
    run_cli("pool", "build", "--depth", "4", "--runs", "A")
    return run_cli


def test_prior_reviewed_topic_is_reopened_by_the_pool_and_not_scored(prior):
    topics = prior.json("status")["topics"]
    assert topics["1"]["review_status"] == "reopened"
    assert topics["1"]["reopened"] == {"pool": "P1", "unjudged": 2}  # a3, a4
    assert (topics["2"]["review_status"], topics["2"]["reopened"]) == ("reviewed", None)
    assert "reopened by P1 (2 unjudged)" in prior("status").stdout

    prior("snapshot", "create", "-m", "prior")
    manifest = prior.json("snapshot", "show")["manifest"]["topics"]
    assert manifest["1"]["review_status"] == "reopened" and manifest["1"]["reopened"] == {"pool": "P1", "unjudged": 2}
    assert "reopened by P1 (2 unjudged)" in prior("snapshot", "show").stdout

    run = prior.json("eval", "--measures", "P@2")["runs"][0]
    assert run["topics"]["excluded_topics"]["1"] == "reopened"
    assert run["topics"]["reopened"] == {"1": {"pool": "P1", "unjudged": 2}}
    assert run["topics"]["scored"] == 1 and run["topics"]["lower_bound"] == []
    text = prior("eval", "--measures", "P@2").stderr
    assert "1 reopened" in text and "1 by P1 (2 unjudged)" in text and "--include-reopened" in text

    run = prior.json("eval", "--measures", "P@2", "--include-reopened")["runs"][0]
    assert run["topics"]["scored"] == 2 and run["topics"]["lower_bound"] == ["1"]
    assert "1" not in run["topics"]["excluded_topics"]
    assert (
        "lower bound for the reopened topics 1 (2 unjudged)"
        in prior("eval", "--measures", "P@2", "--include-reopened").stderr
    )

    coverage = prior.json("coverage", "--no-loro")
    assert coverage["reopened"] == {"1": {"pool": "P1", "unjudged": 2}} and coverage["scored_topics"] == 1


def test_judging_the_reopened_units_then_marking_again(prior):
    prior("judgments", "add", "1", "a3", "1", "--assessor", "ann")
    assert prior.json("status")["topics"]["1"]["reopened"] == {"pool": "P1", "unjudged": 1}
    prior("judgments", "add", "1", "a4", "0", "--assessor", "ann")
    assert prior.json("status")["topics"]["1"]["review_status"] == "in_progress"  # judged after the mark
    prior("topics", "mark", "1", "reviewed", "--assessor", "ann")
    assert prior.json("status")["topics"]["1"]["review_status"] == "reviewed"


def test_judging_after_a_mark_makes_it_in_progress(prior):
    prior("judgments", "add", "2", "c2", "2", "--assessor", "nist")  # a correction after the mark
    assert prior.json("status")["topics"]["2"]["review_status"] == "in_progress"
    prior("judgments", "undo", "--assessor", "nist")  # the retracted grade no longer counts
    assert prior.json("status")["topics"]["2"]["review_status"] == "reviewed"


def test_a_repool_reopens_a_reviewed_topic_by_the_new_pool(prior, write):
    for unit in ("a3", "a4"):
        prior("judgments", "add", "1", unit, "0", "--assessor", "ann")
    prior("topics", "mark", "1", "reviewed", "--assessor", "ann")
    prior("runs", "import", write("b.run", RUN_B), "--name", "B", "--allow-unknown")
    prior("pool", "build", "--depth", "3")
    topics = prior.json("status")["topics"]
    assert topics["1"]["review_status"] == "reopened" and topics["1"]["reopened"] == {"pool": "P2", "unjudged": 3}
    assert topics["2"]["review_status"] == "reviewed"


def test_marks_belong_to_a_unit_space(run_cli, write):
    run_cli("corpus", "import", write("c.tsv", "d1\tone two three four five six\nd2\tseven eight nine\n"))
    run_cli("topics", "import", write("t.tsv", "1\tnumbers\n"))
    run_cli("corpus", "chunk", "--name", "w3", "--size", "3")
    run_cli("runs", "import", write("d.run", "1 Q0 d1 1 2 d\n1 Q0 d2 2 1 d\n"), "--name", "docs")
    run_cli("pool", "build", "--depth", "2")
    run_cli("judgments", "add", "1", "d1", "1", "--assessor", "ann")
    run_cli("judgments", "add", "1", "d2", "0", "--assessor", "ann")
    assert run_cli.json("topics", "mark", "1", "reviewed", "--assessor", "ann")["unit"] == "doc"
    run_cli(
        "runs", "import", write("c.run", "1 Q0 d1#0 1 9 c\n1 Q0 d1#1 2 8 c\n"), "--name", "chunks", "--unit", "chunk:w3"
    )
    run_cli("pool", "build", "--depth", "2", "--runs", "chunks", "--unit", "chunk:w3")
    chunks = run_cli.json("status")
    assert chunks["unit"] == "chunk:w3"
    assert chunks["topics"]["1"]["review_status"] == "unreviewed"  # the document mark says nothing of chunks
    assert run_cli.json("status", "--unit", "doc")["topics"]["1"]["review_status"] == "reviewed"
    marked = run_cli.json("topics", "mark", "1", "reviewed", "--unit", "chunk:w3", "--assessor", "ann")
    assert marked == {"topic": "1", "status": "reviewed", "unit": "chunk:w3"}
    assert run_cli.json("status")["topics"]["1"]["review_status"] == "reopened"  # no chunk judged yet
    assert run_cli.json("status")["topics"]["1"]["reopened"] == {"pool": "P2", "unjudged": 2}


def test_a_merged_mark_keeps_its_unit_space(tmp_path, write):
    from support import Cli, new_workbench

    benches = []
    for name in ("a", "b"):
        new_workbench(tmp_path / f"{name}.db")
        bench = Cli(tmp_path / f"{name}.db")
        bench("corpus", "import", write("c.tsv", "d1\tone two three four five six\n"))
        bench("corpus", "chunk", "--name", "w3", "--size", "3")
        benches.append(bench)
    a, b = benches
    b("topics", "mark", "1", "reviewed", "--unit", "chunk:w3", "--assessor", "bob")
    a("merge", b.db)
    assert a.json("status", "--unit", "chunk:w3")["topics"]["1"]["review_status"] == "reviewed"
    assert a.json("status", "--unit", "doc")["topics"]["1"]["review_status"] == "unreviewed"

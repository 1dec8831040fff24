"""eval, coverage, compare and agreement say what is wrong in the domain's words and what to do as a flag.

A bad option value (out of range, names nothing) exits 2 with `Error: --flag: reason`, as click's usage
errors do; a request the labels cannot answer exits 1 with the hint the CLI renders, `(pass --unit doc ...)`.
"""

from __future__ import annotations

import pytest

from labeler.errors import BadArgumentError, Hint, LabelerError
from labeler.store import Store
from labeler.workbench.evaluation import EvalRequest, evaluate_runs, stage_table

CORPUS = "d1\tone two three four five six\nd2\tseven eight nine ten\nd3\televen twelve\n"
CHUNK_RUN = "1 Q0 d1#1 1 9 c\n1 Q0 d2#0 2 8 c\n1 Q0 d1#0 3 7 c\n"
DOC_RUN = "1 Q0 d3 1 9 d\n1 Q0 d2 2 8 d\n"


@pytest.fixture
def chunk_labels(run_cli, write):
    """A chunk run and a document run; chunk labels frozen in v1."""
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run_cli("runs", "import", write("c.run", CHUNK_RUN), "--name", "chunks", "--unit", "chunk:w2")
    run_cli("runs", "import", write("d.run", DOC_RUN), "--name", "docs")
    run_cli("judgments", "add", "1", "d1#1", "2", "--assessor", "ann", "--unit", "chunk:w2")
    run_cli("snapshot", "create", "-m", "chunks")
    return run_cli


def only_error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and result.stdout == "", result.stderr
    return lines[0]


def test_a_document_run_on_chunk_labels_is_pointed_to_document_level(chunk_labels):
    result = chunk_labels("eval", "--runs", "docs", expect=1)
    assert only_error(result) == (
        "Error: run 'docs' ranks documents but snapshot v1 labels chunk:w2 "
        "(pass --unit doc to evaluate at document level (document grades derived from chunk labels))"
    )
    assert chunk_labels.json("eval", "--runs", "docs", "--unit", "doc")["runs"][0]["unit"] == "doc"


def test_no_run_of_the_labels_unit_is_pointed_to_document_level(chunk_labels):
    chunk_labels("runs", "retire", "chunks")
    for command in ("eval", "coverage"):
        assert only_error(chunk_labels(command, expect=1)) == (
            "Error: no run ranks chunk:w2 units, so none can be scored on these labels (runs: docs) "
            "(pass --unit doc to work at document level)"
        )


def test_a_unit_the_snapshot_cannot_give_is_a_bad_argument(chunk_labels):
    for command in ("eval", "coverage"):
        assert only_error(chunk_labels(command, "--unit", "chunk:zz", expect=2)) == (
            "Error: --unit: must be 'doc' or the snapshot's unit (chunk:w2), not 'chunk:zz'"
        )


@pytest.mark.parametrize("command", [["eval"], ["coverage"], ["compare", "v1", "v1"]])
def test_a_depth_below_one_is_a_bad_argument(chunk_labels, command):
    result = chunk_labels(*command, "--depth", "0", expect=2)
    assert only_error(result) == "Error: --depth: must be a whole number from 1 to 1000000, not '0'"


def test_no_runs_asks_for_runs(run_cli):
    run_cli("judgments", "add", "1", "d1", "1", "--assessor", "ann")
    run_cli("snapshot", "create", "-m", "one label")
    assert only_error(run_cli("eval", expect=1)) == "Error: no runs (run 'labeler runs import')"


def test_snapshots_of_two_unit_spaces_compare_at_document_level(chunk_labels):
    chunk_labels("judgments", "add", "1", "d2", "1", "--assessor", "ann")
    chunk_labels("snapshot", "create", "-m", "docs", "--unit", "doc")
    old, new = "v1", chunk_labels.json("snapshot", "list")[-1]["snapshot"]
    assert only_error(chunk_labels("compare", old, new, expect=1)) == (
        f"Error: snapshot {old} labels chunk:w2 and {new} labels doc "
        "(pass --unit doc to compare them at document level)"
    )


def test_agreement_on_a_snapshot_of_another_unit_is_a_bad_argument(chunk_labels):
    assert only_error(chunk_labels("agreement", "--snapshot", "v1", "--unit", "doc", expect=2)) == (
        "Error: --unit: snapshot v1 holds chunk:w2 labels, not 'doc': "
        "leave it out or choose a snapshot of that unit space"
    )


def test_the_services_raise_bad_arguments_and_hints(chunk_labels, db_path):
    with Store(db_path) as store:
        with pytest.raises(BadArgumentError) as average:
            evaluate_runs(store, EvalRequest(average="mean"))
        with pytest.raises(BadArgumentError) as measures:
            evaluate_runs(store, EvalRequest(measures="Q@5"))
        report = evaluate_runs(store, EvalRequest(runs=["chunks"], measures="R@5"))
        with pytest.raises(BadArgumentError) as stages:
            stage_table(report.runs, ["chunks", "later"])
    assert (average.value.argument, average.value.reason) == (
        "average",
        "must be one of reviewed, trec_eval, trec_eval_c, not 'mean'",
    )
    assert measures.value.argument == "measures" and "Q@5" in measures.value.reason
    assert (stages.value.argument, stages.value.reason) == ("stages", "names runs that were not evaluated: later")
    chunk_labels("runs", "retire", "chunks")
    chunk_labels("runs", "retire", "docs")
    with Store(db_path) as store, pytest.raises(LabelerError) as retired:
        evaluate_runs(store, EvalRequest())
    assert retired.value.reason == "every run is retired (chunks, docs)"
    assert retired.value.hints == (Hint("set_argument", argument="runs", why="to name the runs to score"),)

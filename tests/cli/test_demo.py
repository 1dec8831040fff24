"""`labeler demo --no-tui` builds the whole workflow on the sample corpus and prints real figures."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from labeler.cli import cli
from labeler.store import Store


@pytest.mark.slow
def test_demo_without_the_ui(tmp_path):
    folder = tmp_path / "demo"
    out = CliRunner().invoke(cli, ["demo", "--dir", str(folder), "--no-tui"], catch_exceptions=False)
    assert out.exit_code == 0, out.stderr
    db = folder / "demo.db"
    for command in (
        "init",
        "corpus import",
        "corpus chunk --name w100",
        "runs retrieve --retriever bm25s",
        "judgments import",
        "snapshot create",
        "pool build --depth 10",
        "coverage",
        "eval",
    ):
        assert f"$ labeler --db {db} {command}" in out.stdout
    assert "R@10" in out.stdout and "share of ceiling" in out.stdout
    # P1 reopens every topic v1 reviewed: the demo scores them as lower bounds instead of printing nulls
    said = out.stdout + out.stderr  # the per-run notes are diagnostics, on stderr
    assert "0 topics scored" not in said
    assert "fts5: 8 topics scored" in said and "the mean is a lower bound for the reopened topics" in said
    with Store(db) as store:
        assert [r.name for r in store.runs()] == ["fts5", "bm25s", "ql", "fts5-chunks", "fts5-context"]
        assert {r.stage for r in store.runs()} == {"candidate", "context"}
        assert store.latest_snapshot().name == "v1" and store.latest_pool().name == "P1"
    status = json.loads(CliRunner().invoke(cli, ["--db", str(db), "status", "--json"], catch_exceptions=False).stdout)
    assert status["totals"]["unjudged"] > 0 and status["pool"] == "P1"


def test_demo_refuses_to_overwrite(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "demo.db").write_text("")
    result = CliRunner().invoke(cli, ["demo", "--dir", str(folder), "--no-tui"])
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"Error: --dir: a demo workbench exists here already ({folder / 'demo.db'}): choose a new folder"
    )


def test_each_demo_step_is_worded_as_the_command_a_user_would_type():
    from labeler.cli.demo import command_of
    from labeler.workbench.demo import DemoStep

    steps = [
        (DemoStep("init", (), ""), "init"),
        (DemoStep("import_corpus", (("path", "s/corpus.jsonl"),), ""), "corpus import s/corpus.jsonl"),
        (DemoStep("chunk_corpus", (("name", "w100"), ("size", "100")), ""), "corpus chunk --name w100 --size 100"),
        (
            DemoStep("import_judgments", (("path", "p.qrels"), ("assessor", "prior"), ("reviewed", "")), ""),
            "judgments import p.qrels --assessor prior --reviewed",
        ),
        (DemoStep("create_snapshot", (("message", "prior judgments"),), ""), "snapshot create -m 'prior judgments'"),
        (DemoStep("build_pool", (("depth", "10"), ("unit", "doc")), ""), "pool build --depth 10 --unit doc"),
    ]
    for step, command in steps:
        assert command_of(step) == command

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
    assert result.exit_code == 1 and "a demo workbench exists here already" in result.stderr

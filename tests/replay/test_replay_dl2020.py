"""`labeler replay` on TREC DL 2020 (NIST's labels as the assessor): the issue's "done when" figures.

Skipped when ../shared is absent. The figures are printed (run with -s) and quoted in docs/guide.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import ROOT, Cli, dump

DATA = next(
    (p / "shared" / "data" / "trec-dl-2020" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").exists()),
    ROOT.parent / "shared" / "data" / "trec-dl-2020",
)
RUNS = ("bm25", "bm25-rm3", "tasb", "ada2", "splade-pp-ed", "repllama")
POOLED = "bm25,tasb,splade-pp-ed"

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="../shared/data/trec-dl-2020 is absent")


def test_dl2020_replay_at_depth_20(tmp_path: Path):
    from labeler.workbench.init import init_workbench

    db = tmp_path / "dl.db"
    init_workbench(db, scale="trec-dl-passage")
    cli = Cli(db)
    cli("topics", "import", DATA / "topics.tsv")
    for run in RUNS:
        cli("runs", "import", DATA / f"{run}.run.gz", "--name", run)
    cli("judgments", "import", DATA / "qrels.txt.gz", "--reviewed")
    cli("snapshot", "create", "-m", "NIST")
    before = dump(db)
    out = cli.json("replay", "--depth", "20", "--runs", POOLED, "--seed", "1")
    assert dump(db) == before  # nothing written

    # the same membership as `pool build` (which does write: after the replay)
    built = cli.json("pool", "build", "--depth", "20", "--runs", POOLED)
    assert out["pool"]["pairs"] == built["pairs"]
    assert out["unjudged"] == built["unjudged"] > 0  # NIST judged deeper pools of other runs: some are unjudged
    judged = built["pairs"] - built["unjudged"]
    assert out["topics"] == 54

    orders = out["orders"]
    assert orders["oracle"]["curve_share"] == 1.0
    assert orders["oracle"]["curve"][-1] == [judged, out["relevant"]]
    for name, figures in orders.items():
        print(f"{name:8} curve share {figures['curve_share']:.3f}  judgments to 90%: {figures['to_relevant']['90']}")
        assert 0 < figures["curve_share"] <= 1
        assert figures["curve"][-1] == [judged, out["relevant"]]  # every order judges the whole pool
        assert figures["to_relevant"]["90"] >= orders["oracle"]["to_relevant"]["90"]
        assert figures["tau"]["100"] == orders["oracle"]["tau"]["100"]  # the same labels at the full budget
    assert orders["mtf"]["curve_share"] > orders["random"]["curve_share"]
    assert orders["pool"]["curve_share"] > orders["random"]["curve_share"]

"""A snapshot read after a re-pool: its reviewed topics that the new pool reopened are not scored as complete.

And a snapshot whose labels are unchanged but whose statuses changed (a topic marked, or reopened) is a
new version: the statuses decide what eval scores, so "unchanged" must mean both.
"""

from __future__ import annotations

from support import Cli, new_workbench, trec_run


def _campaign(tmp_path, write) -> Cli:
    db = tmp_path / "wb.db"
    new_workbench(db)
    cli = Cli(db)
    cli(
        "runs",
        "import",
        write("a.run", trec_run("a", {"1": ["d1", "d2"], "2": ["d5", "d6"]})),
        "--name",
        "a",
        "--allow-unknown",
    )
    cli("pool", "build", "--depth", "2")  # P1
    for topic, unit, grade in (("1", "d1", 1), ("1", "d2", 0), ("2", "d5", 1), ("2", "d6", 0)):
        cli("judgments", "add", topic, unit, str(grade), "--assessor", "ann", "--allow-unknown")
    for topic in ("1", "2"):
        cli("topics", "mark", topic, "reviewed", "--assessor", "ann")
    cli("snapshot", "create", "-m", "round 1")  # v1: both topics reviewed and complete
    return cli


def test_eval_on_an_old_snapshot_leaves_out_what_a_later_pool_reopened(tmp_path, write):
    cli = _campaign(tmp_path, write)
    assert cli.json("eval", "--measures", "R@2")["runs"][0]["topics"]["scored"] == 2
    # b brings d3 and d4 to topic 1 only
    cli(
        "runs",
        "import",
        write("b.run", trec_run("b", {"1": ["d3", "d4"], "2": ["d5", "d6"]})),
        "--name",
        "b",
        "--allow-unknown",
    )
    cli("pool", "build", "--depth", "2")  # P2
    result = cli.json("eval", "--measures", "R@2")
    for run in result["runs"]:
        assert run["topics"]["excluded_topics"] == {"1": "reopened"}
        assert run["topics"]["reopened"]["1"] == {"pool": "P2", "unjudged": 2, "since_snapshot": True}
        assert run["topics"]["scored"] == 1
    shown = cli("eval", "--measures", "R@2")
    assert "1 by P2 (2 unjudged)" in shown.stdout + shown.stderr
    lower = cli.json("eval", "--measures", "R@2", "--include-reopened")["runs"][0]["topics"]
    assert lower["scored"] == 2 and lower["lower_bound"] == ["1"]
    coverage = cli.json("coverage", "--depth", "2", "--no-loro")
    assert (coverage["scored_topics"], set(coverage["reopened"])) == (1, {"1"})
    assert cli.json("coverage", "--depth", "2", "--no-loro", "--include-reopened")["scored_topics"] == 2
    # the stored snapshot is as it was frozen
    manifest = cli.json("snapshot", "show", "v1")["manifest"]
    assert manifest["topics"]["1"]["review_status"] == "reviewed"
    assert cli.json("snapshot", "verify", "v1")["ok"] is True


def test_a_snapshot_whose_statuses_changed_is_a_new_version(tmp_path, write):
    cli = _campaign(tmp_path, write)
    again = cli.json("snapshot", "create", "-m", "nothing new")
    assert (again["new"], again["unchanged_since"]) == (False, "v1")
    cli("runs", "import", write("b.run", trec_run("b", {"1": ["d3", "d4"]})), "--name", "b", "--allow-unknown")
    cli("pool", "build", "--depth", "2")  # P2 reopens topic 1; the labels are the same
    made = cli.json("snapshot", "create", "-m", "after P2")
    assert (made["new"], made["snapshot"]) == (True, "v2")
    assert cli.json("snapshot", "show", "v2")["manifest"]["topics"]["1"]["review_status"] == "reopened"
    assert cli.json("snapshot", "create", "-m", "still nothing")["unchanged_since"] == "v2"

"""`compare A B` names the topics reviewed in A that later pools reopened, with the units each pool added."""

from __future__ import annotations

from support import Cli, new_workbench, trec_run


def test_compare_names_reopened_topics_and_their_pools(tmp_path, write):
    db = tmp_path / "wb.db"
    new_workbench(db)
    cli = Cli(db)
    cli(
        "runs",
        "import",
        write("a.run", trec_run("a", {"1": ["d1", "d2"], "2": ["d1", "d5"]})),
        "--name",
        "a",
        "--allow-unknown",
    )
    cli("pool", "build", "--depth", "2")  # P1
    for topic, unit, grade in (("1", "d1", 1), ("1", "d2", 0), ("2", "d1", 0), ("2", "d5", 1)):
        cli("judgments", "add", topic, unit, str(grade), "--assessor", "ann", "--allow-unknown")
    cli("topics", "mark", "1", "reviewed", "--assessor", "ann")
    cli("topics", "mark", "2", "reviewed", "--assessor", "ann")
    cli("snapshot", "create", "-m", "one")  # v1
    # b finds d3 and d4 for topic 1 only: P2 reopens topic 1, not topic 2
    cli(
        "runs",
        "import",
        write("b.run", trec_run("b", {"1": ["d3", "d4"], "2": ["d5", "d1"]})),
        "--name",
        "b",
        "--allow-unknown",
    )
    cli("pool", "build", "--depth", "2")  # P2
    cli("judgments", "add", "1", "d3", "1", "--assessor", "ann", "--allow-unknown")
    cli("snapshot", "create", "-m", "two")  # v2: d4 still unjudged
    cli("judgments", "add", "1", "d4", "0", "--assessor", "ann", "--allow-unknown")
    cli("topics", "mark", "1", "reviewed", "--assessor", "ann")
    cli("snapshot", "create", "-m", "three")  # v3

    result = cli.json("compare", "v1", "v3")
    assert result["reopened_since"] == {
        "1": {"pools": {"P2": 2}, "units": 2, "before": "reviewed", "after": "reviewed"}
    }
    assert cli.json("compare", "v2", "v3")["reopened_since"] == {}  # v2 already knew P2; topic 1 was not closed in v2
    shown = cli("compare", "v1", "v3")
    text = shown.stdout + shown.stderr
    assert "1 topic reviewed in v1 was reopened by later pools" in text  # counted properly
    assert "reopened since v1" in text and "P2 +2" in text

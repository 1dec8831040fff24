"""`labeler runs retire`: a run leaves the default run sets of pool build, eval, coverage and compare.

It stays in the workbench, listed as retired, and counts wherever it is named with --runs.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest
from support import dump

from labeler.store.guards import expected_guards

RUNS = {
    "a": "1 Q0 d1 1 3 a\n1 Q0 d2 2 2 a\n2 Q0 d3 1 1 a\n2 Q0 d4 2 0.5 a\n",
    "b": "1 Q0 d2 1 3 b\n1 Q0 d5 2 2 b\n2 Q0 d4 1 1 b\n",
    "c": "1 Q0 d9 1 3 c\n2 Q0 d8 1 1 c\n",  # imported by mistake
}


@pytest.fixture
def bench(run_cli, write):
    """Three runs, two snapshots of reviewed topics (v1, v2), run c retired."""
    for name, text in RUNS.items():
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name)
    run_cli("judgments", "import", write("q1", "1 0 d1 2\n1 0 d2 0\n2 0 d3 1\n"))
    for topic in ("1", "2"):
        run_cli("topics", "mark", topic, "reviewed")
    run_cli("snapshot", "create", "-m", "one")
    run_cli("judgments", "import", write("q2", "1 0 d5 2\n2 0 d4 1\n2 0 d8 2\n"))
    for topic in ("1", "2"):  # judged after the mark: in progress until marked again
        run_cli("topics", "mark", topic, "reviewed")
    run_cli("snapshot", "create", "-m", "two")
    result = run_cli.json("runs", "retire", "c", "--reason", "imported by mistake")
    assert (result["name"], result["reason"], result["already_retired"]) == ("c", "imported by mistake", False)
    return run_cli


def _pool_runs(result):
    return result["runs"]


def _eval_runs(result):
    return [r["run"] for r in result["runs"]]


def _coverage_runs(result):
    return list(result["runs"])


COMMANDS = [
    (("pool", "build", "--depth", "5"), _pool_runs),
    (("eval",), _eval_runs),
    (("coverage",), _coverage_runs),
    (("compare", "v1", "v2"), _coverage_runs),
]


@pytest.mark.parametrize(("args", "runs_of"), COMMANDS, ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_the_default_run_set_leaves_a_retired_run_out_and_names_it(bench, args, runs_of):
    result = bench.json(*args)
    assert runs_of(result) == ["a", "b"]
    assert result["runs_retired"] == ["c"]
    text = bench(*args)
    assert "Left out as retired: c (name them with --runs to include them)." in text.stderr


@pytest.mark.parametrize(("args", "runs_of"), COMMANDS, ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_a_retired_run_named_with_runs_counts(bench, args, runs_of):
    result = bench.json(*args, "--runs", "a,c")
    assert runs_of(result) == ["a", "c"]
    assert result["runs_retired"] == []
    assert "retired" not in bench(*args, "--runs", "a,c").stderr


def test_runs_list_shows_retired_runs(bench):
    listed = {r["name"]: r["retired"] for r in bench.json("runs", "list")}
    assert listed["a"] is None and listed["b"] is None
    assert listed["c"]["reason"] == "imported by mistake" and listed["c"]["time"]
    rows = [line for line in bench("runs", "list").stdout.splitlines() if line.strip().startswith(("a ", "c "))]
    assert listed["c"]["time"][:19] in rows[1] and listed["c"]["time"][:19] not in rows[0]


def test_retiring_twice_records_once(bench, db_path):
    again = bench.json("runs", "retire", "c", "--reason", "other")
    assert again["already_retired"] is True and again["reason"] == "imported by mistake"
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("SELECT count(*) FROM run_retirements").fetchone()[0] == 1


def test_the_retirement_row_is_append_only_and_check_stays_green(bench, db_path):
    with closing(sqlite3.connect(db_path)) as conn:
        for sql in (
            "UPDATE run_retirements SET reason = 'x'",
            "DELETE FROM run_retirements",
            "INSERT OR REPLACE INTO run_retirements (run_id, retired, reason) "
            "SELECT run_id, retired, 'x' FROM run_retirements",
        ):
            with pytest.raises(sqlite3.IntegrityError, match="run_retirements is append-only"):
                conn.execute(sql)
    assert bench.json("check")["ok"] is True


def test_a_replaced_run_is_a_new_run_and_starts_active(bench, write):
    bench("runs", "import", write("c2.run", RUNS["c"]), "--name", "c", "--replace")
    assert {r["name"]: r["retired"] for r in bench.json("runs", "list")}["c"] is None
    assert bench.json("eval")["runs_retired"] == []
    # the last run's id is never reused by the new one, so the old retirement stays with the old run
    bench("runs", "retire", "c")
    bench("runs", "import", write("c3.run", RUNS["c"]), "--name", "c", "--replace")
    assert bench.json("pool", "build", "--depth", "5")["runs_retired"] == []
    assert bench.json("check")["ok"] is True


def test_every_run_retired_asks_for_runs(bench):
    for name in ("a", "b"):
        bench("runs", "retire", name)
    for args in (("pool", "build", "--depth", "5"), ("eval",)):
        result = bench(*args, expect=1)
        assert result.stderr.strip().splitlines() == [
            "Error: every run is retired (a, b, c) (pass --runs to name the runs to pool)"
            if args[0] == "pool"
            else "Error: every run is retired (a, b, c) (pass --runs to name the runs to score)"
        ]


def test_an_unknown_run_is_refused_in_one_line(run_cli, db_path):
    before = dump(db_path)
    result = run_cli("runs", "retire", "nope", expect=1)
    assert dump(db_path) == before
    assert result.stderr.strip().splitlines() == ["Error: no run named 'nope' (run 'labeler runs list')"]
    assert result.stdout == ""


def test_a_workbench_of_schema_5_gains_the_table_and_checks_green(run_cli, db_path, write):
    run_cli("runs", "import", write("a.run", RUNS["a"]), "--name", "a")
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:  # back to schema 5: as labeler 5 left it
        for name in expected_guards():
            if name.startswith("run_retirements_"):
                conn.execute(f"DROP TRIGGER {name}")
        conn.execute("DROP TABLE run_retirements")
        conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm006_run_retirements'")
        conn.execute("PRAGMA user_version = 5")
    cli = run_cli
    cli("runs", "retire", "a")
    assert cli.json("check")["ok"] is True

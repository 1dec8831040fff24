"""Smoke test of benchmarks/: every script runs to the end at a tiny size and writes its figures.

No time is asserted: only that each script finishes, writes its JSON, and (for the table
scripts) prints every row with the figure it is compared with beside it. Generated data go
to a temporary folder (BENCH_DATA), never to benchmarks/data/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
TABLE_ROWS = ["import", "cli_import", "pool", "eval", "ten", "coverage", "help", "next"]
TABLE_ROWS += ["ui_in_app", "ui_outside", "ui_start"]
LOG_ROWS = ["import_cli", "import_api", "parse", "ir_measures", "merge_first", "backup", "merge_again"]
LOG_ROWS += ["snapshot", "export"]


def check_table(tmp: Path, stdout: str) -> None:
    report = json.loads((tmp / "out" / "table.json").read_text())
    rows = report["sizes"]["tiny"]["rows"]
    assert [row["key"] for row in rows] == TABLE_ROWS
    printed = "\n".join(line for line in stdout.splitlines() if line.startswith("| "))
    for row in rows:
        assert f"| {row['step']} |" in printed
    check_table_rows(report)


def check_table_rows(report: dict) -> None:
    rows = report["sizes"]["tiny"]["rows"]
    by_key = {row["key"]: row for row in rows}
    for key in ("import", "cli_import", "pool", "help", "next"):
        assert by_key[key]["ratio"].endswith(")") and "x" in by_key[key]["ratio"], by_key[key]
    assert "no trec_eval binary" in by_key["eval"]["alternative"]
    assert "pytrec_eval" in by_key["ten"]["ratio"]
    assert "PAIRS DIFFER" not in by_key["pool"]["alternative"]
    assert "not run (--no-ui)" in by_key["ui_start"]["labeler"]
    # labeler scored the run, and its means equal pytrec_eval's on the same files
    results = report["sizes"]["tiny"]["results"]
    mine, theirs = results["eval_labeler"]["values"], results["eval_pytrec"]["values"]
    assert all(abs(mine[name] - theirs[name]) < 1e-4 for name in theirs), (mine, theirs)


def check_log(tmp: Path, stdout: str) -> None:
    report = json.loads((tmp / "out" / "log.json").read_text())
    size = report["sizes"]["tiny"]
    assert [row["key"] for row in size["rows"]] == LOG_ROWS
    printed = "\n".join(line for line in stdout.splitlines() if line.startswith("| "))
    for row in size["rows"]:
        assert f"| {row['operation']} |" in printed
        assert row["ratio"].endswith("x)"), row  # both sides measured: wall (cpu) ratio
    check_log_results(size["results"], size["lines"])


def check_log_results(results: dict[str, dict], lines: int) -> None:
    """Every task measured (time, CPU, peak memory), and each side handled the rows it should have."""
    for task, result in results.items():
        assert "error" not in result, (task, result)
        assert {"seconds", "cpu_seconds", "peak_rss_mb"} <= result.keys(), (task, result)
    assert results["import_api"]["rows"] == lines  # every qrels line became an event
    assert results["floor_import"]["rows"] == lines
    held = results["floor_export"]["rows"]  # imported.db's events: a grade per line and a review mark per topic
    assert held > lines
    assert results["floor_merge_first"]["rows"] == held + lines  # the other workbench's grades appended
    assert results["floor_merge_again"]["rows"] == held + lines  # nothing added the second time


def check_eval(tmp: Path, stdout: str) -> None:
    report = json.loads((tmp / "out" / "eval.json").read_text())
    assert "CHECK labeler = ir_measures to 4 decimals: OK" in stdout, stdout[-2000:]
    assert report


@dataclass(frozen=True)
class Script:
    """A script (or scripts run in turn, each an argv) at its tiniest, and what its output must show."""

    name: str
    commands: list[list[str]]
    output: str  # the JSON file it writes in OUT
    check: Callable[[Path, str], None] | None = None
    env: dict[str, str] = field(default_factory=dict)


SCRIPTS = [
    Script("bench_arrow", [["bench_arrow.py", "--lines", "3000", "--repeat", "1"]], "arrow.json"),
    Script("bench_eval", [["bench_eval.py", "--repeat", "1"]], "eval.json", check_eval, {"BENCH_TINY": "1"}),
    Script(
        "bench_import",
        [
            ["bench_import.py", "--topics", "5", "--depth", "20", "--runs", "2", "--repeat", "1"]
            + ["--qrels-topics", "5", "--qrels-units", "20"]
        ],  # fmt: skip
        "import.json",
    ),
    Script(
        "bench_judge, then bench_frame and floor_app on its workbench",
        [
            ["bench_judge.py", "--pooled", "2000", "--judgments", "3", "--repeat", "1", "--log", "50"],
            ["bench_frame.py", "--data", "big", "--big", "{data}/judge/big.db", "--keys", "3", "--runs", "1"]
            + ["--size", "80x24"],
        ],
        "frame.json",
    ),
    Script("bench_log", [["bench_log.py", "--size", "tiny", "--repeat", "1"]], "log.json", check_log),
    Script(
        "bench_scale",
        [
            ["bench_scale.py", "--docs", "200", "--topics", "5", "--depth", "20", "--runs", "2", "--judgments", "3"]
            + ["--trectools-topics", "2"]
        ],  # fmt: skip
        "scale.json",
    ),
    Script("bench_startup", [["bench_startup.py", "--repeat", "1"]], "startup.json"),
    Script(
        "bench_table", [["bench_table.py", "--size", "tiny", "--repeat", "1", "--no-ui"]], "table.json", check_table
    ),
]
COVERED = {
    "bench_arrow",
    "bench_eval",
    "bench_import",
    "bench_judge",
    "bench_frame",
    "floor_app",
    "bench_log",
    "bench_scale",
}
COVERED |= {"bench_startup", "bench_table"}


def test_every_script_in_benchmarks_has_a_smoke_run() -> None:
    scripts = {path.stem for path in BENCHMARKS.glob("*.py") if not path.name.startswith("_")}
    assert scripts == COVERED
    run = {Path(argv[0]).stem for script in SCRIPTS for argv in script.commands}
    assert run | {"floor_app"} == COVERED  # floor_app is the app bench_frame runs beside labeler


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name.split(",")[0] for s in SCRIPTS])
def test_benchmark_script_runs_at_a_tiny_size(script: Script, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_DATA": str(tmp_path / "data"), **script.env}
    env.pop("TREC_EVAL", None)  # the binary's rows must say it is absent rather than fail
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not (Path(p) / "trec_eval").exists()
    )
    stdout = ""
    for argv in script.commands:
        command = [part.replace("{data}", str(tmp_path / "data")) for part in argv]
        done = subprocess.run(
            [sys.executable, str(BENCHMARKS / command[0]), *command[1:], "--out", str(tmp_path / "out")],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=300,
        )
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
        stdout += done.stdout
    assert (tmp_path / "out" / script.output).exists(), stdout[-2000:]
    if script.check is not None:
        script.check(tmp_path, stdout)

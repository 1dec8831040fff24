"""Smoke test of benchmarks/bench_table.py: its S path at a tiny size prints every row of the performance table.

No time is asserted: only that each row is there, with labeler's figure and the alternative beside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS = [
    "import",
    "cli_import",
    "pool",
    "eval",
    "ten",
    "coverage",
    "help",
    "next",
    "ui_in_app",
    "ui_outside",
    "ui_start",
]


def test_bench_table_prints_every_row_at_a_tiny_size(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_TABLE_DATA": str(tmp_path / "data")}
    env.pop("TREC_EVAL", None)  # the binary's rows must say it is absent rather than fail
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not (Path(p) / "trec_eval").exists()
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_table.py"), "--size", "tiny", "--repeat", "1", "--no-ui"]
        + ["--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads((tmp_path / "out" / "table.json").read_text())
    rows = report["sizes"]["tiny"]["rows"]
    assert [row["key"] for row in rows] == ROWS
    printed = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    for row in rows:
        assert f"| {row['step']} |" in "\n".join(printed)
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

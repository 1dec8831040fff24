"""The installed console script and `python -m labeler` work outside the test harness."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys


def test_console_script_runs_init_and_status(tmp_path):
    exe = shutil.which("labeler")
    command = [exe] if exe else [sys.executable, "-m", "labeler"]
    db = tmp_path / "w.db"
    subprocess.run([*command, "--db", str(db), "init"], check=True, capture_output=True)
    out = subprocess.run([*command, "--db", str(db), "status", "--json"], check=True, capture_output=True, text=True)
    assert json.loads(out.stdout)["documents"] == 0


def test_python_dash_m_reports_errors_without_traceback(tmp_path):
    run = tmp_path / "bad.run"
    run.write_text("1 Q0 a 1 x t\n")
    db = tmp_path / "w.db"
    subprocess.run([sys.executable, "-m", "labeler", "--db", str(db), "init"], check=True, capture_output=True)
    out = subprocess.run(
        [sys.executable, "-m", "labeler", "--db", str(db), "runs", "import", str(run), "--name", "r"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1
    assert out.stderr == f"Error: {run}:1: score 'x' is not a number\n"


def test_usage_errors_exit_2(tmp_path):
    out = subprocess.run([sys.executable, "-m", "labeler", "runs", "import"], capture_output=True, text=True)
    assert out.returncode == 2

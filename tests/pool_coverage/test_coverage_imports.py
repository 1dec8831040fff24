"""The coverage domain loads no storage, CLI or UI toolkit (ARCHITECTURE.md: imports point down only)."""

from __future__ import annotations

import subprocess
import sys

import pytest

MODULES = [
    "labeler.coverage",
    "labeler.coverage.inputs",
    "labeler.coverage.judged",
    "labeler.coverage.bias",
    "labeler.coverage.correlation",
    "labeler.coverage.estimates",
    "labeler.coverage.saturation",
    "labeler.coverage.curves",
    "labeler.coverage.compare",
    "labeler.coverage.batched",
]
FORBIDDEN = ("sqlite3", "sqlite_utils", "click", "textual", "rich")


@pytest.mark.parametrize("module", MODULES)
def test_importing_loads_no_sql_cli_or_ui(module):
    code = f"import sys, {module}; print(sorted(m for m in {FORBIDDEN!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"

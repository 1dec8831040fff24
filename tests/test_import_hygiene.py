"""The layers of docs/architecture.md hold: import-linter's contracts (pyproject.toml) are all kept.

The contracts replace the hand-written module lists the subprocess tests kept (they missed
pooling, ordering, judgments, metrics and report): every module directly under `labeler/` must sit
in a layer (the layers contract is exhaustive), so a new module is checked the day it is added.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import labeler

ROOT = Path(labeler.__file__).resolve().parent.parent
CONTRACTS = {
    "layers",
    "domain-is-plain-python",
    "front-ends-use-the-workbench",
    "sql-only-in-the-store",
    "agreement-needs-no-numerics",
}


def _config() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return tomllib.load(handle)["tool"]["importlinter"]


def _lint_imports(checkout: Path) -> subprocess.CompletedProcess[str]:
    """`lint-imports` on `checkout`'s own labeler/ and pyproject.toml (not an installed copy), no cache."""
    pytest.importorskip("importlinter")
    env = {**os.environ, "PYTHONPATH": str(checkout), "COLUMNS": "200"}  # contract names on one line
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache"], cwd=checkout, env=env, capture_output=True, text=True, check=False
    )


def test_the_config_names_every_contract():
    config = _config()
    assert {c["id"] for c in config["contracts"]} == CONTRACTS
    layers = next(c for c in config["contracts"] if c["id"] == "layers")
    assert layers["exhaustive"] is True
    assert layers["layers"][:4] == ["cli | tui", "report", "workbench", "store"]


def test_every_contract_is_kept():
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


def test_a_store_import_in_the_ui_breaks_the_contracts(tmp_path):
    """The contracts would catch the mistake they exist for: a front end reaching the store itself."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "labeler", copy / "labeler", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    with open(copy / "labeler" / "tui" / "text.py", "a") as handle:
        handle.write("\nimport labeler.store\n")
    result = _lint_imports(copy)
    assert result.returncode != 0
    assert "Front ends and the report page reach the store only through the workbench BROKEN" in result.stdout
    assert "labeler.tui.text -> labeler.store" in result.stdout


def test_sql_lives_only_in_the_store():
    """What an import contract cannot see: SQL run through a store's connection from outside the store."""
    package = ROOT / "labeler"
    offenders = []
    for path in package.rglob("*.py"):
        if "store" in path.relative_to(package).parts:
            continue
        text = path.read_text()
        if "import sqlite3" in text or "sqlite_utils" in text or ".execute(" in text:
            offenders.append(str(path.relative_to(package)))
    assert offenders == []


def test_tests_import_their_helpers_as_top_level_modules():
    """`from support import ...`, `from badinput.badinput_support import ...`, never `from tests....`.

    A plain `pytest` (what CI runs) puts tests/ on the path, not the repository root: a `tests.`
    import works under `python -m pytest` from the root and fails in CI.
    """
    import re

    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.match(r"\s*(from|import) tests(\.|\s|$)", line)
    ]
    assert not offenders, offenders

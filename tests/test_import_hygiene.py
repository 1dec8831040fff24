"""The domain and the services load neither the UI nor the CLI toolkit (ARCHITECTURE.md layers)."""

from __future__ import annotations

import subprocess
import sys

import pytest

DOMAIN = [
    "labeler.models", "labeler.errors", "labeler.scales", "labeler.chunking",
    "labeler.formats.runs", "labeler.formats.topics", "labeler.formats.corpus", "labeler.formats.mappings",
    "labeler.outputs",
]


@pytest.mark.parametrize("module", DOMAIN)
def test_domain_modules_import_no_ui_cli_or_sql(module):
    code = (
        f"import sys, {module}; "
        "print(sorted(m for m in ('textual', 'click', 'rich', 'sqlite3', 'sqlite_utils') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_services_do_not_load_the_front_ends():
    # click may come in through sqlite-utils (its own CLI); the UI and our CLI must not.
    code = ("import sys, labeler.workbench; "
            "print([m for m in ('textual', 'labeler.cli', 'labeler.tui') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_sql_lives_only_in_the_store():
    from pathlib import Path

    import labeler

    package = Path(labeler.__file__).parent
    offenders = []
    for path in package.rglob("*.py"):
        if "store" in path.relative_to(package).parts:
            continue
        text = path.read_text()
        if "import sqlite3" in text or "sqlite_utils" in text or ".execute(" in text:
            offenders.append(str(path.relative_to(package)))
    assert offenders == []

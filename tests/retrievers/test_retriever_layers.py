"""The retrievers are domain code: no SQL, no CLI, no UI (ARCHITECTURE.md layers)."""

from __future__ import annotations

import subprocess
import sys

import pytest

MODULES = [
    "labeler.retrievers", "labeler.retrievers.base", "labeler.retrievers.ql", "labeler.retrievers.fts5",
    "labeler.retrievers.bm25s_retriever", "labeler.retrievers.command", "labeler.retrievers.registry",
]


@pytest.mark.parametrize("module", MODULES)
def test_retriever_modules_load_no_sql_cli_ui_or_numpy(module):
    code = (
        f"import sys, {module}; "
        "print(sorted(m for m in ('textual', 'click', 'rich', 'sqlite3', 'sqlite_utils', 'numpy', 'bm25s') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

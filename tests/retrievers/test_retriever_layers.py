"""The retrievers load their numeric libraries only when a retriever runs, not when they are imported.

That they are domain code (no SQL, CLI or UI) is the `domain-is-plain-python` contract in
pyproject.toml (tests/test_import_hygiene.py); an import contract cannot tell a deferred import
from one at the top of a module, so this stays a subprocess test.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

MODULES = [
    "labeler.retrievers",
    "labeler.retrievers.base",
    "labeler.retrievers.ql",
    "labeler.retrievers.fts5",
    "labeler.retrievers.bm25s_retriever",
    "labeler.retrievers.command",
    "labeler.retrievers.registry",
]


@pytest.mark.parametrize("module", MODULES)
def test_retriever_modules_load_no_numpy_or_bm25s(module):
    code = f"import sys, {module}; print(sorted(m for m in ('numpy', 'bm25s') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

"""The retrievers load their numeric libraries only when a retriever runs, not when they are imported.

That they are domain code (no SQL, CLI or UI) is the `domain-is-plain-python` contract in
pyproject.toml (tests/test_import_hygiene.py); an import contract cannot tell a deferred import
from one at the top of a module, so this stays a subprocess test.
"""

from __future__ import annotations

import json
import subprocess
import sys

MODULES = [
    "labeler.retrievers",
    "labeler.retrievers.base",
    "labeler.retrievers.ql",
    "labeler.retrievers.fts5",
    "labeler.retrievers.bm25s_retriever",
    "labeler.retrievers.command",
    "labeler.retrievers.registry",
]


# Imports each module in turn in one fresh interpreter and prints, per module, the numeric
# libraries loaded once it is imported: were none loaded after the last, none is loaded by any one
# of them alone (an import only adds modules), and the first line that shows one names the culprit.
CODE = """
import importlib, json, sys
for module in sys.argv[1:]:
    importlib.import_module(module)
    print(json.dumps([module, sorted(m for m in ("numpy", "bm25s") if m in sys.modules)]))
"""


def test_retriever_modules_load_no_numpy_or_bm25s():
    out = subprocess.run([sys.executable, "-c", CODE, *MODULES], capture_output=True, text=True, check=True).stdout
    assert [json.loads(line) for line in out.splitlines()] == [[module, []] for module in MODULES]

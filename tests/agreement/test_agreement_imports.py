"""The agreement domain loads no storage, CLI, UI or numeric toolkit (ARCHITECTURE.md: imports point down only)."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN = ("sqlite3", "sqlite_utils", "click", "textual", "rich", "numpy", "scipy", "sklearn", "krippendorff")


def test_importing_the_agreement_domain_loads_none_of_them():
    code = f"import sys, labeler.agreement; print(sorted(m for m in {FORBIDDEN!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_agreement_use_case_does_not_load_the_front_ends():
    code = ("import sys, labeler.workbench.agreement; "
            "print([m for m in ('textual', 'labeler.cli', 'labeler.tui') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"

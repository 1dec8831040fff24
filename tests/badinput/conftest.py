"""Fixtures of the bad-input tests: a baseline workbench, made once, copied for each test."""

from __future__ import annotations

from pathlib import Path

import pytest
from badinput_support import BASELINE_IDS, BASELINE_RUN, copy_workbench, invoke, settled_files

from labeler.workbench.init import init_workbench


@pytest.fixture(scope="session")
def baseline(tmp_path_factory) -> bytes:
    """The bytes of a workbench holding something worth keeping: a run and a chunking.

    Neither constrains an import (no topics, corpus or judgments), so every file meets the
    importer's own rules. Made once and copied: creating a workbench costs several fsyncs.
    """
    tmp = tmp_path_factory.mktemp("baseline")
    db = tmp / "wb.db"
    init_workbench(db)
    (tmp / "baseline.run").write_text(BASELINE_RUN)
    (tmp / "baseline.ids").write_text(BASELINE_IDS)
    for args in (
        ["runs", "import", tmp / "baseline.run", "--name", "existing"],
        ["corpus", "mapping", "derive", tmp / "baseline.ids", "--name", "existing"],
    ):
        result = invoke(db, args)
        assert result.exit_code == 0, result.stderr
    settled_files(db)
    return db.read_bytes()


@pytest.fixture
def workbench(baseline: bytes, tmp_path: Path) -> Path:
    """A copy of the baseline workbench, alone in its folder (so `wb.db*` are its files only)."""
    return copy_workbench(baseline, tmp_path)

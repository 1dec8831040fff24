"""Shared fixtures: a fresh workbench, a CLI runner bound to it, and the shared data folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from full_workbench import build_full_workbench
from support import CONFORMANCE, Cli, new_workbench


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """An initialised, empty workbench with the default scale (a copy of the session's template)."""
    return new_workbench(tmp_path / "wb.db")


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text) -> Path of a file holding the text (bytes are written as given)."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write


@pytest.fixture
def run_cli(db_path: Path) -> Cli:
    return Cli(db_path)


@pytest.fixture
def conformance() -> Path:
    """trec_eval's own test files, kept in tests/conformance/trec_eval (so every clone runs these tests)."""
    return CONFORMANCE


@pytest.fixture(scope="session")
def full_bytes(tmp_path_factory) -> bytes:
    """The demo workbench with a human judgment, a document change and a retired run: every guarded table has rows.

    Built once per session for the guard and check tests (each takes a copy).
    """
    return build_full_workbench(tmp_path_factory.mktemp("full"))

"""Shared fixtures: a fresh workbench, a CLI runner bound to it, and the shared data folders."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from labeler.cli import cli
from labeler.workbench import init_workbench

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpus"
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance" / "trec_eval"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """An initialised, empty workbench with the default scale."""
    path = tmp_path / "wb.db"
    init_workbench(path)
    return path


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


class Cli:
    """Runs `labeler --db DB ...` in-process and keeps stdout and stderr apart."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, expect: int | None = 0):
        result = self.runner.invoke(cli, ["--db", str(self.db), *map(str, args)], catch_exceptions=False)
        if expect is not None:
            assert result.exit_code == expect, f"exit {result.exit_code}\nstdout:{result.stdout}\nstderr:{result.stderr}"
        return result

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)


@pytest.fixture
def run_cli(db_path: Path) -> Cli:
    return Cli(db_path)


def dump(db: Path) -> list[str]:
    """The whole database as SQL text: equal dumps mean nothing changed."""
    with sqlite3.connect(db) as conn:
        return list(conn.iterdump())


@pytest.fixture
def conformance() -> Path:
    if not CONFORMANCE.exists():
        pytest.skip("../shared/conformance/trec_eval is not beside the checkout")
    return CONFORMANCE

"""Helpers shared by the tests (imported as `support`; fixtures live in conftest.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from labeler.cli import cli

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpus"
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance" / "trec_eval"


class Cli:
    """Runs `labeler --db DB ...` in-process and keeps stdout and stderr apart."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, expect: int | None = 0):
        result = self.runner.invoke(cli, ["--db", str(self.db), *map(str, args)], catch_exceptions=False)
        if expect is not None:
            assert result.exit_code == expect, (
                f"exit {result.exit_code}\nstdout:{result.stdout}\nstderr:{result.stderr}"
            )
        return result

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)


def dump(db: Path) -> list[str]:
    """The whole database as SQL text: equal dumps mean nothing changed."""
    with sqlite3.connect(db) as conn:
        return list(conn.iterdump())

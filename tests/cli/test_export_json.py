"""`labeler export qrels|run|log -o FILE --json`: a summary of the file written, read back from it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from full_workbench import copy_to

from labeler.cli import cli


def _invoke(db: Path, *argv: object):
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, argv)])


@pytest.mark.parametrize(
    ("argv", "exported", "name", "fmt"),
    [
        (["export", "qrels"], "qrels", "v1", "trec"),
        (["export", "qrels", "--format", "jsonl"], "qrels", "v1", "jsonl"),
        (["export", "run", "fts5"], "run", "fts5", "trec"),
        (["export", "log"], "log", None, "jsonl"),
    ],
    ids=["qrels", "qrels jsonl", "run", "log"],
)
def test_the_summary_describes_the_file_written(full_bytes, tmp_path, argv, exported, name, fmt):
    db = copy_to(full_bytes, tmp_path / "wb")
    target = tmp_path / "out"
    result = _invoke(db, *argv, "-o", target, "--json")
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    assert json.loads(result.stdout) == {
        "exported": exported,
        "name": name,
        "format": fmt,
        "path": str(target),
        "bytes": len(data),
        "lines": data.count(b"\n"),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    assert data.count(b"\n") > 0
    # The file is what the export prints to stdout without -o.
    assert _invoke(db, *argv).stdout.encode() == data

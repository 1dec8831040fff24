"""The `--json` shapes are a public interface: every key path and value type stays as it was.

The services return typed results now, and their `to_json()` must print what the CLI printed when
they returned dicts. This test runs the big use cases (pool build, status, eval, coverage, compare,
import, merge, check, snapshot) and more with `--json` on the full demo workbench and compares the
set of `path: type` pairs with `json_shapes.json`, recorded from the dict-returning code. Values are
left out (times and paths differ per run); keys taken from the data (topic ids, run names) are
deterministic on the demo, so they are kept. New keys are allowed (an addition breaks no reader); a key
that goes or changes type fails. After a deliberate, documented change to a shape, record
it again with `LABELER_RECORD_JSON_SHAPES=1 pytest tests/cli/test_json_shapes.py`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from full_workbench import copy_to

from labeler.answers.nuggets import file_nugget_id
from labeler.cli import cli

pytestmark = pytest.mark.deprecated_spelling  # `snapshot diff`, an old spelling that keeps working, keeps its shape

GOLDEN = Path(__file__).with_name("json_shapes.json")
SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpus"

# Each step runs on the same copy, in order (the later ones see what the earlier ones made).
STEPS: list[tuple[str, list[str]]] = [
    ("status", ["status"]),
    ("check", ["check"]),
    ("runs list", ["runs", "list"]),
    ("pool build", ["pool", "build", "--depth", "5", "--unit", "doc"]),
    ("pool list", ["pool", "list"]),
    ("queue", ["queue"]),
    ("judgments import", ["judgments", "import", "{truth}", "--assessor", "truth", "--reviewed"]),
    ("snapshot create", ["snapshot", "create", "-m", "truth"]),
    ("snapshot list", ["snapshot", "list"]),
    ("snapshot show", ["snapshot", "show", "v2"]),
    ("snapshot diff", ["snapshot", "diff", "v1", "v2"]),
    ("snapshot verify", ["snapshot", "verify"]),
    ("eval", ["eval", "--snapshot", "v2"]),
    ("eval compare", ["eval", "--snapshot", "v2", "--compare", "fts5", "bm25s"]),
    ("coverage", ["coverage", "--snapshot", "v2"]),
    ("compare", ["compare", "v1", "v2"]),
    ("replay", ["replay", "--snapshot", "v2", "--depth", "5", "--runs", "fts5,bm25s"]),
    ("eval baseline", ["eval", "--snapshot", "v2", "--baseline", "fts5"]),
    ("status stop", ["status", "--stop", "window:3"]),
    ("prelabel", ["prelabel", "--judge", "lexical", "--model", "lex"]),
    ("agreement model", ["agreement", "--model", "lex", "--all-pairs"]),  # the old spelling keeps its shape
    ("eval labels model", ["eval", "--snapshot", "v2", "--labels", "model", "--model", "lex"]),
    ("runs import", ["runs", "import", "{run}", "--name", "extra"]),
    ("merge", ["merge", "{other}"]),
    ("status after", ["status"]),
    ("assign list", ["assign", "--list"]),
    ("agreement", ["agreement"]),
    ("assign", ["assign", "--assessors", "ann,bob"]),
    ("next assigned to others", ["next", "--assessor", "carol"]),
    ("compare changes", ["compare", "v1", "v2", "--changes"]),
    ("agreement model NAME", ["agreement", "model", "lex", "--all-pairs"]),
    ("export qrels file", ["export", "qrels", "--snapshot", "v2", "-o", "{folder}/v2.qrels"]),
    ("export run file", ["export", "run", "fts5", "-o", "{folder}/fts5.run"]),
    ("export log file", ["export", "log", "-o", "{folder}/log.jsonl"]),
    ("answers import", ["answers", "import", "{sample}/answers_rag24.jsonl", "--name", "rag-a"]),
    ("answers import 2025", ["answers", "import", "{sample}/answers_rag25.jsonl", "--name", "rag-b"]),
    ("answers list", ["answers", "list"]),
    ("answers show", ["answers", "show", "rag-b", "13"]),
    ("nuggets import", ["nuggets", "import", "{sample}/nuggets.jsonl", "--assessor", "nist"]),
    ("nuggets list", ["nuggets", "list", "--topic", "13"]),
    ("nuggets add", ["nuggets", "add", "13", "Boccaccio described it", "--importance", "okay", "--assessor", "ann"]),
    (
        "nuggets import-assignments",
        ["nuggets", "import-assignments", "{sample}/assignments.jsonl", "--assessor", "nist"],
    ),
    ("nuggets draft", ["nuggets", "draft", "--judge", "lexical", "--model", "lex", "--topics", "13"]),
    ("nuggets assign", ["nuggets", "assign", "--judge", "lexical", "--model", "lex"]),
    (
        "judgments add answer",
        ["judgments", "add", "13", "{nugget}", "0", "--unit", "nugget:rag-a", "--assessor", "bob"],
    ),
    ("judgments conflicts", ["judgments", "conflicts", "--unit", "nugget:rag-a"]),
    ("agreement answers", ["agreement", "--answers", "nuggets"]),
    ("snapshot create answers", ["snapshot", "create", "-m", "answers"]),
    ("nuggets score", ["nuggets", "score", "--snapshot", "v3", "--baseline", "rag-a"]),
    ("compare answers", ["compare", "v2", "v3", "--changes"]),
    ("export nuggets", ["export", "nuggets", "-o", "{folder}/nuggets.jsonl"]),
    ("export assignments", ["export", "nuggets", "--assignments", "-o", "{folder}/assignments.jsonl"]),
    ("answers export", ["answers", "export", "rag-b", "-o", "{folder}/rag-b.jsonl"]),
    ("answers retire", ["answers", "retire", "rag-b", "--reason", "superseded"]),
]


def shape(value, path: str = "") -> set[str]:
    """`path: type` for every leaf and container; list elements share the path `[]`."""
    kind = "null" if value is None else type(value).__name__
    found = {f"{path or '.'}: {kind}"}
    if isinstance(value, dict):
        for key, item in value.items():
            found |= shape(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            found |= shape(item, f"{path}[]")
    return found


@pytest.fixture(scope="module")
def shapes(full_bytes, tmp_path_factory) -> dict[str, list[str]]:
    folder = tmp_path_factory.mktemp("shapes")
    db = copy_to(full_bytes, folder / "main")
    other = copy_to(full_bytes, folder / "other")
    runner = CliRunner()
    added = runner.invoke(cli, ["--db", str(other), "judgments", "add", "2", "agri-001", "1", "--assessor", "bob"])
    assert added.exit_code == 0, added.output
    run = folder / "extra.run"
    run.write_text("1 Q0 agri-001 1 2.0 extra\n1 Q0 agri-002 2 1.0 extra\n")
    fill = {
        "truth": str(SAMPLE / "truth.qrels"),
        "run": str(run),
        "other": str(other),
        "folder": str(folder),
        "sample": str(SAMPLE),
        "nugget": file_nugget_id("13", "The Black Death was a plague pandemic of 1347 to 1351"),  # as imported
    }
    found = {}
    for name, args in STEPS:
        argv = ["--db", str(db), *[a.format(**fill) for a in args], "--json"]
        result = runner.invoke(cli, argv)
        assert result.exit_code == 0, (name, result.output)
        found[name] = sorted(shape(json.loads(result.stdout)))
    return found


def test_every_json_shape_is_as_recorded(shapes):
    if os.environ.get("LABELER_RECORD_JSON_SHAPES"):
        partial = GOLDEN.with_suffix(".partial")  # replaced whole: under xdist another test may be reading it
        partial.write_text(json.dumps(shapes, indent=1) + "\n")
        partial.replace(GOLDEN)
    recorded = json.loads(GOLDEN.read_text())
    assert list(shapes) == list(recorded)
    for name in shapes:
        # A key may be added (a reader of the JSON ignores keys it does not know); none may go or change type.
        missing = sorted(set(recorded[name]) - set(shapes[name]))
        assert not missing, (name, missing)


def test_the_recorded_shapes_are_not_empty():
    recorded = json.loads(GOLDEN.read_text())
    assert all(len(paths) > 1 for paths in recorded.values())
    assert not any(re.search(r"\d{4}-\d\d-\d\dT", path) for paths in recorded.values() for path in paths)

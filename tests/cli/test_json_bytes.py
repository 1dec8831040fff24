"""Every `--json` document is byte-identical to the one recorded: key order, spacing and values.

`test_json_shapes.py` says which keys and types a reader may rely on; this test holds the exact text,
so that a change in how results become JSON (a refactor of the result types) cannot move a key,
reformat a number or drop a null unnoticed. Each step runs with `--json` on a copy of the full demo
workbench, in order; values that differ per run (times, temporary paths, hashes over times) are
replaced by placeholders before comparing. After a deliberate, documented change, record it again with
`LABELER_RECORD_JSON_BYTES=1 pytest tests/cli/test_json_bytes.py`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from full_workbench import copy_to

from labeler.cli import cli

pytestmark = pytest.mark.deprecated_spelling  # `snapshot diff`, an old spelling that keeps working, keeps its document

GOLDEN = Path(__file__).with_name("json_bytes.json")
SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpus"

STEPS: list[tuple[str, list[str]]] = [
    ("init", ["--db", "{fresh}", "init"]),
    ("topics import fresh", ["--db", "{fresh}", "topics", "import", "{topics}"]),
    ("corpus import fresh", ["--db", "{fresh}", "corpus", "import", "{corpus}"]),
    ("status", ["status"]),
    ("check", ["check"]),
    ("topics list", ["topics", "list"]),
    ("corpus chunkings", ["corpus", "chunkings"]),
    ("corpus chunk", ["corpus", "chunk", "--name", "w9", "--size", "9", "--chunk-overlap", "2"]),
    ("runs list", ["runs", "list"]),
    ("runs retrieve", ["runs", "retrieve", "--retriever", "fts5", "--name", "again", "--depth", "3"]),
    ("runs retire", ["runs", "retire", "again", "--reason", "a test"]),
    ("pool build", ["pool", "build", "--depth", "5", "--unit", "doc"]),
    ("pool list", ["pool", "list"]),
    ("queue", ["queue"]),
    ("next", ["next", "--assessor", "ann"]),
    ("judgments add", ["judgments", "add", "1", "agri-002", "2", "--assessor", "ann", "--note", "n"]),
    ("judgments log", ["judgments", "log", "--limit", "3"]),
    ("judgments undo", ["judgments", "undo", "--assessor", "ann"]),
    ("judgments flagged", ["judgments", "flagged"]),
    ("topics mark", ["topics", "mark", "1", "reviewed", "--assessor", "ann"]),
    ("judgments import", ["judgments", "import", "{truth}", "--assessor", "truth", "--reviewed"]),
    ("judgments adjudicate", ["judgments", "adjudicate", "1", "agri-001", "1", "--assessor", "lead"]),
    ("snapshot create", ["snapshot", "create", "-m", "truth"]),
    ("snapshot list", ["snapshot", "list"]),
    ("snapshot show", ["snapshot", "show", "v2"]),
    ("snapshot diff", ["snapshot", "diff", "v1", "v2"]),
    ("snapshot verify", ["snapshot", "verify"]),
    ("eval", ["eval", "--snapshot", "v2"]),
    ("eval compare", ["eval", "--snapshot", "v2", "--compare", "fts5", "bm25s"]),
    ("eval judged only", ["eval", "--snapshot", "v2", "--judged-only", "--measures", "P@5,nDCG@10"]),
    ("coverage", ["coverage", "--snapshot", "v2"]),
    ("compare", ["compare", "v1", "v2"]),
    ("replay", ["replay", "--snapshot", "v2", "--depth", "5", "--runs", "fts5,bm25s"]),
    ("eval baseline", ["eval", "--snapshot", "v2", "--baseline", "fts5"]),
    ("status stop", ["status", "--stop", "window:3"]),
    ("prelabel", ["prelabel", "--judge", "lexical", "--model", "lex"]),
    ("agreement model", ["agreement", "model", "lex", "--all-pairs"]),
    ("eval labels model", ["eval", "--snapshot", "v2", "--labels", "model", "--model", "lex"]),
    ("runs import", ["runs", "import", "{run}", "--name", "extra"]),
    ("merge", ["merge", "{other}"]),
    ("status after", ["status"]),
    ("assign list", ["assign", "--list"]),
    ("agreement", ["agreement"]),
    ("assign", ["assign", "--assessors", "ann,bob"]),
    ("next assigned to others", ["next", "--assessor", "carol"]),
    ("report", ["report", "--html", "{folder}/report.html"]),
    ("backup", ["backup", "{folder}/backup.db"]),
    ("compare changes", ["compare", "v1", "v2", "--changes"]),
    ("agreement model NAME", ["agreement", "model", "lex", "--all-pairs"]),
    ("export qrels file", ["export", "qrels", "--snapshot", "v2", "-o", "{folder}/v2.qrels"]),
    ("export run file", ["export", "run", "fts5", "-o", "{folder}/fts5.run"]),
]

# Values that differ between two runs of the same steps, replaced before comparing.
VARYING = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?"), "<time>"),
    (re.compile(r'"(seconds|elapsed|elapsed_s|duration|ms|wall|cpu|bytes)": [0-9.e-]+'), r'"\1": <n>'),
    # Random event ids, and the digests and seals that cover them or a time.
    (re.compile(r'"(event|head|seal|parent_seal|log|created|link)": "[0-9a-f]{16,64}"'), r'"\1": "<hex>"'),
]


def normalized(text: str, folder: Path) -> str:
    text = text.replace(json.dumps(str(folder))[1:-1], "<folder>")
    text = text.replace(json.dumps(str(SAMPLE))[1:-1], "<sample>")
    for pattern, placeholder in VARYING:
        text = pattern.sub(placeholder, text)
    return text


def run_steps(full_bytes: bytes, folder: Path) -> dict[str, str]:
    db = copy_to(full_bytes, folder / "main")
    other = copy_to(full_bytes, folder / "other")
    runner = CliRunner()
    added = runner.invoke(cli, ["--db", str(other), "judgments", "add", "2", "agri-001", "1", "--assessor", "bob"])
    assert added.exit_code == 0, added.output
    run = folder / "extra.run"
    run.write_text("1 Q0 agri-001 1 2.0 extra\n1 Q0 agri-002 2 1.0 extra\n")
    fill = {
        "truth": str(SAMPLE / "truth.qrels"),
        "topics": str(SAMPLE / "topics.jsonl"),
        "corpus": str(SAMPLE / "corpus.jsonl"),
        "run": str(run),
        "other": str(other),
        "fresh": str(folder / "fresh.db"),
        "folder": str(folder),
    }
    found = {}
    for name, args in STEPS:
        filled = [a.format(**fill) for a in args]
        argv = [*([] if filled[0] == "--db" else ["--db", str(db)]), *filled, "--json"]
        result = runner.invoke(cli, argv)
        assert result.exit_code == 0, (name, result.output)
        found[name] = normalized(result.stdout, folder)
    return found


@pytest.fixture(scope="module")
def printed(full_bytes, tmp_path_factory) -> dict[str, str]:
    return run_steps(full_bytes, tmp_path_factory.mktemp("bytes"))


def test_every_json_document_is_byte_identical(printed):
    if os.environ.get("LABELER_RECORD_JSON_BYTES"):
        partial = GOLDEN.with_suffix(".partial")
        partial.write_text(json.dumps(printed, indent=1, ensure_ascii=False) + "\n")
        partial.replace(GOLDEN)
    recorded = json.loads(GOLDEN.read_text())
    assert list(printed) == list(recorded)
    for name in printed:
        assert printed[name] == recorded[name], name


def test_two_runs_print_the_same_text(printed, full_bytes, tmp_path_factory):
    """The placeholders cover everything that varies: a second run in another folder prints the same."""
    assert run_steps(full_bytes, tmp_path_factory.mktemp("again")) == printed

"""Old spellings keep working for a release: the same stdout as the new spelling, one notice on stderr.

Each old spelling is checked the same way: it succeeds, prints exactly one line on stderr naming
itself and its replacement, prints byte for byte what the new spelling prints, and is not in `--help`.
Each spelling runs on its own copy of one prepared workbench, so writing commands compare alike.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from full_workbench import copy_to

from labeler.cli import cli

pytestmark = pytest.mark.deprecated_spelling

SAMPLE = Path(__file__).resolve().parents[2] / "sample_corpus"

NOTICE = "labeler: '{old}' is deprecated and will be removed in a later release; use '{new}'."

MODEL_SOURCE = ["--source", "model", "--allow-unknown", "--json"]
MODEL_LABEL = '{"topic": "1", "unit": "agri-001", "grade": 1, "probs": {"0": 0.1, "1": 0.6, "2": 0.2, "3": 0.1}}\n'

# (old spelling, new spelling, old argv, new argv, argv of the --help that must not show the old spelling)
CASES = [
    ("runs export", "export run", ["runs", "export", "fts5"], ["export", "run", "fts5"], ["runs"]),
    ("judgments export-log", "export log", ["judgments", "export-log"], ["export", "log"], ["judgments"]),
    (
        "prelabel --model-name",
        "prelabel --model",
        ["prelabel", "--judge", "lexical", "--model-name", "lex2", "--json"],
        ["prelabel", "--judge", "lexical", "--model", "lex2", "--json"],
        ["prelabel"],
    ),
    (
        "judgments import --model-name",
        "judgments import --model",
        ["judgments", "import", "{model_labels}", *MODEL_SOURCE, "--model-name", "m2"],
        ["judgments", "import", "{model_labels}", *MODEL_SOURCE, "--model", "m2"],
        ["judgments", "import"],
    ),
    (
        "agreement --model NAME",
        "agreement model NAME",
        ["agreement", "--model", "lex", "--all-pairs", "--measure", "AP", "--bins", "4", "--json"],
        ["agreement", "model", "lex", "--all-pairs", "--measure", "AP", "--bins", "4", "--json"],
        ["agreement"],
    ),
    (
        "assign --by",
        "assign --assigned-by",
        ["assign", "--assessors", "ann,bob", "--overlap", "0.2", "--by", "lead", "--json"],
        ["assign", "--assessors", "ann,bob", "--overlap", "0.2", "--assigned-by", "lead", "--json"],
        ["assign"],
    ),
    (
        "corpus chunk --overlap",
        "corpus chunk --chunk-overlap",
        ["corpus", "chunk", "--name", "w7", "--size", "7", "--overlap", "2", "--json"],
        ["corpus", "chunk", "--name", "w7", "--size", "7", "--chunk-overlap", "2", "--json"],
        ["corpus", "chunk"],
    ),
    (
        "corpus chunks --name",
        "corpus chunks --chunking",
        ["corpus", "chunks", "--name", "w100", "--json"],
        ["corpus", "chunks", "--chunking", "w100", "--json"],
        ["corpus", "chunks"],
    ),
]


TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")


def _same(stdout: str, folder: Path) -> str:
    """What two runs print alike: the workbench's folder and the times of the moment set aside."""
    return TIME.sub("<time>", stdout.replace(str(folder), "X"))


def _invoke(db: Path, argv: list[str]):
    return CliRunner().invoke(cli, ["--db", str(db), *argv])


@pytest.fixture(scope="module")
def prepared(full_bytes, tmp_path_factory) -> bytes:
    """The full demo workbench with a reviewed second snapshot (v2) and a model's labels (`lex`)."""
    db = copy_to(full_bytes, tmp_path_factory.mktemp("prepared"))
    for argv in (
        ["judgments", "import", str(SAMPLE / "truth.qrels"), "--assessor", "truth", "--reviewed"],
        ["snapshot", "create", "-m", "truth"],
        ["prelabel", "--judge", "lexical", "--model", "lex"],
    ):
        result = _invoke(db, argv)
        assert result.exit_code == 0, result.output
    return db.read_bytes()


@pytest.mark.parametrize(("old", "new", "old_argv", "new_argv", "help_argv"), CASES, ids=[c[0] for c in CASES])
def test_an_old_spelling_does_what_the_new_one_does(prepared, tmp_path, old, new, old_argv, new_argv, help_argv):
    labels = tmp_path / "model.jsonl"
    labels.write_text(MODEL_LABEL)
    fill = {"model_labels": str(labels)}
    before = _invoke(copy_to(prepared, tmp_path / "old"), [arg.format(**fill) for arg in old_argv])
    after = _invoke(copy_to(prepared, tmp_path / "new"), [arg.format(**fill) for arg in new_argv])
    assert before.exit_code == after.exit_code == 0, (before.output, after.output)
    assert _same(before.stdout, tmp_path / "old") == _same(after.stdout, tmp_path / "new")
    assert before.stdout.strip()
    assert NOTICE.format(old=old, new=new) not in after.stderr
    notices = [line for line in before.stderr.splitlines() if "deprecated" in line]
    assert notices == [NOTICE.format(old=old, new=new)]
    assert before.stderr.replace(notices[0] + "\n", "", 1) == after.stderr


@pytest.mark.parametrize(("old", "help_argv"), [(c[0], c[4]) for c in CASES], ids=[c[0] for c in CASES])
def test_an_old_spelling_is_not_in_help(old, help_argv):
    shown = CliRunner().invoke(cli, [*help_argv, "--help"])
    assert shown.exit_code == 0
    words = old.split()
    last = next((word for word in words if word.startswith("--")), words[-1])
    assert last not in shown.stdout.replace(f"{help_argv[-1]} ", ""), shown.stdout


def test_snapshot_diff_prints_what_compare_changes_ends_with(prepared, tmp_path):
    """`snapshot diff` prints what it did; `compare --changes` ends with that table and holds its JSON document."""
    db = copy_to(prepared, tmp_path)
    old = _invoke(db, ["snapshot", "diff", "v1", "v2"])
    assert old.exit_code == 0, old.output
    assert old.stderr.splitlines()[0] == NOTICE.format(old="snapshot diff", new="compare OLD NEW --changes")
    assert "removed" in old.stdout or "added" in old.stdout
    new = _invoke(db, ["compare", "v1", "v2", "--changes"])
    assert new.exit_code == 0, new.output
    assert new.stdout.endswith(old.stdout)
    assert "deprecated" not in new.stderr
    plain = json.loads(_invoke(db, ["compare", "v1", "v2", "--json"]).stdout)
    both = json.loads(_invoke(db, ["compare", "v1", "v2", "--changes", "--json"]).stdout)
    assert list(both) == [*plain, "label_changes"]
    assert {key: both[key] for key in plain} == plain
    assert both["label_changes"] == json.loads(_invoke(db, ["snapshot", "diff", "v1", "v2", "--json"]).stdout)
    assert both["label_changes"]["removed"] + both["label_changes"]["added"] + both["label_changes"]["changed"] > 0


def test_snapshot_diff_is_not_in_help():
    shown = CliRunner().invoke(cli, ["snapshot", "--help"])
    assert " diff " not in shown.stdout
    assert "--changes" in CliRunner().invoke(cli, ["compare", "--help"]).stdout


def _assigned_by(db: Path) -> set[str]:
    plan = json.loads(_invoke(db, ["assign", "--list", "--json"]).stdout)
    return {row["assigned_by"] for row in plan["topics"].values()}


def test_the_old_spelling_alone_fills_a_new_option_that_has_a_default(prepared, tmp_path):
    """`--assigned-by` defaults to the login name: `--by lead` alone is not taken for both spellings."""
    db = copy_to(prepared, tmp_path)
    result = _invoke(db, ["assign", "--assessors", "ann,bob", "--by", "lead"])
    assert result.exit_code == 0, result.output
    assert _assigned_by(db) == {"lead"}
    chunked = _invoke(db, ["corpus", "chunk", "--name", "w7", "--size", "7", "--overlap", "2", "--json"])
    assert chunked.exit_code == 0, chunked.output
    assert json.loads(chunked.stdout)["params"] == {"by": "words", "size": 7, "overlap": 2}


@pytest.mark.parametrize(
    ("argv", "old", "new"),
    [
        (["assign", "--assessors", "ann,bob", "--by", "lead", "--assigned-by", "chair"], "--by", "--assigned-by"),
        (
            ["corpus", "chunk", "--name", "w7", "--size", "7", "--overlap", "2", "--chunk-overlap", "0"],
            "--overlap",
            "--chunk-overlap",
        ),
        (["corpus", "chunks", "--name", "w100", "--chunking", "w100"], "--name", "--chunking"),
    ],
    ids=["assign", "corpus chunk", "corpus chunks"],
)
def test_both_spellings_at_once_are_refused(prepared, tmp_path, argv, old, new):
    """Even when the new spelling is given its default value: the user gave both, so neither is guessed."""
    db = copy_to(prepared, tmp_path)
    result = _invoke(db, argv)
    assert result.exit_code == 2
    assert f"Error: {old} is the old spelling of {new}: give {new} only." in result.stderr.splitlines()
    assert "Traceback" not in result.output
    assert db.read_bytes() == prepared


def test_a_required_option_is_missing_when_neither_spelling_is_given(prepared, tmp_path):
    result = _invoke(copy_to(prepared, tmp_path), ["corpus", "chunks"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "Error: Missing option '--chunking'."
    assert "deprecated" not in result.stderr

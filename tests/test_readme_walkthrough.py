"""The README's "Five minutes on the sample corpus" runs as written.

Every line of the walkthrough's code block is run in order, in a fresh folder
holding `sample_corpus/` and a `my-retriever.run` (the walkthrough's stand-in
for the reader's own run file). The interactive `labeler judge --assessor NAME`
lines are played by a scripted annotator doing what the judging screen does:
`labeler next` claims the next unit, `labeler judgments add` grades it (from
sample_corpus/truth.qrels), and a topic with nothing left for its assessor is
marked done (`d`). Every other line runs exactly as printed, redirections included.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import ROOT, SAMPLE

from labeler.cli import cli
from labeler.store import Store
from labeler.workbench.assignments import current_plan


def _walkthrough() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Five minutes on the sample corpus") :]
    block = re.search(r"```\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def _truth() -> dict[tuple[str, str], int]:
    grades = {}
    for line in (SAMPLE / "truth.qrels").read_text().splitlines():
        topic, _, doc, grade = line.split()
        grades[(topic, doc)] = int(grade)
    return grades


def _my_run() -> str:
    """A plausible outside run: for each topic, its truly relevant documents in reverse id order, then others."""
    truth = _truth()
    docs = sorted(json.loads(line)["id"] for line in (SAMPLE / "corpus.jsonl").read_text().splitlines())
    topics = sorted({t for t, _ in truth}, key=int)
    lines = []
    for topic in topics:
        relevant = sorted((d for (t, d), g in truth.items() if t == topic and g > 0), reverse=True)
        ranking = relevant[:5] + [d for d in docs if d not in relevant][int(topic) * 3 : int(topic) * 3 + 20]
        lines += [f"{topic} Q0 {d} {r} {100 - r} mine" for r, d in enumerate(ranking, 1)]
    return "\n".join(lines) + "\n"


class Shell:
    """Runs walkthrough lines in-process, with the environment and redirections the README uses."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.env: dict[str, str] = {}
        self.runner = CliRunner()
        self.truth = _truth()
        self.outputs: dict[str, str] = {}

    def labeler(self, *args: str) -> str:
        result = self.runner.invoke(cli, list(args), env=self.env, catch_exceptions=False)
        assert result.exit_code == 0, f"labeler {shlex.join(args)}: exit {result.exit_code}\n{result.stderr}"
        return result.stdout

    def run(self, line: str) -> None:
        words = shlex.split(line, comments=True)
        if words[0] == "export":
            key, value = words[1].split("=", 1)
            self.env[key] = value
            return
        assert words[0] == "labeler", line
        args = words[1:]
        target = None
        if ">" in args:
            index = args.index(">")
            args, target = args[:index], args[index + 1]
        if args[:1] == ["judge"]:
            self.judge(args[args.index("--assessor") + 1])
            return
        out = self.labeler(*args)
        self.outputs[" ".join(args)] = out
        if target:
            (self.folder / target).write_text(out)

    def judge(self, assessor: str) -> None:
        """What `labeler judge --assessor NAME` does with an annotator at the keys."""
        while True:
            claim = json.loads(self.labeler("next", "--assessor", assessor, "--json"))
            if claim["unit"] is None:
                break
            grade = self.truth.get((claim["topic"], claim["unit"]), 0)
            self.labeler(
                "judgments",
                "add",
                claim["topic"],
                claim["unit"],
                str(grade),
                "--assessor",
                assessor,
                "--unit",
                claim["unit_space"],
            )
        with Store(self.folder / self.env["LABELER_DB"]) as store:
            plan = current_plan(store)
            mine = [t for t in plan.topics_for(assessor) if plan.topics[t].assessor == assessor]
        for topic in mine:  # `d` on each of the assessor's topics once its queue is empty
            self.labeler("topics", "mark", topic, "reviewed", "--assessor", assessor)


@pytest.mark.slow
def test_the_readme_walkthrough_runs_as_written(tmp_path, monkeypatch):
    (tmp_path / "sample_corpus").symlink_to(SAMPLE)
    (tmp_path / "my-retriever.run").write_text(_my_run())
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LABELER_DB", raising=False)
    shell = Shell(tmp_path)
    lines = _walkthrough()
    assert any("pool build" in line for line in lines[lines.index(next(ln for ln in lines if "round 2" in ln)) :]), (
        "the walkthrough re-pools"
    )
    assert {"ann", "bob"} <= {w for ln in lines if "judge " in ln for w in shlex.split(ln, comments=True)}
    for line in lines:
        shell.run(line)
        if line.startswith("labeler pool build") and "P1" in line:
            status = json.loads(shell.labeler("status", "--json"))
            assert any(row["review_status"] == "reopened" for row in status["topics"].values())

    # the whole campaign holds up: everything pooled is judged and reviewed again, nothing reopened is left
    status = json.loads(shell.labeler("status", "--json"))
    assert status["pool"] == "P2" and status["totals"]["unjudged"] == 0
    assert {row["review_status"] for row in status["topics"].values() if row["pool"]} == {"reviewed"}
    compared = json.loads(shell.labeler("compare", "v1", "v3", "--json"))
    assert compared["reopened_since"], "v1's reviewed topics were reopened by P1 and P2"
    assert "bm25s" in compared["runs"]
    agreement = json.loads(shell.labeler("agreement", "--json"))
    assert agreement["pairs_read"] == "overlap" and agreement["planned_overlap"] > 0 and agreement["pairs_multi"] > 0
    assert (tmp_path / "v3.qrels").read_text().count("\n") > 100
    assert (tmp_path / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert os.path.exists(tmp_path / "demo.db")

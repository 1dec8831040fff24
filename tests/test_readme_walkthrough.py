"""The README's "Five minutes on the sample corpus" runs as written, and its figures are what it prints.

Every line of the walkthrough's code block is run in order, in a fresh folder
holding `sample_corpus/` (whose `my-retriever.run` stands for the reader's own
run file). The interactive `labeler judge --assessor NAME` lines are played by
a scripted annotator doing what the judging screen does: `labeler next` claims
the next unit, `labeler judgments add` grades it (from sample_corpus/truth.qrels),
and a topic with nothing left for its assessor is marked done (`d`). Every other
line runs exactly as printed, redirections included. The figures the README's
prose quotes for the two rounds are then checked against the workbench's JSON.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
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


def _prose() -> str:
    """The README's walkthrough section after its code block, one space between words."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Five minutes on the sample corpus") :]
    section = section[section.index("```", section.index("```") + 3) + 3 :]
    return " ".join(section[: section.index("\n## ")].split())


def _top(shell: Shell, run: str, topic: str, k: int = 10) -> list[str]:
    rows = [line.split() for line in shell.labeler("runs", "export", run).splitlines()]
    return [unit for t, _, unit, rank, *_ in rows if t == topic and int(rank) <= k]


def _says(prose: str, *facts: str) -> None:
    missing = [fact for fact in facts if fact not in prose]
    assert not missing, f"the README's walkthrough should say what the campaign printed: {missing}"


def test_the_shipped_run_is_what_the_example_retriever_makes():
    """sample_corpus/my-retriever.run is the example retriever's output, as sample_corpus/README.md says."""
    with (SAMPLE / "topics.jsonl").open() as topics:
        made = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "retriever_plugin.py"), str(SAMPLE / "corpus.jsonl")],
            stdin=topics,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "LABELER_RETRIEVE_DEPTH": "100"},
        ).stdout
    assert made == (SAMPLE / "my-retriever.run").read_text()


@pytest.mark.slow
def test_the_readme_walkthrough_runs_as_written(tmp_path, monkeypatch):
    (tmp_path / "sample_corpus").symlink_to(SAMPLE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LABELER_DB", raising=False)
    shell = Shell(tmp_path)
    lines = _walkthrough()
    round2 = lines.index(next(ln for ln in lines if "round 2" in ln))
    new_run = shlex.split(lines[round2], comments=True)[-1]
    repool = next(i for i in range(round2, len(lines)) if lines[i].startswith("labeler pool build"))
    assert shlex.split(lines[round2], comments=True)[-2] == "--name", "round 2 starts with a new run, named last"
    assert {"ann", "bob"} <= {w for ln in lines if "judge " in ln for w in shlex.split(ln, comments=True)}
    compared = {}  # each compare line's JSON, as it stood when the line ran
    for index, line in enumerate(lines):
        shell.run(line)
        if line.startswith("labeler compare "):
            args = shlex.split(line, comments=True)[1:]
            compared[" ".join(args[1:])] = json.loads(shell.labeler(*args, "--json"))
        if line.startswith("labeler pool build") and "P1" in line:
            after_p1 = json.loads(shell.labeler("status", "--json"))
            assert any(row["review_status"] == "reopened" for row in after_p1["topics"].values())
        if index == repool:
            after_p2 = json.loads(shell.labeler("status", "--json"))
            assert any(row["review_status"] == "reopened" for row in after_p2["topics"].values()), (
                "round 2's pool adds units nobody judged, reopening their topics"
            )

    # the whole campaign holds up: everything pooled is judged and reviewed again, nothing reopened is left
    status = json.loads(shell.labeler("status", "--json"))
    assert status["pool"] == "P2" and status["totals"]["unjudged"] == 0
    assert {row["review_status"] for row in status["topics"].values() if row["pool"]} == {"reviewed"}
    agreement = json.loads(shell.labeler("agreement", "--json"))
    assert agreement["pairs_read"] == "overlap" and agreement["planned_overlap"] > 0 and agreement["pairs_multi"] > 0
    assert (tmp_path / "v3.qrels").read_text().count("\n") > 100
    assert (tmp_path / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert os.path.exists(tmp_path / "demo.db")

    # round 2 adds units only the new run ranks in its top 10, and they reopen the topics they join
    coverage = json.loads(shell.labeler("coverage", "--snapshot", "v2", "--json"))
    per_run = coverage["pool"]["per_run"]
    added = per_run[new_run]["new"]
    assert coverage["pool"]["pool"] == "P2" and added > 0
    assert all(row["new"] == 0 for run, row in per_run.items() if run != new_run), "only the new run adds units"
    assert added == sum(row["new"] for row in coverage["pool"]["per_topic"].values())
    topics = after_p2["topics"]
    reopened = sorted((t for t, row in topics.items() if row["review_status"] == "reopened"), key=int)
    assert reopened and all(topics[t]["reopened"]["pool"] == "P2" for t in reopened)
    assert reopened == sorted((t for t, row in topics.items() if row["unjudged"]), key=int)
    closed = sorted(set(topics) - set(reopened), key=int)
    unjudged = sum(row["unjudged"] for row in topics.values())
    judged_at_10 = {run: row["judged"] for run, row in coverage["runs"].items()}
    assert judged_at_10[new_run] < min(v for run, v in judged_at_10.items() if run != new_run)

    # judging round 2 shows: the reopened topics are named, the new run's units grew relevant sets
    last = compared["v2 v3"]
    assert sorted(last["reopened_since"], key=int) == reopened
    assert all(set(row["pools"]) == {"P2"} for row in last["reopened_since"].values())
    grown = last["topics_grown"]
    assert grown, "round 2 found relevant units round 1 had not"
    round1 = [shlex.split(ln, comments=True)[-1] for ln in lines[:round2] if ln.startswith("labeler runs ")]
    for topic, row in grown.items():
        for unit in row["new"]:
            assert unit in _top(shell, new_run, topic)
            assert not any(unit in _top(shell, run, topic) for run in round1), (topic, unit)
    judged_change = last["runs"][new_run]
    assert judged_change["before"]["Judged@10"] < 1 == judged_change["after"]["Judged@10"]
    fts5 = last["runs"]["fts5"]
    ranking = last["ranking"]
    baseline = json.loads(shell.labeler("eval", "--baseline", "fts5", "--measures", "R@10", "--json"))
    r10 = baseline["comparisons"][new_run]["R@10"]

    # and the README says so, with the figures the campaign printed
    p1_topics = after_p1["topics"].values()
    p1_counts = {row["reopened"]["unjudged"] for row in p1_topics if row["review_status"] == "reopened"}
    assert any(f'"reopened by P1 ({n} unjudged)"' in line for line in lines for n in p1_counts)
    _says(
        _prose(),
        f"{sum(row['pool'] for row in p1_topics)} pairs, {sum(row['judged'] for row in p1_topics)} of them judged",
        f"relevant sets grown in {len(compared['v1 v2']['topics_grown'])} topics",
        f"`{new_run}` queries with each topic's description",
        f"**{added} units** ({added - unjudged} of them judged by the prior labels, {unjudged} to judge)",
        f"reopens **{len(reopened)} topics**, every one but {' and '.join(closed)}",
        f"Judged@10 of **{judged_at_10[new_run]:.3f}**",
        f"(the round-1 runs {min(v for r, v in judged_at_10.items() if r != new_run):.3f} to "
        f"{max(v for r, v in judged_at_10.items() if r != new_run):.3f})",
        f"scores only topics {' and '.join(closed)}",
        f"names the {len(reopened)} reopened topics",
        *(f"`{unit}` for topic {topic}" for topic, row in grown.items() for unit in row["new"]),
        f"Judged@10 goes **{judged_change['before']['Judged@10']:.3f} → 1.000**",
        f"R@10 falls {fts5['before']['R@10']:.3f} → {fts5['after']['R@10']:.3f}",
        f"from `{' > '.join(ranking['before'][:2])}` to `{' > '.join(ranking['after'][:2])}`",
        f"R@10 {r10['mean_delta']:+.3f}, 95% interval [{r10['ci']['mean_delta'][0]:.3f}, "
        f"{r10['ci']['mean_delta'][1]:.3f}]",
    )

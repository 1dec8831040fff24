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


class Campaign:
    """The walkthrough played once, with the JSON of the moments its prose describes."""

    def __init__(self, shell: Shell, lines: list[str]):
        self.shell, self.lines = shell, lines
        self.round2 = lines.index(next(ln for ln in lines if "round 2" in ln))
        words = shlex.split(lines[self.round2], comments=True)
        assert words[-2] == "--name", "round 2 starts with a new run, named last"
        self.new_run = words[-1]
        self.round1_runs = [shlex.split(ln, comments=True)[-1] for ln in lines[: self.round2] if " runs " in ln]
        self.compared: dict[str, dict] = {}  # each compare line's JSON, as it stood when the line ran
        self.after_pool: dict[str, dict] = {}  # status right after each pool build, by pool name

    def play(self) -> None:
        for line in self.lines:
            self.shell.run(line)
            args = shlex.split(line, comments=True)[1:]
            if args[:1] == ["compare"]:
                self.compared[" ".join(args[1:])] = self.json(*args)
            if args[:2] == ["pool", "build"]:
                status = self.json("status")
                self.after_pool[status["pool"]] = status
                assert self.reopened(status["pool"]), f"{status['pool']} reopens topics judged before it"

    def json(self, *args: str) -> dict:
        return json.loads(self.shell.labeler(*args, "--json"))

    def reopened(self, pool: str) -> list[str]:
        topics = self.after_pool[pool]["topics"]
        return sorted((t for t, row in topics.items() if row["review_status"] == "reopened"), key=int)

    def top(self, run: str, topic: str, k: int = 10) -> list[str]:
        rows = [line.split() for line in self.shell.labeler("export", "run", run).splitlines()]
        return [unit for t, _, unit, rank, *_ in rows if t == topic and int(rank) <= k]


def _round_one(campaign: Campaign) -> list[str]:
    """What the README says of round 1, from the workbench."""
    topics = campaign.after_pool["P1"]["topics"].values()
    counts = {row["reopened"]["unjudged"] for row in topics if row["review_status"] == "reopened"}
    assert any(f'"reopened by P1 ({n} unjudged)"' in line for line in campaign.lines for n in counts)
    return [
        f"{sum(row['pool'] for row in topics)} pairs, {sum(row['judged'] for row in topics)} of them judged",
        f"relevant sets grown in {len(campaign.compared['v1 v2']['topics_grown'])} topics",
    ]


def _round_two_pool(campaign: Campaign) -> list[str]:
    """P2 adds units only the new run ranks in its top 10, and they reopen the topics they join."""
    new_run, topics = campaign.new_run, campaign.after_pool["P2"]["topics"]
    coverage = campaign.json("coverage", "--snapshot", "v2")
    per_run = coverage["pool"]["per_run"]
    added = per_run[new_run]["new"]
    assert coverage["pool"]["pool"] == "P2" and added > 0
    assert all(row["new"] == 0 for run, row in per_run.items() if run != new_run), "only the new run adds units"
    assert added == sum(row["new"] for row in coverage["pool"]["per_topic"].values())
    reopened = campaign.reopened("P2")
    assert all(topics[t]["reopened"]["pool"] == "P2" for t in reopened)
    assert reopened == sorted((t for t, row in topics.items() if row["unjudged"]), key=int)
    closed = " and ".join(sorted(set(topics) - set(reopened), key=int))
    unjudged = sum(row["unjudged"] for row in topics.values())
    judged = {run: row["judged"] for run, row in coverage["runs"].items()}
    others = [value for run, value in judged.items() if run != new_run]
    assert judged[new_run] < min(others)
    return [
        f"`{new_run}` queries with each topic's description",
        f"**{added} units** ({added - unjudged} of them judged by the prior labels, {unjudged} to judge)",
        f"reopens **{len(reopened)} topics**, every one but {closed}",
        f"Judged@10 of **{judged[new_run]:.3f}** (the round-1 runs {min(others):.3f} to {max(others):.3f})",
        f"scores only topics {closed}",
    ]


def _round_two_judged(campaign: Campaign) -> list[str]:
    """Judging round 2 names the reopened topics and grows relevant sets with units only the new run found."""
    new_run, last = campaign.new_run, campaign.compared["v2 v3"]
    reopened = campaign.reopened("P2")
    assert sorted(last["reopened_since"], key=int) == reopened
    assert all(set(row["pools"]) == {"P2"} for row in last["reopened_since"].values())
    grown = {(topic, unit) for topic, row in last["topics_grown"].items() for unit in row["new"]}
    assert grown, "round 2 found relevant units round 1 had not"
    for topic, unit in grown:
        assert unit in campaign.top(new_run, topic)
        assert not any(unit in campaign.top(run, topic) for run in campaign.round1_runs), (topic, unit)
    judged = last["runs"][new_run]["before"]["Judged@10"], last["runs"][new_run]["after"]["Judged@10"]
    assert judged[0] < 1 == judged[1]
    fts5, ranking = last["runs"]["fts5"], last["ranking"]
    r10 = campaign.json("eval", "--baseline", "fts5", "--measures", "R@10")["comparisons"][new_run]["R@10"]
    low, high = r10["ci"]["mean_delta"]
    return [
        f"names the {len(reopened)} reopened topics",
        *(f"`{unit}` for topic {topic}" for topic, unit in sorted(grown)),
        f"Judged@10 goes **{judged[0]:.3f} → 1.000**",
        f"R@10 falls {fts5['before']['R@10']:.3f} → {fts5['after']['R@10']:.3f}",
        f"from `{' > '.join(ranking['before'][:2])}` to `{' > '.join(ranking['after'][:2])}`",
        f"R@10 {r10['mean_delta']:+.3f}, 95% interval [{low:.3f}, {high:.3f}]",
    ]


def _holds_up(campaign: Campaign, folder: Path) -> None:
    """Everything pooled is judged and reviewed again, nothing reopened is left, the outputs are written."""
    status = campaign.json("status")
    assert status["pool"] == "P2" and status["totals"]["unjudged"] == 0
    assert {row["review_status"] for row in status["topics"].values() if row["pool"]} == {"reviewed"}
    agreement = campaign.json("agreement")
    assert agreement["pairs_read"] == "overlap" and agreement["planned_overlap"] > 0 and agreement["pairs_multi"] > 0
    assert (folder / "v3.qrels").read_text().count("\n") > 100
    assert (folder / "report.html").read_text().startswith("<!DOCTYPE html>")
    assert os.path.exists(folder / "demo.db")


@pytest.mark.slow
def test_the_readme_walkthrough_runs_as_written(tmp_path, monkeypatch):
    (tmp_path / "sample_corpus").symlink_to(SAMPLE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LABELER_DB", raising=False)
    shell = Shell(tmp_path)
    lines = _walkthrough()
    assert {"ann", "bob"} <= {w for ln in lines if "judge " in ln for w in shlex.split(ln, comments=True)}
    campaign = Campaign(shell, lines)
    campaign.play()
    assert list(campaign.after_pool) == ["P1", "P2"], "the walkthrough pools twice"

    _holds_up(campaign, tmp_path)

    # each round did what the README says, and the README says it with the figures the campaign printed
    prose = _prose()
    facts = _round_one(campaign) + _round_two_pool(campaign) + _round_two_judged(campaign)
    missing = [fact for fact in facts if fact not in prose]
    assert not missing, f"the README's walkthrough should say what the campaign printed: {missing}"

"""docs/guide.md's "Judging RAG answers" runs as written on the shipped sample answers, and says what it prints.

Every line of the chapter's code block runs in order, in a fresh folder holding
`sample_corpus/`. The interactive `labeler judge --answers TASK --assessor NAME`
lines are played by scripted annotators doing what the answer judging screen
does (the session it drives, one grade per item until the queue is empty): ann
grades as sample_corpus/assignments.jsonl (and, for citation support, as
`SUPPORT` below) says; bob is lenient, giving full support where those say
partial. The `judgments adjudicate` line with placeholders is played by a lead
settling each pair `judgments conflicts` lists, by the same reference. The
figures the chapter's prose quotes are then checked against the workbench's JSON.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from nuggetizer.core.metrics import calculate_global_metrics
from support import ROOT, SAMPLE
from test_readme_walkthrough import Shell

from labeler.answers.spaces import ASSIGNMENT_GRADES
from labeler.store import Store
from labeler.workbench.answer_judging import AnswerJudgingSession
from labeler.workbench.answer_labels import nuggets_now

SECTION = "## Judging RAG answers"

SUPPORT = {  # (run, topic, sentence number) -> how far its first cited unit supports it: 2 full, 1 partial, 0 none
    ("rag-a", "3", "1"): 2, ("rag-a", "3", "2"): 2, ("rag-a", "3", "3"): 2, ("rag-a", "3", "4"): 1,
    ("rag-a", "6", "1"): 1, ("rag-a", "6", "2"): 1, ("rag-a", "6", "3"): 2,
    ("rag-a", "10", "1"): 2, ("rag-a", "10", "2"): 1, ("rag-a", "10", "3"): 1,
    ("rag-a", "13", "1"): 2, ("rag-a", "13", "2"): 1, ("rag-a", "13", "3"): 2,
    ("rag-b", "3", "1"): 2, ("rag-b", "3", "2"): 1,
    ("rag-b", "6", "1"): 2, ("rag-b", "6", "2"): 0,
    ("rag-b", "13", "1"): 2, ("rag-b", "13", "2"): 0,
}  # fmt: skip


def _chapter() -> str:
    text = (ROOT / "docs" / "guide.md").read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start : end if end != -1 else len(text)]


def _walkthrough() -> list[str]:
    block = re.search(r"```\n(.*?)```", _chapter(), re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _reference() -> list[dict]:
    return [json.loads(line) for line in (SAMPLE / "assignments.jsonl").read_text().splitlines()]


class AnswerShell(Shell):
    """The README's shell, with the answer judging screens and the lead's adjudication played by script."""

    def __init__(self, folder: Path):
        super().__init__(folder)
        self.truth_of: dict[tuple[str, str, str], int] = {}

    def run(self, line: str) -> None:
        words = shlex.split(line, comments=True)
        if words[:3] == ["labeler", "judge", "--answers"]:
            self.judge_answers(words[3], words[words.index("--assessor") + 1])
        elif words[:3] == ["labeler", "judgments", "adjudicate"] and "TOPIC" in words:
            self.adjudicate(words[words.index("--unit") + 1], words[words.index("--assessor") + 1])
        else:
            super().run(line)

    def store(self) -> Store:
        return Store(self.folder / self.env["LABELER_DB"])

    def reference(self, space: str, topic: str, item: str) -> int:
        """The reference grade of an item: the sample assignments by nugget text, or `SUPPORT`."""
        kind, run = space.split(":", 1)
        if kind == "support":
            return SUPPORT[(run, topic, item)]
        if not self.truth_of:
            with self.store() as store:
                ids = {(n.topic_id, n.text): n.nugget_id for n in nuggets_now(store)}
            for row in _reference():
                for nugget in row["nuggets"]:
                    key = (row["run_id"], row["qid"], ids[(row["qid"], nugget["text"])])
                    self.truth_of[key] = ASSIGNMENT_GRADES[nugget["assignment"]]
        return self.truth_of[(run, topic, item)]

    def judge_answers(self, task: str, assessor: str) -> None:
        """What `labeler judge --answers TASK --assessor NAME` does with an annotator at the keys."""
        with self.store() as store:
            session = AnswerJudgingSession(store, assessor, task)
            while (item := session.advance()) is not None:
                grade = self.reference(item.space, item.topic_id, item.item_id)
                session.judge(2 if assessor == "bob" and grade == 1 else grade)
            session.close()

    def adjudicate(self, space: str, lead: str) -> None:
        """The lead settles every pair `judgments conflicts --unit SPACE` lists, by the reference."""
        for pair in json.loads(self.labeler("judgments", "conflicts", "--unit", space, "--json")):
            grade = self.reference(space, pair["topic"], pair["unit_id"])
            self.labeler(
                "judgments",
                "adjudicate",
                pair["topic"],
                pair["unit_id"],
                str(grade),
                "--unit",
                space,
                "--assessor",
                lead,
            )


def _prose() -> str:
    return " ".join(_chapter().split())


@pytest.mark.slow
def test_the_rag_chapter_runs_as_written_and_says_what_it_prints(tmp_path, monkeypatch):
    (tmp_path / "sample_corpus").symlink_to(SAMPLE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LABELER_DB", raising=False)
    shell = AnswerShell(tmp_path)
    lines = _walkthrough()
    assert any(line.startswith("labeler judge --answers nuggets") for line in lines)
    for line in lines:
        shell.run(line)

    def as_json(*args: str) -> dict:
        return json.loads(shell.labeler(*args, "--json"))

    agreement = as_json("agreement", "--answers", "nuggets")
    scored = as_json("nuggets", "score", "--snapshot", "v2")
    runs = {run["run"]: run for run in scored["runs"]}
    reference = {r: calculate_global_metrics([x for x in _reference() if x["run_id"] == r]) for r in runs}
    pair = agreement["overall"]["pairs_by_assessors"]["ann|bob"]
    strict_all = [runs[r]["strict_all_score"] for r in ("rag-a", "rag-b")]
    reference_all = [reference[r]["strict_all_score"] for r in ("rag-a", "rag-b")]
    assert strict_all[1] > reference_all[1], "bob's lenient grades on his own items raise rag-b's strict all score"
    facts = [
        f"{agreement['pairs_multi']} of {agreement['pairs_judged']} judged items",
        f"agree on {pair['overlap']['value']:.3f} of them, Cohen's kappa {pair['cohen_kappa']['value']:.3f}",
        *(f"`{r}` {runs[r]['strict_vital_score']:.3f}" for r in sorted(runs)),
        *(f"{reference[r]['strict_vital_score']:.3f} for `{r}`" for r in sorted(runs)),
        f"strict all scores of {strict_all[0]:.3f} and {strict_all[1]:.3f}.",
        f"strict all scores of {reference_all[0]:.3f} and {reference_all[1]:.3f}:",
    ]
    missing = [fact for fact in facts if fact not in _prose()]
    assert not missing, f"the chapter should say what the walkthrough printed: {missing}"
    assert (tmp_path / "rag" / "assignments.jsonl").exists()
    assert as_json("judgments", "conflicts", "--unit", "nugget:rag-b") == []
    assert as_json("check")["ok"]

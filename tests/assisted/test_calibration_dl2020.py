"""Issue 17's "done when": on TREC DL 2020, `agreement model` recovers the simulated model's confusion.

NIST's qrels are imported as the human labels; the simulated model (tests/assisted/noisy_model.py:
30% of grades moved by one, 0.8 stated on the reported grade) is imported as model labels with
`judgments import --source model`. The confusion's row shares must equal `true_confusion` within
3 binomial standard errors of each row's count, and the reliability diagram must show the stated
0.8 observed at about 0.7 (3 standard errors of the bin's count). Skipped when ../shared is absent.
"""

from __future__ import annotations

import gzip
import math
from pathlib import Path

import pytest
from assisted.noisy_model import MOVED, noisy_model, true_confusion, write_jsonl
from support import ROOT, Cli

DATA = next(
    (p / "shared" / "data" / "trec-dl-2020" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").exists()),
    ROOT.parent / "shared" / "data" / "trec-dl-2020",
)
RUNS = ("bm25", "tasb", "splade-pp-ed")
GRADES = (0, 1, 2, 3)

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="../shared/data/trec-dl-2020 is absent")


def nist_labels() -> dict[tuple[str, str], int]:
    labels = {}
    with gzip.open(DATA / "qrels.txt.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            topic, _, unit, grade = line.split()
            labels[(topic, unit)] = int(grade)
    return labels


def within(observed: float, expected: float, n: int) -> bool:
    """|observed − expected| ≤ 3 binomial standard errors of n draws (exact when expected is 0 or 1)."""
    return abs(observed - expected) <= 3 * math.sqrt(expected * (1 - expected) / n) + 1e-12


def test_calibration_recovers_the_confusion(tmp_path: Path):
    from labeler.workbench.init import init_workbench

    db = tmp_path / "dl.db"
    init_workbench(db, scale="trec-dl-passage")
    cli = Cli(db)
    cli("topics", "import", DATA / "topics.tsv")
    for run in RUNS:
        cli("runs", "import", DATA / f"{run}.run.gz", "--name", run)
    cli("judgments", "import", DATA / "qrels.txt.gz", "--reviewed")
    labels = nist_labels()
    model = noisy_model(labels, GRADES, seed=17)
    path = write_jsonl(tmp_path / "noisy.jsonl", model)  # type: ignore[arg-type]
    cli("judgments", "import", path, "--source", "model", "--model", "noisy", "--allow-unknown")

    out = cli.json("agreement", "model", "noisy")
    assert out["pairs"] == len(labels)
    assert out["conditions"]["blind"]["pairs"] == len(labels)  # NIST judged without the model's label
    truth = true_confusion(GRADES)
    confusion = out["confusion"]
    for h, counts, shares in zip(confusion["grades"], confusion["counts"], confusion["row_shares"], strict=True):
        n = sum(counts)
        assert n > 100, h
        for m, share in zip(confusion["grades"], shares, strict=True):
            assert within(share, truth[h][m], n), (h, m, share, truth[h][m], n)
        print(f"human {h}: n={n} shares {[round(s, 3) for s in shares]} truth {list(truth[h].values())}")

    confidence = out["calibration"]["confidence"]
    (stated_bin,) = [b for b in confidence["bins"] if b["count"]]  # the model states 0.8 on every label
    assert stated_bin["mean_stated"] == pytest.approx(0.8)
    assert within(stated_bin["observed"], 1 - MOVED, stated_bin["count"])
    assert confidence["ece"] == pytest.approx(abs(stated_bin["observed"] - 0.8))
    print(f"stated 0.8 observed {stated_bin['observed']:.3f} on {stated_bin['count']} pairs; tau {out['tau']}")
    assert out["tau"]["runs"] == len(RUNS) and out["tau"]["kendall_tau"] is not None

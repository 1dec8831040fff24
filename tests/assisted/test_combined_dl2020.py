"""Model-assisted judging end to end on TREC DL 2020, through the CLI, with no flag beyond the labels.

The campaign: the six runs, a depth-10 pool, a simulated model (`noisy_model`: NIST's grade moved by
one for 30% of pairs, seeded, with miscalibrated stated probabilities; a pool pair NIST never judged
is taken as grade 0, as trec_eval counts it) labels every pool pair, `assign --overlap` plans a
seeded 30% sample, and NIST's labels are imported for the sample pairs only, by an assessor who marks
nothing reviewed. `eval --labels combined --measures P@10` must then score every topic (their random
samples are judged) and give each run a 95% interval that holds its P@10 on all of NIST's labels.
One seeded draw: how often such intervals cover is measured over 100 draws in test_ppi_dl2020.py.
Skipped without ../shared.
"""

from __future__ import annotations

import gzip
import json

import pytest
from assisted.noisy_model import noisy_model
from support import ROOT

from labeler.assignment import overlap_draw
from labeler.metrics import evaluate

DATA = next(
    (p / "shared" / "data" / "trec-dl-2020" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").exists()),
    ROOT.parent / "shared" / "data" / "trec-dl-2020",
)
RUNS = ("bm25", "bm25-rm3", "tasb", "ada2", "splade-pp-ed", "repllama")
SEED, SHARE = 7, 0.3

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="../shared/data/trec-dl-2020 is absent")


def _read(name: str) -> str:
    with gzip.open(DATA / name, "rt") as handle:
        return handle.read()


def test_combined_scores_every_topic_whose_sample_is_judged_and_covers_the_nist_p_at_10(run_cli, write):
    qrels: dict[str, dict[str, int]] = {}
    for line in _read("qrels.txt.gz").splitlines():
        topic, _, unit, grade = line.split()
        qrels.setdefault(topic, {})[unit] = int(grade)
    top10: dict[str, dict[str, list[str]]] = {}
    for name in RUNS:
        text = _read(f"{name}.run.gz")
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name)
        ranked: dict[str, list[tuple[float, str]]] = {}
        for line in text.splitlines():
            topic, _, unit, _, score, *_ = line.split()
            ranked.setdefault(topic, []).append((float(score), unit))
        # trec_eval's order (score, then docno, both descending), which labeler ranks and pools by
        top10[name] = {t: [u for _, u in sorted(rows, reverse=True)[:10]] for t, rows in ranked.items()}
    run_cli("pool", "build", "--depth", "10")
    pool = sorted({(t, u) for ranked in top10.values() for t, units in ranked.items() for u in units})
    nist = {(t, u): qrels.get(t, {}).get(u, 0) for t, u in pool}  # unjudged by NIST: not relevant, as trec_eval

    model = noisy_model(nist, (0, 1, 2, 3), seed=SEED)
    lines = [
        json.dumps({"topic": t, "unit": u, "grade": grade, "probs": {str(g): p for g, p in probs.items()}})
        for (t, u), (grade, probs) in model.items()
    ]
    run_cli("judgments", "import", write("sim.jsonl", "\n".join(lines) + "\n"), "--source", "model", "--model", "sim")
    run_cli("assign", "--assessors", "ann,nist", "--overlap", str(SHARE), "--seed", str(SEED))
    sample = [(t, u) for t, u in pool if overlap_draw(SEED, t, u) < SHARE]
    run_cli(
        "judgments",
        "import",
        write("sample.qrels", "".join(f"{t} 0 {u} {nist[t, u]}\n" for t, u in sample)),
        "--assessor",
        "nist",
    )
    run_cli("snapshot", "create", "-m", "the overlap sample, judged by NIST")

    out = run_cli.json("eval", "--labels", "combined", "--measures", "P@10")
    threshold = out["threshold"]
    topics = sorted(qrels, key=int)
    assert out["labels"]["topic_rule"] == "sample_judged"
    assert out["labels"]["samples"] == {
        t: {"pairs": n, "judged": n} for t in topics if (n := sum(1 for s in sample if s[0] == t))
    }
    for run in out["runs"]:
        assert run["topics"]["scored"] == len(topics) == 54 and run["topics"]["excluded"] == {}
        truth = evaluate(qrels, top10[run["run"]], ["P@10"], topics=topics, threshold=threshold).aggregate["P@10"]
        low, high = run["ci"]["P@10"]
        assert low <= truth <= high, (run["run"], low, truth, high)
        assert run["human_labels"] >= 50 and run["ppi"]["sample_unlabelled"] == {"P@10": 0}
    # the human labels alone score nothing: no topic is marked reviewed
    human = run_cli.json("eval", "--measures", "P@10")["runs"][0]["topics"]
    assert human["scored"] == 0 and human["excluded"] == {"in_progress": 54}
    words = run_cli("eval", "--labels", "combined", "--measures", "P@10")
    said = words.stdout + words.stderr
    assert "whose random sample is judged" in said and "54 topics" in said

"""`labeler eval --labels human|model|combined [--model NAME]`: model scores, and P@k with prediction-powered intervals.

The expected figures are computed here from the files the test writes and the overlap draw, with the
PPI formula written out in numpy (not through labeler.metrics.ppi).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from labeler.assignment import overlap_draw

TOPICS = [str(t) for t in range(1, 31)]
UNITS = 10
SEED, SHARE = 3, 0.5


def _human(t: str, r: int) -> int:
    return (int(t) * 7 + r * 3) % 4


def _model(t: str, r: int) -> int:
    g = _human(t, r)
    return min(3, g + 1) if (int(t) + r) % 3 == 0 else g  # a third moved up: biased towards relevant


def _import_model(run_cli, write) -> None:
    """The simulated model's grade for every pair, imported as model `sim`."""
    model = "".join(
        json.dumps({"topic": t, "unit": f"d{t}-{r}", "grade": _model(t, r)}) + "\n"
        for t in TOPICS
        for r in range(1, UNITS + 1)
    )
    run_cli("judgments", "import", write("m.jsonl", model), "--source", "model", "--model", "sim")


@pytest.fixture
def campaign(run_cli, write):
    run = "".join(f"{t} Q0 d{t}-{r} {r} {100 - r} A\n" for t in TOPICS for r in range(1, UNITS + 1))
    run_cli("runs", "import", write("a.run", run), "--name", "A")
    run_cli("pool", "build", "--depth", str(UNITS))
    run_cli("assign", "--assessors", "ann,bob", "--overlap", str(SHARE), "--seed", str(SEED))
    qrels = "".join(f"{t} 0 d{t}-{r} {_human(t, r)}\n" for t in TOPICS for r in range(1, UNITS + 1))
    run_cli("judgments", "import", write("h.qrels", qrels), "--reviewed", "--assessor", "ann")
    _import_model(run_cli, write)
    run_cli("snapshot", "create", "-m", "all")
    return run_cli


def _threshold(cli) -> int:
    return cli.json("eval", "--measures", "P@10")["threshold"]


def test_combined_p_at_10_is_the_ppi_formula_over_the_overlap_pairs(campaign):
    threshold = _threshold(campaign)
    out = campaign.json("eval", "--labels", "combined", "--model", "sim", "--measures", "P@10 nDCG@10")
    (run,) = out["runs"]
    pairs = [(t, r) for t in TOPICS for r in range(1, UNITS + 1)]
    f = np.array([float(_model(t, r) >= threshold) for t, r in pairs])  # no probabilities: 1/0 from the grade
    y = np.array([float(_human(t, r) >= threshold) for t, r in pairs])
    sample = np.array([overlap_draw(SEED, t, f"d{t}-{r}") < SHARE for t, r in pairs])
    theta = f.mean() + (y[sample] - f[sample]).mean()
    se = math.sqrt(f.var(ddof=1) / len(f) + (y[sample] - f[sample]).var(ddof=1) / sample.sum())
    assert run["aggregate"]["P@10"] == pytest.approx(theta)
    assert run["ci"]["P@10"] == pytest.approx([theta - 1.959964 * se, theta + 1.959964 * se])
    assert run["ci"]["nDCG@10"] is None  # not a mean over pairs: the combined labels' mean, no interval
    assert run["human_labels"] == int(sample.sum()) >= 50
    assert out["labels"]["labels"] == "combined" and out["labels"]["model"] == "sim"
    assert run["ppi"]["sample_unlabelled"] == {"P@10": 0}
    # every pair has a human label here, so the combined labels are the human ones and nDCG@10 is the human mean
    human = campaign.json("eval", "--measures", "P@10 nDCG@10")["runs"][0]
    assert run["aggregate"]["nDCG@10"] == pytest.approx(human["aggregate"]["nDCG@10"])
    assert run["ci"]["P@10"][0] <= human["aggregate"]["P@10"] <= run["ci"]["P@10"][1]
    assert "ci" not in human and "labels" not in campaign.json("eval", "--measures", "P@10")
    text = campaign("eval", "--labels", "combined", "--measures", "P@10").stdout
    assert f"{theta:.4f} [{theta - 1.959964 * se:.4f}, {theta + 1.959964 * se:.4f}]" in text


def test_model_labels_alone(campaign):
    threshold = _threshold(campaign)
    (run,) = campaign.json("eval", "--labels", "model", "--measures", "P@10")["runs"]
    expected = np.mean([np.mean([_model(t, r) >= threshold for r in range(1, UNITS + 1)]) for t in TOPICS])
    assert run["aggregate"]["P@10"] == pytest.approx(expected)
    assert "ci" not in run


def test_refusals(campaign, run_cli):
    assert "fewer than the 50" in campaign("eval", "--labels", "combined", "--measures", "P@1", expect=1).stderr
    assert "human labels" in campaign("eval", "--model", "sim", expect=2).stderr
    campaign("eval", "--labels", "model", "--compare", "A", "A", expect=2)
    assert "'other' has no labels" in campaign("eval", "--labels", "model", "--model", "other", expect=1).stderr
    campaign("assign", "--clear", "--topics", ",".join(TOPICS))
    assert "no overlap pairs" in campaign("eval", "--labels", "combined", expect=1).stderr


def test_combined_calibrates_the_stated_probabilities_on_human_labels_outside_the_sample(campaign, write):
    from assisted.noisy_model import stated_probs

    from labeler.agreement.calibration import fit_calibrator

    threshold = _threshold(campaign)
    grades = [0, 1, 2, 3]
    model = "".join(
        json.dumps(
            {"topic": t, "unit": f"d{t}-{r}", "grade": _model(t, r), "probs": stated_probs(_model(t, r), grades)}
        )
        + "\n"
        for t in TOPICS
        for r in range(1, UNITS + 1)
    )
    campaign("judgments", "import", write("p.jsonl", model), "--source", "model", "--model", "probs")
    campaign("snapshot", "create", "-m", "again")
    out = campaign.json("eval", "--labels", "combined", "--model", "probs", "--measures", "P@10")
    pairs = [(t, r) for t in TOPICS for r in range(1, UNITS + 1)]
    sample = np.array([overlap_draw(SEED, t, f"d{t}-{r}") < SHARE for t, r in pairs])
    outside = [
        (stated_probs(_model(t, r), grades), _human(t, r)) for (t, r), s in zip(pairs, sample, strict=True) if not s
    ]
    samples = out["labels"].pop("samples")
    assert out["labels"] == {
        "labels": "combined",
        "model": "probs",
        "method": "isotonic",
        "examples": len(outside),
        "fallback": False,
        "topic_rule": "sample_judged",
    }
    assert sum(s["pairs"] for s in samples.values()) == int(sample.sum())  # every pair is pooled here
    calibrator = fit_calibrator(outside, grades)
    f = np.array(
        [
            sum(p for g, p in calibrator.calibrate(stated_probs(_model(t, r), grades)).items() if g >= threshold)
            for t, r in pairs
        ]
    )
    y = np.array([float(_human(t, r) >= threshold) for t, r in pairs])
    theta = f.mean() + (y[sample] - f[sample]).mean()
    assert out["runs"][0]["aggregate"]["P@10"] == pytest.approx(theta)


def test_depth_cuts_the_pairs_as_it_cuts_the_scores(campaign):
    threshold = _threshold(campaign)
    (run,) = campaign.json("eval", "--labels", "combined", "--measures", "P@10", "--depth", "8")["runs"]
    pairs = [(t, r) for t in TOPICS for r in range(1, 9)]
    f = np.array([float(_model(t, r) >= threshold) for t, r in pairs])
    y = np.array([float(_human(t, r) >= threshold) for t, r in pairs])
    sample = np.array([overlap_draw(SEED, t, f"d{t}-{r}") < SHARE for t, r in pairs])
    theta = (f.mean() + (y[sample] - f[sample]).mean()) * len(pairs) / (10 * len(TOPICS))
    assert run["aggregate"]["P@10"] == pytest.approx(theta)
    assert run["ppi"]["per_measure"]["P@10"]["units"] == len(pairs)


def test_the_parquet_runs_give_the_same_intervals(campaign, tmp_path):
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    (tmp_path / "pq").mkdir()
    campaign("export", "run", "A", "--format", "parquet", "-o", tmp_path / "pq" / "A.parquet")
    args = ("eval", "--labels", "combined", "--measures", "P@10 nDCG@10")
    assert campaign.json(*args, "--runs-parquet", tmp_path / "pq")["runs"] == campaign.json(*args)["runs"]


def test_combined_scores_the_topics_whose_sample_is_judged_reviewed_or_not(run_cli, write):
    """No topic reviewed; topic 1 has an overlap pair unjudged, topic 2 has no planned overlap: both left out."""
    run = "".join(f"{t} Q0 d{t}-{r} {r} {100 - r} A\n" for t in TOPICS for r in range(1, UNITS + 1))
    run_cli("runs", "import", write("a.run", run), "--name", "A")
    run_cli("pool", "build", "--depth", str(UNITS))
    run_cli("assign", "--assessors", "ann,bob", "--overlap", str(SHARE), "--seed", str(SEED))
    run_cli("assign", "--clear", "--topics", "2")
    sample = [(t, r) for t in TOPICS for r in range(1, UNITS + 1) if overlap_draw(SEED, t, f"d{t}-{r}") < SHARE]
    left = next(p for p in sample if p[0] == "1")
    qrels = "".join(f"{t} 0 d{t}-{r} {_human(t, r)}\n" for t, r in sample if (t, r) != left)
    run_cli("judgments", "import", write("h.qrels", qrels), "--assessor", "ann")  # nothing marked reviewed
    _import_model(run_cli, write)
    run_cli("snapshot", "create", "-m", "sample")
    out = run_cli.json("eval", "--labels", "combined", "--measures", "P@10")
    (scored,) = out["runs"]
    relevant = {t for t in TOPICS if any(_model(t, r) >= out["threshold"] for r in range(1, UNITS + 1))}
    assert scored["topics"]["excluded_topics"] == {
        "1": "sample_unjudged",
        "2": "no_sample",
        **{t: "no_relevant" for t in TOPICS if t not in relevant and t not in ("1", "2")},
    }
    assert scored["topics"]["scored"] == len(relevant - {"1", "2"}) > 20
    assert "2" not in out["labels"]["samples"]
    assert out["labels"]["samples"]["1"]["judged"] == out["labels"]["samples"]["1"]["pairs"] - 1
    said = run_cli("eval", "--labels", "combined", "--measures", "P@10")
    words = said.stdout + said.stderr
    assert "whose random sample is judged" in words and "1 (" in words and "labeler assign" in words
    # asked to score every topic, combined labels use the old rule: every topic with a relevant label
    wide = run_cli.json("eval", "--labels", "combined", "--measures", "P@10", "--include-unreviewed")
    assert wide["labels"]["topic_rule"] == "as_human" and wide["runs"][0]["topics"]["scored"] == len(relevant)

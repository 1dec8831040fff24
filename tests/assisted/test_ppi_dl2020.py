"""Issue 17's "done when" for PPI: on TREC DL 2020 the 95% intervals cover the NIST-label mean in >= 90% of 100 trials.

NIST's qrels are the truth (an unjudged pair counts as not relevant, as trec_eval counts it); the
simulated model (`noisy_model.py`: 30% of grades moved by one, stated probabilities a fixed,
miscalibrated belief) labels every pair of the six runs' top 10. In each of 100 seeded trials a
person is taken to have judged a 20% Bernoulli sample of those pairs (labeler's overlap draw,
seed = the trial), and each run's mean P@10 (relevant from grade 2) is estimated by PPI over
its ranked pairs (`ppi_precision_at_k`, the model's value its stated P(grade >= 2), or that P after
an isotonic calibration on NIST's labels of the pairs outside every top 10). The measure
is P@10 because it is a mean over pairs (see labeler/metrics/ppi.py). Skipped without ../shared;
the coverage is printed (run with -s) and quoted in the note.
"""

from __future__ import annotations

import gzip
import math
from collections.abc import Callable
from statistics import stdev

import pytest
from assisted.noisy_model import noisy_model
from support import ROOT

from labeler.agreement.calibration import fit_calibrator
from labeler.assignment import overlap_draw
from labeler.metrics import evaluate, parse_measures
from labeler.metrics.ppi import MIN_HUMAN_LABELS, ppi_precision_at_k, relevance_probability, top_k_pairs

DATA = next(
    (p / "shared" / "data" / "trec-dl-2020" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").exists()),
    ROOT.parent / "shared" / "data" / "trec-dl-2020",
)
RUNS = ("bm25", "bm25-rm3", "tasb", "ada2", "splade-pp-ed", "repllama")
GRADES = (0, 1, 2, 3)
THRESHOLD = 2
K = 10
TRIALS = 100
SHARE = 0.2
Z95 = 1.959963984540054

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="../shared/data/trec-dl-2020 is absent")


def _qrels() -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with gzip.open(DATA / "qrels.txt.gz", "rt") as lines:
        for line in lines:
            topic, _, unit, grade = line.split()
            qrels.setdefault(topic, {})[unit] = int(grade)
    return qrels


def _top(run: str, k: int) -> dict[str, list[str]]:
    ranked: dict[str, list[tuple[int, str]]] = {}
    with gzip.open(DATA / f"{run}.run.gz", "rt") as lines:
        for line in lines:
            topic, _, unit, rank, *_ = line.split()
            if int(rank) <= k:
                ranked.setdefault(topic, []).append((int(rank), unit))
    return {t: [u for _, u in sorted(units)] for t, units in ranked.items()}


def _calibrator(
    qrels: dict[str, dict[str, int]], top: set[tuple[str, str]]
) -> Callable[[dict[int, float]], dict[int, float]]:
    """Isotonic calibration fitted on NIST's labels of the judged pairs outside every run's top 10, as
    `eval --labels combined` fits it on human labels outside the sample (so f never sees the sample)."""
    others = {(t, u): g for t, labels in qrels.items() for u, g in labels.items() if (t, u) not in top}
    model = noisy_model(others, GRADES, seed=1)
    return fit_calibrator([(probs, others[p]) for p, (_, probs) in model.items()], GRADES).calibrate


@pytest.mark.parametrize("values", ["stated", "calibrated"])
def test_ppi_intervals_cover_the_nist_mean_of_p_at_10(values: str):
    qrels = _qrels()
    topics = sorted(t for t, labels in qrels.items() if any(g >= THRESHOLD for g in labels.values()))
    rankings = {run: _top(run, K) for run in RUNS}
    pairs = sorted({p for r in rankings.values() for p in top_k_pairs(r, topics, K)})
    truth_grade = {p: qrels[p[0]].get(p[1], 0) for p in pairs}  # unjudged: not relevant, as trec_eval counts
    model = noisy_model(truth_grade, GRADES, seed=0)
    calibrate = _calibrator(qrels, set(pairs)) if values == "calibrated" else dict
    model_value = {p: relevance_probability(calibrate(probs), THRESHOLD) for p, (_, probs) in model.items()}
    human = {p: float(g >= THRESHOLD) for p, g in truth_grade.items()}
    (p10,) = parse_measures("P@10")

    covered = dict.fromkeys(RUNS, 0)
    widths, human_only, labels_used, model_only_err = [], [], [], {}
    for run, ranked in rankings.items():
        # the truth, computed independently by labeler's evaluate (trec_eval's P@10) on all of NIST's labels
        nist = evaluate(qrels, ranked, [p10], topics=topics, threshold=THRESHOLD).aggregate[p10.name]
        direct = sum(human[p] for p in top_k_pairs(ranked, topics, K)) / (K * len(topics))
        assert nist == pytest.approx(direct)
        wanted = set(top_k_pairs(ranked, topics, K))
        scale = len(wanted) / (K * len(topics))
        model_only_err[run] = sum(model_value[p] for p in top_k_pairs(ranked, topics, K)) / (K * len(topics)) - nist
        for trial in range(TRIALS):
            sample = {p: human[p] for p in pairs if overlap_draw(trial, *p) < SHARE}
            est = ppi_precision_at_k(ranked, topics, K, model_value.__getitem__, sample)
            assert est.human_labels >= MIN_HUMAN_LABELS
            covered[run] += est.low <= nist <= est.high
            widths.append(est.high - est.low)
            labels_used.append(est.human_labels)
            # the same people without the model: the z interval of the mean of their labels, scaled alike
            mine = [y for p, y in sample.items() if p in wanted]
            human_only.append(2 * Z95 * stdev(mine) / math.sqrt(len(mine)) * scale)
    coverage = {run: n / TRIALS for run, n in covered.items()}
    errors = {r: round(e, 4) for r, e in model_only_err.items()}
    print(
        f"\nPPI P@10 on DL 2020, {values} model probabilities ({len(topics)} topics, {TRIALS} trials, "
        f"{int(SHARE * 100)}% of the top-{K} pairs judged): coverage {coverage}; "
        f"mean width {sum(widths) / len(widths):.4f} (humans alone "
        f"{sum(human_only) / len(human_only):.4f}); human labels per run "
        f"{min(labels_used)}-{max(labels_used)}; model-only error {errors}"
    )
    assert all(c >= 0.90 for c in coverage.values()), coverage
    assert sum(widths) < sum(human_only)  # the model's labels narrow the interval the same people give alone

"""labeler.agreement.model: hand-worked cases and scikit-learn as the independent computation."""

from __future__ import annotations

import random

import pytest

from labeler.agreement.model import (
    GradeScores,
    LabelPair,
    calibration,
    compare_model,
    confusion,
    per_grade,
    reliability,
)

GRADES = (0, 1, 2, 3)


def _pairs(human, model, probs=None):
    return [
        LabelPair(h, m, None if probs is None else probs[i]) for i, (h, m) in enumerate(zip(human, model, strict=True))
    ]


def test_hand_worked_confusion_kappa_and_per_grade():
    # humans 0 0 1 1, model 0 1 1 1: p_o = 3/4; marginals human (2, 2), model (1, 3);
    # p_e = (2·1 + 2·3)/16 = 1/2, so kappa = (3/4 − 1/2)/(1 − 1/2) = 1/2.
    pairs = _pairs([0, 0, 1, 1], [0, 1, 1, 1])
    result = compare_model(pairs, (0, 1), 1)
    assert result.kappa.value == pytest.approx(0.5)
    assert result.exact_match.value == pytest.approx(0.75)
    assert result.confusion.counts == [[1, 1], [0, 2]]
    assert result.confusion.row_shares == [[0.5, 0.5], [0.0, 1.0]]
    # grade 1: the model said 1 three times, right twice (precision 2/3); humans said 1 twice, both found.
    assert result.per_grade["1"] == GradeScores(precision=2 / 3, recall=1.0, support=2, predicted=3)
    assert result.per_grade["0"] == GradeScores(precision=1.0, recall=0.5, support=2, predicted=1)
    assert result.weighted_kappa.weights == "quadratic"


def test_the_json_form_of_a_comparison():
    pairs = _pairs([0, 1], [0, 0], [{0: 0.9, 1: 0.1}, {0: 0.7, 1: 0.3}])
    result = compare_model(pairs, (0, 1), 1, bins=2)
    document = result.to_json()
    assert list(document) == [
        "pairs",
        "exact_match",
        "kappa",
        "weighted_kappa",
        "weighted_kappa_linear",
        "weighted_kappa_quadratic",
        "confusion",
        "per_grade",
        "calibration",
    ]
    assert document["kappa"] == {"value": 0.0, "pairs": 2, "reason": None}
    assert document["weighted_kappa"] == {"value": 0.0, "pairs": 2, "reason": None, "weights": "quadratic"}
    assert document["confusion"] == {
        "rows": "human",
        "columns": "model",
        "grades": [0, 1],
        "counts": [[1, 0], [1, 0]],
        "row_shares": [[1.0, 0.0], [1.0, 0.0]],
    }
    assert list(document["confusion"]) == ["rows", "columns", "grades", "counts", "row_shares"]
    assert document["per_grade"]["1"] == {"precision": None, "recall": 0.0, "support": 1, "predicted": 0}
    confidence = document["calibration"]["confidence"]  # stated 0.9 (right) and 0.7 (wrong), both in (0.5, 1]
    assert confidence["bins"][1] == {"low": 0.5, "high": 1.0, "count": 2, "mean_stated": 0.8, "observed": 0.5}
    assert confidence["pairs"] == 2 and confidence["ece"] == pytest.approx(0.3)
    assert "calibration" not in compare_model(pairs, (0, 1), 1, with_calibration=False).to_json()


def test_hand_worked_weighted_kappa():
    # humans 0 2, model 1 2 on grades 0..2; linear: observed Σw·o = 1 (one step), n = 2;
    # rows (1, 0, 1), columns (0, 1, 1): Σ r_i c_j |i − j| = 1·1·1 + 1·1·2 + 1·1·1 + 1·1·0 = 4;
    # κ_w = 1 − n·observed / expected = 1 − 2·1/4 = 1/2. Quadratic: observed 1, expected 1 + 4 + 1 = 6 → 1 − 2/6.
    pairs = _pairs([0, 2], [1, 2])
    result = compare_model(pairs, (0, 1, 2), 1)
    assert result.weighted_kappa_linear.value == pytest.approx(0.5)
    assert result.weighted_kappa_quadratic.value == pytest.approx(2 / 3)


def test_an_empty_row_has_no_shares_and_an_unpredicted_grade_no_precision():
    pairs = _pairs([0, 0], [0, 0])
    assert confusion(pairs, (0, 1)).row_shares == [[1.0, 0.0], [None, None]]
    assert per_grade(pairs, (0, 1))["1"] == GradeScores(precision=None, recall=None, support=0, predicted=0)
    assert compare_model(pairs, (0, 1), 1).kappa.value is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kappa_and_per_grade_match_scikit_learn(seed):
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = random.Random(seed)
    human = [rng.choice(GRADES) for _ in range(300)]
    model = [h if rng.random() < 0.6 else rng.choice(GRADES) for h in human]
    result = compare_model(_pairs(human, model), GRADES, 2)
    labels = list(GRADES)
    assert result.kappa.value == pytest.approx(sklearn.cohen_kappa_score(human, model, labels=labels))
    for weights in ("linear", "quadratic"):
        expected = sklearn.cohen_kappa_score(human, model, labels=labels, weights=weights)
        assert getattr(result, f"weighted_kappa_{weights}").value == pytest.approx(expected)
    precision, recall, _, support = sklearn.precision_recall_fscore_support(
        human, model, labels=labels, zero_division=0
    )
    for i, g in enumerate(GRADES):
        row = result.per_grade[str(g)]
        assert row.precision == pytest.approx(precision[i])
        assert row.recall == pytest.approx(recall[i])
        assert row.support == support[i]
    counts = sklearn.confusion_matrix(human, model, labels=labels).tolist()
    assert result.confusion.counts == counts


def test_reliability_hand_worked():
    # 0.8 stated four times, three came true; 0.3 stated twice, none came true; 0.05 once, true.
    stated = [0.8, 0.8, 0.8, 0.8, 0.3, 0.3, 0.05]
    outcomes = [True, True, True, False, False, False, True]
    result = reliability(stated, outcomes, bins=10)
    bins = result.bins
    assert bins[7].count == 4 and bins[7].observed == 0.75 and bins[7].mean_stated == pytest.approx(0.8)
    assert bins[2].count == 2 and bins[2].observed == 0.0  # 0.3 is in (0.2, 0.3]
    assert bins[0].count == 1 and bins[0].observed == 1.0
    assert bins[5].count == 0 and bins[5].observed is None
    # ECE = 4/7 · 0.05 + 2/7 · 0.3 + 1/7 · 0.95
    assert result.ece == pytest.approx((4 * 0.05 + 2 * 0.3 + 0.95) / 7)
    assert reliability([], []).ece is None
    assert reliability([0.0, 1.0], [False, True]).bins[0].count == 1
    assert reliability([0.0, 1.0], [False, True]).bins[9].count == 1


def test_reliability_ece_matches_an_independent_binning():
    rng = random.Random(5)
    stated = [rng.random() for _ in range(500)]
    outcomes = [rng.random() < p * 0.7 for p in stated]
    by_bin: dict[int, list[tuple[float, bool]]] = {}
    for p, o in zip(stated, outcomes, strict=True):
        by_bin.setdefault(min(9, int(p * 10 - 1e-12)) if p > 0 else 0, []).append((p, o))
    expected = sum(
        len(v) / 500 * abs(sum(o for _, o in v) / len(v) - sum(p for p, _ in v) / len(v)) for v in by_bin.values()
    )
    assert reliability(stated, outcomes).ece == pytest.approx(expected)


def test_reliability_refuses_what_is_not_a_probability():
    with pytest.raises(ValueError, match="probability"):
        reliability([1.5], [True])
    with pytest.raises(ValueError, match="paired"):
        reliability([0.5], [])


def test_calibration_views():
    probs = [{0: 0.1, 1: 0.8, 2: 0.1}, {0: 0.1, 1: 0.1, 2: 0.8}, {0: 0.8, 1: 0.2}]
    pairs = [LabelPair(1, 1, probs[0]), LabelPair(1, 2, probs[1]), LabelPair(0, 0, probs[2]), LabelPair(2, 2)]
    result = calibration(pairs, (0, 1, 2), 1)
    assert result.pairs_with_probs == 3 and result.pairs_without_probs == 1
    confidence = result.confidence.bins[7]
    assert confidence.count == 3 and confidence.observed == pytest.approx(2 / 3)
    relevant = result.relevant.bins  # P(relevant) 0.9, 0.9 (true, true) and 0.2 (false)
    assert relevant[8].count == 2 and relevant[8].observed == 1.0
    assert relevant[1].count == 1 and relevant[1].observed == 0.0
    assert result.per_grade["2"].bins[7].observed == 0.0


@pytest.mark.parametrize(
    ("stated", "index"), [(0.3, 2), (0.1 + 0.2, 2), (0.8, 7), (0.8 + 0.1, 8), (0.0, 0), (0.05, 0), (1.0, 9), (0.31, 3)]
)
def test_a_probability_falls_in_the_bin_of_the_decimal_it_stands_for(stated, index):
    bins = reliability([stated], [True]).bins
    assert [b.count for b in bins].index(1) == index

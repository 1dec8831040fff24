"""labeler.agreement.calibration: hand-worked cases, and scikit-learn's isotonic and logistic fits as references."""

from __future__ import annotations

import random

import pytest
from assisted.noisy_model import noisy_model, stated_probs

from labeler.agreement.calibration import (
    MIN_EXAMPLES,
    fit_calibrator,
    fit_isotonic,
    fit_platt,
    normalised,
    platt_targets,
)

GRADES = (0, 1, 2, 3)


def _seeded_examples(n: int, seed: int) -> list[tuple[dict[int, float], int]]:
    """Human grades uniform; the noisy model's stated (miscalibrated) probabilities for each."""
    rng = random.Random(seed)
    labels = {("t", f"u{i}"): rng.choice(GRADES) for i in range(n)}
    model = noisy_model(labels, GRADES, seed=seed)
    return [(model[key][1], labels[key]) for key in labels]


def _random_examples(n: int, seed: int) -> list[tuple[dict[int, float], int]]:
    """Stated probabilities drawn at random; the human grade drawn from a sharpened version of them."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        raw = [rng.random() ** 2 for _ in GRADES]
        probs = normalised(dict(zip(GRADES, raw, strict=True)), GRADES)
        sharp = [probs[g] ** 2 for g in GRADES]
        grade = rng.choices(GRADES, weights=sharp)[0]
        out.append((probs, grade))
    return out


# --- hand-worked ------------------------------------------------------------------------------


def test_pav_hand_worked():
    # y = 1, 0, 1, 1 at x = 1..4: the violator (1, 0) pools to 0.5, 0.5.
    m = fit_isotonic([1.0, 2.0, 3.0, 4.0], [1.0, 0.0, 1.0, 1.0])
    assert m.ys == (0.5, 0.5, 1.0, 1.0)
    assert m(0.0) == 0.5 and m(9.0) == 1.0  # clipped outside
    assert m(2.5) == pytest.approx(0.75)  # linear between fitted points
    # equal x are pooled first: x = 1 twice with targets 0 and 1 -> 0.5
    m = fit_isotonic([1.0, 1.0, 2.0], [0.0, 1.0, 0.0])
    assert m.xs == (1.0, 2.0) and m.ys == (pytest.approx(1 / 3), pytest.approx(1 / 3))


def test_platt_targets_hand_worked():
    assert platt_targets([1, 1, 0]) == (3 / 4, 1 / 3)
    assert platt_targets([0, 0]) == (1 / 2, 1 / 4)


def test_fallback_below_min_examples():
    examples = _seeded_examples(MIN_EXAMPLES - 1, seed=1)
    cal = fit_calibrator(examples, GRADES)
    assert cal.fallback
    assert cal.calibrate({1: 2.0, 2: 2.0}) == {0: 0.0, 1: 0.5, 2: 0.5, 3: 0.0}
    assert cal.calibrate({}) == {g: 0.25 for g in GRADES}
    assert not cal.updated(*examples[0]).fallback


def test_isotonic_hand_worked_calibrator():
    # The model always states 0.8 on the grade it reports; it is right 7 times in 10 for grade 1.
    s1 = {0: 0.1, 1: 0.8, 2: 0.1}
    examples = [(s1, 1)] * 7 + [(s1, 0)] * 2 + [(s1, 2)]
    cal = fit_calibrator(examples, (0, 1, 2), "isotonic")
    # One stated value per grade: each map is constant at the observed frequency.
    assert cal.calibrate(s1) == pytest.approx({0: 0.2, 1: 0.7, 2: 0.1})


def test_calibrated_sums_to_one_and_corrects_overconfidence():
    # Human grades uniform on 0..3; the noisy model moves 30% of grades by one. When it reports 1 (stated 0.8),
    # Bayes: P(h=1 | m=1) = 0.7 / (0.7 + 0.3 + 0.15) = 0.6087 (h=0 reaches 1 with 0.3, h=2 with 0.15).
    examples = _seeded_examples(4000, seed=3)
    exact = 0.7 / 1.15
    iso = fit_calibrator(examples, GRADES, "isotonic").calibrate(stated_probs(1, GRADES))
    assert sum(iso.values()) == pytest.approx(1.0)
    assert set(iso) == set(GRADES)
    # each stated value of grade 1's map comes from one reported grade, so isotonic recovers the frequency
    assert iso[1] == pytest.approx(exact, abs=0.03)
    assert iso[0] == pytest.approx(0.3 / 1.15, abs=0.03)
    assert iso[3] == pytest.approx(0.0, abs=0.01)
    log = fit_calibrator(examples, GRADES, "logistic").calibrate(stated_probs(1, GRADES))
    assert sum(log.values()) == pytest.approx(1.0)
    assert log[1] < 0.75  # one logistic curve per grade cannot be exact here, but it pulls the 0.8 down


def test_bad_input():
    with pytest.raises(ValueError, match="method"):
        fit_calibrator([], GRADES, "beta")
    with pytest.raises(ValueError, match="grade 7"):
        fit_calibrator([({0: 1.0}, 7)], GRADES)


def test_updated_equals_refit():
    examples = _random_examples(60, seed=5)
    a = fit_calibrator(examples[:-1], GRADES).updated(*examples[-1])
    b = fit_calibrator(examples, GRADES)
    probe = examples[3][0]
    assert a.calibrate(probe) == b.calibrate(probe)
    assert a.examples == b.examples


# --- against scikit-learn ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_isotonic_matches_sklearn(seed):
    sklearn_isotonic = pytest.importorskip("sklearn.isotonic")
    examples = _random_examples(300, seed=seed)
    # ties in x, as the noisy model's fixed stated values give
    examples += _seeded_examples(100, seed=seed)
    cal = fit_calibrator(examples, GRADES, "isotonic")
    probes = [p for p, _ in _random_examples(50, seed=seed + 100)] + [stated_probs(g, GRADES) for g in GRADES]
    refs = []
    for g in GRADES:
        ref = sklearn_isotonic.IsotonicRegression(out_of_bounds="clip")
        ref.fit([p[g] for p, _ in examples], [1.0 if h == g else 0.0 for _, h in examples])
        refs.append(ref)
        ours = fit_isotonic([p[g] for p, _ in examples], [1.0 if h == g else 0.0 for _, h in examples])
        xs = [p[g] for p in probes]
        for x, r in zip(xs, ref.predict(xs), strict=True):
            assert ours(x) == pytest.approx(float(r), abs=1e-9)
    for p in probes:
        raw = [float(refs[i].predict([p[g]])[0]) for i, g in enumerate(GRADES)]
        total = sum(raw)
        assert cal.calibrate(p) == pytest.approx({g: raw[i] / total for i, g in enumerate(GRADES)}, abs=1e-9)


def test_weighted_isotonic_and_the_prior_match_sklearn():
    sklearn_isotonic = pytest.importorskip("sklearn.isotonic")
    examples = _random_examples(120, seed=9)
    prior = [p for p, _ in _random_examples(40, seed=10)]
    cal = fit_calibrator(examples, GRADES, "isotonic", prior=prior, prior_weight=8.0)
    probe = prior[0]
    raw = []
    for g in GRADES:
        xs = [p[g] for p, _ in examples] + [p[g] for p in prior]
        ys = [1.0 if h == g else 0.0 for _, h in examples] + [p[g] for p in prior]
        ws = [1.0] * len(examples) + [8.0 / len(prior)] * len(prior)
        ref = sklearn_isotonic.IsotonicRegression(out_of_bounds="clip").fit(xs, ys, sample_weight=ws)
        ours = fit_isotonic(xs, ys, ws)
        for x in xs[:30]:
            assert ours(x) == pytest.approx(float(ref.predict([x])[0]), abs=1e-9)
        raw.append(float(ref.predict([probe[g]])[0]))
    assert cal.calibrate(probe) == pytest.approx({g: raw[i] / sum(raw) for i, g in enumerate(GRADES)}, abs=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_platt_matches_sklearn(seed):
    linear_model = pytest.importorskip("sklearn.linear_model")
    import math

    examples = _random_examples(300, seed=seed)
    cal = fit_calibrator(examples, GRADES, "logistic")
    probes = [p for p, _ in _random_examples(30, seed=seed + 100)]

    def logit(p):
        p = min(max(p, 1e-6), 1 - 1e-6)
        return math.log(p / (1 - p))

    refs = []
    for g in GRADES:
        ys = [1 if h == g else 0 for _, h in examples]
        t_pos, t_neg = platt_targets(ys)
        # a soft target t is the example twice: label 1 with weight t and label 0 with weight 1 - t
        x_rows, y_rows, w_rows = [], [], []
        for (p, _), y in zip(examples, ys, strict=True):
            t = t_pos if y else t_neg
            x_rows += [[logit(p[g])], [logit(p[g])]]
            y_rows += [1, 0]
            w_rows += [t, 1 - t]
        ref = linear_model.LogisticRegression(C=1.0, tol=1e-10, max_iter=10_000)
        ref.fit(x_rows, y_rows, sample_weight=w_rows)
        refs.append(ref)
        ours = fit_platt([row[0] for row in x_rows], y_rows, w_rows)
        assert ours.slope == pytest.approx(float(ref.coef_[0][0]), abs=1e-5)
        assert ours.intercept == pytest.approx(float(ref.intercept_[0]), abs=1e-5)
    for p in probes:
        raw = [float(refs[i].predict_proba([[logit(p[g])]])[0][1]) for i, g in enumerate(GRADES)]
        total = sum(raw)
        assert cal.calibrate(p) == pytest.approx({g: raw[i] / total for i, g in enumerate(GRADES)}, abs=1e-5)

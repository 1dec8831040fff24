"""The simulated model's noise is what its docstring says (the other assisted tests rely on it)."""

from __future__ import annotations

import pytest
from assisted.noisy_model import noisy_model, stated_probs, true_confusion

GRADES = (0, 1, 2, 3)


def test_the_empirical_confusion_matches_the_stated_noise():
    labels = {(f"t{i % 7}", f"u{i}"): i % 4 for i in range(40_000)}
    model = noisy_model(labels, GRADES, seed=3)
    truth = true_confusion(GRADES)
    for h in GRADES:
        row = [model[k][0] for k, g in labels.items() if g == h]
        for m in GRADES:
            assert abs(row.count(m) / len(row) - truth[h][m]) < 0.01, (h, m)


def test_deterministic_per_pair_and_probabilities_sum_to_one():
    labels = {("t", f"u{i}"): i % 4 for i in range(100)}
    first = noisy_model(labels, GRADES, seed=1)
    again = noisy_model(dict(list(labels.items())[50:]), GRADES, seed=1)
    assert all(first[k] == again[k] for k in again)
    assert all(abs(sum(p.values()) - 1) < 1e-12 for _, p in first.values())
    assert stated_probs(0, GRADES) == pytest.approx({0: 0.8, 1: 0.2, 2: 0.0, 3: 0.0})

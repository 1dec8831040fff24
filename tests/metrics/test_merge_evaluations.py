"""Evaluating topic batches and merging equals evaluating all topics at once, number for number.

`labeler eval` and `labeler compare` score large runs a batch of topics at a
time; `merge_evaluations` must then give exactly what one `evaluate` call
over every topic gives: the same per-topic values, means summed in the same
topic order, the same recall reports and RBP residuals.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.metrics import evaluate, merge_evaluations

MEASURES = ["AP", "nDCG@5", "P@3", "R@2", "R@10", "Judged@5", "RR@3", "Bpref", "RBP(p=0.8)", "AnyHit@3", "F@5"]


def inputs(seed: int):
    rng = random.Random(seed)
    topics = [str(t) for t in range(1, rng.randint(2, 12))]
    units = [f"d{i}" for i in range(20)]
    qrels = {
        t: {u: rng.choice([-1, 0, 1, 2]) for u in rng.sample(units, rng.randint(0, 10))}
        for t in topics
        if rng.random() < 0.9
    }
    rankings = {t: rng.sample(units, rng.randint(0, 15)) for t in topics if rng.random() < 0.85}
    return rng, topics, qrels, rankings


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), depth=st.sampled_from([None, 4]), threshold=st.integers(1, 2))
def test_merged_batches_equal_one_evaluation(seed, depth, threshold):
    rng, topics, qrels, rankings = inputs(seed)
    whole = evaluate(qrels, rankings, MEASURES, topics=topics, threshold=threshold, depth=depth)
    shuffled = list(topics)
    rng.shuffle(shuffled)
    parts = []
    while shuffled:
        size = rng.randint(1, len(shuffled))
        batch, shuffled = shuffled[:size], shuffled[size:]
        parts.append(
            evaluate(
                qrels,
                {t: r for t, r in rankings.items() if t in batch},
                MEASURES,
                topics=batch,
                threshold=threshold,
                depth=depth,
            )
        )
    merged = merge_evaluations(parts)
    assert merged == whole
    assert list(merged.per_query) == list(whole.per_query)  # topic order too, which the sums follow


def test_overlapping_or_mismatched_parts_are_refused():
    qrels = {"1": {"a": 1}, "2": {"b": 1}}
    one = evaluate(qrels, {"1": ["a"]}, ["AP"], topics=["1"], threshold=1)
    with pytest.raises(ValueError, match="topic '1' is in two"):
        merge_evaluations([one, one])
    other = evaluate(qrels, {"2": ["b"]}, ["P@5"], topics=["2"], threshold=1)
    with pytest.raises(ValueError, match="different measures"):
        merge_evaluations([one, other])
    with pytest.raises(ValueError, match="no evaluations"):
        merge_evaluations([])

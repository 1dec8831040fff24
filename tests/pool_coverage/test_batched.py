"""Coverage in batches of topics equals coverage over all topics at once, number for number.

`labeler coverage` streams topics through `CoverageBatches` so that it never
holds every run's rankings; these tests hold the streamed result equal to the
all-at-once functions on random inputs and random batch splits, and the
leave-one-run-out shortcut (only topics whose judgments change are scored
again) equal to the textbook procedure that rescores every topic.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeler.coverage import (
    estimate_relevant,
    judged_coverage,
    judging_saturation,
    leave_one_run_out,
    leave_out_qrels,
    recall_curve,
)
from labeler.coverage.batched import CoverageBatches
from labeler.metrics import evaluate
from labeler.models import topic_sort_key

MEASURES = ["AP", "nDCG@10", "R@5", "Bpref", "P@3"]


def random_inputs(seed: int):
    """Runs over a small vocabulary (so runs overlap and units are unique to one run), graded qrels with gaps."""
    rng = random.Random(seed)
    topics = [str(t) for t in range(1, rng.randint(2, 9))]
    units = [f"d{i}" for i in range(rng.randint(4, 25))]
    runs = {}
    for r in range(rng.randint(1, 4)):
        runs[f"run{r}"] = {t: rng.sample(units, rng.randint(0, len(units))) for t in topics if rng.random() < 0.9}
    qrels = {}
    for topic in topics:
        if rng.random() < 0.85:
            qrels[topic] = {u: rng.choice([-1, 0, 0, 1, 2]) for u in rng.sample(units, rng.randint(0, len(units)))}
    scored = [t for t in topics if rng.random() < 0.8]
    return topics, qrels, runs, scored, rng


def batched(topics, qrels, runs, scored, rng, depth, threshold, measures):
    batches = CoverageBatches(list(runs), depth=depth, threshold=threshold, loro_measures=measures)
    shuffled = list(topics)
    rng.shuffle(shuffled)  # batches may come in any order: the result sums in topic order
    while shuffled:
        size = rng.randint(1, len(shuffled))
        batch, shuffled = shuffled[:size], shuffled[size:]
        batches.add(
            {t: qrels[t] for t in batch if t in qrels},
            {run: {t: ranking[t] for t in batch if t in ranking} for run, ranking in runs.items()},
            topics=batch,
            scored=[t for t in batch if t in scored],
        )
    return batches.result()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 6), threshold=st.integers(1, 2))
def test_batches_equal_all_at_once(seed, depth, threshold):
    topics, qrels, runs, scored, rng = random_inputs(seed)
    streamed = batched(topics, qrels, runs, scored, rng, depth, threshold, MEASURES)
    ordered = sorted(scored, key=topic_sort_key)

    assert streamed["judged"] == judged_coverage(qrels, runs, topics=topics, depth=depth, threshold=threshold)
    assert streamed["estimates"] == estimate_relevant(qrels, runs, topics=topics, depth=depth, threshold=threshold)
    assert streamed["saturation"] == judging_saturation(qrels, runs, topics=topics, depth=depth, threshold=threshold)
    for run, ranking in runs.items():
        expected = recall_curve(qrels, ranking, topics=ordered, threshold=threshold) if ordered else []
        assert streamed["curves"][run] == expected
    if ordered and len(runs) > 1:
        assert streamed["bias"] == leave_one_run_out(
            qrels, runs, topics=ordered, depth=depth, threshold=threshold, measures=MEASURES
        )
    else:
        assert streamed["bias"] is None


def textbook_loro(qrels, runs, topics, depth, threshold, measures):
    """Zobel's procedure as written: build qrels^{-r} for every topic and score every topic again."""
    out = {}
    for run in runs:
        full = evaluate(qrels, runs[run], measures, topics=topics, threshold=threshold).aggregate
        reduced = leave_out_qrels(qrels, runs, run, topics=topics, depth=depth)
        without = evaluate(reduced, runs[run], measures, topics=topics, threshold=threshold).aggregate
        out[run] = {m: (full[m], without[m]) for m in measures}
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 6), rescore_all=st.booleans())
def test_rescoring_only_changed_topics_equals_rescoring_all(seed, depth, rescore_all):
    topics, qrels, runs, _, _ = random_inputs(seed)
    if len(runs) < 2:
        runs["extra"] = {t: sorted({u for r in runs.values() for u in r.get(t, [])}) for t in topics}
    result = leave_one_run_out(
        qrels, runs, topics=topics, depth=depth, threshold=1, measures=MEASURES, rescore_all=rescore_all
    )
    expected = textbook_loro(qrels, runs, topics, depth, 1, MEASURES)
    for run, values in expected.items():
        for measure, (full, without) in values.items():
            got = result["runs"][run]["measures"][measure]
            assert (got["full"], got["without"]) == (full, without), (run, measure)
    if rescore_all:
        for left_out in runs:
            reduced = leave_out_qrels(qrels, runs, left_out, topics=topics, depth=depth)
            for run in runs:
                if run == left_out:
                    continue
                aggregate = evaluate(reduced, runs[run], MEASURES, topics=topics, threshold=1).aggregate
                assert result["ranking"]["AP"]["scores_without"][left_out][run] == aggregate["AP"]


def test_a_topic_given_twice_is_refused():
    batches = CoverageBatches(["A"], depth=2, threshold=1)
    batches.add({"1": {"d1": 1}}, {"A": {"1": ["d1"]}}, topics=["1"], scored=["1"])
    with pytest.raises(ValueError, match="topic '1' was already given"):
        batches.add({}, {"A": {"1": ["d2"]}}, topics=["1"])


def test_a_batch_must_give_the_same_runs_in_order():
    batches = CoverageBatches(["A", "B"], depth=2, threshold=1)
    with pytest.raises(ValueError, match="must give the runs"):
        batches.add({}, {"B": {}, "A": {}}, topics=["1"])


def test_scored_topics_must_be_in_the_batch():
    batches = CoverageBatches(["A"], depth=2, threshold=1)
    with pytest.raises(ValueError, match="scored topic '2' is not in the batch"):
        batches.add({}, {"A": {}}, topics=["1"], scored=["2"])


def test_without_loro_measures_there_is_no_bias_report():
    batches = CoverageBatches(["A", "B"], depth=2, threshold=1, loro_measures=None)
    batches.add({"1": {"d1": 1}}, {"A": {"1": ["d1"]}, "B": {"1": ["d2"]}}, topics=["1"], scored=["1"])
    result = batches.result()
    assert result["bias"] is None
    assert result["judged"]["runs"]["A"]["judged"] == 0.5  # d1 judged in A's top 2 of k = 2
    assert result["curves"]["B"][0]["macro"] == 0.0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 6), threshold=st.integers(1, 2), rescore_all=st.booleans())
def test_judged_rank_rows_equal_the_rows_evaluate_gives(seed, depth, threshold, rescore_all):
    """The measures read from judged ranks give the very per-topic values of `evaluate`'s path.

    A measure outside labeler.metrics.native (RBP) sends every measure through
    `evaluate`; the shared measures' rows must be equal, value for value.
    """
    from labeler.coverage.bias import loro_topic_rows
    from labeler.coverage.inputs import check_qrels, check_runs
    from labeler.pooling import depth_pool

    topics, qrels, runs, _, _ = random_inputs(seed)
    ordered = sorted(topics, key=topic_sort_key)
    grades, checked = check_qrels(qrels, ordered), check_runs(runs, ordered)
    pool = depth_pool(checked, depth)
    fast = loro_topic_rows(grades, checked, ordered, depth, threshold, MEASURES, pool, rescore_all=rescore_all)
    slow = loro_topic_rows(
        grades, checked, ordered, depth, threshold, [*MEASURES, "RBP(p=0.8)"], pool, rescore_all=rescore_all
    )

    def shared(rows):
        return {topic: {m: row[m] for m in MEASURES} for topic, row in rows.items()}

    for run in runs:
        assert shared(fast["full"][run]) == shared(slow["full"][run])
        for other, rows in slow["without"][run].items():
            assert shared(fast["without"][run][other]) == shared(rows)
    for key in ("judged", "judged_without", "removed"):
        assert fast[key] == slow[key]

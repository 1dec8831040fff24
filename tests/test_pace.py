"""The judging pace: the median active time of the last 50 timed human judgments, per hour."""

from __future__ import annotations

import pytest
from support import new_workbench

from labeler.pace import DEFAULT_PER_HOUR, PACE_WINDOW, median_per_hour, pace
from labeler.store import Store
from labeler.workbench.read_labels import judging_pace, judging_rate
from labeler.workbench.record_judgments import Judgment, record_judgment


def test_median_worked_by_hand():
    assert median_per_hour([10_000, 20_000, 30_000]) == 180.0  # 20 s a judgment
    assert median_per_hour([10_000, 20_000]) == 240.0  # the median of two is their mean: 15 s
    assert median_per_hour([]) is None and median_per_hour([0]) is None


def test_one_outlier_barely_moves_it():
    steady = [30_000] * 30
    assert median_per_hour(steady) == 120.0
    assert median_per_hour([*steady, 1]) == 120.0  # a rate over the window would jump to ~3.7 million/h
    assert median_per_hour([1, *[30_000] * 29]) == 120.0


def test_only_the_last_fifty_count():
    newest_first = [10_000] * PACE_WINDOW + [60_000] * 10
    assert pace(newest_first).per_hour == 360.0 and pace(newest_first).judgments == 50


def test_nothing_timed_is_the_default_pace():
    nothing = pace([])
    assert (nothing.per_hour, nothing.judgments, nothing.measured) == (DEFAULT_PER_HOUR, 0, False)
    assert nothing.describe() == f"at the default pace of {DEFAULT_PER_HOUR:g}/h: no judgments timed yet"
    assert pace([20_000] * 3).describe() == "at 180/h, the median of the last 3 timed judgments"


@pytest.fixture
def store(tmp_path):
    new_workbench(tmp_path / "w.db")
    with Store(tmp_path / "w.db") as store:
        yield store


def test_the_store_gives_the_assessors_latest_timed_grades(store):
    # 60 events: the 10 oldest took 60 s, the 50 latest 10 s; untimed and machine grades never count
    for i in range(60):
        record_judgment(
            store,
            Judgment(
                topic_id="1",
                unit_id=f"d{i}",
                assessor="ann",
                grade=1,
                active_ms=60_000 if i < 10 else 10_000,
                allow_unknown=True,
            ),
        )
    record_judgment(store, Judgment(topic_id="1", unit_id="x", assessor="ann", grade=1, allow_unknown=True))
    record_judgment(
        store, Judgment(topic_id="1", unit_id="y", assessor="bob", grade=1, active_ms=1_000, allow_unknown=True)
    )
    assert judging_pace(store, "ann").per_hour == 360.0 and judging_pace(store, "ann").judgments == 50
    assert judging_rate(store, "bob") == 3600.0
    assert judging_rate(store, "nobody") is None and not judging_pace(store, "nobody").measured
    assert judging_pace(store).judgments == 50  # the team's: bob's judgment is the newest of the 50


def test_the_median_is_statistics_median_to_the_bit():
    """`labeler.pace` takes its median without importing `statistics` (fractions, decimal): same value, same type."""
    import random
    import statistics

    from labeler.pace import _median

    rng = random.Random(15)
    for size in range(1, 60):
        times = [rng.randrange(1, 10**9) for _ in range(size)]
        ours, theirs = _median(times), statistics.median(times)
        assert (ours, type(ours)) == (theirs, type(theirs)), times
        assert median_per_hour(times) == round(3_600_000 / theirs, 1)

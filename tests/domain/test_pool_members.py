"""`depth_pool(fuse=False)` (what the coverage reports pool with) and counting a stored pool's runs per pair."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.pooling import depth_pool
from labeler.store.pool_rows import count_contributor_runs

UNITS = [f"u{i}" for i in range(12)]

rankings = st.lists(st.sampled_from(UNITS), unique=True, max_size=12)
runs_strategy = st.dictionaries(
    st.sampled_from(["A", "B", "C", "D"]),
    st.dictionaries(st.sampled_from(["1", "2", "10"]), rankings, max_size=3),
    min_size=1,
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(runs=runs_strategy, depth=st.integers(1, 14), override=st.none() | st.integers(1, 5))
def test_members_pool_is_depth_pool_without_rrf(runs, depth, override):
    run_depths = {next(iter(runs)): override} if override else None
    fused = depth_pool(runs, depth, run_depths)
    for distinct in (False, True):
        members = depth_pool(runs, depth, run_depths, fuse=False, distinct=distinct)
        assert list(members) == list(fused)
        for topic, entries in fused.items():
            assert list(members[topic]) == list(entries)
            for unit, entry in entries.items():
                member = members[topic][unit]
                assert (member.topic_id, member.unit_id, member.best_rank, member.contributors) == (
                    entry.topic_id,
                    entry.unit_id,
                    entry.best_rank,
                    entry.contributors,
                )
                assert math.isnan(member.rrf)


def test_members_pool_refuses_a_repeat_beyond_the_depth():
    with pytest.raises(ValueError, match="run 'A' ranks unit 'x' twice for topic '1'"):
        depth_pool({"A": {"1": ["x", "y", "x"]}}, 1, fuse=False)


def test_count_contributor_runs_counts_a_pair_once_per_run():
    stored = ["A\t1\nB\t3", "B\t2", "A\t4\nA\t5\nC\t1", "C\t9"]
    assert count_contributor_runs(stored) == {"A": 2, "B": 2, "C": 2}
    assert count_contributor_runs([]) == {}

"""Replay a judging campaign on labels that already exist: which order finds the relevant units soonest.

A snapshot's labels stand in for the assessor. Per topic, the pool is built in
memory from the runs' rankings (`labeler.pooling`, the same membership as
`pool build`); each judging order (`labeler.ordering`'s registry, plus the
replay-only oracle) is asked, with the labels revealed so far as its
`states`, for its next unjudged unit; that unit's label is revealed from the
snapshot, and so on until the pool is judged. Nothing here reads or writes a
workbench: `labeler.workbench.replay` feeds it.

Plain Python over plain values (the `domain-is-plain-python` contract).
"""

from labeler.replay.core import (
    BUDGETS,
    ORACLE,
    TARGETS,
    ReplaySettings,
    TopicReplay,
    budget_size,
    curve_area,
    lockstep_curve,
    lockstep_to_relevant,
    oracle_area,
    oracle_order,
    replay_order,
    replay_topic,
    share,
    to_relevant,
    topic_curve,
    units_within,
)

__all__ = [
    "BUDGETS",
    "ORACLE",
    "TARGETS",
    "ReplaySettings",
    "TopicReplay",
    "curve_area",
    "budget_size",
    "lockstep_curve",
    "lockstep_to_relevant",
    "oracle_area",
    "oracle_order",
    "replay_order",
    "replay_topic",
    "share",
    "to_relevant",
    "topic_curve",
    "units_within",
]

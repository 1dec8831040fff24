"""Assignments: deal topics to assessors, plan an overlap, and read the plan back.

`current_plan` (kept in `labeler.workbench.assessors`, which loads less) is what the queue, the
judging session, `status` and `agreement` ask: who must judge a pair. Assigning is an event per
topic (a later one supersedes it), so the plan's history stays in the workbench.

`set_show_model` is the campaign's other setting: which model's label the judging UI
shows beside a pair (none by default: blind). Every change is kept, with who made it and when
(`show_model_history`), and every human judgment made in the UI records the model it was shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from labeler.assignment import Plan, ShowModel, TopicAssignment, deal
from labeler.errors import BadArgumentError, Hint, argument_hint
from labeler.ids import check_name
from labeler.json_form import JsonResult, json_field
from labeler.pool_models import PoolInfo, topic_sort_key
from labeler.store import Store
from labeler.workbench.assessors import current_plan
from labeler.workbench.plan_progress import AssessorProgress, assessor_progress, show_model_setting
from labeler.workbench.read_labels import unit_space
from labeler.workbench.setup import now

__all__ = [
    "AssessorProgress",
    "AssignedTopic",
    "AssignmentPlan",
    "AssignmentsCleared",
    "Plan",
    "ShowModel",
    "TopicAssignment",
    "assign",
    "assessor_progress",
    "clear_assignments",
    "current_plan",
    "list_assignments",
    "set_show_model",
    "show_model_history",
    "show_model_setting",
    "space_pool",
]

NO_MODEL = "none"  # what turns the model setting off (`assign --show-model none`); no model may be called so


@dataclass(frozen=True)
class AssignedTopic(JsonResult):
    """One topic of the plan: its judges, the overlap share and seed, and its pairs in the pool."""

    assessor: str
    second: str | None
    assessors: tuple[str, ...]
    overlap: float
    seed: int
    pairs: int
    overlap_pairs: int
    assigned: str
    assigned_by: str
    show_others: bool = False  # each judge of an overlap pair sees the other's label (else blind)

    @property
    def second_judgment(self) -> str:
        """How an overlap pair's second judgment is made: `blind`, `shown` (review), `-` without an overlap."""
        if self.second is None:
            return "-"
        return "shown" if self.show_others else "blind"


@dataclass(frozen=True)
class AssignmentPlan(JsonResult):
    """The plan on the space's latest pool: per topic and per assessor; `assigned` the topics just dealt."""

    pool: str | None
    unit: str | None
    topics: dict[str, AssignedTopic]
    assessors: dict[str, AssessorProgress]
    # the model setting in force (None: never set, blind; the key appears once it was ever set)
    show_model: ShowModel | None = json_field(omit_if_none=True, default=None)
    assigned: tuple[str, ...] | None = json_field(omit_if_none=True, default=None)


@dataclass(frozen=True)
class AssignmentsCleared(JsonResult):
    """The topics taken out of the plan."""

    cleared: tuple[str, ...]


def space_pool(store: Store, unit: str | None = None) -> PoolInfo | None:
    """The latest pool of a unit space (`unit` None: the latest pool of all)."""
    if unit is None:
        return store.latest_pool()
    space = unit_space(store, unit)
    pools = [p for p in store.pools() if p.unit == space]
    return pools[-1] if pools else None


def _check_share(overlap: float, assessors: Sequence[str]) -> None:
    if not (isinstance(overlap, (int, float)) and math.isfinite(overlap) and 0 <= overlap < 1):
        raise BadArgumentError(f"the overlap share must be at least 0 and below 1, not {overlap!r}", argument="overlap")
    if overlap > 0 and len(assessors) < 2:
        raise BadArgumentError(
            "an overlap needs at least two assessors",
            argument="overlap",
            hints=argument_hint("assessors", "ann,bob", why="to name two assessors"),
        )


def _topics(store: Store, topics: Sequence[str] | None, unit: str | None) -> list[str]:
    """The topics to assign: the ones given (each known to the workbench), else the pool's, natural order."""
    info = space_pool(store, unit)
    pooled = set(store.pool_topic_sizes(info.name)) if info else set()
    if topics is None:
        if info is None:
            raise BadArgumentError(
                "no pool yet to take the topics from: give them, or build a pool first",
                argument="topics",
                hints=Hint("build_pool"),
            )
        return sorted(pooled, key=topic_sort_key)
    known = store.topic_ids() | pooled | store.event_topics()
    for topic in topics:
        if topic not in known:
            raise BadArgumentError(f"unknown topic {topic!r}", argument="topics", hints=Hint("list_topics"))
    return list(topics)


def assign(
    store: Store,
    assessors: Sequence[str],
    *,
    topics: Sequence[str] | None = None,
    overlap: float = 0.0,
    seed: int = 0,
    unit: str | None = None,
    by: str = "unknown",
    show_others: bool = False,
) -> AssignmentPlan:
    """Deal the topics round-robin to the assessors (in their order) and record one event per topic.

    An overlap pair's two judges judge blind (neither sees the other's label, note or reason until
    both have judged it: `labeler.assignment.seen_state`) unless `show_others` (a review campaign).
    Everything is checked before anything is written: a refused request changes nothing.
    """
    if not assessors:
        raise BadArgumentError("give at least one assessor", argument="assessors")
    assessors = [check_name(name, "assessor name", "assessors") for name in assessors]
    _check_share(overlap, assessors)
    if topics is None:
        # the pool's topics: the latest pool of the space the workbench holds (`write_space`: with several
        # spaces held and no unit, refused rather than taken from whichever was pooled last)
        from labeler.workbench.unit_spaces import write_space  # here: `next` and `status` do not assign

        unit = write_space(store, unit, why="to say which pool's topics to assign")
    chosen = _topics(store, topics, unit)
    if not chosen:
        raise BadArgumentError("no topics to assign", argument="topics")
    dealt = deal(chosen, list(assessors))
    when = now()
    with store.transaction():
        store.add_assignments(
            ((topic, dealt[topic], list(assessors), float(overlap), seed, when, by) for topic in chosen),
            show_others=show_others,
        )
    return replace(list_assignments(store, unit=unit), assigned=tuple(chosen))


def clear_assignments(store: Store, topics: Sequence[str], *, by: str = "unknown") -> AssignmentsCleared:
    """Take topics out of the plan (an event each): anyone may judge them again."""
    plan = current_plan(store)
    unassigned = [t for t in topics if t not in plan.topics]
    if unassigned:
        raise BadArgumentError(
            f"topic {unassigned[0]!r} is not assigned", argument="topics", hints=Hint("list_assignments")
        )
    when = now()
    with store.transaction():
        store.add_assignments((topic, None, [], 0.0, 0, when, by) for topic in topics)
    return AssignmentsCleared(tuple(topics))


def list_assignments(store: Store, *, unit: str | None = None) -> AssignmentPlan:
    """The plan: per topic its judges, share, seed and overlap pairs in the pool; per assessor their progress."""
    plan = current_plan(store)
    info = space_pool(store, unit)
    topics: dict[str, AssignedTopic] = {}
    for topic_id in sorted(plan.topics, key=topic_sort_key):
        entry = plan.topics[topic_id]
        units = store.pool_topic_units(info.name, topic_id) if info else set()
        topics[topic_id] = AssignedTopic(
            assessor=entry.assessor,
            second=entry.second,
            assessors=entry.judges,
            overlap=entry.overlap,
            seed=entry.seed,
            pairs=len(units),
            overlap_pairs=sum(entry.is_overlap(u) for u in units),
            assigned=entry.assigned,
            assigned_by=entry.assigned_by,
            show_others=entry.show_others,
        )
    return AssignmentPlan(
        pool=info.name if info else None,
        unit=info.unit if info else None,
        topics=topics,
        assessors=assessor_progress(store, plan, info),
        show_model=show_model_setting(store),
    )


def show_model_history(store: Store) -> list[ShowModel]:
    """Every change of the campaign's model setting, oldest first, with who made it and when."""
    return store.show_model_history()


def shown_model_name(store: Store) -> str | None:
    """The model whose labels the judging UI may show now; None: blind (no setting, or set to none)."""
    setting = show_model_setting(store)
    return setting.model if setting else None


def parse_show_model(text: str) -> str | None:
    """`none` (any case): blind; otherwise a model name, checked by the id rule (a bad `show_model`)."""
    if text.strip().lower() == NO_MODEL:
        return None
    return check_name(text.strip(), "model name", "show_model")


def set_show_model(store: Store, model: str | None, *, by: str = "unknown") -> ShowModel:
    """Let the judging UI show `model`'s label beside each pair it labelled (None: show none), from now on.

    Appended to the setting's history with the time and `by`; the judgments made meanwhile record
    the model they were shown, so who saw what stays in the log whatever the setting later becomes.
    """
    if model is not None:
        model = check_name(model, "model name", "show_model")
        if model.lower() == NO_MODEL:
            raise BadArgumentError(f"{model!r} means no model: name a model", argument="show_model")
    setting = ShowModel(model, now(), by)
    with store.transaction():
        store.add_show_model(setting)
    return setting

"""Where the assignment plan stands: each assessor's progress and the model setting in force.

What `labeler status` reads of the assignments; `labeler.workbench.assignments` (which
re-exports these) makes and lists the plan.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.assignment import Plan, ShowModel, shown_model, waiting_for
from labeler.json_form import JsonResult
from labeler.judgments.log import PairState
from labeler.pool_models import PoolInfo, topic_sort_key
from labeler.store import Store
from labeler.workbench.read_labels import current_labels


@dataclass(frozen=True)
class AssessorProgress(JsonResult):
    """One assessor's share of the plan: their topics, those they are second judge on, and their pool pairs."""

    topics: tuple[str, ...]
    second_on: tuple[str, ...]
    to_judge: int
    judged: int
    remaining: int
    overlap: int


def assessor_progress(
    store: Store, plan: Plan, info: PoolInfo | None, labels: dict[tuple[str, str], PairState] | None = None
) -> dict[str, AssessorProgress]:
    """Per assessor of the plan: their topics, the topics where they judge the overlap pairs (`second_on`),
    pool pairs to judge, judged, remaining and overlap pairs among them.

    "Judged" follows the queue: a pair is done for an assessor when it left their queue
    (an overlap pair once they graded it, another once anyone did, a conflict once it waits
    for adjudication); `remaining` is what their queue still holds.
    """
    if labels is None:
        labels = current_labels(store, info.unit) if info else {}
    counts = {name: dict.fromkeys(("to_judge", "judged", "remaining", "overlap"), 0) for name in plan.assessors()}
    for topic_id, entry in sorted(plan.topics.items(), key=lambda item: topic_sort_key(item[0])):
        for unit_id in store.pool_topic_units(info.name, topic_id) if info else ():
            overlap = entry.is_overlap(unit_id)
            state = labels.get((topic_id, unit_id))
            for name in entry.judges if overlap else (entry.assessor,):
                row = counts[name]
                row["to_judge"] += 1
                row["overlap"] += overlap
                row["remaining" if waiting_for(state, name, overlap=overlap) else "judged"] += 1
    return {
        name: AssessorProgress(tuple(plan.own_topics(name)), tuple(plan.second_on(name)), **row)
        for name, row in counts.items()
    }


def show_model_setting(store: Store) -> ShowModel | None:
    """The model setting in force; None when it was never set (blind, as is the default)."""
    return shown_model(store.show_model_history())

"""A topic's review status in one unit space, derived from its marks, its labels and the latest pool.

A review mark (`reviewed`, `no_answer`) is a claim about the pool the assessor
saw. It does not survive new work: when the latest pool of the same unit space
holds units of the topic that nobody judged (a re-pool added them, or prior
judgments were imported as reviewed before any pool), the topic is `reopened`
by that pool; when it was judged again after the mark, it is `in_progress`.
Marks belong to a unit space (`doc` or `chunk:NAME`): a topic reviewed at
document level has no mark in a chunk pool's space.

The rule is a pure function over plain values, so the all-topics statuses, the
judging screen's one-topic status and the snapshot manifests agree.

Which mark a topic may be given is one rule too (`mark_problem`), whoever gives it:
`no_answer` says the corpus holds no answer, so a topic with a relevant label (in any
space) cannot be marked so, by `topics mark` or by an import marking its topics
(`import_mark`, which weighs the topic's labels in the workbench, never a file's lines).
A mark that arrives another way (merged from another workbench, where the label was not
yet known) is kept, since the log is append-only and merges are unions; `review_state`
derives the status by the same rule, so it reads the same whatever order the events came in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from labeler.judgments.log import (
    ADJUDICATE,
    GRADE,
    IN_PROGRESS,
    NO_ANSWER,
    REVIEW,
    REVIEWED,
    UNREVIEWED,
    Event,
    derive_pair,
    effective_events,
    event_order,
)
from labeler.wording import plural

REOPENED = "reopened"


@dataclass(frozen=True)
class ReviewState:
    """A topic's status in one space; `pool` and `unjudged` say what reopened it."""

    status: str
    pool: str | None = None
    unjudged: int = 0

    def __str__(self) -> str:
        """`reopened by P2 (12 unjudged)`, or the bare status: what every front end shows."""
        if self.status == REOPENED:
            return f"reopened by {self.pool} ({self.unjudged} unjudged)"
        return self.status

    @property
    def reopened(self) -> dict[str, object] | None:
        """The JSON form of what reopened the topic (`{"pool", "unjudged"}`), None when it is not reopened."""
        return {"pool": self.pool, "unjudged": self.unjudged} if self.status == REOPENED else None


def mark_problem(status: str, relevant: list[str]) -> str | None:
    """Why the rules forbid marking a topic `status`, given its relevant units, in any space; None if they allow it."""
    if status == NO_ANSWER and relevant:
        return f"has {plural(len(relevant), 'relevant label')} (e.g. {relevant[0]}): it cannot be marked no_answer"
    return None


def import_mark(*, judged: bool, relevant: list[str]) -> str | None:
    """The mark an import that marks its topics gives one topic, from the topic's labels after the import.

    `judged`: the topic has a real label (grade 0 or more) in the import's space; `relevant`: its
    relevant units in any space. No mark when nothing is judged: a topic graded only "pooled,
    not judged" was not looked at, so nothing can be said of it. Else `no_answer` where
    `mark_problem` allows it, `reviewed` where it does not.
    """
    if not judged:
        return None
    return NO_ANSWER if mark_problem(NO_ANSWER, relevant) is None else REVIEWED


def latest_mark(review_events: Iterable[Event]) -> Event | None:
    """The mark in force (retracted marks do not count); None when there is none or it is `unreviewed`."""
    marks = effective_events(e for e in review_events if e.kind == REVIEW)
    if not marks or marks[-1].reason == UNREVIEWED:
        return None
    return marks[-1]


def review_state(
    mark: Event | None,
    *,
    has_judgments: bool,
    has_relevant: bool,
    judged_after_mark: bool,
    pool: str | None = None,
    unjudged: int = 0,
) -> ReviewState:
    """The status of one (topic, space).

    `mark`: `latest_mark` of the space's review events; `has_judgments`,
    `has_relevant`: the topic has a real label, a relevant one, in the space;
    `judged_after_mark`: a grade or adjudication later in log order than the
    mark; `pool`, `unjudged`: the space's latest pool and how many of the
    topic's units in it are not judged.
    """
    if mark is None:
        return ReviewState(IN_PROGRESS if has_judgments else UNREVIEWED)
    if pool is not None and unjudged > 0:
        return ReviewState(REOPENED, pool, unjudged)
    if judged_after_mark:
        return ReviewState(IN_PROGRESS)
    if mark.reason == NO_ANSWER and has_relevant:
        return ReviewState(IN_PROGRESS)  # a relevant label after no_answer needs a new review
    assert mark.reason is not None  # a review event always names its status (judgment_log checks it)
    return ReviewState(mark.reason)


def judged_after(mark: Event | None, events: Iterable[Event]) -> bool:
    """Whether the topic's labels changed after `mark`: a later real grade or adjudication that made a label.

    A later grade counts when its pair had no label at the mark, now has another
    label than it had then, or is now in conflict. A grade that agrees with the
    label the pair already had does not: that is the second judge of a planned
    overlap pair (`labeler assign --overlap`) confirming what the topic's assessor
    marked done, and it must not send the topic back to `in_progress`.
    Retracted events do not count.
    """
    if mark is None:
        return False
    after = event_order(mark)
    by_unit: dict[str | None, list[Event]] = {}
    for event in events:
        if event.kind != REVIEW:
            by_unit.setdefault(event.unit_id, []).append(event)
    for unit_id, pair_events in by_unit.items():
        if unit_id is None or not any(
            e.kind in (GRADE, ADJUDICATE) and e.grade is not None and e.grade >= 0 and event_order(e) > after
            for e in effective_events(pair_events)
        ):
            continue
        then = derive_pair(mark.topic_id, unit_id, [e for e in pair_events if event_order(e) <= after])
        now = derive_pair(mark.topic_id, unit_id, pair_events)
        if now.conflict or not then.judged or then.label != now.label:
            return True
    return False


def shown_status(status: str, reopened: dict[str, Any] | None) -> str:
    """A status as front ends show it, from its JSON form (`review_status` and `reopened`)."""
    if status == REOPENED and reopened:
        return str(ReviewState(REOPENED, reopened.get("pool"), reopened.get("unjudged", 0)))
    return status

"""Review states per (topic, unit space): the inputs of `labeler.review.review_state`, gathered from the store.

Two forms that must agree (tests/workbench/test_topic_review_status.py): the
all-topics one (`status`, snapshots) from labels already derived, and the
one-topic one the judging screen calls after every key, which reads only that
topic's events and pool units.
"""

from __future__ import annotations

from labeler.judgments import IN_PROGRESS, PairState, derive_pair
from labeler.models import PoolInfo
from labeler.review import ReviewState, judged_after, latest_mark, review_state
from labeler.store import Store
from labeler.workbench.labels import current_labels, unit_space


def latest_pool_in(store: Store, space: str) -> PoolInfo | None:
    """The latest pool of one unit space: the one whose unjudged units reopen a mark of that space."""
    return next((p for p in reversed(store.pools()) if p.unit == space), None)


def topic_review_states(
    store: Store,
    space: str,
    *,
    labels: dict[tuple[str, str], PairState] | None = None,
    topics: list[str],
    unjudged: dict[str, int] | None = None,
) -> dict[str, ReviewState]:
    """Each topic's state in `space`; `labels` is `current_labels(store, space)` when the caller has it.

    `unjudged`: each topic's count of unjudged units in the space's latest pool, when the caller
    counted them already (`labeler status` does), so the pool is not read twice.
    """
    threshold = store.scale().threshold
    if labels is None:
        labels = current_labels(store, space)
    judged: set[str] = set()
    relevant: set[str] = set()
    for (topic_id, _), state in labels.items():
        if state.judged:
            judged.add(topic_id)
            if state.label >= threshold:
                relevant.add(topic_id)
    reviews: dict[str, list] = {}
    for event in store.review_events():
        if event.unit == space:
            reviews.setdefault(event.topic_id, []).append(event)
    pool = latest_pool_in(store, space)
    states = {}
    counts = unjudged
    label_clocks: dict[str, int] | None = None
    for topic_id in topics:
        mark = latest_mark(reviews.get(topic_id, []))
        missing, after = 0, False
        if mark is not None:  # only a mark can be reopened or judged after: the others need no pool or events
            if counts is not None:
                missing = counts.get(topic_id, 0) if pool is not None else 0
            else:
                missing = _unjudged(store, pool, topic_id, lambda u, t=topic_id: labels.get((t, u)))
            if not missing:  # a reopened topic is reopened whatever was judged after its mark
                if label_clocks is None:
                    label_clocks = store.latest_label_clocks(space)
                if label_clocks.get(topic_id, -1) >= (mark.clock or 0):  # something was graded at or after it
                    after = judged_after(mark, store.topic_events(space, topic_id))
        states[topic_id] = review_state(
            mark,
            has_judgments=topic_id in judged,
            has_relevant=topic_id in relevant,
            judged_after_mark=after,
            pool=pool.name if pool else None,
            unjudged=missing,
        )
    return states


def topic_review_state(store: Store, topic_id: str, unit: str | None = None) -> ReviewState:
    """One topic's state in a space (the latest pool's by default), from that topic's events and pool units only."""
    space = unit_space(store, unit)
    threshold = store.scale().threshold
    events = store.topic_events(space, topic_id)
    changes = store.change_times(space) if events else {}
    by_unit: dict[str, list] = {}
    for event in events:
        by_unit.setdefault(event.unit_id, []).append(event)
    labels = {u: derive_pair(topic_id, u, evs, changes.get(u)) for u, evs in by_unit.items()}
    judged = any(s.judged for s in labels.values())
    relevant = any(s.judged and s.label >= threshold for s in labels.values())
    reviews = [e for e in store.review_events(topic_id) if e.unit == space]
    if not (by_unit or reviews) and not _known_topic(store, topic_id):
        return ReviewState(IN_PROGRESS)  # as for a topic the all-topics statuses do not list
    mark = latest_mark(reviews)
    pool = latest_pool_in(store, space)
    unjudged = _unjudged(store, pool, topic_id, labels.get) if mark is not None else 0
    return review_state(
        mark,
        has_judgments=judged,
        has_relevant=relevant,
        judged_after_mark=judged_after(mark, events),
        pool=pool.name if pool else None,
        unjudged=unjudged,
    )


def _unjudged(store: Store, pool: PoolInfo | None, topic_id: str, state_of) -> int:
    """How many of the topic's units in `pool` are not judged (as `labeler status` counts them)."""
    if pool is None:
        return 0
    return sum(
        1 for u in store.pool_topic_units(pool.name, topic_id) if (state := state_of(u)) is None or not state.judged
    )


def _known_topic(store: Store, topic_id: str) -> bool:
    """Whether the all-topics statuses list the topic: loaded, in the latest pool, or in the log."""
    if store.topic(topic_id) is not None:
        return True
    latest = store.latest_pool()
    if latest is not None and store.pool_topic_size(latest.name, topic_id) > 0:
        return True
    return topic_id in store.event_topics()

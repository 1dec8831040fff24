"""Review states per (topic, unit space): the inputs of `labeler.review.review_state`, gathered from the store.

One computation (`_review_states`) in two forms, kept equal by
tests/workbench/test_topic_review_status.py: the all-topics one (`status`, snapshots) from labels
already derived, and the one-topic one the judging screen calls after every key, which feeds it only
that topic's events and pool units.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from labeler.judgments.log import IN_PROGRESS, Event, PairState, derive_pairs
from labeler.pool_models import PoolInfo
from labeler.review import ReviewState, judged_after, latest_mark, review_state
from labeler.store import Store
from labeler.workbench.read_labels import current_labels, unit_space


def is_relevant(state: PairState, threshold: int) -> bool:
    """Whether a pair's label is relevant on the scale (at or above its threshold); unjudged pairs are not."""
    return state.label is not None and state.label >= threshold


def _state_of(labels: dict[tuple[str, str], PairState], topic_id: str, unit_id: str) -> PairState | None:
    return labels.get((topic_id, unit_id))


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
    counted them already (`status` does), so the pool is not read twice.
    """
    if labels is None:
        labels = current_labels(store, space)
    return review_states_in_batches(store, space, unjudged=unjudged)(topics, labels)


def review_states_in_batches(
    store: Store, space: str, *, unjudged: dict[str, int] | None = None
) -> Callable[[list[str], dict[tuple[str, str], PairState]], dict[str, ReviewState]]:
    """`topic_review_states` for a batch of topics at a time, given the batch's labels.

    What the whole space shares (its review marks, latest pool, scale and latest label times)
    is read once; each call then needs only its own topics' labels, so a caller that derives
    the labels a topic at a time (a snapshot) never holds the whole space's.
    """
    reviews: dict[str, list[Event]] = {}
    for event in store.review_events():
        if event.unit == space:
            reviews.setdefault(event.topic_id, []).append(event)
    shared = _Shared(store.scale().threshold, latest_pool_in(store, space), unjudged, whole_space=True)
    return lambda topics, labels: _review_states(store, space, topics, labels, reviews, shared)


def topic_review_state(store: Store, topic_id: str, unit: str | None = None) -> ReviewState:
    """One topic's state in a space (the latest pool's by default): `topic_review_states` for that topic alone.

    The same computation, fed only the topic's own events, marks and pool units, so the judging
    screen can ask after every key without deriving every label of the space.
    """
    space = unit_space(store, unit)
    events = store.topic_events(space, topic_id)
    labels = derive_pairs(events, store.change_times(space)) if events else {}
    reviews = [e for e in store.review_events(topic_id) if e.unit == space]
    if not (labels or reviews) and not _known_topic(store, topic_id):
        return ReviewState(IN_PROGRESS)  # as for a topic the all-topics statuses do not list
    shared = _Shared(store.scale().threshold, latest_pool_in(store, space), None, whole_space=False)
    return _review_states(store, space, [topic_id], labels, {topic_id: reviews}, shared)[topic_id]


@dataclass
class _Shared:
    """What every topic's review state in a space reads alike.

    `whole_space`: the caller asks for many topics, so one query of the space's latest label
    times (`label_clocks`, read at the first need) skips reading the events of a topic graded
    nothing since its mark; for one topic reading its events directly is cheaper.
    """

    threshold: int
    pool: PoolInfo | None
    unjudged: dict[str, int] | None
    whole_space: bool
    label_clocks: dict[str, int] | None = None

    def clocks(self, store: Store, space: str) -> dict[str, int] | None:
        if self.whole_space and self.label_clocks is None:
            self.label_clocks = store.latest_label_clocks(space)
        return self.label_clocks


def _review_states(
    store: Store,
    space: str,
    topics: list[str],
    labels: dict[tuple[str, str], PairState],
    reviews: dict[str, list[Event]],
    shared: _Shared,
) -> dict[str, ReviewState]:
    """The one review computation: each topic's latest mark, weighed against its labels and the latest pool.

    `labels` and `reviews` hold at least the topics asked for.
    """
    judged: set[str] = set()
    relevant: set[str] = set()
    for (topic_id, _), state in labels.items():
        if state.judged:
            judged.add(topic_id)
            if is_relevant(state, shared.threshold):
                relevant.add(topic_id)
    pool = shared.pool
    states = {}
    for topic_id in topics:
        mark = latest_mark(reviews.get(topic_id, []))
        missing, after = 0, False
        if mark is not None:  # only a mark can be reopened or judged after: the others need no pool or events
            if shared.unjudged is not None:
                missing = shared.unjudged.get(topic_id, 0) if pool is not None else 0
            else:
                missing = _unjudged(store, pool, topic_id, partial(_state_of, labels, topic_id))
            if not missing:  # a reopened topic is reopened whatever was judged after its mark
                label_clocks = shared.clocks(store, space)
                if label_clocks is None or label_clocks.get(topic_id, -1) >= (mark.clock or 0):
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


def _unjudged(store: Store, pool: PoolInfo | None, topic_id: str, state_of: Callable[[str], PairState | None]) -> int:
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

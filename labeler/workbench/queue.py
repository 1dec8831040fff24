"""What to judge next: the queue of a topic's unjudged pool units, in a chosen order.

Membership comes from the pool; the order is a separate choice (one of the
orders registered in `labeler.ordering`) recorded with each judgment. The UI
and scripts share `queue` and `next_unit`, so they never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from labeler.assignment import Plan, TopicAssignment, seen_states, waiting_for
from labeler.errors import BadArgumentError, Hint, NotFoundError
from labeler.judgments.log import SKIP, UNSURE, PairState
from labeler.ordering import ORDERS, OrderInput, arrange, needs_model
from labeler.pool_models import PoolInfo, topic_sort_key
from labeler.store import Store
from labeler.workbench.assessors import current_plan
from labeler.workbench.read_labels import model_labels_by_topic, topic_labels

if TYPE_CHECKING:
    from labeler.judgments.model_labels import ModelLabel


@dataclass(frozen=True)
class QueueItem:
    """One pair waiting for a judgment, with why it is where it is."""

    topic_id: str
    unit_id: str
    unit: str
    pool: str
    position: int  # 1-based position in the topic's queue
    later: bool  # skipped or unsure by this assessor: shown after the rest
    best_rank: int
    contributors: tuple[tuple[str, int], ...]


def current_pool(store: Store, pool: str | None = None) -> PoolInfo:
    if pool is not None:
        return store.pool(pool)
    latest = store.latest_pool()
    if latest is None:
        raise NotFoundError("no pool yet", hints=Hint("build_pool"))
    return latest


def check_order(order: str) -> None:
    """Refuse an order that is not registered (labeler.ordering), naming the ones that are."""
    ORDERS.get(order)


def check_model(order: str, model: str | None) -> None:
    """Refuse an order that reads a model's labels (`uncertainty`) when no model is named."""
    if model is None and needs_model(order):
        raise BadArgumentError(f"the {order} order needs a model's labels: name the model", argument="model")


# Per open store, the last model's labels read, grouped by topic, with the change token they were read at: `queue`
# of topic after topic (`next`, `queue` without --topic, claims) reads them once while the workbench is unchanged.
_model_memo: WeakKeyDictionary[Store, tuple[tuple[object, ...], dict[str, dict[str, ModelLabel]]]] = WeakKeyDictionary()


def topic_model_labels(store: Store, model: str, unit: str, topic_id: str) -> dict[str, ModelLabel]:
    """The model's labels of one topic's units (unit -> label); a model with no label in the unit space is refused."""
    key = (store.change_token(), model, unit)
    memo = _model_memo.get(store)
    if memo is not None and memo[0] == key:
        return dict(memo[1].get(topic_id, {}))
    by_topic = model_labels_by_topic(store, model, unit)
    _model_memo[store] = (key, by_topic)
    return dict(by_topic.get(topic_id, {}))


def queue(
    store: Store,
    topic_id: str,
    *,
    assessor: str,
    order: str = "pool",
    seed: int = 0,
    pool: str | None = None,
    plan: Plan | None = None,
    model: str | None = None,
) -> list[QueueItem]:
    """The topic's unjudged pool units for this assessor, in order; skipped and unsure ones last.

    Pairs in conflict wait for adjudication, not in the queue; stale pairs
    (text changed since judged) are back in it. In an assigned topic only the
    pairs this assessor must judge are queued (`labeler.assignment`): an overlap
    pair stays until this assessor graded it, whoever else did, and the order reads
    only what the assessor may see of it (`labeler.assignment.seen_state`). `model` names the model whose
    labels an order that reads one (`uncertainty`) ranks by; such an order needs it.
    """
    check_order(order)
    check_model(order, model)
    inputs = queue_inputs(store, topic_id, assessor=assessor, pool=pool, plan=plan, model=model)
    return arranged_queue(inputs, assessor=assessor, order=order, seed=seed)


@dataclass
class QueueInputs:
    """What a topic's queue is computed from: its pool entries, assignment, pair states, threshold and runs.

    `model` holds a model's labels of the topic's units and `grades` the scale's grades, for an order
    that reads a model (empty when no model was named). The judging session keeps one between keys and
    replaces only the states of the pairs it wrote (`labeler.workbench.session`): `arranged_queue` of the
    same inputs is the same queue.
    """

    topic_id: str
    info: PoolInfo
    entries: dict
    assignment: TopicAssignment | None
    states: dict[str, PairState]
    threshold: int
    excluded: bool = False  # an assigned topic this assessor does not judge, or no pool entries: an empty queue
    model: dict[str, ModelLabel] = field(default_factory=dict)
    grades: tuple[int, ...] = ()


def queue_inputs(
    store: Store,
    topic_id: str,
    *,
    assessor: str,
    pool: str | None = None,
    plan: Plan | None = None,
    model: str | None = None,
) -> QueueInputs:
    info = current_pool(store, pool)
    entries = store.pool_entries(info.name, topic_id).get(topic_id, {})
    if not entries:
        return QueueInputs(topic_id, info, entries, None, {}, 0, excluded=True)
    if plan is None:
        plan = current_plan(store)
    assignment = plan.topics.get(topic_id)
    if assignment is not None and assessor not in assignment.judges:
        return QueueInputs(topic_id, info, entries, assignment, {}, 0, excluded=True)
    # what this assessor may see: an overlap pair still blind for them shows only their own decisions
    states = seen_states(plan, assessor, topic_labels(store, info.unit, topic_id), topic_id)
    scale = store.scale()
    if model is None:
        return QueueInputs(topic_id, info, entries, assignment, states, scale.threshold)
    labels = topic_model_labels(store, model, info.unit, topic_id)
    grades = tuple(g.value for g in scale.grades)
    return QueueInputs(topic_id, info, entries, assignment, states, scale.threshold, model=labels, grades=grades)


def arranged_queue(inputs: QueueInputs, *, assessor: str, order: str = "pool", seed: int = 0) -> list[QueueItem]:
    """The queue of `queue`, from its inputs (no store reads)."""
    if inputs.excluded:
        return []
    topic_id, info, entries, assignment, states = (
        inputs.topic_id,
        inputs.info,
        inputs.entries,
        inputs.assignment,
        inputs.states,
    )
    given = OrderInput(topic_id, entries, states, inputs.threshold, seed, info.runs, inputs.model, inputs.grades)
    ordered = arrange(order, given)
    waiting = [u for u in ordered if waiting_in_plan(assignment, assessor, u, states)]
    now_ = [u for u in waiting if states.get(u) is None or states[u].states.get(assessor) not in (SKIP, UNSURE)]
    first = set(now_)
    later = [u for u in waiting if u not in first]
    return [
        QueueItem(topic_id, u, info.unit, info.name, i, u not in first, entries[u].best_rank, entries[u].contributors)
        for i, u in enumerate(now_ + later, 1)
    ]


def next_unit(
    store: Store,
    topic_id: str | None = None,
    *,
    assessor: str,
    order: str = "pool",
    seed: int = 0,
    pool: str | None = None,
    model: str | None = None,
) -> QueueItem | None:
    """The next pair to judge: in the given topic, or the first topic with work left (the assessor's own first)."""
    plan = current_plan(store)
    topics = [topic_id] if topic_id is not None else plan.order_for(assessor, pool_topics(store, pool))
    for topic in topics:
        items = queue(store, topic, assessor=assessor, order=order, seed=seed, pool=pool, plan=plan, model=model)
        if items:
            return items[0]
    return None


def pool_topics(store: Store, pool: str | None = None) -> list[str]:
    info = current_pool(store, pool)
    return sorted(store.pool_topic_ids(info.name), key=topic_sort_key)


def waiting_in_plan(
    assignment: TopicAssignment | None, assessor: str, unit_id: str, states: dict[str, PairState]
) -> bool:
    """Still in this assessor's queue: any unjudged pair of an unassigned topic, else only theirs to judge."""
    if assignment is None:
        return waiting_for(states.get(unit_id), assessor, overlap=False)
    overlap = assignment.is_overlap(unit_id)
    if not overlap and assignment.assessor != assessor:
        return False
    return waiting_for(states.get(unit_id), assessor, overlap=overlap)

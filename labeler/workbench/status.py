"""Where the judging stands: per topic pool size, judged, unjudged, relevant, conflicts, review status.

`judged`, `unjudged`, `relevant`, `skipped` and `unsure` count the pool's pairs, so that
judged + unjudged = pool and relevant <= judged; labels outside the pool (imported, or from an
older pool) are counted apart in `outside` and `outside_relevant`. `conflicts` counts every label,
pooled or not: a disagreement needs adjudicating wherever it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from labeler.assignment import ShowModel, seen_labels
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import SKIP, UNSURE, Event, PairState
from labeler.pool_models import PoolInfo, topic_sort_key
from labeler.review import ReviewState
from labeler.stopping import StoppingRule
from labeler.store import Store
from labeler.workbench.assessors import current_plan
from labeler.workbench.plan_progress import AssessorProgress, assessor_progress, show_model_setting
from labeler.workbench.read_labels import unit_space
from labeler.workbench.review import is_relevant, latest_pool_in, topic_review_states
from labeler.workbench.stopping import (
    DEFAULT_RULE,
    TopicStop,
    found_sequence,
    labels_and_first_judgments,
    stopping_rule,
)

TOPIC_KEYS = ("pool", "judged", "unjudged", "relevant", "skipped", "unsure", "conflicts", "outside", "outside_relevant")
Counts = dict[str, int]  # a topic's counts while they are counted: TOPIC_KEYS -> count


@dataclass(frozen=True)
class TopicCounts(JsonResult):
    """A topic's pool pairs (judged + unjudged = pool, relevant among the judged), its labels outside the pool,
    and its conflicts; summed over the topics, the totals."""

    pool: int
    judged: int
    unjudged: int
    relevant: int
    skipped: int
    unsure: int
    conflicts: int
    outside: int
    outside_relevant: int

    @classmethod
    def total(cls, rows: Iterable[TopicCounts]) -> TopicCounts:
        """The counts summed over `rows`."""
        listed = list(rows)
        return cls(**{key: sum(getattr(row, key) for row in listed) for key in TOPIC_KEYS})


@dataclass(frozen=True, kw_only=True)
class TopicProgress(TopicCounts):
    """One topic's counts, its review state in the space shown, and what the stopping rule says about it."""

    json_extra = {"review_status": "outside_relevant", "reopened": "outside_relevant"}

    review: ReviewState = json_field(omit=True)
    stopping: TopicStop = json_field()

    @property
    def review_status(self) -> str:
        return self.review.status

    @property
    def reopened(self) -> dict[str, object] | None:
        return self.review.reopened


@dataclass(frozen=True)
class ChunkingCount(JsonResult):
    """A chunking of the corpus: its name, kind, and how many documents and chunks it covers."""

    name: str
    kind: str
    documents: int
    chunks: int


@dataclass(frozen=True)
class RunCount(JsonResult):
    """A run: its unit, stage, and how many topics and entries it ranks."""

    name: str
    unit: str
    stage: str
    topics: int
    entries: int


@dataclass(frozen=True)
class StoppingSummary(JsonResult):
    """The stopping rule as the user wrote it, and on how many topics it says stop."""

    rule: str
    stop: int


@dataclass(frozen=True)
class Status(JsonResult):
    """`status`'s result: what the workbench holds, and per topic the judging progress on one pool.

    `assessors` is each assessor's progress when there is an assignment plan (None without one:
    the `--json` shape then has no `assessors` key). `stop_rule` is the stopping rule each topic's
    `stopping` was decided by (`labeler.workbench.stopping`).
    """

    json_extra = {"stopping": "totals"}

    path: str
    scale: str
    pool: str | None
    unit: str
    documents: int
    document_changes: int
    chunkings: tuple[ChunkingCount, ...]
    runs: tuple[RunCount, ...]
    topics: dict[str, TopicProgress]
    totals: TopicCounts
    assessors: dict[str, AssessorProgress] | None = json_field(omit_if_none=True)
    stop_rule: StoppingRule = json_field(omit=True)
    # the campaign's model setting; None never set (no `show_model` key)
    show_model: ShowModel | None = json_field(omit_if_none=True, default=None)

    @property
    def stopping_topics(self) -> int:
        """How many topics the stopping rule says stop on."""
        return sum(row.stopping.decision.stop for row in self.topics.values())

    @property
    def stopping(self) -> StoppingSummary:
        """The rule as the user wrote it, and on how many topics it says stop."""
        return StoppingSummary(rule=self.stop_rule.spec, stop=self.stopping_topics)


def all_topic_ids(store: Store) -> list[str]:
    """Topics the workbench knows of: loaded, pooled, or judged."""
    topics = store.topic_ids() | store.event_topics()
    latest = store.latest_pool()
    if latest:
        topics |= set(store.pool_topic_sizes(latest.name))
    return sorted(topics, key=topic_sort_key)


def topic_review_statuses(
    store: Store,
    *,
    unit: str | None = None,
    labels: dict[str, dict[tuple[str, str], PairState]] | None = None,
    topics: list[str] | None = None,
) -> dict[str, str]:
    """Each topic's review status in one unit space (the latest pool's by default), as text.

    A caller that has derived the space's labels already (`labels`: space ->
    `current_labels(store, space)`) or the topic list (`topics`:
    `all_topic_ids(store)`) passes them, so they are not derived twice.
    """
    space = unit_space(store, unit)
    derived = labels.get(space) if labels is not None else None
    states = topic_review_states(
        store, space, labels=derived, topics=all_topic_ids(store) if topics is None else topics
    )
    return {t: state.status for t, state in states.items()}


def _topic_rows(
    store: Store,
    info: PoolInfo | None,
    topic_ids: list[str],
    labels: dict[tuple[str, str], PairState],
    threshold: int,
    firsts: dict[tuple[str, str], Event],
    rule: StoppingRule,
) -> tuple[dict[str, TopicCounts], dict[str, TopicStop]]:
    """Each topic's counts: its pool pairs (judged + unjudged = pool), then its labels outside the pool;
    and what the stopping rule says on its pool pairs' judgments (`firsts`: each judged pair's first judging event)."""
    by_topic: dict[str, list[tuple[str, PairState]]] = {}  # references into `labels`, for the outside counts
    for (topic_id, unit_id), state in labels.items():
        by_topic.setdefault(topic_id, []).append((unit_id, state))
    topics: dict[str, Counts] = {}
    stops: dict[str, TopicStop] = {}
    for topic_id in topic_ids:
        # one topic's pooled units at a time (a primary-key seek), dropped after the topic: a pool of
        # millions of pairs is never held
        units = store.pool_topic_units(info.name, topic_id) if info else set()
        judged: list[str] = []
        row = _pool_counts(topic_id, units, labels, threshold, judged)
        _count_outside(row, by_topic.pop(topic_id, ()), units, threshold)
        topics[topic_id] = row
        stops[topic_id] = TopicStop(
            rule=rule, decision=rule.decide(found_sequence(topic_id, judged, labels, firsts, threshold))
        )
    for topic_id, rest in by_topic.items():  # labelled topics all_topic_ids does not list (none today)
        _count_outside(topics.setdefault(topic_id, dict.fromkeys(TOPIC_KEYS, 0)), rest, set(), threshold)
        stops.setdefault(topic_id, TopicStop(rule=rule, decision=rule.decide([])))
    return {t: TopicCounts(**row) for t, row in topics.items()}, stops


def _pool_counts(
    topic_id: str, units: set[str], labels: dict[tuple[str, str], PairState], threshold: int, judged: list[str]
) -> Counts:
    """A topic's row for its pool units: judged, relevant among them, unjudged, skipped and unsure among those.

    The judged units are appended to `judged` (the stopping rule's pairs)."""
    row: Counts = dict.fromkeys(TOPIC_KEYS, 0)
    row["pool"] = len(units)
    for unit_id in units:
        state = labels.get((topic_id, unit_id))
        if state is not None and state.judged:
            judged.append(unit_id)
            row["judged"] += 1
            row["relevant"] += is_relevant(state, threshold)
        else:
            row["unjudged"] += 1
            if state is not None:
                row["skipped"] += any(s == SKIP for s in state.states.values())
                row["unsure"] += any(s == UNSURE for s in state.states.values())
    return row


def _count_outside(row: Counts, labelled: Iterable[tuple[str, PairState]], units: set[str], threshold: int) -> None:
    """Add a topic's labels outside the pool (`outside`, `outside_relevant`) and its conflicts to its row."""
    for unit_id, state in labelled:
        if state.judged and unit_id not in units:
            row["outside"] += 1
            row["outside_relevant"] += is_relevant(state, threshold)
        if state.conflict:
            row["conflicts"] += 1


def status(
    store: Store,
    *,
    unit: str | None = None,
    pool: str | None = None,
    stop: StoppingRule | str = DEFAULT_RULE,
    viewer: str | None = None,
) -> Status:
    """The workbench's contents and, per topic, the judging progress on the pool (latest by default).

    `stop`: the stopping rule each topic is decided by (`window:10` by default; a bad rule is a
    `BadArgumentError` naming `stop`). A damaged file (a table missing, a page unreadable) is an
    error naming the file, not a traceback. `viewer`: the counts as that assessor may see them (an
    overlap pair still blind for them counts only their own decisions: `labeler.assignment.seen_labels`).
    """
    rule = stopping_rule(stop) if isinstance(stop, str) else stop
    with store.damage_as_error():
        return _status(store, unit=unit, pool=pool, rule=rule, viewer=viewer)


def _status(store: Store, *, unit: str | None, pool: str | None, rule: StoppingRule, viewer: str | None) -> Status:
    """The counts, then the review states from those counts (not the pool read again), then the plan's progress."""
    counts = store.counts()
    if pool:
        info: PoolInfo | None = store.pool(pool)
    elif unit is not None:  # the space asked for is read against its own latest pool, never another space's
        info = latest_pool_in(store, unit_space(store, unit))
    else:
        info = store.latest_pool()
    space = info.unit if info and unit is None else unit_space(store, unit)
    threshold = store.scale().threshold
    every_label, firsts = labels_and_first_judgments(store, space)  # current_labels' labels, in the same pass
    plan = current_plan(store)
    labels = seen_labels(plan, viewer, every_label) if viewer is not None else every_label
    topic_ids = all_topic_ids(store)
    rows, stops = _topic_rows(store, info, topic_ids, labels, threshold, firsts, rule)
    # the unjudged counts above are the review statuses' own input when the pool shown is the space's latest
    latest = latest_pool_in(store, space)
    counted = info is not None and latest is not None and latest.name == info.name
    states = topic_review_states(
        store,
        space,
        labels=labels,
        topics=topic_ids,
        unjudged={t: row.unjudged for t, row in rows.items()} if counted else None,
    )
    topics = {
        t: TopicProgress(**asdict(rows[t]), review=states.get(t, ReviewState("unreviewed")), stopping=stops[t])
        for t in sorted(rows, key=topic_sort_key)
    }
    assessors = None
    if plan:
        assessors = assessor_progress(
            store, plan, info, every_label if info is not None and info.unit == space else None
        )
    return Status(
        path=str(store.path),
        scale=store.scale().name,
        pool=info.name if info else None,
        unit=space,
        documents=counts["documents"],
        document_changes=counts["document_changes"],
        chunkings=tuple(ChunkingCount(c.name, c.kind, c.documents, c.chunks) for c in store.chunkings()),
        runs=tuple(RunCount(r.name, str(r.unit), r.stage, r.topics, r.entries) for r in store.runs()),
        topics=topics,
        totals=TopicCounts.total(rows.values()),
        assessors=assessors,
        stop_rule=rule,
        show_model=show_model_setting(store),
    )

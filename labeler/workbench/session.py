"""A judging session: one assessor working through the queue, as the judging UI drives it.

It keeps what a screen needs between keystrokes (the current pair, its text,
where it sits in the queue, the session's pace) and turns each decision into
one committed event before it moves on. It has no UI of its own, so it is
tested directly and measured for latency without a terminal.

Blind by default: `model_label` is the one model label the screen may show for the current
pair, set only when the campaign's model setting (`assign --show-model NAME`) names a model
that labelled it; every decision the session records carries that model's name as
`shown_model` (None when no model label was on screen). Second judgments are blind the same
way: the pair's status shows what the assessor may see (`labeler.assignment.seen_state`), and a
decision on a planned overlap pair records whose labels were on screen (`shown_others`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from labeler.assignment import seen_state, shown_others
from labeler.errors import LabelerError
from labeler.judgments.log import (
    FLAG,
    GRADE,
    NOTE,
    SKIP,
    UNSURE,
    Event,
    PairState,
)
from labeler.judgments.model_labels import ModelLabel
from labeler.ordering import is_seeded, needs_model
from labeler.pace import PACE_WINDOW, median_per_hour
from labeler.stopping import StopDecision, StoppingRule
from labeler.store import Store
from labeler.store.connection import WorkbenchWriteError
from labeler.workbench.assignments import current_plan, shown_model_name
from labeler.workbench.claims import DEFAULT_LEASE, check_lease, claim_pair, free_items, held_by_others, utc_now
from labeler.workbench.queue import (
    QueueInputs,
    QueueItem,
    arranged_queue,
    check_order,
    current_pool,
    pool_topics,
    queue_inputs,
)
from labeler.workbench.read_labels import pair_state
from labeler.workbench.reading import UnitText, unit_text
from labeler.workbench.record_judgments import RELEASING, Judgment, mark_topic, record_judgment, undo
from labeler.workbench.review import topic_review_state
from labeler.workbench.stopping import DEFAULT_RULE, TopicFound, stopping_rule
from labeler.workbench.topics import require_topic

IDLE_CAP_SECONDS = 30.0


class ActiveClock:
    """Active time on one pair: gaps between keystrokes count, but at most `cap` seconds each.

    An assessor who walks away for ten minutes adds at most `cap` seconds, so
    judgments per hour measure work, not lunch breaks.
    """

    def __init__(self, cap: float = IDLE_CAP_SECONDS, clock=time.monotonic):
        self.cap = cap
        self.clock = clock
        self.restart()

    def restart(self) -> None:
        self.active = 0.0
        self.last = self.clock()

    def touch(self) -> None:
        now = self.clock()
        self.active += min(now - self.last, self.cap)
        self.last = now

    def stop(self) -> int:
        """Milliseconds of active time so far (counting up to now)."""
        self.touch()
        return int(round(self.active * 1000))


@dataclass
class Position:
    """Where the current pair sits: its place in the topic's pool and what is left."""

    index: int  # 1-based: judged pairs of the pool + 1
    total: int  # pool size of the topic
    remaining: int  # pairs left to judge in the topic (the current one included)


@dataclass
class SessionStats:
    """The session's judgments, and the assessor's last timed ones (newest last) for the pace."""

    judgments: int = 0
    active_ms: int = 0
    recent: deque[int] = field(default_factory=lambda: deque(maxlen=PACE_WINDOW))

    def timed(self, active_ms: int | None) -> None:
        self.judgments += 1
        self.active_ms += active_ms or 0
        if active_ms and active_ms > 0:
            self.recent.append(active_ms)

    @property
    def per_hour(self) -> float | None:
        """The median pace over the assessor's last `PACE_WINDOW` timed judgments, this session's included."""
        return median_per_hour(self.recent)


@dataclass
class _QueueCache:
    """A topic's queue inputs kept between keys, and the change token they were read (or kept up to date) at.

    `token` is `(data_version, total_changes)` (`Store.change_token`): the data_version read when the
    inputs were loaded (another connection's commit changes it), and this connection's change count
    after the session's own last write. `dirty`: pairs the session wrote since, whose states are
    derived again before the next queue. `found`: the topic's found sequence for the stopping rule,
    loaded when first asked for and kept up to date the same way (its own `dirty`).
    """

    key: tuple[str, str, str, str | None]  # topic, pool, assessor, the model read (None: none)
    inputs: QueueInputs
    token: tuple[int, int]
    dirty: set[str] = field(default_factory=set)
    found: TopicFound | None = None


@dataclass
class JudgingSession:
    """An assessor's pass through the queue of one topic after another."""

    store: Store
    assessor: str
    order: str = "pool"
    seed: int = 0
    pool: str | None = None
    model: str | None = None  # the model whose labels an order that reads one (`uncertainty`) ranks by; never shown
    topic_id: str | None = None
    current: QueueItem | None = None
    view: UnitText | None = None
    position: Position | None = None
    stats: SessionStats = field(default_factory=SessionStats)
    visited: list[tuple[str, str]] = field(default_factory=list)  # (topic, unit) in the order shown
    _back: int | None = None  # while going back with `previous_pair`: the index in `visited` shown
    clock: ActiveClock = field(default_factory=ActiveClock)
    lease: timedelta = DEFAULT_LEASE  # how long the pair shown stays this assessor's without a key (claims)
    now: Callable[[], datetime] = utc_now  # the claims' clock (tests drive it)
    held: int = 0  # pairs of the last queue(s) looked at that other assessors hold (left out)
    notice: str | None = None  # what the screen should say once (a lease lost, a pair held by another)
    stop_rule: StoppingRule = field(default_factory=lambda: stopping_rule(DEFAULT_RULE))  # shown per topic
    _queue: list[QueueItem] = field(default_factory=list)
    _topics: dict[str, list[str]] = field(default_factory=dict, repr=False)  # pool name -> its topics
    _claimed: tuple[str, str] | None = field(default=None, repr=False)  # the pair this session holds a lease on
    _renewed: datetime | None = field(default=None, repr=False)
    _cache: _QueueCache | None = field(default=None, repr=False)  # the open topic's queue inputs (see queue_items)
    model_label: ModelLabel | None = None  # the model label shown beside the current pair; None: none shown
    # (model, unit space), the data_version they were read at, and that model's labels of the space
    _model_labels: tuple[tuple[str, str], int, dict[tuple[str, str], ModelLabel]] | None = field(
        default=None, repr=False
    )
    _model_check: bool = field(default=False, repr=False)  # a topic opened: read the labels again if changed
    # the pair whose status was last shown, and the other assessors whose labels that status showed
    _shown: tuple[tuple[str, str], tuple[str, ...] | None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        check_lease(self.lease)
        # the pace carries over from the assessor's earlier sessions: one query, then kept in memory
        self.stats.recent.extend(reversed(self.store.recent_active_ms(self.assessor, PACE_WINDOW)))

    # -- where to start ---------------------------------------------------------

    def start(self, topic_id: str | None = None) -> QueueItem | None:
        """Open the given topic, or the first unfinished one; returns the first pair to judge."""
        self.pool_info = current_pool(self.store, self.pool)
        self.unit = self.pool_info.unit
        if topic_id is None:
            topic_id = self.first_unfinished_topic()
        return self.open_topic(topic_id) if topic_id is not None else self._show(None)

    def topics(self) -> list[str]:
        # Pools are immutable (the store refuses updates and deletes), so a pool's topics are read once:
        # they are found with a skip-scan of the pool's primary key (~60 ms for 5,560 topics).
        name = self.pool_info.name
        if name not in self._topics:
            self._topics[name] = pool_topics(self.store, name)
        return list(self._topics[name])

    def first_unfinished_topic(self, after: str | None = None) -> str | None:
        """The first topic (after `after`, wrapping) with work left in the current pool, whatever its mark.

        A reviewed topic whose pool gained unjudged units is reopened: it is
        opened like any other, not skipped for its old mark. With assignments,
        the assessor's own topics come first, then the unassigned ones.
        """
        topics = current_plan(self.store).order_for(self.assessor, self.topics())
        if after in topics:
            index = topics.index(after) + 1
            topics = topics[index:] + topics[:index]
        held = 0
        for topic in topics:
            found = self._load_queue(topic)
            held += self.held
            if found:
                return topic
        self.held = held  # nothing free anywhere: how many pairs other assessors hold
        return None

    def open_topic(self, topic_id: str) -> QueueItem | None:
        name = self.pool_info.name
        # a topic asked for by name: one seek, not the pool's whole topic list (make_app with --topic)
        known = self._topics.get(name)
        if not (topic_id in known if known is not None else self.store.pool_has_topic(name, topic_id)):
            require_topic(self.store, topic_id)
            raise LabelerError(f"topic {topic_id!r} has nothing in pool {self.pool_info.name}")
        self.topic_id = topic_id
        self._model_check = True  # a topic opened: the model's labels are read again if the workbench changed
        self._load_queue(topic_id)
        return self._show(self._queue[0] if self._queue else None)

    def set_order(self, order: str, seed: int | None = None) -> QueueItem | None:
        self.order = order
        if seed is not None:
            self.seed = seed
        return self.open_topic(self.topic_id) if self.topic_id else None

    # -- decisions --------------------------------------------------------------

    def judge(self, grade: int) -> Event:
        """Commit a grade for the current pair, then move to the next one."""
        event = self._decide(GRADE, grade=grade)
        self.stats.timed(event.active_ms)
        return event

    def skip(self) -> Event:
        return self._decide(SKIP)

    def unsure(self, reason: str) -> Event:
        return self._decide(UNSURE, reason=reason)

    def _decide(self, kind: str, **fields) -> Event:
        """Record a decision and claim the next pair in one write transaction (one commit per key).

        The move to the next pair runs in a savepoint: whatever goes wrong there is rolled back
        alone and raised after the decision is committed, so a decision entered is never lost to it.
        """
        failure: Exception | None = None
        try:
            with self.store.transaction():
                event = self._record(kind, **fields)
                try:
                    with self.store.transaction():
                        self.advance()
                except Exception as error:  # re-raised below, once the decision is committed
                    failure = error
        except BaseException:
            self._cache = None  # the commit failed: the kept states may hold what was rolled back
            raise
        if failure is not None:
            raise failure
        return event

    def flag(self, reason: str | None = None) -> Event:
        """Flag the pair for review; the assessor stays on it and can still grade it."""
        return self._record(FLAG, reason=reason, keep_clock=True)

    def note(self, text: str) -> Event:
        return self._record(NOTE, note=text, keep_clock=True)

    def undo(self) -> Event:
        """Retract the assessor's last decision and reopen that pair."""
        with self._own_write() as pairs:
            event = undo(self.store, self.assessor)
            if event.unit_id is not None:
                pairs.append((event.topic_id, event.unit_id))
        if event.kind == GRADE and self.stats.judgments:
            self.stats.judgments -= 1
            if event.active_ms and self.stats.recent and self.stats.recent[-1] == event.active_ms:
                self.stats.recent.pop()
        if event.unit_id is not None:  # every undoable decision is on a pair; a topic mark is not undone here
            self.reopen(event.topic_id, event.unit_id)
        return event

    def mark_topic(self, status: str) -> QueueItem | None:
        """Mark the topic reviewed or no_answer and move to the next unfinished topic."""
        if self.topic_id is None:
            raise LabelerError("no topic is open to mark")
        mark_topic(self.store, self.topic_id, status, assessor=self.assessor, unit=self.unit)
        self._cache = None  # not a pair event; read the next topic's queue afresh
        following = self.first_unfinished_topic(after=self.topic_id)
        if following is None:
            return self._show(None)
        return self.open_topic(following)

    # -- moving around ----------------------------------------------------------

    def advance(self) -> QueueItem | None:
        """The next pair of this topic's queue (the queue is recomputed: MTF learns from each judgment)."""
        self._load_queue(self.topic_id)
        return self._show(self._queue[0] if self._queue else None)

    def next_pair(self) -> QueueItem | None:
        """Move past the current pair without a decision (it stays in the queue, and is released)."""
        if self.current is not None:
            self._load_queue(self.topic_id)  # pairs whose lease ended are back, pairs others took are out
        if not self._queue or self.current is None:
            return self.current
        units = [item.unit_id for item in self._queue]
        index = units.index(self.current.unit_id) + 1 if self.current.unit_id in units else 0
        return self._show(self._queue[index % len(self._queue)])

    def previous_pair(self) -> QueueItem | None:
        """Back exactly one position in the order the pairs were shown (judged or not), to look again or re-judge.

        `visited` is left as it is while going back: moving a pair to its end (as showing it
        once did) made a second step back return to the pair just left.
        """
        if self.current is None:
            if self.visited:
                self._back = len(self.visited) - 1
                return self._reopen(*self.visited[-1], remember=False)
            return None
        here = self._back if self._back is not None else len(self.visited) - 1
        if here <= 0:
            return self.current
        self._back = here - 1
        return self._reopen(*self.visited[self._back], remember=False)

    def reopen(self, topic_id: str, unit_id: str) -> QueueItem | None:
        """Show a particular pair (from history or undo), even if it is judged."""
        return self._reopen(topic_id, unit_id)

    def _reopen(self, topic_id: str, unit_id: str, *, remember: bool = True) -> QueueItem | None:
        if topic_id != self.topic_id:
            self.topic_id = topic_id
        self._load_queue(topic_id)
        if (topic_id, unit_id) in held_by_others(self.store, self.unit, self.assessor, self.now(), topic_id):
            self.notice = f"{unit_id} is held by another assessor: it is not shown."
            return self._show(self._queue[0] if self._queue else None)
        for item in self._queue:
            if item.unit_id == unit_id:
                return self._show(item, remember=remember)
        entries = self.store.pool_entries(self.pool_info.name, topic_id).get(topic_id, {})
        entry = entries.get(unit_id)
        item = QueueItem(
            topic_id,
            unit_id,
            self.unit,
            self.pool_info.name,
            0,
            False,
            entry.best_rank if entry else 0,
            entry.contributors if entry else (),
        )
        return self._show(item, remember=remember)

    # -- claims --------------------------------------------------------------------

    def keep_claim(self, *, force: bool = False) -> bool:
        """Renew the lease on the pair shown (at most every `renew_every`, unless `force`).

        False when the lease was lost (it ended and another assessor took the pair): the
        session has then moved to the next free pair and says so in `notice`.
        """
        if self.current is None or self._claimed is None:
            return True
        moment = self.now()
        if not force and self._renewed is not None and moment - self._renewed < self.renew_every:
            return True
        topic_id, unit_id = self._claimed
        try:
            with self._own_write():
                renewed = claim_pair(
                    self.store, self.assessor, topic_id, unit_id, lease=self.lease, unit=self.unit, now=moment
                )
        except WorkbenchWriteError:
            return True  # cannot be written now; the next renewal tries again
        if renewed is not None:
            self._renewed = moment
            return True
        self._claimed = None
        self.notice = f"Your lease on {unit_id} ended and another assessor has it now: moved on."
        self.advance()
        return False

    @property
    def renew_every(self) -> timedelta:
        """Keys renew the lease at most this often (a write per key would cost the judging latency)."""
        return min(self.lease / 6, timedelta(seconds=30))

    def close(self) -> None:
        """Quitting: let the pair shown go, undecided."""
        self._release()

    def _release(self) -> None:
        if self._claimed is not None:
            from labeler.workbench.claims import release

            pair, self._claimed = self._claimed, None
            try:
                with self._own_write():
                    release(self.store, self.assessor, *pair, unit=self.unit)
            except WorkbenchWriteError:
                pass  # cannot be written now: the lease ends by itself

    def _claim(self, item: QueueItem) -> bool:
        """Claim the pair about to be shown; False when another assessor took it since the queue was read."""
        pair = (item.topic_id, item.unit_id)
        if self._claimed is not None and self._claimed != pair:
            self._release()  # moving on leaves the previous pair undecided: free for the others
        moment = self.now()
        try:
            with self._own_write():
                claimed = claim_pair(self.store, self.assessor, *pair, lease=self.lease, unit=item.unit, now=moment)
            if claimed is None:
                return False
        except WorkbenchWriteError:
            return True  # a read-only or full workbench: shown unclaimed; the judgment's write will say why
        self._claimed, self._renewed = pair, moment
        return True

    # -- what the screen shows ----------------------------------------------------

    def pair_status(self) -> str:
        """unjudged, judged by you, judged by others, conflict (or stale): as this assessor may see the pair."""
        if self.current is None:
            return ""
        state = self._seen_state((self.current.topic_id, self.current.unit_id))
        if state.conflict:
            return "conflict"
        if state.judged:
            mine = state.grades.get(self.assessor)
            return f"judged by you ({mine})" if mine is not None and mine >= 0 else f"judged by others ({state.label})"
        if state.stale:
            return "text changed: judge again"
        if self.assessor in state.states:
            return {SKIP: "skipped", UNSURE: "unsure", FLAG: "flagged"}[state.states[self.assessor]]
        return "unjudged"

    def _seen_state(self, pair: tuple[str, str]) -> PairState:
        """A pair's state as this assessor may see it; remembers whose labels it shows."""
        state = pair_state(self.store, self.unit, *pair)
        assignment = current_plan(self.store).topics.get(pair[0])
        self._shown = (pair, shown_others(assignment, pair[1], self.assessor, state))
        return seen_state(assignment, pair[1], self.assessor, state) or state

    def _others_shown(self, pair: tuple[str, str]) -> tuple[str, ...] | None:
        """Whose labels the screen showed with the pair being decided (what the last status shown said)."""
        if self._shown is None or self._shown[0] != pair:
            self._seen_state(pair)
        return self._shown[1] if self._shown is not None else None

    def topic_status(self) -> str:
        """The topic's status in the pool's unit space, as shown: `reopened by P2 (12 unjudged)`."""
        return str(topic_review_state(self.store, self.topic_id, self.unit)) if self.topic_id else ""

    def stop_decision(self) -> StopDecision | None:
        """What the stopping rule says about the open topic now (`labeler.workbench.stopping`); None without one.

        Kept with the topic's queue inputs: loaded from the topic's events once, then only the pairs
        this session wrote are derived again (a topic's sequence grows by one per grade key).
        When the kept queue is not the open topic's or is out of date, it is computed afresh.
        """
        if self.topic_id is None:
            return None
        cache = self._cache
        viewer = (current_plan(self.store).topics.get(self.topic_id), self.assessor)  # blind overlap pairs
        if cache is None or cache.key[0] != self.topic_id or cache.token != self.store.change_token():
            found = TopicFound.load(self.store, self.unit, self.pool_info.name, self.topic_id, viewer)
        else:
            if cache.found is None:
                cache.found = TopicFound.load(self.store, self.unit, self.pool_info.name, self.topic_id, viewer)
            found = cache.found
        return found.decide(self.stop_rule)

    # -- internals ----------------------------------------------------------------

    def _load_queue(self, topic_id: str | None) -> list[QueueItem]:
        if topic_id is None:
            self._queue, self.held = [], 0
        else:
            items = self.queue_items(topic_id)
            held = held_by_others(self.store, self.unit, self.assessor, self.now(), topic_id) if items else set()
            # nothing held by others (the usual case): the queue as it is, positions already 1..n
            self._queue, self.held = free_items(items, held) if held else (items, 0)
        return self._queue

    @property
    def queued(self) -> list[QueueItem]:
        """The units this session shows next on its topic, in order: the queue less the units others hold."""
        return list(self._queue)

    def queue_items(self, topic_id: str) -> list[QueueItem]:
        """`queue(...)` of the topic for this session, from inputs kept in memory between keys.

        They are read again when the topic, pool or assessor changed, or when the workbench
        changed other than by this session's own writes (`Store.change_token`: another
        process's commit, another writer on this connection); the pairs this session wrote
        have their states derived again. The queue is then arranged afresh (MTF learns from
        each judgment), so it is the queue a fresh computation gives.
        """
        check_order(self.order)
        model = self.model if needs_model(self.order) else None  # labels read only for an order that uses them
        key = (topic_id, self.pool_info.name, self.assessor, model)
        token = self.store.change_token()
        cache = self._cache
        if cache is None or cache.key != key or cache.token != token:
            inputs = queue_inputs(self.store, topic_id, assessor=self.assessor, pool=self.pool_info.name, model=model)
            cache = self._cache = _QueueCache(key, inputs, token)
        elif cache.dirty:
            inputs = cache.inputs
            if not inputs.excluded:
                for unit_id in sorted(cache.dirty):
                    state = pair_state(self.store, inputs.info.unit, topic_id, unit_id)
                    inputs.states[unit_id] = seen_state(inputs.assignment, unit_id, self.assessor, state) or state
            cache.dirty.clear()
        return arranged_queue(cache.inputs, assessor=self.assessor, order=self.order, seed=self.seed)

    @contextmanager
    def _own_write(self) -> Iterator[list[tuple[str, str]]]:
        """Around a write of this session's: the kept queue stays valid, with the pairs appended marked to derive again.

        Valid only if nothing else changed the workbench since it was last checked; the token keeps
        the data_version it had (a commit by another connection meanwhile still shows next time).
        """
        cache = self._cache
        valid = cache is not None and cache.token == self.store.change_token()
        pairs: list[tuple[str, str]] = []
        try:
            yield pairs
        finally:
            if cache is not None and valid and cache is self._cache:
                cache.token = (cache.token[0], self.store.change_token()[1])
                cache.dirty.update(unit_id for topic_id, unit_id in pairs if topic_id == cache.key[0])
                if cache.found is not None:
                    cache.found.dirty.update(unit_id for topic_id, unit_id in pairs if topic_id == cache.key[0])
            else:
                self._cache = None

    def _show(self, item: QueueItem | None, *, remember: bool = True) -> QueueItem | None:
        """Make `item` the current pair, claimed for the lease.

        `remember`: add it to `visited` (not when stepping back).
        """
        claimed = item is None
        for _ in range(len(self._queue) + 1):  # another session may take the pair between the read and the claim
            if item is None or (claimed := self._claim(item)):
                break
            self._load_queue(item.topic_id)
            item = self._queue[0] if self._queue else None
        if not claimed:
            item = None  # every pair was taken as it was read: show none rather than one held by another
        if item is None:
            self._release()
        if remember and self._back is not None and self.current is not None:
            # leaving a pair reached by going back: it was shown again, so one step back returns to it
            self._remember((self.current.topic_id, self.current.unit_id))
        self.current = item
        self.clock.restart()
        self.model_label = None
        if item is None:
            self.view = None
            self.position = None
            self._back = None
            return None
        self.model_label = self._model_label(item)
        self.topic_id = item.topic_id
        self.view = unit_text(self.store, item.unit, item.unit_id)
        total = self.store.pool_topic_size(self.pool_info.name, item.topic_id)
        remaining = len(self._queue)
        self.position = Position(total - remaining + 1 if remaining else total, total, remaining)
        if remember:
            self._back = None
            self._remember((item.topic_id, item.unit_id))
        return item

    def _model_label(self, item: QueueItem) -> ModelLabel | None:
        """The label the screen may show for `item`: the set model's, when it labelled the pair; else None.

        The setting is read for every pair shown (one `meta` row). The model's labels of the unit
        space are read once and kept; again when the setting names another model, or when a topic
        opens and another connection changed the workbench since (labels imported meanwhile).
        """
        model = shown_model_name(self.store)
        check, self._model_check = self._model_check, False
        if model is None:
            self._model_labels = None
            return None
        key = (model, item.unit)
        cached = self._model_labels
        if cached is None or cached[0] != key or (check and cached[1] != self.store.change_token()[0]):
            from labeler.workbench.read_labels import model_labels

            version = self.store.change_token()[0]
            cached = self._model_labels = (key, version, model_labels(self.store, model, item.unit))
        return cached[2].get((item.topic_id, item.unit_id))

    def _remember(self, pair: tuple[str, str]) -> None:
        if not self.visited or self.visited[-1] != pair:  # the same pair again (a flag, a reload) is one position
            self.visited.append(pair)

    def _record(
        self,
        kind: str,
        *,
        grade: int | None = None,
        reason: str | None = None,
        note: str | None = None,
        keep_clock: bool = False,
    ) -> Event:
        if self.current is None:
            raise LabelerError("nothing to judge here")
        active_ms: int | None = self.clock.stop()
        if keep_clock:
            active_ms = None
        pair = (self.current.topic_id, self.current.unit_id)
        with self._own_write() as pairs:
            pairs.append(pair)
            event = self._append(pair, kind, grade, reason, note, active_ms)
        if kind in RELEASING and self._claimed == pair:
            self._claimed = None  # the judgment released the claim, in its own transaction
        return event

    def _append(
        self,
        pair: tuple[str, str],
        kind: str,
        grade: int | None,
        reason: str | None,
        note: str | None,
        active_ms: int | None,
    ) -> Event:
        return record_judgment(
            self.store,
            Judgment(
                *pair,
                assessor=self.assessor,
                grade=grade,
                kind=kind,
                unit=self.unit,
                reason=reason,
                note=note,
                active_ms=active_ms,
                order=self.order,
                seed=self.seed if is_seeded(self.order) else None,
                pool=self.pool_info.name,
                allow_unknown=True,
                shown_model=self.model_label.model if self.model_label is not None else None,
                shown_others=self._others_shown(pair),
            ),
        )

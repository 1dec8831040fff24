"""Judging answers: one assessor's queue of nugget assignments or citation-support items, and their decisions.

Two tasks, each a grade event in an answer space (`labeler.answers.spaces`):

- `nuggets`: for every answer of a run to a topic, each of the topic's nuggets the assessor
  has not graded yet (space `nugget:RUN`, item the nugget id; 2 support, 1 partial, 0 not);
- `support`: for every answer, each sentence with a citation (space `support:RUN`, item the
  sentence number counted from 1; 2 full, 1 partial, 0 none of its first cited unit).

The team mechanisms of relevance judging apply unchanged, with the item id in place of the
unit id: the assignment plan deals topics (`labeler.assignment`), its overlap share draws which
items of a topic a second assessor also judges (the plan's own draw of (seed, topic, item id),
so the same item of every run of a topic is an overlap item or none is), a planned overlap item
is blind for each of its judges until both graded it (`seen_state`), a decision records whose
labels were on screen (`shown_others`), and the item shown is claimed for a lease
(`labeler.workbench.claims`) so that two annotators are not given it at once.

Blind to models by default, as relevance judging is: only when the campaign's model setting
(`assign --show-model NAME`) names a model does the session hold that model's labels for the
screen (`model_labels`: its assignment of every nugget of the answer shown, or its support
grade of the sentence shown), and every decision then records the model as `shown_model`
(None when none of its labels was on screen).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from labeler.answers.model import Answer
from labeler.answers.nuggets import Nugget
from labeler.answers.spaces import (
    NUGGET_TASK,
    SUPPORT_TASK,
    TASK_KINDS,
    AnswerSpace,
    answer_space,
    assignment_space,
    sentence_id,
    support_space,
)
from labeler.assignment import Plan, TopicAssignment, seen_state, seen_states, shown_others
from labeler.errors import BadArgumentError, LabelerError, UnknownIdError
from labeler.ids import check_id
from labeler.judgments.log import GRADE, NOTE, SKIP, Event, PairState
from labeler.judgments.model_labels import ModelLabel
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.workbench.answer_labels import answer_item_problem, answer_labels, answer_run_names, nuggets_now
from labeler.workbench.assessors import check_assessor, current_plan
from labeler.workbench.assignments import shown_model_name
from labeler.workbench.claims import DEFAULT_LEASE, check_lease, held_by_others, hold_pair, let_go, utc_now
from labeler.workbench.queue import waiting_in_plan
from labeler.workbench.read_labels import model_labels
from labeler.workbench.reading import UnitText, unit_text
from labeler.workbench.record_judgments import undo
from labeler.workbench.setup import now as log_time

TASKS = tuple(TASK_KINDS)
"""What is judged of answers: nugget assignments, or citation support."""

_RENEW_EVERY = timedelta(seconds=30)

ANSWER_DECISIONS = (GRADE, SKIP, NOTE)
"""The decisions an answer judging screen records."""


def check_task(task: str) -> str:
    if task not in TASKS:
        raise BadArgumentError(f"answers are judged for {' or '.join(TASKS)}, not {task!r}", argument="answers")
    return task


def task_space(task: str, run: str) -> str:
    """The answer space a task's judgments of `run` go to."""
    return assignment_space(run) if check_task(task) == NUGGET_TASK else support_space(run)


def item_ids(task: str, answer: Answer, nuggets: Sequence[Nugget]) -> list[str]:
    """The items of one answer: the topic's nuggets (vital first), or its sentences with a citation."""
    if task == NUGGET_TASK:
        return [nugget.nugget_id for nugget in nuggets]
    return [sentence_id(n) for n, sentence in enumerate(answer.sentences, 1) if sentence.first_citation is not None]


@dataclass(frozen=True)
class AnswerItem:
    """One item waiting for the assessor's grade: (run, topic, item id) in its answer space."""

    task: str
    run: str
    topic_id: str
    item_id: str
    overlap: bool  # a planned overlap item: its other judge grades it too
    later: bool = False  # skipped by this assessor: shown after the rest

    @property
    def space(self) -> str:
        return task_space(self.task, self.run)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.space, self.topic_id, self.item_id


@dataclass
class _TopicView:
    """What one topic's items are read from, for one assessor."""

    assignment: TopicAssignment | None
    nuggets: list[Nugget]


def answer_queue(
    store: Store,
    assessor: str,
    task: str,
    *,
    runs: Sequence[str] | None = None,
    topic: str | None = None,
    now: datetime | None = None,
) -> list[AnswerItem]:
    """The items the assessor is to judge, in order: topic (theirs first), run, item; skipped ones last.

    Items other assessors hold a lease on are left out (a planned overlap item is held by both
    its judges at once).
    """
    check_task(task)
    plan = current_plan(store)
    items: list[AnswerItem] = []
    for topic_id, topic_runs in _answered(store, answer_run_names(store, runs), topic, plan, assessor):
        view = _TopicView(plan.topics.get(topic_id), nuggets_now(store, topic_id) if task == NUGGET_TASK else [])
        for run in topic_runs:
            items.extend(_answer_items(store, plan, assessor, task, run, topic_id, view, now))
    return [item for item in items if not item.later] + [item for item in items if item.later]


def _answered(
    store: Store, runs: list[str], topic: str | None, plan: Plan, assessor: str
) -> list[tuple[str, list[str]]]:
    """`(topic, the runs judged that answer it)`, topics in the order the plan gives the assessor (or the one asked)."""
    by_topic = {t: [r for r in runs if r in answered] for t, answered in store.answer_topics().items()}
    topics = sorted((t for t, rs in by_topic.items() if rs and topic in (None, t)), key=topic_sort_key)
    return [(t, by_topic[t]) for t in plan.order_for(assessor, topics)]


def _answer_items(
    store: Store,
    plan: Plan,
    assessor: str,
    task: str,
    run: str,
    topic_id: str,
    view: _TopicView,
    now: datetime | None,
) -> list[AnswerItem]:
    answer = store.answer(run, topic_id)
    if answer is None:
        return []
    space = task_space(task, run)
    states = seen_states(plan, assessor, answer_labels(store, space, topic_id), topic_id)
    held = held_by_others(store, space, assessor, now, topic_id)
    found = []
    for item_id in item_ids(task, answer, view.nuggets):
        if (topic_id, item_id) in held or not waiting_in_plan(view.assignment, assessor, item_id, states):
            continue
        state = states.get(item_id)
        later = state is not None and state.states.get(assessor) == SKIP
        overlap = view.assignment is not None and view.assignment.is_overlap(item_id)
        found.append(AnswerItem(task, run, topic_id, item_id, overlap, later))
    return found


# -- recording ----------------------------------------------------------------------


@dataclass(frozen=True)
class AnswerJudgment:
    """One decision about an answer item: a grade (on the space's labels), a skip, or a note.

    `shown_others` (a planned overlap item): the other assessors whose labels were on screen
    (empty: judged blind), None off an overlap item, as a relevance judgment records it;
    `shown_model` the model whose labels were on screen (None: none was).
    """

    space: str
    topic_id: str
    item_id: str
    assessor: str
    kind: str = GRADE
    grade: int | None = None
    note: str | None = None
    active_ms: int | None = None
    shown_others: tuple[str, ...] | None = None
    shown_model: str | None = None


def _checked_space(judgment: AnswerJudgment) -> AnswerSpace:
    parsed = answer_space(judgment.space)
    if parsed is None:
        raise BadArgumentError(f"{judgment.space!r} is not an answer space", argument="unit")
    if judgment.kind not in ANSWER_DECISIONS:
        raise BadArgumentError(f"an answer judgment is a grade, skip or note, not {judgment.kind!r}", argument="kind")
    if judgment.kind == GRADE and judgment.grade not in parsed.labels:
        names = ", ".join(f"{grade} {name}" for grade, name in parsed.labels.items())
        raise BadArgumentError(f"a grade in {parsed} is one of {names}, not {judgment.grade}", argument="grade")
    if judgment.kind == NOTE and not (judgment.note or "").strip():
        raise BadArgumentError("a note holds some text", argument="note")
    if judgment.shown_model is not None:
        check_id(judgment.shown_model, "shown model")
    return parsed


def _check_item(store: Store, parsed: AnswerSpace, topic_id: str, item_id: str) -> None:
    """Refuse an item the answer does not have: a nugget not of the topic, or a sentence without a citation."""
    problem = answer_item_problem(store, str(parsed), topic_id, item_id)
    if problem is not None:
        raise UnknownIdError(problem)


def record_answer_judgment(store: Store, judgment: AnswerJudgment) -> Event:
    """Append one decision about an answer item (checked first); a grade or skip ends the assessor's lease on it."""
    parsed = _checked_space(judgment)
    topic_id = check_id(judgment.topic_id, "topic id")
    item_id = check_id(judgment.item_id, "unit id")
    assessor = check_assessor(store, judgment.assessor)
    store.answer_run(parsed.run)  # an unknown run is refused by name
    _check_item(store, parsed, topic_id, item_id)
    event = Event(
        "",
        0,
        topic_id,
        item_id,
        judgment.kind,
        assessor,
        log_time(),
        grade=judgment.grade if judgment.kind == GRADE else None,
        note=judgment.note if judgment.kind == NOTE else None,
        active_ms=judgment.active_ms,
        unit=judgment.space,
        shown_others=judgment.shown_others,
        shown_model=judgment.shown_model,
    )
    with store.transaction():
        if judgment.kind in (GRADE, SKIP):
            store.delete_claim(judgment.space, topic_id, item_id, assessor)
        return store.append_event(event)


def shown_model_labels(store: Store, space: str, topic_id: str) -> dict[str, ModelLabel]:
    """`item id -> the model's label` of one topic in an answer space that a judging screen may show: none
    unless the campaign's model setting names a model (blind by default, as for relevance)."""
    model = shown_model_name(store)
    if model is None:
        return {}
    return {item: label for (topic, item), label in model_labels(store, model, space).items() if topic == topic_id}


def is_answer_judgment(event: Event) -> bool:
    """An event of a `nugget:RUN` or `support:RUN` space (not a nugget version, not a relevance label)."""
    return answer_space(event.unit) is not None


def undo_answer_judgment(store: Store, assessor: str) -> Event:
    """Retract the assessor's latest answer judgment still in force (a relevance decision is left alone)."""
    return undo(store, assessor, where=is_answer_judgment)


# -- a judging session ----------------------------------------------------------------


@dataclass(frozen=True)
class ItemLabel:
    """An item's label as the assessor may see it now: their own grade, the pair's label, conflict."""

    mine: int | None
    label: int | None
    conflict: bool
    skipped: bool

    def words(self, labels: dict[int, str]) -> str:
        if self.conflict:
            return "conflict"
        if self.mine is not None and self.mine >= 0:
            return f"yours: {labels[self.mine]}"
        if self.label is not None and self.label >= 0:
            return f"others: {labels[self.label]}"
        return "skipped" if self.skipped else "unjudged"


def item_label(state: PairState | None, assessor: str) -> ItemLabel:
    if state is None:
        return ItemLabel(None, None, False, False)
    return ItemLabel(state.grades.get(assessor), state.label, state.conflict, state.states.get(assessor) == SKIP)


@dataclass
class AnswerJudgingSession:
    """One assessor's pass through the answer items of a task; what the answer judging screens drive."""

    store: Store
    assessor: str
    task: str = NUGGET_TASK
    runs: tuple[str, ...] | None = None
    topic: str | None = None
    lease: timedelta = DEFAULT_LEASE
    now: Callable[[], datetime] = utc_now
    current: AnswerItem | None = None
    answer: Answer | None = None
    remaining: int = 0
    notice: str | None = None
    model_labels: dict[str, ModelLabel] = field(default_factory=dict)  # item id -> the shown model's label
    _claimed: tuple[str, str, str] | None = field(default=None, repr=False)
    _shown: tuple[tuple[str, str, str], tuple[str, ...] | None] | None = field(default=None, repr=False)
    _started: datetime | None = field(default=None, repr=False)
    _renewed: datetime | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        check_task(self.task)
        check_lease(self.lease)
        self.assessor = check_assessor(self.store, self.assessor)
        if self.runs is not None:
            self.runs = tuple(answer_run_names(self.store, self.runs))
        if self.topic is not None:
            self.topic = check_id(self.topic, "topic id")
            answered = set(self.store.answer_topics().get(self.topic, ())) & set(
                answer_run_names(self.store, self.runs)
            )
            if not answered:
                raise UnknownIdError(f"no answer run judged here has an answer to topic {self.topic!r}")

    @property
    def labels(self) -> dict[int, str]:
        """The grades of the task and their names, highest first."""
        return self.space.labels

    @property
    def space(self) -> AnswerSpace:
        """The task's kind of answer space (its labels and scale; the run is a stand-in)."""
        space = answer_space(task_space(self.task, "r"))
        assert space is not None
        return space

    # -- moving ------------------------------------------------------------------

    def queue(self) -> list[AnswerItem]:
        return answer_queue(self.store, self.assessor, self.task, runs=self.runs, topic=self.topic, now=self.now())

    def advance(self) -> AnswerItem | None:
        """Show the first item of the queue that is free, claimed for the lease (None: nothing left)."""
        for _ in range(3):  # another annotator may take an item between the read and the claim
            items = self.queue()
            self.remaining = len(items)
            for item in items:
                if self._show(item):
                    return item
            if not items:
                break
        self._show(None)
        return None

    def next_item(self) -> AnswerItem | None:
        """Move past the current item undecided (it stays in the queue, released)."""
        items = self.queue()
        keys = [item.key for item in items]
        if self.current is None or self.current.key not in keys or len(items) < 2:
            return self.advance()
        index = keys.index(self.current.key)
        for item in items[index + 1 :] + items[:index]:
            if self._show(item):
                return item
        # every other item was taken meanwhile, and the current one was let go trying them: hold it again
        return self.current if self._show(self.current) else self.advance()

    def _show(self, item: AnswerItem | None) -> bool:
        if item is None or self._claimed != item.key:
            self._release()
        if item is not None and self._claimed != item.key:
            if hold_pair(self.store, self.assessor, *item.key, lease=self.lease, now=self.now()) is None:
                return False
            self._claimed, self._renewed = item.key, self.now()
        self.current = item
        self.answer = None if item is None else self.store.answer(item.run, item.topic_id)
        self.model_labels = self._model_labels(item)
        self._started = self.now()
        return True

    def _model_labels(self, item: AnswerItem | None) -> dict[str, ModelLabel]:
        """What the screen may show of the set model for `item`: its assignment of each of the topic's nuggets
        (the nugget screen lists them all), or its grade of the sentence judged."""
        if item is None:
            return {}
        labels = shown_model_labels(self.store, item.space, item.topic_id)
        if item.task == NUGGET_TASK:
            return {n.nugget_id: labels[n.nugget_id] for n in self.nuggets() if n.nugget_id in labels}
        return {item.item_id: labels[item.item_id]} if item.item_id in labels else {}

    @property
    def shown_model(self) -> str | None:
        """The model whose labels are on screen for the current item (None: none is, the usual blind case)."""
        return next(iter(self.model_labels.values())).model if self.model_labels else None

    def _release(self) -> None:
        if self._claimed is not None:
            key, self._claimed = self._claimed, None
            let_go(self.store, self.assessor, *key)

    def keep_claim(self, *, force: bool = False) -> bool:
        """Renew the lease on the item shown (at most every sixth of the lease or 30 s, unless `force`);
        False (and moved on) when the lease ended and another annotator has the item now."""
        if self.current is None or self._claimed is None:
            return True
        moment = self.now()
        if not force and self._renewed is not None and moment - self._renewed < min(self.lease / 6, _RENEW_EVERY):
            return True
        if hold_pair(self.store, self.assessor, *self._claimed, lease=self.lease, now=moment) is not None:
            self._renewed = moment
            return True
        self._claimed = None
        self.notice = f"Your lease on {self.current.item_id} ended and another assessor has it now: moved on."
        self.advance()
        return False

    def close(self) -> None:
        """Quitting: let the item shown go, undecided."""
        self._release()

    # -- deciding --------------------------------------------------------------------

    def judge(self, grade: int) -> Event:
        return self._decide(GRADE, grade=grade)

    def skip(self) -> Event:
        return self._decide(SKIP)

    def note(self, text: str) -> Event:
        return self._record(NOTE, note=text)

    def undo(self) -> Event:
        """Retract the assessor's last answer judgment and show that item again."""
        event = undo_answer_judgment(self.store, self.assessor)
        parsed = answer_space(event.unit)
        if parsed is not None and event.unit_id is not None:
            task = NUGGET_TASK if parsed.kind == "nugget" else SUPPORT_TASK
            assignment = current_plan(self.store).topics.get(event.topic_id)
            overlap = assignment is not None and assignment.is_overlap(event.unit_id)
            if task == self.task and not self._show(
                AnswerItem(task, parsed.run, event.topic_id, event.unit_id, overlap)
            ):
                self.advance()  # another assessor holds the item undone: show the next one, never an unheld one
            self.remaining = len(self.queue())
        return event

    def _decide(self, kind: str, grade: int | None = None) -> Event:
        event = self._record(kind, grade=grade)
        self._claimed = None  # the decision released the claim, in its own transaction
        self.advance()
        return event

    def _record(self, kind: str, *, grade: int | None = None, note: str | None = None) -> Event:
        item = self.current
        if item is None:
            raise LabelerError("nothing to judge here")
        active_ms = None
        if kind == GRADE and self._started is not None:
            active_ms = max(0, int((self.now() - self._started).total_seconds() * 1000))
        judgment = AnswerJudgment(
            item.space,
            item.topic_id,
            item.item_id,
            self.assessor,
            kind=kind,
            grade=grade,
            note=note,
            active_ms=active_ms,
            shown_others=self._others_shown(item),
            shown_model=self.shown_model,
        )
        return record_answer_judgment(self.store, judgment)

    # -- what the screens show --------------------------------------------------------

    def _seen(self, space: str, topic_id: str) -> dict[str, PairState]:
        return seen_states(
            current_plan(self.store), self.assessor, answer_labels(self.store, space, topic_id), topic_id
        )

    def item_labels(self) -> dict[str, ItemLabel]:
        """Every item of the current answer with a label or a decision, as the assessor may see it."""
        item = self.current
        if item is None:
            return {}
        return {i: item_label(state, self.assessor) for i, state in self._seen(item.space, item.topic_id).items()}

    def nuggets(self) -> list[Nugget]:
        """The current topic's nuggets, vital first."""
        return nuggets_now(self.store, self.current.topic_id) if self.current is not None else []

    def item_status(self) -> str:
        """The current item's status as the assessor may see it; remembers whose labels that shows."""
        item = self.current
        if item is None:
            return ""
        state = answer_labels(self.store, item.space, item.topic_id).get(item.item_id)
        assignment = current_plan(self.store).topics.get(item.topic_id)
        self._shown = (item.key, shown_others(assignment, item.item_id, self.assessor, state))
        return item_label(seen_state(assignment, item.item_id, self.assessor, state), self.assessor).words(self.labels)

    def _others_shown(self, item: AnswerItem) -> tuple[str, ...] | None:
        if self._shown is None or self._shown[0] != item.key:
            self.item_status()
        return self._shown[1] if self._shown is not None else None

    def cited_text(self, unit_id: str) -> UnitText:
        """The text of a unit the answer cites, in the space the run's citations are units of."""
        run = self.current.run if self.current is not None else None
        space = self.store.answer_run(run).unit if run is not None else "doc"
        return unit_text(self.store, space, unit_id)

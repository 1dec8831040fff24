"""Models on RAG answers: a judge drafts a topic's nuggets, or assigns the nuggets to a run's answers.

Both go into the log as a model's (`source` `model`, the model's name as assessor and model),
as `labeler prelabel`'s labels do, and are kept apart from people's the same way:

- a draft is a `nuggets` version whose origin is `drafted`; `fold_nuggets` never counts a
  model's versions as the topic's nuggets, so a draft becomes one only when a person
  post-edits it (a version of their own, origin `edited`, naming the draft);
- an assignment is a model's grade in the run's `nugget:RUN` space: `effective_events` keeps it
  out of people's labels (agreement, conflicts, scores); the judging screen shows it only
  when the campaign's model setting names the model (`shown_assignments`), as for relevance.

Resumable: topics the model already drafted and nuggets it already assigned are skipped, and each
batch is written in its own transaction. The judge's answers are checked as they come, as
`prelabel` checks its labels; a bad answer names the judge (or command and batch) and the line.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from labeler.answers.model import Answer
from labeler.answers.nuggets import CREATE, DRAFTED, IMPORTANCE, Nugget, NuggetVersion, new_nugget_id, version_problem
from labeler.answers.spaces import ASSIGNMENT_GRADES, assignment_space
from labeler.errors import BadArgumentError, Hint, LabelerError
from labeler.formats.fields import json_object
from labeler.ids import check_name
from labeler.json_form import JsonResult
from labeler.judges.base import ASSIGN, DRAFT, AssignRequest, DraftRequest, NuggetText, UnitText
from labeler.judges.command import CommandJudge
from labeler.judges.registry import ChosenJudge, make_judge
from labeler.judgments.log import GRADE, MODEL, Event
from labeler.judgments.model_labels import ModelLabel
from labeler.models import Topic, topic_sort_key
from labeler.store import Store
from labeler.workbench.answer_judging import shown_model_labels
from labeler.workbench.answer_labels import NuggetChange, answer_run_names, nuggets_now, record_nugget_changes
from labeler.workbench.prelabel import JudgeAnswerError, judged_text
from labeler.workbench.read_labels import current_labels, model_labels, unit_space
from labeler.workbench.setup import now

DEFAULT_BATCH = 10
"""Topics (drafts) or answers (assignments) per judge call, and per transaction."""


@dataclass(frozen=True)
class DraftResult(JsonResult):
    """`draft_nuggets`' result: the topics asked, the drafts logged, and the topics left out and why."""

    judge: str
    model: str
    unit: str
    topics: int  # topics asked now
    drafted: int  # draft nuggets logged now
    already_drafted: tuple[str, ...]  # topics the model had drafted before: skipped (resumable)
    without_relevant: tuple[str, ...]  # topics asked for with no relevant unit: nothing to draft from
    batches: int


@dataclass(frozen=True)
class AssignResult(JsonResult):
    """`assign_nuggets`' result: the runs and answers asked, the assignments logged, what was left out."""

    judge: str
    model: str
    runs: tuple[str, ...]
    answers: int  # answers asked now
    assigned: int  # model assignments logged now
    already_assigned: int  # (answer, nugget) items the model had assigned before: skipped (resumable)
    without_nuggets: tuple[str, ...]  # topics with answers but no nugget of people's: nothing to assign
    batches: int


def _chosen(judge: str, model_name: str | None, task: str) -> tuple[ChosenJudge, str]:
    """The judge, once it can do `task`, and the model name its work is logged under."""
    chosen = make_judge(judge)
    if not chosen.is_command and not callable(getattr(chosen.judge, task, None)):
        raise BadArgumentError(
            f"judge {chosen.name!r} cannot {task} nuggets (it has no {task}() method)", argument="judge"
        )
    return chosen, check_name(model_name if model_name is not None else chosen.model, "model name", "model")


def _checked_batch(batch: int) -> None:
    if batch < 1:
        raise BadArgumentError(f"the batch size must be 1 or more, found {batch}", argument="batch")


def _topic(store: Store, topic_id: str, fallback: str = "") -> Topic:
    return store.topic(topic_id) or Topic(topic_id, fallback)


def _answered(chosen: ChosenJudge, task: str, requests: Sequence[JsonResult], take: Callable[..., None]) -> None:
    """Ask the judge one batch; `take(number, row, where)` checks and keeps each answer as it comes."""
    judge = chosen.judge
    if isinstance(judge, CommandJudge):
        with contextlib.closing(judge.exchange(requests)) as lines:  # the first bad answer stops the program
            where = judge.answer_source()
            for number, text in lines:
                take(number, json_object(text, path=where, line=number, error=JudgeAnswerError), where)
        return
    where = f"judge {chosen.name!r}"
    try:
        rows = list(enumerate(getattr(judge, task)(requests), 1))
    except LabelerError:
        raise
    except Exception as exc:  # a plug-in can fail in any way: say which one
        raise LabelerError(f"judge {chosen.name!r} failed: {exc}") from None
    for number, row in rows:
        take(number, row, where)


def _require_object(row: Any, where: str, number: int) -> None:
    """A judge's answer (or a nugget in one) must be an object: refused otherwise."""
    if not isinstance(row, dict):
        raise JudgeAnswerError(f"expected a JSON object, found {type(row).__name__}", path=where, line=number)


def _field(row: dict[str, Any], key: str, where: str, number: int) -> str:
    value = row.get(key)
    if not isinstance(value, str):
        raise JudgeAnswerError(f"{key!r} is missing or not text", path=where, line=number)
    return value


# -- drafts ---------------------------------------------------------------------------------------------------------


def relevant_units(store: Store, space: str) -> dict[str, list[str]]:
    """`topic -> its relevant units` now (people's labels at or above the scale's threshold), in id order."""
    threshold = store.scale().threshold
    found: dict[str, list[str]] = {}
    for (topic_id, unit_id), state in sorted(current_labels(store, space).items()):
        if state.label is not None and not state.conflict and state.label >= threshold:
            found.setdefault(topic_id, []).append(unit_id)
    return found


def draft_nuggets(
    store: Store,
    judge: str,
    *,
    topics: Sequence[str] | None = None,
    unit: str | None = None,
    model_name: str | None = None,
    batch: int = DEFAULT_BATCH,
) -> DraftResult:
    """Have `judge` draft nuggets for topics from their relevant units' texts; log them as the model's drafts."""
    _checked_batch(batch)
    chosen, model = _chosen(judge, model_name, DRAFT)
    space = unit_space(store, unit)
    relevant = relevant_units(store, space)
    wanted = _draft_topics(store, topics, relevant)
    done = {n.topic_id for n in nuggets_now(store, model=model, include_deleted=True)}
    todo, already, without = _sorted_topics(wanted, relevant, done)
    drafted, batches = _draft_batches(store, chosen, model, space, [(t, relevant[t]) for t in todo], batch)
    return DraftResult(
        judge=chosen.name,
        model=model,
        unit=space,
        topics=len(todo),
        drafted=drafted,
        already_drafted=already,
        without_relevant=without,
        batches=batches,
    )


def _sorted_topics(
    wanted: list[str], relevant: dict[str, list[str]], done: set[str]
) -> tuple[list[str], tuple[str, ...], tuple[str, ...]]:
    """The topics to draft, those the model drafted before, and those without a relevant unit."""
    todo: list[str] = []
    already: list[str] = []
    without: list[str] = []
    for topic in wanted:
        (without if topic not in relevant else already if topic in done else todo).append(topic)
    return todo, tuple(already), tuple(without)


def _draft_batches(
    store: Store, chosen: ChosenJudge, model: str, space: str, todo: list[tuple[str, list[str]]], batch: int
) -> tuple[int, int]:
    """Ask the judge for the topics' drafts a batch at a time, each batch logged in one transaction; how many
    drafts were logged, in how many batches."""
    drafted = batches = 0
    for start in range(0, len(todo), batch):
        requests = [_draft_request(store, space, t, units) for t, units in todo[start : start + batch]]
        drafts = _Drafts({r.topic: r for r in requests})
        _answered(chosen, DRAFT, requests, drafts.take)
        changes = drafts.changes(model, f"judge {chosen.name!r}")
        record_nugget_changes(store, changes)
        drafted += len(changes)
        batches += 1
    return drafted, batches


def _draft_topics(store: Store, topics: Sequence[str] | None, relevant: dict[str, list[str]]) -> list[str]:
    """The topics asked for (each one the workbench holds), else every topic with a relevant unit."""
    if not topics:
        return sorted(relevant, key=topic_sort_key)
    known = store.topic_ids()
    unknown = [t for t in topics if t not in known]
    if unknown:
        raise BadArgumentError(f"unknown topic {unknown[0]!r}", argument="topics", hints=Hint("list_topics"))
    return list(dict.fromkeys(topics))


def _draft_request(store: Store, space: str, topic_id: str, units: Sequence[str]) -> DraftRequest:
    topic = _topic(store, topic_id)
    texts = tuple(UnitText(unit_id, judged_text(store, space, unit_id)) for unit_id in units)
    return DraftRequest(DRAFT, topic_id, topic.title, topic.description, topic.narrative, texts)


@dataclass
class _Drafts:
    """A batch's draft answers, checked as they come: one per topic asked, each nugget a sound version."""

    asked: dict[str, DraftRequest]
    versions: dict[str, list[NuggetVersion]] = field(default_factory=dict)

    def take(self, number: int, row: Any, where: str) -> None:
        _require_object(row, where, number)
        topic = _field(row, "topic", where, number)
        if topic not in self.asked:
            raise JudgeAnswerError(f"answers topic {topic}, which was not asked", path=where, line=number)
        if topic in self.versions:
            raise JudgeAnswerError(f"answers topic {topic} twice", path=where, line=number)
        nuggets = row.get("nuggets")
        if not isinstance(nuggets, list):
            raise JudgeAnswerError("'nuggets' is missing or not a list", path=where, line=number)
        units = {u.unit for u in self.asked[topic].units}
        self.versions[topic] = [
            self._version(nugget, rank, units, where, number) for rank, nugget in enumerate(nuggets, start=1)
        ]

    @staticmethod
    def _version(nugget: Any, rank: int, units: set[str], where: str, number: int) -> NuggetVersion:
        _require_object(nugget, where, number)
        sources = nugget.get("sources", [])
        if not isinstance(sources, list) or not all(isinstance(s, str) and s in units for s in sources):
            raise JudgeAnswerError(f"nugget {rank}'s 'sources' are not units it was given", path=where, line=number)
        importance = nugget.get("importance")
        if importance not in IMPORTANCE:
            raise JudgeAnswerError(f"nugget {rank}'s importance must be 'vital' or 'okay'", path=where, line=number)
        text = " ".join(_field(nugget, "text", where, number).split())
        version = NuggetVersion(CREATE, text, str(importance), rank, DRAFTED, tuple(dict.fromkeys(sources)))
        problem = version_problem(version)
        if problem is not None:
            raise JudgeAnswerError(f"nugget {rank}: {problem}", path=where, line=number)
        return version

    def changes(self, model: str, where: str) -> list[NuggetChange]:
        """The drafts to log, once every topic asked has its answer."""
        missing = [t for t in self.asked if t not in self.versions]
        if missing:
            raise JudgeAnswerError(f"no answer for topic {missing[0]}", path=where)
        return [
            NuggetChange(topic, new_nugget_id(), version, model, source=MODEL, model=model)
            for topic, versions in self.versions.items()
            for version in versions
        ]


# -- assignments ----------------------------------------------------------------------------------------------------


def assign_nuggets(
    store: Store,
    judge: str,
    *,
    runs: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
    model_name: str | None = None,
    batch: int = DEFAULT_BATCH,
) -> AssignResult:
    """Have `judge` assign the topics' nuggets (people's) to runs' answers; log its assignments as a model's."""
    _checked_batch(batch)
    chosen, model = _chosen(judge, model_name, ASSIGN)
    chosen_runs = answer_run_names(store, runs)
    nuggets: dict[str, list[Nugget]] = {}
    without: set[str] = set()
    asked = assigned = already = batches = 0
    for run in chosen_runs:
        space = assignment_space(run)
        done = set(model_labels(store, model, space))
        todo = []
        for answer in store.answers(run, list(topics) if topics else None):
            if answer.topic_id not in nuggets:
                nuggets[answer.topic_id] = nuggets_now(store, answer.topic_id)
            open_ = [n for n in nuggets[answer.topic_id] if (answer.topic_id, n.nugget_id) not in done]
            already += len(nuggets[answer.topic_id]) - len(open_)
            if not nuggets[answer.topic_id]:
                without.add(answer.topic_id)
            elif open_:
                todo.append(_assign_request(store, answer, open_))
        for start in range(0, len(todo), batch):
            requests = todo[start : start + batch]
            assigned += _assign_batch(store, chosen, model, space, requests)
            asked += len(requests)
            batches += 1
    return AssignResult(
        judge=chosen.name,
        model=model,
        runs=tuple(chosen_runs),
        answers=asked,
        assigned=assigned,
        already_assigned=already,
        without_nuggets=tuple(sorted(without, key=topic_sort_key)),
        batches=batches,
    )


def _assign_request(store: Store, answer: Answer, nuggets: Iterable[Nugget]) -> AssignRequest:
    topic = _topic(store, answer.topic_id, answer.topic_text or "")
    listed = tuple(NuggetText(n.nugget_id, n.text, n.importance) for n in nuggets)
    return AssignRequest(
        ASSIGN, answer.topic_id, topic.title, topic.description, topic.narrative, answer.run, answer.text, listed
    )


def _assign_batch(store: Store, chosen: ChosenJudge, model: str, space: str, requests: list[AssignRequest]) -> int:
    """Ask the judge one batch of answers and log its assignments in one transaction; how many."""
    asked = {(r.topic, n.nugget) for r in requests for n in r.nuggets}
    grades: dict[tuple[str, str], int] = {}

    def take(number: int, row: Any, where: str) -> None:
        _require_object(row, where, number)
        item = (_field(row, "topic", where, number), _field(row, "nugget", where, number))
        name = row.get("assignment")
        if name not in ASSIGNMENT_GRADES:
            choices = ", ".join(ASSIGNMENT_GRADES)
            raise JudgeAnswerError(f"'assignment' must be one of {choices}", path=where, line=number)
        if item not in asked:
            raise JudgeAnswerError(f"assigns topic {item[0]} nugget {item[1]}, not asked", path=where, line=number)
        if item in grades:
            raise JudgeAnswerError(f"assigns topic {item[0]} nugget {item[1]} twice", path=where, line=number)
        grades[item] = ASSIGNMENT_GRADES[str(name)]

    _answered(chosen, ASSIGN, requests, take)
    if len(grades) != len(asked):
        topic, nugget = sorted(asked - set(grades))[0]
        raise JudgeAnswerError(
            f"assigned {len(grades)} of the {len(asked)} nuggets asked; none for topic {topic} nugget {nugget}",
            path=f"judge {chosen.name!r}",
        )
    time = now()
    events = [
        Event("", 0, topic, nugget, GRADE, model, time, grade=grade, source=MODEL, model=model, unit=space)
        for (topic, nugget), grade in grades.items()
    ]
    with store.transaction():
        return store.append_events(events)


def shown_assignments(store: Store, run: str, topic_id: str) -> dict[str, ModelLabel]:
    """`nugget id -> the model's assignment` the judging screen may show for an answer: none unless the
    campaign's model setting names a model (blind by default, as for relevance)."""
    return shown_model_labels(store, assignment_space(run), topic_id)

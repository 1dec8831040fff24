"""Reading and writing what the log holds about answers: nugget versions, nugget assignments, citation support.

The one place the answer spaces of the log (`labeler.answers.spaces`) are read
into nuggets and labels, and nugget versions written; the answer use cases
(import, judging screens, scores, snapshots) go through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from labeler.answers.nuggets import Nugget, NuggetVersion, fold_nuggets, nugget_event, version_problem
from labeler.answers.spaces import NUGGETS, answer_space, sentence_id
from labeler.errors import BadArgumentError, Hint, LabelerError
from labeler.judgments.log import MODEL, SOURCES, Event, PairState
from labeler.store import Store
from labeler.workbench.assessors import check_assessor
from labeler.workbench.read_labels import topic_labels
from labeler.workbench.setup import now


def nuggets_now(
    store: Store, topic_id: str | None = None, *, model: str | None = None, include_deleted: bool = False
) -> list[Nugget]:
    """The nuggets the log holds now (one topic's, or all), people's and imported ones, or one model's drafts."""
    events = store.topic_events(NUGGETS, topic_id) if topic_id is not None else store.unit_events(NUGGETS)
    return fold_nuggets(events, model=model, include_deleted=include_deleted)


def nugget_history(store: Store, topic_id: str, nugget_id: str) -> list[Event]:
    """Every event of one nugget, in local order (its versions, and any retract of one)."""
    return store.pair_events(NUGGETS, topic_id, nugget_id)


def answer_labels(store: Store, space: str, topic_id: str) -> dict[str, PairState]:
    """`item id -> state` of one answer space and topic: nugget id (assignments) or sentence number (support)."""
    if answer_space(space) is None:
        raise BadArgumentError(f"{space!r} is not an answer space", argument="unit")
    return topic_labels(store, space, topic_id)


def answer_item_problem(store: Store, space: str, topic_id: str, item: str) -> str | None:
    """Why `item` is not something to judge in an answer space for a topic, or None.

    The run must have an answer to the topic; in `nugget:RUN` the item is one of the topic's
    nuggets now (people's, not deleted), in `support:RUN` the number of a sentence of the answer that
    cites a unit. Every road that records an answer judgment (the judging screens, `judgments add`,
    `adjudicate`) asks this one rule.
    """
    answer = answer_space(space)
    if answer is None:
        return f"{space!r} is not an answer space"
    found = store.answer(answer.run, topic_id)
    if found is None:
        return f"answer run {answer.run} has no answer to topic {topic_id!r}"
    if answer.kind == "nugget":
        if item not in {n.nugget_id for n in nuggets_now(store, topic_id)}:
            return f"topic {topic_id} has no nugget {item!r}"
        return None
    if item not in {sentence_id(number) for number in range(1, len(found.sentences) + 1)}:
        count = len(found.sentences)
        return f"the answer of run {answer.run} to topic {topic_id} has no sentence {item!r} (it has {count})"
    if found.sentences[int(item) - 1].first_citation is None:  # only a sentence's first citation is judged
        return f"sentence {item} of the answer of run {answer.run} to topic {topic_id} cites nothing to judge"
    return None


def answer_run_names(store: Store, runs: Sequence[str] | None, *, argument: str = "runs") -> list[str]:
    """The answer runs asked for (each one the workbench holds), else every answer run not retired; in import
    order when none are named, each once in the order given otherwise.

    The one rule every use case that takes answer runs follows: a name the workbench does not hold is
    a bad `argument`.
    """
    held = store.answer_runs()
    if not runs:
        return [r.name for r in held if r.retired is None]
    names = {r.name for r in held}
    unknown = [r for r in runs if r not in names]
    if unknown:
        raise BadArgumentError(f"no answer run named {unknown[0]!r}", argument=argument, hints=Hint("list_answer_runs"))
    return list(dict.fromkeys(runs))


@dataclass(frozen=True)
class NuggetChange:
    """One version to log: the nugget it is a version of, and who made it (`source` human, import or model)."""

    topic_id: str
    nugget_id: str
    version: NuggetVersion
    assessor: str
    source: str = "human"
    model: str | None = None


def change_problem(change: NuggetChange) -> str | None:
    """Why a change cannot be logged (its version, source or model), or None."""
    if change.source not in SOURCES:
        return f"source must be one of {', '.join(SOURCES)}, not {change.source!r}"
    if (change.source == MODEL) != (change.model is not None):
        return "a model's nugget names its model, and only a model's does"
    return version_problem(change.version)


def record_nugget_changes(store: Store, changes: Sequence[NuggetChange]) -> list[Event]:
    """Log nugget versions, all in one transaction or none (a bad one refuses them all)."""
    for change in changes:
        problem = change_problem(change)
        if problem is not None:
            raise LabelerError(f"nugget {change.nugget_id} of topic {change.topic_id}: {problem}")
    for assessor in {change.assessor for change in changes}:
        check_assessor(store, assessor)
    time = now()
    events = [
        _with_source(nugget_event(c.topic_id, c.nugget_id, c.version, assessor=c.assessor, time=time), c)
        for c in changes
    ]
    with store.transaction():
        return [store.append_event(event) for event in events]


def _with_source(event: Event, change: NuggetChange) -> Event:
    return replace(event, source=change.source, model=change.model)

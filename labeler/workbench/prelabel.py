"""`labeler prelabel`: a judge labels the pool's pairs that no person has labelled yet, as a model.

The labels go into the log as a model's (`source` `model`, the model's name as assessor and
model), never as people's (`labeler.judgments.log.effective_events`). Resumable: the pairs the
model already labelled are skipped, and each batch is written in its own transaction, so an
interrupted run keeps every finished batch and the next run asks only for the rest.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.errors import BadArgumentError, FormatError, Hint, LabelerError, UnknownIdError
from labeler.formats.fields import json_object
from labeler.formats.model_jsonl import model_answer
from labeler.ids import check_id
from labeler.json_form import JsonResult
from labeler.judges.base import JudgePair
from labeler.judges.command import CommandJudge
from labeler.judges.registry import ChosenJudge, make_judge
from labeler.judgments.log import GRADE, MODEL, Event
from labeler.models import PoolInfo, Topic, topic_sort_key
from labeler.store import Store
from labeler.workbench.read_labels import current_labels, model_labels
from labeler.workbench.reading import unit_text
from labeler.workbench.setup import now
from labeler.workbench.unit_spaces import held_spaces, several_spaces

DEFAULT_BATCH = 50
Progress = Callable[[int, int], None]


class JudgeAnswerError(FormatError):
    """A judge's answer that is not a sound model label, or answers that do not match the pairs asked."""


@dataclass(frozen=True)
class PrelabelResult(JsonResult):
    judge: str
    model: str
    pool: str
    unit: str
    topics: int
    pairs: int  # pairs asked now
    labelled: int  # model labels written now
    already_labelled: int  # pairs the model had labelled before: skipped (resumable)
    human_labelled: int  # pool pairs people have labelled: never asked
    batches: int
    fitted_on: int  # people's labels the judge was fitted on (0: it was not)


def _space_pool(store: Store) -> PoolInfo | None:
    """The latest pool of the space the workbench holds; with several spaces, refused: the pool must be named."""
    held = held_spaces(store)
    if len(held) > 1:
        raise several_spaces(store, held, "to say which pool's pairs to label", argument="pool")
    return store.latest_pool()


def prelabel(
    store: Store,
    judge: str,
    *,
    pool: str | None = None,
    topics: Sequence[str] | None = None,
    model_name: str | None = None,
    batch: int = DEFAULT_BATCH,
    progress: Progress | None = None,
) -> PrelabelResult:
    """Run `judge` over the pool's pairs without a person's label and record its answers as model labels."""
    if batch < 1:
        raise BadArgumentError(f"the batch size must be 1 or more, found {batch}", argument="batch")
    chosen = make_judge(judge)
    model = check_id(model_name if model_name is not None else chosen.model, "model name")
    info = store.pool(pool) if pool is not None else _space_pool(store)
    if info is None:
        raise LabelerError("no pool to prelabel: build one first", hints=Hint("build_pool"))
    space = info.unit
    chosen_topics = _topics(store, info.name, topics)
    labels = current_labels(store, space)
    done = model_labels(store, model, space)
    todo: list[tuple[Topic, str]] = []
    human = already = 0
    for topic in chosen_topics:
        for unit_id in sorted(store.pool_topic_units(info.name, topic.topic_id)):
            state = labels.get((topic.topic_id, unit_id))
            if state is not None and state.judged:
                human += 1
            elif (topic.topic_id, unit_id) in done:
                already += 1
            else:
                todo.append((topic, unit_id))
    fitted_on = _fit(store, chosen, space, chosen_topics, labels) if todo else 0
    scale = store.scale()
    written = batches = 0
    if progress is not None:
        progress(0, len(todo))
    for start in range(0, len(todo), batch):
        pairs = [_pair(store, space, topic, unit_id) for topic, unit_id in todo[start : start + batch]]
        answers = _answers(chosen, pairs, scale.values, scale.name)
        time = now()
        events = [
            Event(
                "",
                0,
                a.topic,
                a.unit,
                GRADE,
                model,
                time,
                grade=a.grade,
                source=MODEL,
                model=model,
                unit=space,
                probs=a.probs,
            )
            for a in answers
        ]
        with store.transaction():
            written += store.append_events(events)
        batches += 1
        if progress is not None:
            progress(min(start + batch, len(todo)), len(todo))
    return PrelabelResult(
        judge=chosen.name,
        model=model,
        pool=info.name,
        unit=space,
        topics=len(chosen_topics),
        pairs=len(todo),
        labelled=written,
        already_labelled=already,
        human_labelled=human,
        batches=batches,
        fitted_on=fitted_on,
    )


def _topics(store: Store, pool: str, wanted: Sequence[str] | None) -> list[Topic]:
    ids = store.pool_topic_ids(pool)
    if wanted:
        unknown = [t for t in wanted if t not in set(ids)]
        if unknown:
            raise UnknownIdError(f"topic(s) {', '.join(unknown)} not in pool {pool!r}", hints=Hint("list_topics"))
        ids = list(dict.fromkeys(wanted))
    found = []
    for topic_id in sorted(ids, key=topic_sort_key):
        topic = store.topic(topic_id)
        found.append(topic if topic is not None else Topic(topic_id, ""))
    return found


def judged_text(store: Store, space: str, unit_id: str) -> str:
    """The text a judge is given for a unit: what an assessor reads (the chunk's span), its title first."""
    shown = unit_text(store, space, unit_id)
    text = shown.text
    if shown.span is not None:
        text = text[shown.span[0] : shown.span[1]]
    if shown.title:
        text = f"{shown.title}\n\n{text}"
    return text


def _pair(store: Store, space: str, topic: Topic, unit_id: str) -> JudgePair:
    text = judged_text(store, space, unit_id)
    return JudgePair(topic.topic_id, unit_id, space, topic.title, topic.description, topic.narrative, text)


def _fit(store: Store, chosen: ChosenJudge, space: str, topics: Iterable[Topic], labels: dict[Any, Any]) -> int:
    """Give a judge that can fit itself the pairs of the chosen topics people labelled; how many."""
    fit = getattr(chosen.judge, "fit", None)
    if not callable(fit):
        return 0
    by_id = {topic.topic_id: topic for topic in topics}
    examples = [
        (_pair(store, space, by_id[topic_id], unit_id), state.label)
        for (topic_id, unit_id), state in sorted(labels.items())
        if topic_id in by_id and state.judged
    ]
    fit(examples, store.scale().values)
    return len(examples) if getattr(chosen.judge, "fitted", True) else 0


def _answers(chosen: ChosenJudge, pairs: Sequence[JudgePair], grades: Sequence[int], scale: str) -> list[Any]:
    """The judge's answers to one batch, each checked like an import; exactly one per pair asked."""
    judge = chosen.judge
    if isinstance(judge, CommandJudge):
        # checked as the program prints them: the first bad answer stops it
        with contextlib.closing(judge.judge(pairs, grades)) as lines:
            where = judge.answer_source()
            rows = (
                (number, json_object(text, path=where, line=number, error=JudgeAnswerError)) for number, text in lines
            )
            return _checked(rows, pairs, grades, scale, where)
    where = f"judge {chosen.name!r}"
    try:
        answers = list(enumerate(judge.judge(pairs, grades), 1))
    except LabelerError:
        raise
    except Exception as exc:  # a plug-in can fail in any way: say which one
        raise LabelerError(f"judge {chosen.name!r} failed: {exc}") from None
    return _checked(answers, pairs, grades, scale, where)


def _checked(
    rows: Iterable[tuple[int, Any]], pairs: Sequence[JudgePair], grades: Sequence[int], scale: str, where: str
) -> list[Any]:
    asked = {(p.topic, p.unit) for p in pairs}
    answers: dict[tuple[str, str], Any] = {}
    for number, row in rows:
        if not isinstance(row, dict):
            raise JudgeAnswerError(f"expected a JSON object, found {type(row).__name__}", path=where, line=number)
        try:
            answer = model_answer(row, grades, scale)
        except FormatError as exc:
            raise JudgeAnswerError(exc.reason, path=where, line=number) from None
        except ValueError as exc:
            raise JudgeAnswerError(str(exc), path=where, line=number) from None
        pair = (answer.topic, answer.unit)
        if pair not in asked:
            raise JudgeAnswerError(
                f"answers topic {answer.topic} unit {answer.unit}, which was not asked", path=where, line=number
            )
        if pair in answers:
            raise JudgeAnswerError(f"answers topic {answer.topic} unit {answer.unit} twice", path=where, line=number)
        answers[pair] = answer
    if len(answers) != len(asked):
        missing = sorted(asked - set(answers))
        raise JudgeAnswerError(
            f"answered {len(answers)} of the {len(asked)} pairs asked; no answer for e.g. "
            + ", ".join(f"{t} {u}" for t, u in missing[:3]),
            path=where,
        )
    return [answers[(p.topic, p.unit)] for p in pairs]

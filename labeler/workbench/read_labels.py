"""Reading labels from the judgment log, per unit space: the people's current labels and the models' labels.

A unit space is `doc` or `chunk:NAME`: the same chunk id under two chunkings
names two different texts, so labels are always read within one space.

A model's label never counts as a person's (`labeler.judgments.log.effective_events`): the
queue, status, snapshots and eval read human and imported labels only. What a model said is
read apart (`model_labels`), for pre-labels, agreement, calibration and the `uncertainty` order.
Per model and pair, the label is the model's latest grade in log order that is not retracted
and not made before the unit's text changed (as for a person's grade); a negative grade
(pooled, not judged) is not a label.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from labeler.answers.spaces import answer_space
from labeler.errors import BadArgumentError, Hint
from labeler.judgments.log import GRADE, Event, PairState, derive_pair, derive_pairs, event_order, model_events
from labeler.store import Store
from labeler.validation import parsed_unit, unit_problem

if TYPE_CHECKING:
    from labeler.judgments.model_labels import ModelLabel
    from labeler.pace import Pace


def unit_space(store: Store, unit: str | None) -> str:
    """The unit space a command works in: the one asked for, else the latest pool's, else `doc`."""
    if unit is not None:
        parsed = parsed_unit(unit)
        if parsed is None:
            raise BadArgumentError(str(unit_problem(unit)), argument="unit")
        if parsed.kind == "chunk" and store.chunking(str(parsed.chunking)) is None:
            raise BadArgumentError(
                f"no chunking named {parsed.chunking!r}", argument="unit", hints=Hint("list_chunkings")
            )
        return str(parsed)
    latest = store.latest_pool()
    return latest.unit if latest else "doc"


def label_space(store: Store, unit: str | None) -> str:
    """`unit_space`, or an answer space (`nugget:RUN`, `support:RUN`) of an answer run the workbench holds.

    For what works alike on relevance labels and answer judgments (agreement, conflicts,
    adjudication, model labels); the commands about relevance alone keep `unit_space`.
    """
    space = answer_space(unit) if unit is not None else None
    if space is None:
        return unit_space(store, unit)
    if not store.has_answer_run(space.run):
        raise BadArgumentError(f"no answer run named {space.run!r}", argument="unit", hints=Hint("list_answer_runs"))
    return str(space)


def current_labels(store: Store, unit: str) -> dict[tuple[str, str], PairState]:
    """Every pair with events in a unit space, as the log says it is now."""
    return derive_pairs(store.unit_events(unit), store.change_times(unit))


def topic_labels(
    store: Store, unit: str, topic_id: str, changes: Mapping[str, str] | None = None
) -> dict[str, PairState]:
    """`unit id -> state` for one topic (what the judging screen needs, fast).

    `changes` is the space's `store.change_times(unit)`, for a caller going through many topics: on a
    chunk space it is an aggregate over the whole chunking, worth reading once, not once a topic.
    """
    if changes is None:
        changes = store.change_times(unit)
    by_unit: dict[str, list[Event]] = {}
    for event in store.topic_events(unit, topic_id):
        if event.unit_id is not None:  # always: the store returns pair events only, review events excluded
            by_unit.setdefault(event.unit_id, []).append(event)
    return {u: derive_pair(topic_id, u, events, changes.get(u)) for u, events in by_unit.items()}


def pair_state(store: Store, unit: str, topic_id: str, unit_id: str) -> PairState:
    changes = store.change_times(unit)
    return derive_pair(topic_id, unit_id, store.pair_events(unit, topic_id, unit_id), changes.get(unit_id))


def judging_pace(store: Store, assessor: str | None = None) -> Pace:
    """The median pace over the last `PACE_WINDOW` timed human judgments (one assessor's, or the team's)."""
    from labeler.pace import PACE_WINDOW, pace  # here: neither `next` nor `status` reads the pace

    return pace(store.recent_active_ms(assessor, PACE_WINDOW))


def judging_rate(store: Store, assessor: str | None = None) -> float | None:
    """The measured judgments per hour (the median pace), None until a judgment is timed."""
    measured = judging_pace(store, assessor)
    return measured.per_hour if measured.measured else None


def model_labels(store: Store, model: str, unit: str | None = None) -> dict[tuple[str, str], ModelLabel]:
    """`(topic id, unit id) -> ModelLabel` of one model, in one unit space (the latest pool's by default)."""
    space = label_space(store, unit)
    return _labels(store, space, model).get(model, {})


def model_labels_by_topic(store: Store, model: str, unit: str | None = None) -> dict[str, dict[str, ModelLabel]]:
    """`topic id -> unit id -> ModelLabel` of one model, for an order that ranks by it; a model with none is refused.

    The refusal names the models that do have labels, so a mistyped `--model` says what to type.
    """
    space = unit_space(store, unit)
    labels = model_labels(store, model, unit=space)
    if not labels:
        known = model_names(store, unit=space)
        raise BadArgumentError(
            f"no labels of model {model!r} in unit space {space}"
            + (f" (models with labels: {', '.join(known)})" if known else " (no model labels yet)"),
            argument="model",
        )
    by_topic: dict[str, dict[str, ModelLabel]] = {}
    for (topic, unit_id), label in labels.items():
        by_topic.setdefault(topic, {})[unit_id] = label
    return by_topic


def model_names(store: Store, unit: str | None = None) -> list[str]:
    """The models that have at least one label now in a unit space (the latest pool's by default), sorted."""
    space = label_space(store, unit)
    return sorted(name for name, labels in _labels(store, space, None).items() if labels)


def _labels(store: Store, space: str, model: str | None) -> dict[str, dict[tuple[str, str], ModelLabel]]:
    from labeler.judgments.model_labels import ModelLabel  # here: only a model's labels are built of it

    changes = store.change_times(space)
    latest: dict[tuple[str, tuple[str, str]], tuple[tuple[int, str], ModelLabel]] = {}
    for event in model_events(store.model_source_events(space, model)):
        if event.kind != GRADE or event.grade is None or event.unit_id is None or event.model is None:
            continue
        changed = changes.get(event.unit_id)
        if changed is not None and event.time < changed:
            continue  # made before the unit's text changed: stale, as a person's grade would be
        key = (event.model, (event.topic_id, event.unit_id))
        order = event_order(event)
        if key not in latest or latest[key][0] < order:
            latest[key] = (order, ModelLabel(event.model, event.grade, event.probs))
    found: dict[str, dict[tuple[str, str], ModelLabel]] = {}
    for (name, pair), (_, label) in latest.items():
        if label.grade >= 0:
            found.setdefault(name, {})[pair] = label
    return found

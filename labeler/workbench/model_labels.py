"""Reading models' labels: the log's `source` `model` grades, kept apart from the people's.

A model's label never counts as a person's (`labeler.judgments.effective_events`): the
queue, status, snapshots and eval read human and imported labels only. What a model said is
read here, for pre-labels, agreement, calibration and the `uncertainty` order.

Per model and pair, the label is the model's latest grade in log order that is not retracted
and not made before the unit's text changed (as for a person's grade); a negative grade
(pooled, not judged) is not a label.
"""

from __future__ import annotations

from labeler.errors import BadArgumentError
from labeler.judges.labels import ModelLabel
from labeler.judgments import GRADE, event_order, model_events
from labeler.store import Store
from labeler.workbench.labels import unit_space


def model_labels(store: Store, model: str, unit: str | None = None) -> dict[tuple[str, str], ModelLabel]:
    """`(topic id, unit id) -> ModelLabel` of one model, in one unit space (the latest pool's by default)."""
    space = unit_space(store, unit)
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
    space = unit_space(store, unit)
    return sorted(name for name, labels in _labels(store, space, None).items() if labels)


def _labels(store: Store, space: str, model: str | None) -> dict[str, dict[tuple[str, str], ModelLabel]]:
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

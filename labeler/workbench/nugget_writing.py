"""Writing a topic's nuggets while reading its relevant units: what the writing screen shows.

The screen's changes to the nuggets are the use cases of `labeler.workbench.nugget_edits`,
the same the CLI's editing commands make.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.answers.nuggets import (
    Nugget,
)
from labeler.errors import Hint, LabelerError
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.workbench.answer_labels import nuggets_now
from labeler.workbench.read_labels import topic_labels
from labeler.workbench.reading import unit_text
from labeler.workbench.review import is_relevant
from labeler.workbench.topics import find_topic, require_topic, topic_titles


@dataclass(frozen=True)
class RelevantUnit:
    """A unit judged relevant to the topic, with the text a nugget is written from (a chunk's own span)."""

    unit: str
    unit_id: str
    title: str
    text: str
    label: int


@dataclass(frozen=True)
class NuggetDesk:
    """What the nugget writing screen shows for one topic: its relevant units, its nuggets, a model's drafts."""

    topic_id: str
    title: str
    units: tuple[RelevantUnit, ...]
    nuggets: tuple[Nugget, ...]
    drafts: tuple[Nugget, ...] = ()
    drafts_from: str | None = None


def relevant_unit_texts(store: Store, topic_id: str) -> list[RelevantUnit]:
    """The topic's relevant units in every relevance space (label at or above the scale's threshold), with texts."""
    threshold = store.scale().threshold
    found = []
    for space in store.unit_spaces():
        for unit_id, state in sorted(topic_labels(store, space, topic_id).items()):
            if is_relevant(state, threshold) and state.label is not None:
                shown = unit_text(store, space, unit_id)
                text = shown.text if shown.span is None else shown.text[shown.span[0] : shown.span[1]]
                found.append(RelevantUnit(space, unit_id, shown.title, text, state.label))
    return found


def writing_topic(store: Store, topic_id: str | None = None) -> str:
    """The topic to write nuggets for: the one named (known to the workbench), else the first with a relevant unit."""
    if topic_id is not None:
        require_topic(store, topic_id)
        return topic_id
    topics = sorted(topic_titles(store), key=topic_sort_key)
    if not topics:
        raise LabelerError("the workbench has no topics", hints=Hint("import_topics"))
    return next((t for t in topics if relevant_unit_texts(store, t)), topics[0])


def nugget_desk(store: Store, topic_id: str, *, drafts_from: str | None = None) -> NuggetDesk:
    """One topic's desk; `drafts_from` names the model whose drafts are shown beside the nuggets."""
    require_topic(store, topic_id)
    topic = find_topic(store, topic_id)
    drafts = nuggets_now(store, topic_id, model=drafts_from) if drafts_from is not None else []
    return NuggetDesk(
        topic_id,
        "" if topic is None else topic.title,
        tuple(relevant_unit_texts(store, topic_id)),
        tuple(nuggets_now(store, topic_id)),
        tuple(drafts),
        drafts_from,
    )

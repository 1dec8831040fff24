"""Writing a topic's nuggets while reading its relevant units: what the screen shows, and each change it makes.

Every change is one or more nugget versions logged through `record_nugget_changes`
(who and when are the event's, the units a nugget came from its version's `sources`).
A model's drafts are never changed: a person who post-edits one makes a nugget of their
own (origin `edited`, `draft` naming the draft).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from labeler.answers.nuggets import (
    CREATE,
    DELETE,
    EDIT,
    EDITED,
    IMPORTANCE,
    MERGE,
    RANK,
    WRITTEN,
    Nugget,
    NuggetVersion,
    new_nugget_id,
)
from labeler.errors import BadArgumentError, ConflictError, Hint, LabelerError, UnknownIdError
from labeler.models import topic_sort_key
from labeler.store import Store
from labeler.workbench.answer_labels import NuggetChange, nuggets_now, record_nugget_changes
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


def write_nugget(
    store: Store, topic_id: str, text: str, importance: str, *, assessor: str, sources: tuple[str, ...] = ()
) -> Nugget:
    """A new nugget written by a person (from the units in `sources`), ranked last among the topic's."""
    require_topic(store, topic_id)
    version = NuggetVersion(CREATE, _clean(text), _importance(importance), _next_rank(store, topic_id), WRITTEN)
    return _log_one(store, topic_id, new_nugget_id(), replace(version, sources=sources), assessor)


def edit_nugget(
    store: Store,
    topic_id: str,
    nugget_id: str,
    *,
    assessor: str,
    text: str | None = None,
    importance: str | None = None,
    rank: int | None = None,
    drafts_from: str | None = None,
) -> Nugget:
    """A nugget's new text, importance or rank; a model's draft (of `drafts_from`) edited is a new nugget."""
    nugget = _find(store, topic_id, nugget_id, drafts_from=drafts_from)
    new_text = nugget.text if text is None else _clean(text)
    new_importance = nugget.importance if importance is None else _importance(importance)
    if nugget.model is not None:
        return _post_edit(store, nugget, new_text, new_importance, assessor)
    action = EDIT if new_text != nugget.text else RANK
    version = replace(_version_of(nugget, action), text=new_text, importance=new_importance)
    if rank is not None:
        version = replace(version, rank=rank)
    return _log_one(store, topic_id, nugget_id, version, assessor)


def merge_nuggets(store: Store, topic_id: str, keep: str, others: tuple[str, ...], *, assessor: str) -> Nugget:
    """Merge `others` into `keep`: each of them records where it went, `keep` what it took in (and their units)."""
    if not others:
        raise LabelerError("a merge needs at least one other nugget")
    if keep in others:
        raise LabelerError(f"nugget {keep} cannot be merged into itself")
    kept = _find(store, topic_id, keep)
    merged = [_find(store, topic_id, other) for other in dict.fromkeys(others)]
    sources = tuple(dict.fromkeys(kept.sources + tuple(s for n in merged for s in n.sources)))
    changes = [
        NuggetChange(topic_id, n.nugget_id, replace(_version_of(n, MERGE), merged_into=keep), assessor) for n in merged
    ]
    taken = tuple(n.nugget_id for n in merged)
    version = replace(_version_of(kept, MERGE), sources=sources, merged_from=taken)
    changes.append(NuggetChange(topic_id, keep, version, assessor))
    record_nugget_changes(store, changes)
    return _find(store, topic_id, keep)


def delete_nugget(store: Store, topic_id: str, nugget_id: str, *, assessor: str) -> None:
    """Remove a nugget from the topic's (its versions stay in the log)."""
    nugget = _find(store, topic_id, nugget_id)
    record_nugget_changes(store, [NuggetChange(topic_id, nugget_id, _version_of(nugget, DELETE), assessor)])


def move_nugget(store: Store, topic_id: str, nugget_id: str, step: int, *, assessor: str) -> list[Nugget]:
    """Move a nugget `step` places up (negative) or down among the topic's nuggets of its importance.

    The group's ranks are handed out again in the new order (the same ranks, made distinct); a
    version is logged for each nugget whose rank changed. At the top or bottom nothing changes.
    """
    importance = _find(store, topic_id, nugget_id).importance
    group = _of_importance(store, topic_id, importance)
    at = [n.nugget_id for n in group].index(nugget_id)
    to = max(0, min(len(group) - 1, at + step))
    if to == at:
        return group
    ranks = _distinct(sorted(n.rank for n in group))
    group.insert(to, group.pop(at))
    changes = [
        NuggetChange(topic_id, n.nugget_id, replace(_version_of(n, RANK), rank=r), assessor)
        for n, r in zip(group, ranks, strict=True)
        if n.rank != r
    ]
    record_nugget_changes(store, changes)
    return _of_importance(store, topic_id, importance)


def _of_importance(store: Store, topic_id: str, importance: str) -> list[Nugget]:
    return [n for n in nuggets_now(store, topic_id) if n.importance == importance]


def _distinct(ranks: list[int]) -> list[int]:
    out: list[int] = []
    for rank in ranks:
        out.append(max(rank, out[-1] + 1) if out else rank)
    return out


def _post_edit(store: Store, draft: Nugget, text: str, importance: str, assessor: str) -> Nugget:
    taken = [n.nugget_id for n in nuggets_now(store, draft.topic_id) if n.draft == draft.nugget_id]
    if taken:
        raise ConflictError(f"draft {draft.nugget_id} is post-edited already, as nugget {taken[0]}")
    rank = _next_rank(store, draft.topic_id)
    version = NuggetVersion(CREATE, text, importance, rank, EDITED, draft.sources, draft=draft.nugget_id)
    return _log_one(store, draft.topic_id, new_nugget_id(), version, assessor)


def _version_of(nugget: Nugget, action: str) -> NuggetVersion:
    return NuggetVersion(
        action, nugget.text, nugget.importance, nugget.rank, nugget.origin, nugget.sources, draft=nugget.draft
    )


def _find(store: Store, topic_id: str, nugget_id: str, *, drafts_from: str | None = None) -> Nugget:
    for nugget in nuggets_now(store, topic_id):
        if nugget.nugget_id == nugget_id:
            return nugget
    if drafts_from is not None:
        for nugget in nuggets_now(store, topic_id, model=drafts_from):
            if nugget.nugget_id == nugget_id:
                return nugget
    raise UnknownIdError(f"topic {topic_id} has no nugget {nugget_id}")


def _log_one(store: Store, topic_id: str, nugget_id: str, version: NuggetVersion, assessor: str) -> Nugget:
    record_nugget_changes(store, [NuggetChange(topic_id, nugget_id, version, assessor)])
    return _find(store, topic_id, nugget_id)


def _next_rank(store: Store, topic_id: str) -> int:
    return max((n.rank for n in nuggets_now(store, topic_id, include_deleted=True)), default=0) + 1


def _clean(text: str) -> str:
    """A nugget's text on one line: runs of white space (a selection's line breaks) become one space."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise LabelerError("a nugget's text is empty")
    return cleaned


def _importance(importance: str) -> str:
    if importance not in IMPORTANCE:
        raise BadArgumentError(f"must be 'vital' or 'okay', not {importance!r}", argument="importance")
    return importance

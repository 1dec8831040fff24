"""A person's changes to a topic's nuggets: add, edit, merge, delete and move, one use case each.

The CLI's editing commands and the nugget writing screen both make their changes here, so a
change follows one rule whichever front end asks for it. Every change is one or more nugget
versions logged through `record_nugget_changes` (one transaction, checked; who and when are the
event's, the units a nugget came from its version's `sources`), and each use case returns a
`NuggetEdit`: what it did and the nuggets as they are after it.

The rules:
- a nugget's text is kept on one line (runs of white space become one space) and is never empty;
- two of a topic's nuggets never share a text (assignments from a file are matched by text);
- a new nugget, written or made from a draft, is ranked after every nugget the topic has had;
- a model's drafts are never changed: a person editing one makes a nugget of their own (origin
  `edited`, `draft` naming it), and editing the same draft again edits that person's nugget;
- a merge keeps one nugget, which takes in the others' units; each other records where it went;
- a move swaps a nugget with its neighbour among the topic's nuggets of its importance.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
from labeler.ids import check_id
from labeler.json_form import JsonResult
from labeler.judgments.log import MODEL
from labeler.store import Store
from labeler.workbench.answer_labels import NuggetChange, nuggets_now, record_nugget_changes


@dataclass(frozen=True)
class NuggetEdit(JsonResult):
    """One change made by hand: what it did, and the nuggets as they are after it.

    A merge gives the nugget kept; a delete the nugget as it was; a move the nuggets of the moved
    one's importance in their new order. `changed` is false when the change was there already.
    """

    action: str
    topic_id: str
    nuggets: tuple[Nugget, ...]
    changed: bool = True


def add_nugget(
    store: Store, topic: str, text: str, importance: str, *, assessor: str, sources: Sequence[str] = ()
) -> NuggetEdit:
    """A nugget a person writes from scratch (from the units in `sources`), ranked after the topic's others."""
    topic = known_topic(store, topic)
    text, importance = _clean(text), _importance(importance)
    units = tuple(check_id(unit, "unit id") for unit in sources)
    _refuse_held_text(nuggets_now(store, topic), text, None)
    version = NuggetVersion(CREATE, text, importance, _next_rank(store, topic), WRITTEN, sources=units)
    return _logged(store, CREATE, topic, [NuggetChange(topic, new_nugget_id(), version, assessor)])


@dataclass(frozen=True)
class _Edits:
    """What an edit gives: a new text, importance or rank (None: kept as it is)."""

    text: str | None
    importance: str | None
    rank: int | None

    def applied(self, version: NuggetVersion) -> NuggetVersion:
        return replace(
            version,
            text=version.text if self.text is None else self.text,
            importance=self.importance or version.importance,
            rank=version.rank if self.rank is None else self.rank,
        )


def edit_nugget(
    store: Store,
    topic: str,
    nugget_id: str,
    *,
    assessor: str,
    text: str | None = None,
    importance: str | None = None,
    rank: int | None = None,
) -> NuggetEdit:
    """A new text, importance or rank for a nugget; a model's draft edited becomes the person's own nugget."""
    if (text, importance, rank) == (None, None, None):
        raise BadArgumentError("nothing to change: give a text, an importance or a rank", argument="text")
    edits = _Edits(
        None if text is None else _clean(text), None if importance is None else _importance(importance), rank
    )
    topic = known_topic(store, topic)
    current = nuggets_now(store, topic)
    nugget = _find(current, nugget_id)
    if nugget is None:
        return _edit_draft(store, topic, nugget_id, assessor, edits)
    if edits.text is not None:
        _refuse_held_text(current, edits.text, nugget.nugget_id)
    version = _version_of(nugget, EDIT)
    edited = edits.applied(version)
    if edited == version:
        return NuggetEdit(EDIT, topic, (nugget,), changed=False)
    action = EDIT if edited.text != nugget.text else RANK
    change = NuggetChange(topic, nugget.nugget_id, replace(edited, action=action), assessor)
    return _logged(store, action, topic, [change])


def _edit_draft(store: Store, topic: str, draft_id: str, assessor: str, edits: _Edits) -> NuggetEdit:
    """A person's nugget made from a model's draft (origin `edited`); editing the same draft again edits it."""
    draft = _find_draft(store, topic, draft_id)
    current = nuggets_now(store, topic)
    mine = next((n for n in current if n.draft == draft.nugget_id), None)
    if mine is not None:
        return edit_nugget(
            store,
            topic,
            mine.nugget_id,
            assessor=assessor,
            text=edits.text,
            importance=edits.importance,
            rank=edits.rank,
        )
    made = NuggetVersion(
        CREATE, draft.text, draft.importance, _next_rank(store, topic), EDITED, draft.sources, draft=draft.nugget_id
    )
    version = edits.applied(made)
    _refuse_held_text(current, version.text, None)
    return _logged(store, CREATE, topic, [NuggetChange(topic, new_nugget_id(), version, assessor)])


def merge_nuggets(store: Store, topic: str, keep: str, others: Sequence[str], *, assessor: str) -> NuggetEdit:
    """Merge `others` into `keep`: `keep` records what it took in (and their units), each other where it went."""
    if not others:
        raise BadArgumentError("name at least one nugget to merge into the one kept", argument="others")
    if keep in others:
        raise BadArgumentError(
            f"nugget {keep!r} is named twice: a nugget cannot be merged into itself", argument="others"
        )
    if len(set(others)) != len(others):
        raise BadArgumentError("a nugget is named twice among those merged", argument="others")
    topic = known_topic(store, topic)
    current = nuggets_now(store, topic)
    kept = _require(current, keep, topic)
    merged = [_require(current, other, topic) for other in others]
    sources = tuple(dict.fromkeys(kept.sources + tuple(s for n in merged for s in n.sources)))
    taken = tuple(n.nugget_id for n in merged)
    version = replace(_version_of(kept, MERGE), sources=sources, merged_from=taken)
    changes = [
        NuggetChange(topic, n.nugget_id, replace(_version_of(n, MERGE), merged_into=kept.nugget_id), assessor)
        for n in merged
    ]
    changes.append(NuggetChange(topic, kept.nugget_id, version, assessor))
    return _logged(store, MERGE, topic, changes)


def delete_nugget(store: Store, topic: str, nugget_id: str, *, assessor: str) -> NuggetEdit:
    """Remove a nugget from the topic's list (its versions stay in the log)."""
    topic = known_topic(store, topic)
    nugget = _require(nuggets_now(store, topic), nugget_id, topic)
    record_nugget_changes(store, [NuggetChange(topic, nugget.nugget_id, _version_of(nugget, DELETE), assessor)])
    return NuggetEdit(DELETE, topic, (nugget,))


def move_nugget(store: Store, topic: str, nugget_id: str, step: int, *, assessor: str) -> NuggetEdit:
    """Move a nugget `step` places up (negative) or down among the topic's nuggets of its importance.

    The group's ranks are handed out again in the new order (the same ranks, made distinct); a
    version is logged for each nugget whose rank changed. At the top or bottom nothing changes.
    """
    topic = known_topic(store, topic)
    importance = _require(nuggets_now(store, topic), nugget_id, topic).importance
    group = _of_importance(store, topic, importance)
    at = [n.nugget_id for n in group].index(nugget_id)
    to = max(0, min(len(group) - 1, at + step))
    if to == at:
        return NuggetEdit(RANK, topic, tuple(group), changed=False)
    ranks = _distinct(sorted(n.rank for n in group))
    group.insert(to, group.pop(at))
    changes = [
        NuggetChange(topic, n.nugget_id, replace(_version_of(n, RANK), rank=r), assessor)
        for n, r in zip(group, ranks, strict=True)
        if n.rank != r
    ]
    record_nugget_changes(store, changes)
    return NuggetEdit(RANK, topic, tuple(_of_importance(store, topic, importance)))


def known_topic(store: Store, topic: str) -> str:
    """The topic id, checked, if the workbench has the topic; else refused with the hint to list the topics."""
    topic = check_id(topic, "topic id")
    if store.topic(topic) is None:
        raise UnknownIdError(f"topic {topic} is not a topic of the workbench", hints=Hint("list_topics"))
    return topic


def _of_importance(store: Store, topic: str, importance: str) -> list[Nugget]:
    return [n for n in nuggets_now(store, topic) if n.importance == importance]


def _distinct(ranks: list[int]) -> list[int]:
    out: list[int] = []
    for rank in ranks:
        out.append(max(rank, out[-1] + 1) if out else rank)
    return out


def _logged(store: Store, action: str, topic: str, changes: list[NuggetChange]) -> NuggetEdit:
    record_nugget_changes(store, changes)
    after = {n.nugget_id: n for n in nuggets_now(store, topic)}
    return NuggetEdit(action, topic, tuple(after[c.nugget_id] for c in changes if c.nugget_id in after))


def _version_of(nugget: Nugget, action: str) -> NuggetVersion:
    """The nugget's latest version to log again as `action` (its units and draft carried as they are)."""
    return NuggetVersion(
        action, nugget.text, nugget.importance, nugget.rank, nugget.origin, sources=nugget.sources, draft=nugget.draft
    )


def _find(nuggets: Iterable[Nugget], nugget_id: str) -> Nugget | None:
    return next((n for n in nuggets if n.nugget_id == nugget_id), None)


def _require(nuggets: Sequence[Nugget], nugget_id: str, topic: str) -> Nugget:
    nugget = _find(nuggets, nugget_id)
    if nugget is None:
        raise UnknownIdError(f"topic {topic} has no nugget {nugget_id!r}", hints=Hint("list_nuggets"))
    return nugget


def _find_draft(store: Store, topic: str, draft_id: str) -> Nugget:
    """A model's draft of the topic by its id (ids are unique across models), else refused as no nugget."""
    for model in sorted({e.model for e in store.topic_events("nuggets", topic) if e.source == MODEL and e.model}):
        draft = _find(nuggets_now(store, topic, model=model), draft_id)
        if draft is not None:
            return draft
    return _require([], draft_id, topic)


def _refuse_held_text(nuggets: Iterable[Nugget], text: str, other_than: str | None) -> None:
    """Two nuggets of a topic with one text could not be told apart (assignments are matched by text)."""
    twin = next((n for n in nuggets if n.text == text and n.nugget_id != other_than), None)
    if twin is not None:
        raise ConflictError(f"nugget {twin.nugget_id} of the topic has this text already", hints=Hint("list_nuggets"))


def _next_rank(store: Store, topic: str) -> int:
    """After every rank the topic's nuggets have had (a deleted one's too), so a new nugget is listed last."""
    return max((n.rank for n in nuggets_now(store, topic, include_deleted=True)), default=0) + 1


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

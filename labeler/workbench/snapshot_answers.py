"""What a snapshot holds of answers: the people's nuggets and every answer label, beside the relevance labels.

A snapshot freezes, with its relevance labels, the topics' nuggets as they are
(people's, not deleted: topic, nugget id, importance, rank, text, origin and the
event of the version) and the people's labels of every answer space (`nugget:RUN`
assignments, `support:RUN` citation support; a pair in conflict has no label and
is left out). Their canonical text (`answers_text`) follows the qrels text under
the snapshot's one `sha256`; a snapshot without any adds nothing to it, so its
hash and manifest are those of relevance labels alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from labeler.answers.spaces import NUGGETS, answer_space
from labeler.formats.qrels import qrels_sort_key
from labeler.json_form import JsonResult, json_field
from labeler.store import Store
from labeler.workbench.answer_labels import nuggets_now
from labeler.workbench.read_labels import current_labels

NuggetRow = tuple[str, str, str, int, str, str, str]
"""(topic, nugget id, importance, rank, text, origin, event of the version) of one nugget in a snapshot."""

AnswerLabelRow = tuple[str, str, str, int, str | None]
"""(space, topic, item, grade, deciding event) of one answer label in a snapshot."""


@dataclass(frozen=True)
class FrozenAnswers:
    """The nuggets and answer labels of a snapshot (or of the log now), in canonical order."""

    nuggets: tuple[NuggetRow, ...] = ()
    labels: tuple[AnswerLabelRow, ...] = ()

    def counts(self) -> dict[str, int | None]:
        """The manifest's counts: `nuggets` and `answer_labels`, both None (left out) when there are neither."""
        if not (self.nuggets or self.labels):
            return {"nuggets": None, "answer_labels": None}
        return {"nuggets": len(self.nuggets), "answer_labels": len(self.labels)}

    def importance(self) -> dict[str, dict[str, str]]:
        """`topic -> nugget id -> importance`."""
        topics: dict[str, dict[str, str]] = {}
        for topic_id, nugget_id, importance, *_ in self.nuggets:
            topics.setdefault(topic_id, {})[nugget_id] = importance
        return topics

    def grades(self, space: str) -> dict[str, dict[str, int]]:
        """`topic -> item -> grade` of one answer space."""
        topics: dict[str, dict[str, int]] = {}
        for label_space, topic_id, item, grade, _ in self.labels:
            if label_space == space:
                topics.setdefault(topic_id, {})[item] = grade
        return topics


def _nugget_key(row: NuggetRow) -> tuple[object, ...]:
    return qrels_sort_key(row[0], row[1])


def _label_key(row: AnswerLabelRow) -> tuple[object, ...]:
    return (row[0], *qrels_sort_key(row[1], row[2]))


def canonical(nuggets: list[NuggetRow], labels: list[AnswerLabelRow]) -> FrozenAnswers:
    """Rows in the order their text is hashed in (topic and item in qrels order; labels by space first)."""
    return FrozenAnswers(tuple(sorted(nuggets, key=_nugget_key)), tuple(sorted(labels, key=_label_key)))


def freeze_answers(store: Store) -> FrozenAnswers:
    """The people's nuggets and answer labels as the log holds them now."""
    nuggets = [
        (n.topic_id, n.nugget_id, n.importance, n.rank, n.text, n.origin, n.event_id) for n in nuggets_now(store)
    ]
    labels: list[AnswerLabelRow] = []
    for space in store.answer_units():
        if space == NUGGETS or answer_space(space) is None:
            continue
        for (topic_id, item), state in current_labels(store, space).items():
            if state.label is not None and state.label >= 0 and not state.conflict:
                deciding = state.deciding_event
                labels.append((space, topic_id, item, state.label, deciding.event_id if deciding else None))
    return canonical(nuggets, labels)


def answers_text(frozen: FrozenAnswers) -> str:
    """The canonical text of a snapshot's nuggets and answer labels: one JSON array a line ('' when none)."""
    lines = [json.dumps(["nugget", *row[:6]], ensure_ascii=False) for row in frozen.nuggets]
    lines += [json.dumps(["label", *row[:4]], ensure_ascii=False) for row in frozen.labels]
    return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class NuggetAdded(JsonResult):
    """A nugget in one snapshot only (added, or as a removal, removed)."""

    topic: str
    nugget: str
    importance: str
    text: str


@dataclass(frozen=True)
class NuggetChanged(JsonResult):
    """A nugget both snapshots hold whose text or importance differs ([before, after]; left out when unchanged)."""

    topic: str
    nugget: str
    text: tuple[str, str] | None = json_field(omit_if_none=True)
    importance: tuple[str, str] | None = json_field(omit_if_none=True)


@dataclass(frozen=True)
class AnswerLabelChange(JsonResult):
    """An answer label added, changed or removed: its space, topic, item, and grade before and after (None: absent)."""

    space: str
    topic: str
    item: str
    before: int | None
    after: int | None


@dataclass(frozen=True)
class AnswersDiff(JsonResult):
    """Nuggets added, changed and removed, and answer labels that differ, from one snapshot to another."""

    nuggets_added: tuple[NuggetAdded, ...] = ()
    nuggets_changed: tuple[NuggetChanged, ...] = ()
    nuggets_removed: tuple[NuggetAdded, ...] = ()
    answer_labels: tuple[AnswerLabelChange, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.nuggets_added or self.nuggets_changed or self.nuggets_removed or self.answer_labels)


def diff_answers(old: FrozenAnswers, new: FrozenAnswers) -> AnswersDiff:
    """What changed in nuggets (added, removed, text or importance) and answer labels from `old` to `new`."""
    before = {(r[0], r[1]): r for r in old.nuggets}
    after = {(r[0], r[1]): r for r in new.nuggets}

    def added(rows: dict[tuple[str, str], NuggetRow], keys: set[tuple[str, str]]) -> tuple[NuggetAdded, ...]:
        return tuple(NuggetAdded(*k, rows[k][2], rows[k][4]) for k in sorted(keys, key=lambda k: qrels_sort_key(*k)))

    changed = []
    for key in sorted(before.keys() & after.keys(), key=lambda k: qrels_sort_key(*k)):
        (_, _, was_importance, _, was_text, *_), (_, _, importance, _, text, *_) = before[key], after[key]
        if (was_text, was_importance) != (text, importance):
            changed.append(
                NuggetChanged(
                    *key,
                    (was_text, text) if was_text != text else None,
                    (was_importance, importance) if was_importance != importance else None,
                )
            )
    return AnswersDiff(
        nuggets_added=added(after, after.keys() - before.keys()),
        nuggets_changed=tuple(changed),
        nuggets_removed=added(before, before.keys() - after.keys()),
        answer_labels=_label_changes(old, new),
    )


def _label_changes(old: FrozenAnswers, new: FrozenAnswers) -> tuple[AnswerLabelChange, ...]:
    before = {r[:3]: r[3] for r in old.labels}
    after = {r[:3]: r[3] for r in new.labels}
    keys = sorted(before.keys() | after.keys(), key=lambda k: (k[0], *qrels_sort_key(k[1], k[2])))
    return tuple(
        AnswerLabelChange(k[0], k[1], k[2], before.get(k), after.get(k)) for k in keys if before.get(k) != after.get(k)
    )

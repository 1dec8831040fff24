"""Nuggets: the short facts an answer to a topic should contain, kept as versions in the log.

Every change to a nugget (made, edited, re-ranked, merged, deleted) is one
event on the pair (topic, nugget id) in the `nuggets` space: a `note` event whose
note is the version's canonical JSON (`NuggetVersion.note`). Nothing is
rewritten; the nugget is its latest version in log order, and its history is
every version before it. Who made a version, when and from which source
(`human`, `import`, `model`) is the event's own.

People's nuggets and a model's drafts are kept apart: a model's versions are
`model` events and never count as the topic's nuggets. A person who post-edits
a draft makes a nugget of their own whose origin is `edited` and whose `draft`
names the draft, so nuggets written from scratch (`written`) and edited drafts
can be told apart and compared.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from labeler.answers.spaces import NUGGETS
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import MODEL, NOTE, RETRACT, Event, event_order

VITAL, OKAY = "vital", "okay"
IMPORTANCE = (VITAL, OKAY)
"""A nugget's importance, most important first (nuggetizer's labels)."""

WRITTEN, EDITED, DRAFTED, IMPORTED = "written", "edited", "drafted", "imported"
ORIGINS = (WRITTEN, EDITED, DRAFTED, IMPORTED)
"""Where a nugget's text came from: a person from scratch, a person editing a model's draft, a model, a file."""

CREATE, EDIT, RANK, MERGE, DELETE = "create", "edit", "rank", "merge", "delete"
ACTIONS = (CREATE, EDIT, RANK, MERGE, DELETE)
"""What a version did: made the nugget, changed its text, changed its importance or rank, merged others into
it (or, on a merged nugget, recorded where it went), or removed it."""

MAX_TEXT = 1_000
"""The longest nugget text taken, in characters: a nugget is a short fact (nuggetizer asks for 1-12 words)."""


def new_nugget_id() -> str:
    """A nugget id unique across workbenches (merged logs keep each nugget apart): `n` and 12 hex digits."""
    return f"n{os.urandom(6).hex()}"


def file_nugget_id(topic_id: str, text: str, model: str | None = None) -> str:
    """The id of a nugget read from a file (or drafted by `model`): the same nugget gets the same id everywhere.

    Two copies of a workbench that import one nugget file hold the same nuggets under the
    same ids, so a merge of their logs (and of the assignments made on them) unites them
    instead of doubling each; a model's draft of the same text is a nugget of its own.
    """
    import hashlib

    key = "\x1f".join((topic_id, text, model or ""))
    return f"n{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


@dataclass(frozen=True)
class NuggetVersion:
    """One version of a nugget: what a `nuggets` event's note holds."""

    action: str
    text: str
    importance: str
    rank: int
    origin: str
    sources: tuple[str, ...] = ()  # the relevant units it was written from
    draft: str | None = None  # an edited draft: the model's nugget it came from
    merged_into: str | None = None  # a merged-away nugget: the one that holds it now
    merged_from: tuple[str, ...] = ()  # a merge: the nuggets it took in

    @property
    def deleted(self) -> bool:
        """A deleted or merged-away nugget is no longer one of the topic's nuggets."""
        return self.action == DELETE or self.merged_into is not None

    def note(self) -> str:
        """The canonical JSON a `nuggets` event carries (keys sorted, empty fields left out)."""
        body: dict[str, object] = {
            "action": self.action,
            "importance": self.importance,
            "origin": self.origin,
            "rank": self.rank,
            "text": self.text,
        }
        if self.sources:
            body["sources"] = list(self.sources)
        if self.draft is not None:
            body["draft"] = self.draft
        if self.merged_into is not None:
            body["merged_into"] = self.merged_into
        if self.merged_from:
            body["merged_from"] = list(self.merged_from)
        return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def version_problem(version: NuggetVersion) -> str | None:
    """Why a version cannot be logged, or None."""
    if version.action not in ACTIONS:
        return f"action must be one of {', '.join(ACTIONS)}, not {version.action!r}"
    if version.importance not in IMPORTANCE:
        return f"importance must be 'vital' or 'okay', not {version.importance!r}"
    if version.origin not in ORIGINS:
        return f"origin must be one of {', '.join(ORIGINS)}, not {version.origin!r}"
    if not version.text.strip():
        return "a nugget's text is empty"
    if len(version.text) > MAX_TEXT:
        return f"a nugget's text is {len(version.text):,} characters (at most {MAX_TEXT:,})"
    if version.rank < 1:
        return f"rank must be 1 or more, not {version.rank}"
    return None


def parse_version(note: str | None) -> NuggetVersion | str:
    """The version a `nuggets` event's note holds, or why it holds none (a merged log is data, not trusted)."""
    try:
        body = json.loads(note or "")
    except ValueError:
        return "a nugget event's note is not JSON"
    if not isinstance(body, dict):
        return "a nugget event's note is not a JSON object"
    try:
        version = NuggetVersion(
            action=_text(body, "action"),
            text=_text(body, "text"),
            importance=_text(body, "importance"),
            rank=_rank(body.get("rank")),
            origin=_text(body, "origin"),
            sources=_texts(body.get("sources", [])),
            draft=_optional_text(body.get("draft")),
            merged_into=_optional_text(body.get("merged_into")),
            merged_from=_texts(body.get("merged_from", [])),
        )
    except ValueError as exc:
        return str(exc)
    return version_problem(version) or version


def _text(body: dict[str, object], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise ValueError(f"a nugget event's {key!r} is missing or not text")
    return value


def _optional_text(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise ValueError("a nugget event names a nugget with something other than text")


def _texts(value: object) -> tuple[str, ...]:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise ValueError("a nugget event's list of ids is not a list of text")


def _rank(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError("a nugget event's 'rank' is missing or not a whole number")


@dataclass(frozen=True)
class Nugget(JsonResult):
    """A nugget as its latest version says, with who made that version and how many versions it has."""

    topic_id: str
    nugget_id: str
    text: str
    importance: str
    rank: int
    origin: str
    sources: tuple[str, ...]
    draft: str | None
    assessor: str
    source: str
    model: str | None = json_field(omit_if_none=True)
    time: str = ""
    event_id: str = ""
    versions: int = 1
    deleted: bool = json_field(omit=True, default=False)
    merged_into: str | None = json_field(omit=True, default=None)

    @property
    def vital(self) -> bool:
        return self.importance == VITAL


@dataclass
class _Fold:
    latest: dict[tuple[str, str], tuple[Event, NuggetVersion]] = field(default_factory=dict)
    counts: dict[tuple[str, str], int] = field(default_factory=dict)


def fold_nuggets(events: Iterable[Event], *, model: str | None = None, include_deleted: bool = False) -> list[Nugget]:
    """The nuggets the `nuggets` events say there are now: people's (and imported) ones, or one model's drafts.

    With `model` None, a model's events are left out (a draft is never one of the topic's
    nuggets); with a model's name, only that model's drafts are read. Retracted versions
    are left out, and so are events whose note holds no valid version (`labeler check`
    and `merge` refuse those; they are never trusted here). Sorted by topic, then
    importance (vital first), then rank, then id.
    """
    fold = _Fold()
    ordered = sorted((e for e in events if e.unit == NUGGETS and e.unit_id is not None), key=event_order)
    cancelled = {e.target for e in ordered if e.kind == RETRACT and e.target}
    for event in ordered:
        if event.kind != NOTE or event.event_id in cancelled or not _by(event, model):
            continue
        version = parse_version(event.note)
        if isinstance(version, str):
            continue
        key = (event.topic_id, str(event.unit_id))
        fold.latest[key] = (event, version)
        fold.counts[key] = fold.counts.get(key, 0) + 1
    nuggets = [_nugget(event, version, fold.counts[key]) for key, (event, version) in fold.latest.items()]
    if not include_deleted:
        nuggets = [n for n in nuggets if not n.deleted]
    return sorted(nuggets, key=nugget_order)


def nugget_order(nugget: Nugget) -> tuple[str, int, int, str]:
    """The order nuggets are listed and exported in: topic, vital before okay, rank, id."""
    return nugget.topic_id, IMPORTANCE.index(nugget.importance), nugget.rank, nugget.nugget_id


def _by(event: Event, model: str | None) -> bool:
    if model is None:
        return event.source != MODEL
    return event.source == MODEL and event.model == model


def _nugget(event: Event, version: NuggetVersion, versions: int) -> Nugget:
    return Nugget(
        topic_id=event.topic_id,
        nugget_id=str(event.unit_id),
        text=version.text,
        importance=version.importance,
        rank=version.rank,
        origin=version.origin,
        sources=version.sources,
        draft=version.draft,
        assessor=event.assessor,
        source=event.source,
        model=event.model,
        time=event.time,
        event_id=event.event_id,
        versions=versions,
        deleted=version.deleted,
        merged_into=version.merged_into,
    )


def nugget_event(topic_id: str, nugget_id: str, version: NuggetVersion, *, assessor: str, time: str) -> Event:
    """The `nuggets` event that logs `version` (id, seq and clock are the store's to give; source human)."""
    return Event(
        event_id="",
        seq=0,
        topic_id=topic_id,
        unit_id=nugget_id,
        kind=NOTE,
        assessor=assessor,
        time=time,
        note=version.note(),
        unit=NUGGETS,
    )

"""Importing topics."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from labeler.errors import ConflictError, Hint, UnknownIdError, argument_hint
from labeler.json_form import JsonResult, json_field
from labeler.models import Topic
from labeler.store import Store
from labeler.workbench.setup import now


@dataclass(frozen=True)
class TopicsImport(JsonResult):
    """`import_topics`'s result: the file read, the topics it added, left and replaced, and the workbench's count."""

    path: str
    added: int
    unchanged: int
    updated: int
    topics: int


@dataclass(frozen=True)
class TopicListed(JsonResult):
    """One topic as `topics list` shows it: its id and texts."""

    topic_id: str = json_field(name="topic")
    title: str = json_field()
    description: str = json_field()
    narrative: str = json_field()


def import_topics(store: Store, path: str | Path, *, update: bool = False) -> TopicsImport:
    """Topics from JSONL, BEIR, TREC topic files or TSV; all or nothing.

    A topic already present with the same texts is left alone; with other
    texts it is refused unless `update` (assessors may have judged against
    the old wording).
    """
    from labeler.formats.topics import read_topics  # the file readers: not for `next`, which checks a topic here

    rows = read_topics(path)
    existing = {t.topic_id: t for t in store.topics()}
    added = unchanged = updated = 0
    to_write = []
    for line, topic in rows:
        previous = existing.get(topic.topic_id)
        if previous is None:
            added += 1
        elif previous == topic:
            unchanged += 1
            continue
        elif not update:
            raise ConflictError(
                f"topic {topic.topic_id!r} already exists with different text",
                path=path,
                line=line,
                hints=argument_hint("update", why="to replace it"),
            )
        else:
            updated += 1
        to_write.append(topic)
    with store.transaction():
        store.put_topics(to_write, now())
    return TopicsImport(path=str(path), added=added, unchanged=unchanged, updated=updated, topics=store.topic_count())


def list_topics(store: Store) -> list[TopicListed]:
    """Every topic with its texts, in id order."""
    return [TopicListed(t.topic_id, t.title, t.description, t.narrative) for t in store.topics()]


def topic_titles(store: Store) -> dict[str, str]:
    """Each topic's title by id, in id order: what the TUI's topic list shows beside each topic."""
    return {t.topic_id: t.title for t in store.topics()}


def find_topic(store: Store, topic_id: str) -> Topic | None:
    """One topic, or None when the workbench has no such topic (a judgment may name a topic not imported)."""
    return store.topic(topic_id)


def require_topic(store: Store, topic_id: str, *, pool: str | None = None) -> None:
    """Refuse a topic id the workbench has never heard of (a typo), with the hint to list the topics.

    A topic is known when it was imported, when a judgment names it, when it is in `pool` or when a
    run ranks units for it: a known topic with nothing left to judge is an answer ("nothing left",
    exit 0 in the CLI), an unknown one an error.
    """
    if store.topic(topic_id) is not None or topic_id in store.event_topics():
        return
    if pool is not None and store.pool_has_topic(pool, topic_id):
        return
    if any(topic_id in store.run_topics(name) for name in store.run_names()):
        return
    raise UnknownIdError(f"no topic {topic_id!r} in the workbench", hints=Hint("list_topics"))

"""Small immutable values shared by every layer.

They carry data between the readers, the store, the services and the front
ends; none of them knows about SQL, click or Textual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

UNIT_DOC = "doc"


def content_hash(text: str) -> str:
    """SHA-256 of text as UTF-8, hex: the identity of what an assessor read."""
    import hashlib  # OpenSSL loads when a text is hashed, not with every model

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Document:
    """A corpus document. `extra` keeps the fields we do not interpret."""

    doc_id: str
    title: str
    text: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def hash(self) -> str:
        return content_hash(self.title + "\n" + self.text)


@dataclass(frozen=True)
class Topic:
    """A query with the texts an assessor reads before judging."""

    topic_id: str
    title: str
    description: str = ""
    narrative: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Chunk:
    """A span of a parent document; offsets are characters into the document text.

    Offsets are None when a chunking was imported or derived without them.
    """

    chunk_id: str
    doc_id: str
    start: int | None = None
    end: int | None = None
    hash: str | None = None


@dataclass(frozen=True)
class Chunking:
    """A named, immutable unit mapping from chunks to documents."""

    name: str
    kind: str  # words | sentences | imported | derived
    params: dict[str, Any]
    hash: str
    created: str
    documents: int
    chunks: int


@dataclass(frozen=True)
class Unit:
    """What a run ranks and a judgment is about: `doc`, or `chunk` under a chunking."""

    kind: str  # "doc" | "chunk"
    chunking: str | None = None

    @classmethod
    def parse(cls, text: str) -> Unit:
        """Read `doc` or `chunk:NAME`; raise ValueError for anything else."""
        if text == UNIT_DOC:
            return cls(UNIT_DOC)
        if text.startswith("chunk:") and len(text) > len("chunk:"):
            return cls("chunk", text[len("chunk:") :])
        raise ValueError(f"unit must be 'doc' or 'chunk:NAME', not {text!r}")

    def __str__(self) -> str:
        return UNIT_DOC if self.kind == UNIT_DOC else f"chunk:{self.chunking}"


STAGES = ("candidate", "rerank", "context")


@dataclass(frozen=True)
class RunInfo:
    """A stored run's description (its rankings live apart, per topic)."""

    name: str
    unit: Unit
    stage: str
    source: str
    source_sha256: str
    tags: tuple[str, ...]
    topics: int
    entries: int
    max_depth: int
    policies: dict[str, Any]
    imported: str
    rankings_sha256: str | None = None  # the digest of the stored rankings, recorded once the import is complete


_DIGITS = re.compile(r"(\d+)")


def topic_sort_key(topic_id: str) -> tuple[tuple[str | int, ...], str]:
    """Natural order for showing topics: 2 < 10 < 100, "q2" < "q10", numeric ids before the rest.

    The id is cut into text and number chunks (text first, possibly empty, so
    the kinds alternate at the same positions and always compare alike); the id
    itself breaks ties ("007" and "7"). Exports whose bytes are fixed keep their
    own order (`labeler.formats.qrels.qrels_topic_key`).
    """
    parts = _DIGITS.split(topic_id)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts)), topic_id


@dataclass(frozen=True)
class PoolInfo:
    """A pool version: which runs, which strategy, at which unit."""

    name: str
    strategy: str
    depth: int
    params: dict[str, Any]
    runs: tuple[str, ...]
    unit: str
    created: str
    pairs: int


@dataclass(frozen=True)
class SnapshotInfo:
    """An immutable version of the labels."""

    name: str
    parent: str | None
    message: str
    created: str
    unit: str
    manifest: dict[str, Any]
    sha256: str  # of its labels (the qrels text)
    seal: str | None = None  # of its whole manifest (None: made before snapshots were sealed, or not stored)

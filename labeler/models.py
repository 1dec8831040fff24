"""Small immutable values shared by every layer.

They carry data between the readers, the store, the services and the front
ends; none of them knows about SQL, click or Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Re-exported: the pool values live in labeler.pool_models (which the judging queue reads alone), the run
# values in labeler.run_models.
from labeler.pool_models import PoolInfo, topic_sort_key
from labeler.run_models import STAGES, UNIT_DOC, RunInfo, Unit

__all__ = [
    "STAGES",
    "UNIT_DOC",
    "Chunk",
    "Chunking",
    "Document",
    "PoolInfo",
    "RunInfo",
    "SnapshotInfo",
    "Topic",
    "Unit",
    "content_hash",
    "topic_sort_key",
]


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

"""The values a stored run and a pool version are, and the natural order of topic ids.

They are what reading the judging queue and the status needs; labeler.models holds
them too (re-exported) beside the corpus, topic and snapshot values, which those
commands never build.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

UNIT_DOC = "doc"


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

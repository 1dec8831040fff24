"""What a stored run is, and the unit space it ranks.

labeler.models re-exports these beside the corpus, topic and snapshot values, which
`labeler status` never builds (it lists the runs).
"""

from __future__ import annotations

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

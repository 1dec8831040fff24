"""A pool version, one pooled pair, and the natural order of topic ids they are shown in.

What reading the judging queue builds of the pools; labeler.pooling (the strategies) and
labeler.models re-export them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

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
class PoolEntry:
    """One pooled pair and why it is in the pool.

    `best_rank` is 1-based and taken over `contributors`; `rrf` is the RRF
    score over every given run's full ranking, so it can order judging even
    when membership came from a shallower depth.
    """

    topic_id: str
    unit_id: str
    best_rank: int
    contributors: tuple[tuple[str, int], ...]
    rrf: float

    @property
    def runs(self) -> tuple[str, ...]:
        """The names of the contributing runs, in run order."""
        return tuple(run for run, _ in self.contributors)

"""The interface every retriever offers, built-in or plug-in.

A retriever is told its units once (`index`) and then asked one query at a
time (`search`). It returns at most `k` `(unit_id, score)` pairs, higher
scores better; the use case puts them in a run's canonical order (score
descending, ties by unit id descending), so a retriever that cuts its list at
`k` should break ties the same way (`top_k` does) to be deterministic.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Any

Units = Iterable[tuple[str, str]]
"""`(unit_id, text)` pairs: documents (title and text) or chunks (a span of the document text)."""

Hit = tuple[str, float]


class Retriever:
    """Base class for retrievers; a plug-in may subclass it or just offer the same attributes.

    `name` is recorded with the run, `version` says which implementation
    scored it (change it when scores change), and `params` are the settings
    that matter to reproduce it.
    """

    name: str = ""
    version: str = ""

    @property
    def params(self) -> dict[str, Any]:
        return {}

    def index(self, units: Units) -> None:
        raise NotImplementedError

    def search(self, query: str, k: int) -> list[Hit]:
        raise NotImplementedError


def top_k(scored: Iterable[Hit], k: int) -> list[Hit]:
    """The best `k` hits, score descending and ties by unit id descending (a run's canonical order)."""
    return heapq.nlargest(k, scored, key=lambda hit: (hit[1], hit[0]))

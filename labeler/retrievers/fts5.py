"""BM25 by SQLite FTS5 (porter stemming, unicode61 words), through functions the store provides.

The index and the query run in SQL, which lives only in `labeler.store`; this
class is handed the store's `build_unit_search` and `search_units` so the
domain never touches SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from labeler.errors import LabelerError
from labeler.retrievers.base import Hit, Retriever, Units
from labeler.retrievers.catalog import RETRIEVERS, FullTextIndex, RetrieverKind

BuildIndex = Callable[[Units], int]
SearchIndex = Callable[[str, int], list[Hit]]


class FTS5Retriever(Retriever):
    """BM25 as SQLite computes it (k1 = 1.2, b = 0.75, fixed by SQLite); the score stored is -bm25()."""

    name = "fts5"

    def __init__(self, build_index: BuildIndex, search_index: SearchIndex, sqlite_version: str):
        self._build_index = build_index
        self._search_index = search_index
        self.version = f"sqlite {sqlite_version}"

    @property
    def params(self) -> dict[str, Any]:
        return {"tokenizer": "porter unicode61", "k1": 1.2, "b": 0.75, "query": "terms ORed"}

    def index(self, units: Units) -> None:
        self._build_index(units)

    def search(self, query: str, k: int) -> list[Hit]:
        return self._search_index(query, k)


def make_fts5(params: dict[str, Any], full_text: FullTextIndex | None) -> FTS5Retriever:
    """The fts5 retriever over the store's full-text functions; it takes no parameters."""
    if params:
        raise LabelerError(
            f"retriever 'fts5' takes no parameters (SQLite fixes BM25's k1 and b), not {', '.join(sorted(params))}"
        )
    if full_text is None:
        raise ValueError("the fts5 retriever needs the store's full-text functions")
    return FTS5Retriever(full_text.build_unit_search, full_text.search_units, full_text.sqlite_version())


RETRIEVERS.register(
    "fts5",
    RetrieverKind(
        "fts5",
        description="BM25 by SQLite FTS5, porter stemming, unicode61 words, k1 1.2 and b 0.75 fixed",
        parameters="none",
        factory=make_fts5,
        uses_full_text=True,
    ),
)

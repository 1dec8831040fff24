"""A built-in retriever is one module plus one registration: `--retriever` and its help then offer it.

The toy retriever below ("longest": the longest units first, whatever the
query) is registered by the test itself and must be a valid `--retriever`,
appear in `runs retrieve --help` and in the generated docs table, then go
away when unregistered.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from labeler.cli import cli
from labeler.retrievers.base import Hit, Retriever, Units
from labeler.retrievers.catalog import RetrieverKind, build_with_params
from labeler.retrievers.registry import RETRIEVERS, make_retriever


class Longest(Retriever):
    """Scores a unit by its length in characters (ties: unit id descending, as `top_k` breaks them)."""

    name = "longest"
    version = "toy 1"

    def __init__(self, cap: int = 1000):
        self.cap = cap
        self._lengths: dict[str, int] = {}

    @property
    def params(self) -> dict[str, Any]:
        return {"cap": self.cap}

    def index(self, units: Units) -> None:
        self._lengths = {unit_id: min(len(text), self.cap) for unit_id, text in units}

    def search(self, query: str, k: int) -> list[Hit]:
        return sorted(((u, float(n)) for u, n in self._lengths.items()), key=lambda h: (h[1], h[0]), reverse=True)[:k]


@pytest.fixture
def longest():
    RETRIEVERS.register(
        "longest",
        RetrieverKind(
            "longest",
            description="the longest units first",
            parameters="`cap` (1000)",
            factory=lambda params, full_text: build_with_params("longest", Longest, params),
        ),
    )
    yield "longest"
    RETRIEVERS.unregister("longest")


def test_the_built_ins_are_registered_in_order():
    assert RETRIEVERS.names()[:3] == ("fts5", "bm25s", "ql")


def test_a_name_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="retriever 'ql' is already registered"):
        RETRIEVERS.register("ql", RetrieverKind("ql", description="x", parameters="", factory=lambda p, f: None))


def test_a_registered_retriever_makes_a_run(hand_cli, longest, stored_units):
    result = hand_cli.json("runs", "retrieve", "--retriever", "longest", "--name", "long", "--depth", "2")
    assert stored_units("long", "1") == ["d2", "d4"]  # 32 and 31 characters: the two longest texts
    assert (result["policies"]["retriever_version"], result["policies"]["retriever_params"]) == ("toy 1", {"cap": 1000})
    result = hand_cli("runs", "retrieve", "--retriever", "longest", "--name", "x", "--param", "size=2", expect=1)
    assert "retriever 'longest' takes no parameter size (it takes cap)" in result.stderr


def test_a_registered_retriever_is_in_the_help_and_the_docs_table(longest):
    from labeler.cli.common.doc_tables import retrievers_table, stale_tables

    text = " ".join(CliRunner().invoke(cli, ["runs", "retrieve", "--help"]).output.split())
    assert "--retriever fts5|bm25s|ql|longest|command:CMD" in text
    assert "ql (query likelihood with Dirichlet smoothing, lowercase words, no stemming), longest (the longest" in text
    assert "| `longest` | the longest units first | `cap` (1000) |" in retrievers_table().splitlines()
    assert stale_tables() == ["cli.md: retrievers"]


def test_an_unregistered_retriever_is_unknown_again(longest):
    RETRIEVERS.unregister("longest")
    try:
        with pytest.raises(Exception, match="unknown retriever 'longest'"):
            make_retriever("longest")
        assert "longest" not in CliRunner().invoke(cli, ["runs", "retrieve", "--help"]).output
    finally:
        RETRIEVERS.register(
            "longest", RetrieverKind("longest", description="", parameters="", factory=lambda p, f: None)
        )

"""Query likelihood with Dirichlet smoothing, in pure Python over term statistics.

score(q, d) = sum over query words t of  log( (tf(t, d) + mu * cf(t) / |C|) / (|d| + mu) )

Words are lowercase `\\w+` runs minus a short English stopword list, without
stemming: a different view of the text from the two BM25 retrievers. Only
units holding at least one query word are ranked (as search engines do), and
query words absent from the whole collection are left out, since their
probability is 0 in every unit.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from labeler.retrievers.base import Hit, Retriever, Units, top_k
from labeler.retrievers.catalog import RETRIEVERS, FullTextIndex, RetrieverKind, build_with_params

VERSION = "1"
WORD = re.compile(r"\w+")
STOPWORDS = frozenset(
    "a an and are as at be by for from has have in is it its of on or that the this to was were will with".split()
)


def words(text: str) -> list[str]:
    """The index words of a text: lowercase `\\w+` runs that are not stopwords."""
    return [word for word in WORD.findall(text.lower()) if word not in STOPWORDS]


class QueryLikelihood(Retriever):
    """Dirichlet-smoothed query likelihood (Zhai and Lafferty 2001); `mu` is the smoothing mass."""

    name = "ql"
    version = VERSION

    def __init__(self, mu: float = 2000.0):
        if isinstance(mu, bool) or not isinstance(mu, (int, float)) or not mu > 0 or math.isinf(mu):
            raise ValueError(f"mu must be a positive number, not {mu!r}")
        self.mu = float(mu)
        self._postings: dict[str, dict[str, int]] = {}
        self._lengths: dict[str, int] = {}
        self._collection: Counter[str] = Counter()
        self._collection_length = 0

    @property
    def params(self) -> dict[str, Any]:
        return {"mu": self.mu, "stemming": "none", "stopwords": "labeler-small-en"}

    def index(self, units: Units) -> None:
        postings: dict[str, dict[str, int]] = {}
        lengths: dict[str, int] = {}
        collection: Counter[str] = Counter()
        for unit_id, text in units:
            counts = Counter(words(text))
            lengths[unit_id] = sum(counts.values())
            collection.update(counts)
            for word, tf in counts.items():
                postings.setdefault(word, {})[unit_id] = tf
        self._postings, self._lengths, self._collection = postings, lengths, collection
        self._collection_length = sum(lengths.values())

    def search(self, query: str, k: int) -> list[Hit]:
        query_words = [word for word in words(query) if word in self._collection]
        if not query_words or k < 1:
            return []
        mu, total = self.mu, self._collection_length
        candidates = set().union(*(self._postings[word] for word in query_words))
        scores = dict.fromkeys(candidates, 0.0)
        for word in query_words:  # one term per query word: a repeated word counts again
            background = mu * self._collection[word] / total
            posting = self._postings[word]
            for unit_id in candidates:
                scores[unit_id] += math.log((posting.get(unit_id, 0) + background) / (self._lengths[unit_id] + mu))
        return top_k(scores.items(), k)


def make_ql(params: dict[str, Any], full_text: FullTextIndex | None) -> QueryLikelihood:
    """Query likelihood with the run's parameters (`mu`)."""
    retriever: QueryLikelihood = build_with_params("ql", QueryLikelihood, params)
    return retriever


RETRIEVERS.register(
    "ql",
    RetrieverKind(
        "ql",
        description="query likelihood with Dirichlet smoothing, lowercase words, no stemming",
        parameters="`mu` (2000)",
        factory=make_ql,
    ),
)

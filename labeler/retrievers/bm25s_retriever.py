"""BM25 with the `bm25s` package: its own tokenizer, English stopwords and (with PyStemmer) Snowball stemming.

`bm25s` is imported when the retriever is made, not with the package, so the
rest of labeler loads without numpy.
"""

from __future__ import annotations

import importlib.util
import math
from importlib import metadata
from typing import Any

from labeler.errors import LabelerError
from labeler.retrievers.base import Hit, Retriever, Units, top_k
from labeler.retrievers.catalog import RETRIEVERS, FullTextIndex, RetrieverKind, build_with_params

STEMMERS = ("auto", "english", "none")
METHODS = ("lucene", "robertson", "atire", "bm25l", "bm25+")


def pystemmer_available() -> bool:
    return importlib.util.find_spec("Stemmer") is not None


class BM25SRetriever(Retriever):
    """Okapi BM25 (`method`: lucene by default) over bm25s tokens; units that share no token score nothing.

    `stemmer="auto"` stems with PyStemmer's English Snowball stemmer when it is
    installed and records which was used, so a run says how it was made.
    """

    name = "bm25s"

    def __init__(self, k1: float = 1.5, b: float = 0.75, method: str = "lucene", stemmer: str = "auto"):
        try:
            import bm25s
        except ImportError:
            raise LabelerError("the bm25s retriever needs the bm25s package: pip install bm25s") from None
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        if stemmer not in STEMMERS:
            raise ValueError(f"stemmer must be one of {', '.join(STEMMERS)}, not {stemmer!r}")
        if stemmer == "auto":
            stemmer = "english" if pystemmer_available() else "none"
        if stemmer == "english" and not pystemmer_available():
            raise LabelerError("stemmer=english needs PyStemmer: pip install PyStemmer (or pass stemmer=none)")
        for key, value in (("k1", k1), ("b", b)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
                raise ValueError(f"{key} must be a number 0 or more, not {value!r}")
        self._bm25s = bm25s
        self._stemmer = None
        if stemmer == "english":
            import Stemmer

            self._stemmer = Stemmer.Stemmer("english")
        self.k1, self.b, self.method, self.stemmer = float(k1), float(b), method, stemmer
        self.version = f"bm25s {metadata.version('bm25s')}"
        if self._stemmer is not None:
            self.version += f", PyStemmer {metadata.version('PyStemmer')}"
        self._model = bm25s.BM25(k1=self.k1, b=self.b, method=method)
        self._unit_ids: list[str] = []

    @property
    def params(self) -> dict[str, Any]:
        return {"k1": self.k1, "b": self.b, "method": self.method, "stopwords": "en", "stemmer": self.stemmer}

    def _tokens(self, texts: list[str]) -> list[list[str]]:
        return self._bm25s.tokenize(texts, stopwords="en", stemmer=self._stemmer, return_ids=False, show_progress=False)

    def index(self, units: Units) -> None:
        unit_ids, texts = [], []
        for unit_id, text in units:
            unit_ids.append(unit_id)
            texts.append(text)
        self._unit_ids = unit_ids
        if texts:
            self._model.index(self._tokens(texts), show_progress=False)

    def search(self, query: str, k: int) -> list[Hit]:
        if not self._unit_ids or k < 1:
            return []
        known = self._model.get_tokens_ids(self._tokens([query])[0])
        known = [token for token in known if token != self._model.vocab_dict.get("")]
        if not known:
            return []
        scores = self._model.get_scores(known)
        # Only units holding a query token are ranked (BM25L and BM25+ give the others a score too), and the
        # cut is made here by (score, id): bm25s's own top-k would break ties arbitrarily.
        indptr, indices = self._model.scores["indptr"], self._model.scores["indices"]
        matching = set()
        for token in set(known):
            matching.update(indices[indptr[token] : indptr[token + 1]].tolist())
        return top_k(((self._unit_ids[i], float(scores[i])) for i in matching), k)


def make_bm25s(params: dict[str, Any], full_text: FullTextIndex | None) -> BM25SRetriever:
    """BM25 by bm25s with the run's parameters (`k1`, `b`, `method`, `stemmer`)."""
    retriever: BM25SRetriever = build_with_params("bm25s", BM25SRetriever, params)
    return retriever


RETRIEVERS.register(
    "bm25s",
    RetrieverKind(
        "bm25s",
        description="BM25 by the bm25s package, English stopwords, Snowball stemming with PyStemmer",
        parameters="`k1` (1.5), `b` (0.75), `method` (`lucene`), `stemmer` (`auto`, `english` or `none`)",
        factory=make_bm25s,
    ),
)

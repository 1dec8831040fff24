"""An example retriever for labeler, usable both ways labeler runs outside retrievers.

Coordination-level matching: a unit scores the number of distinct query words
it contains, plus a small bonus for being short. Crude, but it shows the whole
interface.

1. As a plug-in (an entry point). In your package's pyproject.toml:

       [project.entry-points."labeler.retrievers"]
       overlap = "retriever_plugin:OverlapRetriever"

   then `pip install -e .` and:

       labeler runs retrieve --retriever overlap --name overlap --param min_words=2

   labeler calls `OverlapRetriever(**params)`, then `index(units)` once with
   `(unit_id, text)` pairs (documents or chunks), then `search(query, k)` per
   topic. Return `(unit_id, score)` pairs, higher is better; labeler sorts them
   by score, ties by unit id descending, and stores them like an imported run.

2. As a command, with its own copy of the corpus:

       labeler runs retrieve --retriever command:'python examples/retriever_plugin.py corpus.jsonl' --name overlap

   labeler writes the topics to stdin, one JSON object per line
   (`{"id", "title", "description", "narrative"}`), and reads a TREC run from
   stdout. LABELER_RETRIEVE_DEPTH says how many results per topic it keeps.
   sample_corpus/my-retriever.run, the run the README's walkthrough imports,
   is this mode's output on the sample corpus (sample_corpus/README.md says how).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable

WORD = re.compile(r"\w+")


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


class OverlapRetriever:
    """Distinct query words found in the unit; among equals, shorter units first."""

    name = "overlap"
    version = "1"

    def __init__(self, min_words: int = 1):
        if min_words < 1:
            raise ValueError(f"min_words must be 1 or more, not {min_words}")
        self.min_words = min_words
        self.units: list[tuple[str, set[str], int]] = []

    @property
    def params(self) -> dict:
        return {"min_words": self.min_words}

    def index(self, units: Iterable[tuple[str, str]]) -> None:
        self.units = [(unit_id, words(text), len(text)) for unit_id, text in units]

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        wanted = words(query)
        hits = []
        for unit_id, unit_words, length in self.units:
            found = len(wanted & unit_words)
            if found >= self.min_words:
                hits.append((unit_id, found + 1 / (1 + length)))
        hits.sort(key=lambda hit: (hit[1], hit[0]), reverse=True)
        return hits[:k]


def main(corpus_path: str) -> None:
    """Command mode: index a JSONL corpus, read topics on stdin, print a TREC run."""
    retriever = OverlapRetriever()
    with open(corpus_path, encoding="utf-8") as corpus:
        documents = [json.loads(line) for line in corpus if line.strip()]
    retriever.index((d["id"], f"{d.get('title', '')}\n{d['text']}") for d in documents)
    depth = int(os.environ.get("LABELER_RETRIEVE_DEPTH", "100"))
    for line in sys.stdin:
        topic = json.loads(line)
        for rank, (unit_id, score) in enumerate(retriever.search(topic["title"], depth), 1):
            print(f"{topic['id']} Q0 {unit_id} {rank} {score:.6f} overlap")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: retriever_plugin.py CORPUS.jsonl  (topics as JSON lines on stdin)")
    main(sys.argv[1])

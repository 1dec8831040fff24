"""Retrievers that make runs from the workbench's own corpus and topics.

The domain side only: each retriever indexes `(unit_id, text)` pairs and
answers a query with scored unit ids. `registry` resolves a name (a built-in,
a `labeler.retrievers` entry point, or `command:CMD`) to one of them; the
use case that stores the result as a run is `labeler.workbench.retrieve`.
"""

from labeler.retrievers.base import Hit, Retriever, Units, top_k

__all__ = ["Hit", "Retriever", "Units", "top_k"]

"""Use cases in domain words, the one place both front ends call.

Each function takes an open `Store` (or a path, for `init`), does one thing a
user asked for, and returns a plain, JSON-ready result. The CLI formats it;
the TUI shows it. Nothing here parses arguments or draws anything.
"""

from labeler.workbench.corpus import chunk_corpus, derive_chunking, import_corpus, import_mapping, list_chunkings
from labeler.workbench.runs import import_run, list_runs
from labeler.workbench.setup import Progress, init_workbench, open_workbench, status
from labeler.workbench.topics import import_topics, list_topics

__all__ = [
    "Progress",
    "chunk_corpus",
    "derive_chunking",
    "import_corpus",
    "import_mapping",
    "import_run",
    "import_topics",
    "init_workbench",
    "list_chunkings",
    "list_runs",
    "list_topics",
    "open_workbench",
    "status",
]

"""Use cases in domain words, the one place both front ends call.

Each function takes an open `Store` (or a path, for `init`), does one thing a
user asked for, and returns a plain, JSON-ready result. The CLI formats it;
the TUI shows it. Nothing here parses arguments or draws anything.

`Store` is re-exported as the handle the front ends hold: they open it with
`open_workbench`, pass it to the use cases and close it, and call none of its
methods (the import-linter contracts in pyproject.toml forbid them `labeler.store`).
"""

from labeler.store import Store
from labeler.workbench.corpus import (
    chunk_corpus,
    chunk_rows,
    derive_chunking,
    import_corpus,
    import_mapping,
    list_chunkings,
)
from labeler.workbench.judging import adjudicate, import_judgments, mark_topic, record_judgment, undo
from labeler.workbench.labels import current_labels, judging_pace, judging_rate, pair_state, topic_labels, unit_space
from labeler.workbench.pools import build_pool, list_pools
from labeler.workbench.queue import QueueItem, next_unit, queue
from labeler.workbench.retrieve import retrieve_run
from labeler.workbench.runs import export_run, import_run, list_runs, retire_run
from labeler.workbench.setup import Progress, init_workbench, open_workbench
from labeler.workbench.snapshots import (
    conflicts_left_out,
    create_snapshot,
    diff_snapshots,
    export_qrels,
    list_snapshots,
    show_snapshot,
    verify_snapshots,
)
from labeler.workbench.status import status
from labeler.workbench.topics import import_topics, list_topics

__all__ = [
    "Progress",
    "QueueItem",
    "Store",
    "adjudicate",
    "build_pool",
    "chunk_corpus",
    "chunk_rows",
    "conflicts_left_out",
    "create_snapshot",
    "current_labels",
    "derive_chunking",
    "diff_snapshots",
    "export_qrels",
    "export_run",
    "import_corpus",
    "import_judgments",
    "import_mapping",
    "import_run",
    "import_topics",
    "init_workbench",
    "judging_pace",
    "judging_rate",
    "list_chunkings",
    "list_pools",
    "list_runs",
    "list_snapshots",
    "list_topics",
    "mark_topic",
    "next_unit",
    "open_workbench",
    "pair_state",
    "queue",
    "record_judgment",
    "retire_run",
    "retrieve_run",
    "show_snapshot",
    "status",
    "topic_labels",
    "undo",
    "unit_space",
    "verify_snapshots",
]

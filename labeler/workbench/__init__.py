"""Use cases in domain words, the one place both front ends call.

Each function takes an open `Store` (or a path, for `init`), does one thing a
user asked for, and returns a plain, JSON-ready result. The CLI formats it;
the TUI shows it. Nothing here parses arguments or draws anything.

`Store` is re-exported as the handle the front ends hold: they open it with
`open_workbench`, pass it to the use cases and close it, and call none of its
methods (the import-linter contracts in pyproject.toml forbid them `labeler.store`).

Each name is imported from its module when first used (`__getattr__` below), not when this package
is: `labeler --help` and a command that needs one use case load no other use case, nor the store.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.store import Store
    from labeler.workbench.corpus import (
        chunk_corpus,
        chunk_rows,
        derive_chunking,
        import_corpus,
        import_mapping,
        list_chunkings,
    )
    from labeler.workbench.pools import build_pool, list_pools
    from labeler.workbench.queue import QueueItem, next_unit, queue
    from labeler.workbench.read_labels import (
        current_labels,
        judging_pace,
        judging_rate,
        pair_state,
        topic_labels,
        unit_space,
    )
    from labeler.workbench.record_judgments import adjudicate, import_judgments, mark_topic, record_judgment, undo
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

_WHERE = {
    "Progress": "labeler.workbench.setup",
    "QueueItem": "labeler.workbench.queue",
    "Store": "labeler.store",
    "adjudicate": "labeler.workbench.record_judgments",
    "build_pool": "labeler.workbench.pools",
    "chunk_corpus": "labeler.workbench.corpus",
    "chunk_rows": "labeler.workbench.corpus",
    "conflicts_left_out": "labeler.workbench.snapshots",
    "create_snapshot": "labeler.workbench.snapshots",
    "current_labels": "labeler.workbench.read_labels",
    "derive_chunking": "labeler.workbench.corpus",
    "diff_snapshots": "labeler.workbench.snapshots",
    "export_qrels": "labeler.workbench.snapshots",
    "export_run": "labeler.workbench.runs",
    "import_corpus": "labeler.workbench.corpus",
    "import_judgments": "labeler.workbench.record_judgments",
    "import_mapping": "labeler.workbench.corpus",
    "import_run": "labeler.workbench.runs",
    "import_topics": "labeler.workbench.topics",
    "init_workbench": "labeler.workbench.setup",
    "judging_pace": "labeler.workbench.read_labels",
    "judging_rate": "labeler.workbench.read_labels",
    "list_chunkings": "labeler.workbench.corpus",
    "list_pools": "labeler.workbench.pools",
    "list_runs": "labeler.workbench.runs",
    "list_snapshots": "labeler.workbench.snapshots",
    "list_topics": "labeler.workbench.topics",
    "mark_topic": "labeler.workbench.record_judgments",
    "next_unit": "labeler.workbench.queue",
    "open_workbench": "labeler.workbench.setup",
    "pair_state": "labeler.workbench.read_labels",
    "queue": "labeler.workbench.queue",
    "record_judgment": "labeler.workbench.record_judgments",
    "retire_run": "labeler.workbench.runs",
    "retrieve_run": "labeler.workbench.retrieve",
    "show_snapshot": "labeler.workbench.snapshots",
    "status": "labeler.workbench.status",
    "topic_labels": "labeler.workbench.read_labels",
    "undo": "labeler.workbench.record_judgments",
    "unit_space": "labeler.workbench.read_labels",
    "verify_snapshots": "labeler.workbench.snapshots",
}
"""Where each re-exported name is defined (the imports above, for type checkers and import-linter)."""


_SHADOWED = frozenset(name for name, module in _WHERE.items() if module == f"{__name__}.{name}")
"""Names of a use case that are also the name of its module (`queue`, `status`): the function wins."""


class _Package(types.ModuleType):
    """This package, where importing the module `queue` (or `status`) still leaves the function under that name.

    The import system binds a submodule as an attribute of its package once it is imported; an
    eager re-export would overwrite that binding with the function, so this keeps the function.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    """`labeler.workbench.NAME`: imported from its module on first use, then kept here."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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

"""Opening a workbench, the time every event is stamped with, and its grade scale (creating one: `init`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.store import Store as Store  # re-exported: the handle the front ends hold
from labeler.store.connection import environment_error  # noqa: F401 - for the front ends' error lines

if TYPE_CHECKING:
    from labeler.scales import GradeScale

Progress = Callable[[int, int], None]
"""Called as progress(done, total) during long work; the CLI draws a bar with it."""


def now() -> str:
    """The current time, UTC, ISO 8601 with microseconds: sortable and unambiguous."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def open_workbench(path: str | Path) -> Store:
    """An existing workbench, upgraded if an older labeler made it."""
    return Store(path)


def grade_scale(store: Store) -> GradeScale:
    """The workbench's grade scale: the keys, labels and relevance threshold a front end shows."""
    return store.scale()

"""Several annotators, one set of labels: merging workbenches and judgment logs.

A judgment log is a set of events with ids unique across workbenches, and
labels are derived from events in time order, so merging is a union by id:
idempotent (merging twice adds nothing) and order-independent (A into B and
B into A derive the same labels). Snapshots, pools and runs stay local.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from labeler.errors import FormatError, LabelerError
from labeler.formats.lines import TextLines, data_lines
from labeler.judgments import EVENT_KINDS, SOURCES, Event, event_order
from labeler.paths import require_regular_file
from labeler.store import Store
from labeler.workbench.labels import current_labels

SQLITE_MAGIC = b"SQLite format 3\x00"
LOG_FIELDS = ("event_id", "topic_id", "unit", "unit_id", "kind", "grade", "reason", "note", "assessor", "source",
              "model", "time", "active_ms", "content_hash", "order", "seed", "target", "pool")


def export_log(store: Store) -> Iterator[str]:
    """The whole judgment log as JSON lines, in local order (one event per line)."""
    for event in store.all_events():
        row = asdict(event)
        yield json.dumps({key: row[key] for key in LOG_FIELDS}, ensure_ascii=False, sort_keys=True) + "\n"


def read_log(path: str | Path) -> list[Event]:
    """Events from a JSONL log written by `export_log`; file:line errors for anything else."""
    events = []
    for number, line in data_lines(TextLines(path, FormatError), comments=False):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"invalid JSON: {exc.msg}", path=path, line=number) from None
        if not isinstance(row, dict):
            raise FormatError("expected a JSON object per line", path=path, line=number)
        missing = [f for f in ("event_id", "topic_id", "unit", "kind", "assessor", "source", "time") if not row.get(f)]
        if missing:
            raise FormatError(f"an event needs {', '.join(missing)}", path=path, line=number)
        if row["kind"] not in EVENT_KINDS:
            raise FormatError(f"unknown event kind {row['kind']!r}", path=path, line=number)
        if row["source"] not in SOURCES:
            raise FormatError(f"unknown source {row['source']!r}", path=path, line=number)
        if row["kind"] in ("grade", "adjudicate") and not isinstance(row.get("grade"), int):
            raise FormatError("a grade event needs an integer grade", path=path, line=number)
        unknown = set(row) - set(LOG_FIELDS)
        if unknown:
            raise FormatError(f"unknown field(s) {', '.join(sorted(unknown))}", path=path, line=number)
        events.append(Event(seq=0, **{key: row.get(key) for key in LOG_FIELDS}))
    return events


def merge(store: Store, other: str | Path) -> dict[str, Any]:
    """Union another workbench's (or a JSONL log's) events into this one; report new conflicts."""
    path = Path(other)
    require_regular_file(path)  # a FIFO would block the open below; a folder or device is no log
    if path.resolve() == store.path.resolve():
        raise LabelerError("cannot merge a workbench into itself", path=path)
    with open(path, "rb") as handle:
        is_db = handle.read(16) == SQLITE_MAGIC
    if is_db:
        with Store(path, readonly=True) as source:
            events = source.all_events() if "events" in source.db.table_names() else []
    else:
        events = read_log(path)
    known = store.event_ids()
    seen: set[str] = set()
    new = []
    for event in sorted(events, key=event_order):
        if event.event_id not in known and event.event_id not in seen:
            seen.add(event.event_id)
            new.append(event)
    spaces = sorted({e.unit for e in new if e.unit_id is not None})
    before = {space: _conflicts(store, space) for space in spaces}
    with store.transaction():
        store.append_events(new)
    new_conflicts = sorted((space, topic, unit) for space in spaces for (topic, unit) in
                           _conflicts(store, space) - before[space])
    topics = store.topic_ids()
    unknown_topics = sorted({e.topic_id for e in new if topics and e.topic_id not in topics})
    return {
        "source": str(path),
        "format": "workbench" if is_db else "jsonl",
        "events": len(events),
        "added": len(new),
        "already_present": len(events) - len(new),
        "assessors": sorted({e.assessor for e in new}),
        "new_conflicts": [{"unit": s, "topic": t, "unit_id": u} for s, t, u in new_conflicts],
        "unknown_topics": unknown_topics,
    }


def _conflicts(store: Store, space: str) -> set[tuple[str, str]]:
    return {pair for pair, state in current_labels(store, space).items() if state.conflict}


def backup(store: Store, destination: str | Path) -> dict[str, Any]:
    """Copy the workbench with SQLite's online backup, then check the copy."""
    from labeler.workbench.check import check_workbench

    path = Path(destination)
    if path.exists():
        raise LabelerError("exists already: choose a new file for the backup", path=path)
    if path.resolve() == store.path.resolve():
        raise LabelerError("cannot back a workbench up onto itself", path=path)
    store.backup_to(path)
    with Store(path) as copy:
        checked = check_workbench(copy)
        events = copy.event_count()
        snapshots = len(copy.snapshots())
    return {"path": str(path), "ok": checked["ok"], "events": events, "snapshots": snapshots,
            "bytes": path.stat().st_size}

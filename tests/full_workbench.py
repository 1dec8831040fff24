"""A workbench with rows in every guarded table, built once per session and copied per test.

The demo (corpus, topics, a chunking, retrieved runs, imported judgments, a
snapshot, a pool) plus a human judgment, a document change, a retired run and an assignment, so that every
append-only table holds something to tamper with.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from labeler.store import Store
from labeler.workbench.assignments import assign
from labeler.workbench.corpus import import_corpus
from labeler.workbench.demo import build_demo
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import retire_run

CHANGED_DOC = "agri-001"


def build_full_workbench(folder: Path) -> bytes:
    """The bytes of the workbench file, its WAL checkpointed into it."""
    db = build_demo(folder, lambda *_: None).db
    with Store(db) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id=CHANGED_DOC, assessor="ann", grade=2, allow_unknown=True))
        document = store.document(CHANGED_DOC)
        changed = folder / "changed.jsonl"
        changed.write_text(json.dumps({"id": CHANGED_DOC, "title": document.title, "text": document.text + " More."}))
        import_corpus(store, changed, update=True)
        retire_run(store, store.run_names()[-1], reason="a row in run_retirements")
        assign(store, ["ann", "bob"], topics=["1"], overlap=0.2, by="tests")  # a row in assignments
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db.read_bytes()


def copy_to(data: bytes, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "wb.db"
    db.write_bytes(data)
    return db

"""The only code that runs SQL: the workbench file, in domain terms.

`Store` turns rows into models and back. Its methods are grouped by what they
hold (corpus, topics, runs, ...) in mixin modules beside this one; the
services in `labeler.workbench` combine them into use cases.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.errors import Hint, LabelerError, NotFoundError, SchemaVersionError, argument_hint
from labeler.store.answer_rows import AnswerRows
from labeler.store.assignment_rows import AssignmentRows
from labeler.store.check_rows import CheckRows
from labeler.store.claim_rows import ClaimRows
from labeler.store.connection import (
    Connection,
    check_version,
    connect,
    damage_as_error,
    unreadable,
    upgrade,
    write_transaction,
)
from labeler.store.corpus_rows import CorpusRows
from labeler.store.digests import text_sha256
from labeler.store.event_rows import EventRows
from labeler.store.merge_rows import MergeRows
from labeler.store.pool_rows import PoolRows
from labeler.store.run_rows import RunRows
from labeler.store.search_rows import SearchRows
from labeler.store.snapshot_rows import SnapshotRows
from labeler.store.topic_rows import TopicRows

if TYPE_CHECKING:
    from labeler.scales import GradeScale


class Store(
    CorpusRows,
    TopicRows,
    RunRows,
    PoolRows,
    EventRows,
    SnapshotRows,
    CheckRows,
    SearchRows,
    MergeRows,
    AssignmentRows,
    ClaimRows,
    AnswerRows,
):
    """A labeler workbench file."""

    def __init__(self, path: str | Path, *, create: bool = False, readonly: bool = False):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise NotFoundError(
                "no workbench here",
                path=self.path,
                hints=(Hint("init_workbench"), argument_hint("db", why="to open another workbench")),
            )
        if self.path.is_dir():
            raise SchemaVersionError("is a folder, not a workbench file", path=self.path)
        self.db = connect(self.path, readonly=readonly)
        try:
            self._open(create=create, readonly=readonly)
        except sqlite3.DatabaseError as exc:  # a truncated or corrupt file: say so, never a traceback
            self.db.close()
            raise unreadable(exc, self.path) from None
        except LabelerError:
            self.db.close()
            raise

    def _open(self, *, create: bool, readonly: bool) -> None:
        version = check_version(self.db, self.path)
        if readonly:
            if version == 0:
                raise NotFoundError("not a labeler workbench (never initialised)", path=self.path)
            return  # read as it is: never upgraded, never written
        if version == 0:
            if not create:
                raise NotFoundError("not initialised", path=self.path, hints=Hint("init_workbench"))
            upgrade(self.db)
        elif version < _schema_version():
            upgrade(self.db)
        # an up-to-date workbench opened to create one is left as it is: a refused `init` writes nothing

    def damage_as_error(self) -> AbstractContextManager[None]:
        """Inside: what a damaged file raises becomes `DamagedWorkbenchError` naming this file."""
        return damage_as_error(self.path)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> AbstractContextManager[Connection]:
        """A write transaction: everything inside commits together or not at all."""
        return write_transaction(self.db)

    # -- meta -----------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )

    def scale(self) -> GradeScale:
        from labeler.scales import PRESETS, GradeScale  # read by the commands that grade, not by every start

        text = self.get_meta("scale")
        return GradeScale.from_dict(json.loads(text)) if text else PRESETS["default"]

    def set_scale(self, scale: GradeScale) -> None:
        """The scale as canonical JSON, and its SHA-256 that `labeler check` compares it with."""
        text = json.dumps(scale.to_dict(), sort_keys=True)
        self.set_meta("scale", text)
        self.set_meta("scale_sha256", text_sha256(text))

    def has_labels(self) -> bool:
        """True once any judgment has been recorded (the scale can no longer change)."""
        return bool(self.db.execute("SELECT EXISTS (SELECT 1 FROM events)").fetchone()[0])

    def counts(self) -> dict[str, Any]:
        """How much the workbench holds, for `status`."""

        def one(sql: str) -> int:
            return int(self.db.execute(sql).fetchone()[0])

        return {
            "documents": one("SELECT count(*) FROM documents"),
            "chunkings": one("SELECT count(*) FROM chunkings"),
            "topics": one("SELECT count(*) FROM topics"),
            "runs": one("SELECT count(*) FROM runs"),
            "document_changes": one("SELECT count(*) FROM document_changes"),
        }


def _schema_version() -> int:
    from labeler.store.schema import SCHEMA_VERSION

    return SCHEMA_VERSION

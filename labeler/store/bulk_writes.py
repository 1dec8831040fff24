"""Appending many rows at once: the no-replace guard held per batch, and a page cache that fits the batch.

The append-only guards (`labeler.store.guards`) include a BEFORE INSERT
trigger per table that refuses a row whose key is already there: two index
lookups per inserted row, which is most of what a large append costs beyond
SQLite's own insert. A batch appended with plain INSERT needs no such trigger
to be refused a duplicate: the table's primary and unique keys refuse it
already, and only `INSERT OR REPLACE` (which the append paths never write)
would get past them. So inside the write transaction the trigger is dropped,
the batch inserted, and the trigger created again with the exact text
`labeler.store.guards` gives, before the transaction commits: other
connections never see the file without it, and `labeler check` compares the
same text. A trigger that is not that text (changed behind labeler's back) is
left as it is, and the batch goes through it row by row, so `check` still
reports it.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING

from labeler.store.guards import expected_guards

if TYPE_CHECKING:
    from labeler.store.connection import Connection

HELD_FROM = 64
"""Rows in a batch from which holding the guard pays (dropping and creating a trigger changes the schema)."""

BULK_CACHE_KIB = 64 * 1024
"""The page cache for a bulk append (KiB): a batch's index pages stay in memory instead of spilling mid-transaction."""


def replace_refused(table: str) -> sqlite3.IntegrityError:
    """The error the no-replace guard raises, for a duplicate key a held guard's unique key refused instead."""
    return sqlite3.IntegrityError(f"{table} is append-only: rows cannot be replaced")


@contextlib.contextmanager
def guard_held(db: Connection, table: str, rows: int) -> Iterator[None]:
    """Inside: `table`'s no-replace trigger is dropped while a batch of `rows` rows is inserted (see the module).

    Only inside a write transaction, only for a batch of at least `HELD_FROM` rows, and only when
    the trigger is the guard's exact text; a duplicate key comes out as the guard's own error.
    """
    name = f"{table}_no_replace"
    text = expected_guards({table})[name]
    held = rows >= HELD_FROM and db.conn.in_transaction and _trigger_sql(db, name) == text
    if not held:
        yield
        return
    _bulk_cache(db)
    db.execute(f"DROP TRIGGER {name}")
    try:
        yield
    except sqlite3.IntegrityError as exc:
        _restore(db, name, text)
        if "UNIQUE constraint failed" in str(exc):
            raise replace_refused(table) from None
        raise
    except BaseException:
        _restore(db, name, text)
        raise
    else:
        db.execute(text)


def _restore(db: Connection, name: str, text: str) -> None:
    """The guard back after a failed batch (a rolled-back transaction has it back already)."""
    if db.conn.in_transaction and _trigger_sql(db, name) is None:
        db.execute(text)


def _trigger_sql(db: Connection, name: str) -> str | None:
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", [name]).fetchone()
    return row[0] if row else None


def _bulk_cache(db: Connection) -> None:
    """Raise the connection's page cache to `BULK_CACHE_KIB` (never lower it); it grows only as pages are read."""
    (size,) = db.execute("PRAGMA cache_size").fetchone()
    wanted = -BULK_CACHE_KIB
    current_kib = -size if size < 0 else size * 4  # a positive size counts pages (4 KiB by default)
    if current_kib < BULK_CACHE_KIB:
        db.execute(f"PRAGMA cache_size = {wanted}")

"""Opening a workbench file safely: pragmas, schema version, write transactions.

Writers take SQLite's write lock up front (`BEGIN IMMEDIATE`) and wait on a
busy timeout, so several annotators on one workbench queue up instead of
failing with "database is locked" halfway through a transaction.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.errors import LabelerError, SchemaVersionError
from labeler.store.lean_sqlite_utils import import_sqlite_utils
from labeler.store.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from sqlite_utils import Database

BUSY_TIMEOUT_SECONDS = 60.0
APPLICATION_ID = 0x4C41424C  # "LABL": marks the file as a labeler workbench


class DamagedWorkbenchError(LabelerError):
    """A workbench file that SQLite cannot read as a workbench: truncated, corrupt, tables missing or changed."""


CONTENT_ERRORS = (sqlite3.DatabaseError, ValueError, KeyError, TypeError)
"""What reading a damaged file can raise: SQLite's own errors, and values that do not decode (JSON, packed arrays)."""


def damage_reason(exc: BaseException) -> str:
    """One line for a file that cannot be read: what SQLite (or the decoder) said."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"cannot be read as a workbench ({text})"


def unreadable(exc: sqlite3.DatabaseError, path: str | Path) -> LabelerError:
    """A file SQLite will not read: not SQLite at all, or a damaged workbench."""
    if "not a database" in str(exc):
        return SchemaVersionError(f"not a SQLite database ({exc})", path=path)
    return DamagedWorkbenchError(damage_reason(exc), path=path)


@contextlib.contextmanager
def damage_as_error(path: str | Path) -> Iterator[None]:
    """Turn what a damaged file raises into `DamagedWorkbenchError` (`path: reason`, exit 1, no traceback).

    For commands that only read (status, check): what goes wrong there comes
    from the file's content, not from the request.
    """
    try:
        yield
    except CONTENT_ERRORS as exc:
        raise DamagedWorkbenchError(damage_reason(exc), path=path) from None


# SQLite's words for a failure of the machine, not of labeler or the file's content, and what to say.
ENVIRONMENT_ERRORS = {
    "readonly database": "the workbench is read-only: nothing was written (check the permissions of the file and "
    "of its folder, which must hold its -wal and -shm files)",
    "database or disk is full": "the disk is full: nothing was written",
    "disk i/o error": "a disk I/O error: nothing was written",
    "database is locked": "the workbench is busy: another writer held it longer than the busy timeout; nothing was "
    "written, try again",
    "unable to open database file": "cannot open the workbench file (does its folder exist, can it be written?)",
}


def environment_error(exc: BaseException) -> str | None:
    """What to tell a user about a SQLite failure the machine caused (read-only, full disk), or None."""
    if not isinstance(exc, sqlite3.OperationalError):
        return None
    text = str(exc).lower()
    return next((say for words, say in ENVIRONMENT_ERRORS.items() if words in text), None)


class Connection:
    """The part of `sqlite_utils.Database` the store calls, on a connection in SQLite's autocommit mode.

    The store's SQL is its own (`execute`), and its transactions are `write_transaction`'s; of
    sqlite-utils it needs only the migrations, which take a `Database` (`sqlite_utils()`, made on
    the first upgrade). Importing sqlite-utils costs more than the rest of the store together, so
    opening a workbench that is up to date does not. What this keeps of `Database(conn)`:
    `PRAGMA recursive_triggers = on` (set by sqlite-utils on every connection), `execute` returning
    the cursor, `table_names`, `close`. sqlite-utils' `execute` also commits or rolls back a
    transaction that a statement opened implicitly; in autocommit mode (`isolation_level=None`,
    required here) no statement does, so `conn.execute` is the same thing.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        if conn.isolation_level is not None:
            raise ValueError("the store's connections are in autocommit mode (isolation_level=None)")
        self.conn = conn
        self._database: Database | None = None
        conn.execute("PRAGMA recursive_triggers=on;")

    def execute(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] | None = None) -> sqlite3.Cursor:
        """Run one statement and return its cursor (as `sqlite_utils.Database.execute`)."""
        return self.conn.execute(sql) if parameters is None else self.conn.execute(sql, parameters)

    def table_names(self) -> list[str]:
        return [row[0] for row in self.conn.execute("select name from sqlite_master where type = 'table'")]

    def close(self) -> None:
        self.conn.close()

    def sqlite_utils(self) -> Database:
        """A `sqlite_utils.Database` on the same connection (for the migrations), made on first use."""
        if self._database is None:
            import_sqlite_utils()
            from sqlite_utils import Database

            # execute_plugins=False: sqlite-utils would otherwise read every installed distribution's
            # entry points (importlib.metadata) to run its own plug-ins' `prepare_connection` hook.
            self._database = Database(self.conn, execute_plugins=False)
        return self._database


def connect(path: str | Path, *, readonly: bool = False) -> Connection:
    """A connection on `path` with foreign keys, full sync and a busy timeout.

    `readonly` opens the file so that nothing can be written to it (another
    team member's workbench being merged, a copy being checked).
    """
    try:
        if readonly:
            uri = Path(path).resolve().as_uri() + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
        else:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    except sqlite3.OperationalError as exc:  # a missing folder, or a file that cannot be opened
        raise LabelerError(
            f"cannot open the workbench ({exc}): does its folder exist, and can it be read and written?", path=path
        ) from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = FULL")
        return Connection(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise unreadable(exc, path) from None


def check_version(db: Connection, path: str | Path) -> int:
    """The file's schema version; refuse a newer labeler's or a foreign file."""
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise unreadable(exc, path) from None
    if app_id not in (0, APPLICATION_ID):
        raise SchemaVersionError("not a labeler workbench (another application's SQLite file)", path=path)
    if app_id == 0 and db.table_names() and "meta" not in db.table_names():
        raise SchemaVersionError("not a labeler workbench (a SQLite file with other tables)", path=path)
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"written by a newer labeler (schema {version}; this labeler knows up to {SCHEMA_VERSION}): "
            "upgrade labeler to open it",
            path=path,
        )
    return version


def upgrade(db: Connection) -> None:
    """Apply pending migrations and record the schema version."""
    from labeler.store.schema import migrations

    if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        db.execute("PRAGMA journal_mode = WAL")
    migrations().apply(db.sqlite_utils())
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


class WorkbenchWriteError(LabelerError):
    """The machine refused a write (a read-only workbench, a full disk); the transaction was rolled back."""


@contextlib.contextmanager
def write_transaction(db: Connection) -> Iterator[Connection]:
    """One atomic write: BEGIN IMMEDIATE, COMMIT, or ROLLBACK on any error.

    Nested use joins the outer transaction through a savepoint. A failure the
    machine caused (`environment_error`) comes out as a `WorkbenchWriteError`
    naming the file, so the CLI prints one line and the judging UI a notice,
    with nothing written.
    """
    try:
        with _transaction(db):
            yield db
    except sqlite3.OperationalError as exc:
        reason = environment_error(exc)
        if reason is None:
            raise
        raise WorkbenchWriteError(reason, path=_file_of(db)) from None


def _file_of(db: Connection) -> str | None:
    try:
        return db.execute("PRAGMA database_list").fetchone()[2] or None
    except sqlite3.Error:
        return None


@contextlib.contextmanager
def _transaction(db: Connection) -> Iterator[Connection]:
    conn = db.conn
    if conn.in_transaction:
        with _savepoint(conn):
            yield db
        return
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    try:
        yield db
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


@contextlib.contextmanager
def _savepoint(conn: sqlite3.Connection) -> Iterator[None]:
    """A nested write: a savepoint released at the end, rolled back to on error (as `Database.atomic` nests)."""
    import secrets  # only a nested write names a savepoint (base64 and hmac come with it)

    savepoint = f"sqlite_utils_{secrets.token_hex(16)}"
    conn.execute(f"SAVEPOINT {savepoint};")
    try:
        yield
    except BaseException:
        # An error such as a RAISE(ROLLBACK) trigger can end the whole transaction, savepoints
        # included: releasing it then would hide the error behind "no such savepoint".
        if conn.in_transaction:
            conn.execute(f"ROLLBACK TO SAVEPOINT {savepoint};")
            conn.execute(f"RELEASE SAVEPOINT {savepoint};")
        raise
    else:
        conn.execute(f"RELEASE SAVEPOINT {savepoint};")

"""Helpers for the bad-input tests: which command reads a file, and how to tell the workbench did not change.

Byte equality of the workbench: labeler keeps the file in WAL mode, and SQLite checkpoints the WAL
into the main file and deletes it when the last connection closes. Every CLI command closes its
store, so once the workbench has been opened and closed once (and stray connections collected),
the directory holds only `wb.db`; `settled_files` asserts that, and the before/after comparison is
then over the exact bytes of every `wb.db*` file. When they differ, the SQL dumps are compared, for a
readable diff.
"""

from __future__ import annotations

import gc
import hashlib
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner, Result

from labeler.cli import cli
from labeler.store import Store
from labeler.workbench.read_labels import current_labels

FILES = Path(__file__).resolve().parent / "files"

# The command line that imports a file, by the importer a file name starts with.
COMMANDS = {
    "run": ["runs", "import", "{path}", "--name", "new"],
    "qrels": ["judgments", "import", "{path}", "--assessor", "tester"],
    "corpus": ["corpus", "import", "{path}"],
    "beir": ["corpus", "import", "{path}"],
    "topics": ["topics", "import", "{path}"],
    "mapping": ["corpus", "mapping", "import", "{path}", "--name", "new"],
    "derive": ["corpus", "mapping", "derive", "{path}", "--name", "new"],
    "scale": ["init", "--scale", "{path}"],
}

BASELINE_RUN = "1 Q0 x1 1 2.0 base\n1 Q0 x2 2 1.0 base\n"
BASELINE_IDS = "x1#0\nx1#1\n"


def importer_of(name: str) -> str:
    return name.split("_", 1)[0]


def command(importer: str, path: Path) -> list[str]:
    return [part.format(path=path) for part in COMMANDS[importer]]


def invoke(db: Path, args: list[str]) -> Result:
    """`labeler --db DB ARGS`, catching every exception so that a crash is a failed assertion."""
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=True)


def assert_no_crash(result: Result) -> None:
    """Exit 0, 1 or 2 (a usage error or a bad argument), no exception other than SystemExit, no traceback anywhere."""
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{type(result.exception).__name__}: {result.exception}\nstderr: {result.stderr}"
    assert result.exit_code in (0, 1, 2), f"exit {result.exit_code}\nstderr: {result.stderr}"
    assert "Traceback" not in result.stdout + result.stderr


def assert_refused(result: Result, where: Path | str, line: int | None, fragment: str) -> None:
    """Exit 1, one `Error: file:line: reason` line on stderr, nothing on stdout."""
    assert_no_crash(result)
    assert result.exit_code == 1, f"accepted, expected a refusal\nstdout: {result.stdout}\nstderr: {result.stderr}"
    location = f"{where}:{line}: " if line is not None else f"{where}: "
    assert result.stderr.startswith(f"Error: {location}"), result.stderr
    assert fragment in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == "", result.stderr


def assert_bad_argument(result: Result, flag: str, fragment: str) -> None:
    """Exit 2, one `Error: --flag: reason` line on stderr, nothing on stdout: an option value out of range."""
    assert_no_crash(result)
    assert result.exit_code == 2, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    assert result.stderr.startswith(f"Error: {flag}: "), result.stderr
    assert fragment in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == "", result.stderr


def copy_workbench(data: bytes, folder: Path) -> Path:
    folder = folder / "workbench"
    folder.mkdir()
    db = folder / "wb.db"
    db.write_bytes(data)
    return db


def settled_files(db: Path) -> dict[str, str]:
    """SHA-256 of every `wb.db*` file, once no connection is open; only the main file remains."""
    Store(db).close()  # open and close once: the WAL is checkpointed and removed
    files = file_hashes(db)
    assert set(files) == {db.name}, f"WAL state not settled: {sorted(files)}"
    return files


def file_hashes(db: Path) -> dict[str, str]:
    """SHA-256 of every `wb.db*` file (main file, and -wal/-shm while a connection is open)."""

    def hashes() -> dict[str, str]:
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(db.parent.glob(db.name + "*"))}

    files = hashes()
    if set(files) != {db.name}:  # a connection left to the garbage collector: collect it, look again
        gc.collect()
        files = hashes()
    return files


def dump(db: Path) -> list[str]:
    with closing(sqlite3.connect(db)) as conn:
        return list(conn.iterdump())


class Unchanged:
    """The workbench as it is now; `with Unchanged(db): ...` asserts the block left it byte-for-byte so."""

    def __init__(self, db: Path):
        self.db = db
        self.files = settled_files(db)
        self.data = db.read_bytes()  # dumped only if the bytes change, for a readable diff

    def assert_unchanged(self) -> None:
        files = file_hashes(self.db)
        if files == self.files:
            return  # the same bytes: the same database, no need to dump it
        with tempfile.TemporaryDirectory() as folder:
            before = Path(folder) / "before.db"
            before.write_bytes(self.data)
            assert dump(self.db) == dump(before), "the workbench's content changed"
        raise AssertionError(f"the workbench file changed (its content reads the same): {files} != {self.files}")

    def __enter__(self) -> Unchanged:
        return self

    def __exit__(self, exc_type: object, *_: object) -> None:
        if exc_type is None:
            self.assert_unchanged()


def stored(importer: str, db: Path):
    """What an accepted import put in the workbench, in a shape the tests can compare."""
    with Store(db) as store:
        if importer == "run":
            return {topic: ranking.units for topic, ranking in store.rankings("new").items()}
        if importer == "qrels":
            return {pair: state.grades["tester"] for pair, state in current_labels(store, "doc").items()}
        if importer in ("corpus", "beir"):
            return {doc.doc_id: (doc.title, doc.text) for doc in store.iter_documents()}
        if importer == "topics":
            return {topic.topic_id: topic.title for topic in store.topics()}
        if importer in ("mapping", "derive"):
            return store.chunk_parents("new")
        if importer == "scale":
            scale = store.scale()
            return scale.name, [(g.value, g.label) for g in scale.grades], scale.threshold
    raise ValueError(importer)

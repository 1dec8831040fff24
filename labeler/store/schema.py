"""The workbench schema, created and upgraded by sqlite-utils migrations.

Each migration is one function, applied once, in order. `SCHEMA_VERSION` is
the number of migrations this labeler knows; it is written to SQLite's
`user_version`, so a workbench written by a newer labeler is recognised and
refused before anything touches it.

The functions are listed here without importing sqlite-utils: opening a workbench that is up to
date needs only `SCHEMA_VERSION`, and importing sqlite-utils costs more than the rest of the
store. `migrations()`, the sqlite-utils `Migrations` set, is made (once) when first asked for, by
`labeler.store.connection.upgrade` or `labeler check`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from labeler.judgments.log import clock_from_time
from labeler.store.lean_sqlite_utils import import_sqlite_utils

if TYPE_CHECKING:
    from sqlite_utils import Database, Migrations

_STEPS: list[Callable[[Database], None]] = []
"""The migrations, in the order they are applied (the names sqlite-utils records are the functions')."""


def _migration(step: Callable[[Database], None]) -> Callable[[Database], None]:
    _STEPS.append(step)
    return step


@cache
def migrations() -> Migrations:
    """The sqlite-utils migration set of `_STEPS`, made once, on first use (sqlite-utils imported then)."""
    import_sqlite_utils()
    from sqlite_utils import Migrations

    made = Migrations("labeler")
    for step in _STEPS:
        made()(step)
    return made


def _immutable(db: Database, table: str, *, allow_delete: bool = False) -> None:
    """Triggers that make a table append-only: SQLite itself refuses the change."""
    db.execute(
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: rows cannot be changed'); END"
    )
    if not allow_delete:
        db.execute(
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: rows cannot be deleted'); END"
        )


@_migration
def m001_foundation(db: Database) -> None:
    """Corpus, chunkings, topics and runs."""
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        """CREATE TABLE documents (
            doc_id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            text TEXT NOT NULL,
            hash TEXT NOT NULL,
            extra TEXT NOT NULL DEFAULT '{}',
            import_id TEXT NOT NULL,
            updated TEXT
        )"""
    )
    db.execute(
        """CREATE TABLE document_changes (
            change_id INTEGER PRIMARY KEY,
            doc_id TEXT NOT NULL REFERENCES documents(doc_id),
            old_hash TEXT NOT NULL,
            new_hash TEXT NOT NULL,
            changed TEXT NOT NULL,
            source TEXT NOT NULL
        )"""
    )
    _immutable(db, "document_changes")
    db.execute(
        """CREATE TABLE chunkings (
            chunking_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL,
            params TEXT NOT NULL,
            hash TEXT NOT NULL,
            created TEXT NOT NULL,
            documents INTEGER NOT NULL,
            chunks INTEGER NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE chunks (
            chunking_id INTEGER NOT NULL REFERENCES chunkings(chunking_id) DEFERRABLE INITIALLY DEFERRED,
            chunk_id TEXT NOT NULL,
            doc_id TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            start INTEGER,
            end INTEGER,
            hash TEXT,
            PRIMARY KEY (chunking_id, chunk_id)
        ) WITHOUT ROWID"""
    )
    db.execute("CREATE INDEX chunks_by_document ON chunks (chunking_id, doc_id, ordinal)")
    _immutable(db, "chunkings")
    _immutable(db, "chunks")
    db.execute(
        """CREATE TABLE topics (
            topic_id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            narrative TEXT NOT NULL DEFAULT '',
            extra TEXT NOT NULL DEFAULT '{}',
            imported TEXT NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE runs (
            run_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            unit_kind TEXT NOT NULL CHECK (unit_kind IN ('doc', 'chunk')),
            chunking_id INTEGER REFERENCES chunkings(chunking_id),
            stage TEXT NOT NULL CHECK (stage IN ('candidate', 'rerank', 'context')),
            source TEXT NOT NULL,
            source_sha256 TEXT NOT NULL,
            tags TEXT NOT NULL,
            topics INTEGER NOT NULL,
            entries INTEGER NOT NULL,
            max_depth INTEGER NOT NULL,
            policies TEXT NOT NULL,
            imported TEXT NOT NULL
        )"""
    )
    # One row per (run, topic): the ranking in canonical order, ids joined by
    # newlines and scores/ranks packed as arrays. A run of 500,000 lines is 500
    # rows, which is what makes importing and pooling fast.
    db.execute(
        """CREATE TABLE run_rankings (
            run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
            topic_id TEXT NOT NULL,
            units TEXT NOT NULL,
            scores BLOB NOT NULL,
            ranks BLOB NOT NULL,
            PRIMARY KEY (run_id, topic_id)
        ) WITHOUT ROWID"""
    )


@_migration
def m002_pools_judgments_snapshots(db: Database) -> None:
    """Pools with provenance, the append-only judgment log, and immutable snapshots."""
    db.execute(
        """CREATE TABLE pools (
            pool_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            strategy TEXT NOT NULL,
            depth INTEGER NOT NULL,
            params TEXT NOT NULL,
            runs TEXT NOT NULL,
            unit TEXT NOT NULL,
            created TEXT NOT NULL,
            pairs INTEGER NOT NULL
        )"""
    )
    _immutable(db, "pools")
    # contributors: "run<TAB>rank" lines, in run order: which runs brought the pair and where.
    db.execute(
        """CREATE TABLE pool_entries (
            pool_id INTEGER NOT NULL REFERENCES pools(pool_id) DEFERRABLE INITIALLY DEFERRED,
            topic_id TEXT NOT NULL,
            unit_id TEXT NOT NULL,
            best_rank INTEGER NOT NULL,
            contributors TEXT NOT NULL,
            rrf REAL NOT NULL,
            PRIMARY KEY (pool_id, topic_id, unit_id)
        ) WITHOUT ROWID"""
    )
    _immutable(db, "pool_entries")
    db.execute(
        """CREATE TABLE events (
            seq INTEGER PRIMARY KEY,
            event_id TEXT NOT NULL UNIQUE,
            topic_id TEXT NOT NULL,
            unit TEXT NOT NULL,
            unit_id TEXT,
            kind TEXT NOT NULL CHECK (kind IN
                ('grade', 'skip', 'unsure', 'flag', 'note', 'retract', 'adjudicate', 'review')),
            grade INTEGER,
            reason TEXT,
            note TEXT,
            assessor TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('human', 'import', 'model')),
            model TEXT,
            time TEXT NOT NULL,
            active_ms INTEGER,
            content_hash TEXT,
            judging_order TEXT,
            seed INTEGER,
            target TEXT,
            pool TEXT
        )"""
    )
    db.execute("CREATE INDEX events_by_pair ON events (unit, topic_id, unit_id, seq)")
    db.execute("CREATE INDEX events_by_assessor ON events (assessor, seq)")
    _immutable(db, "events")
    db.execute(
        """CREATE TABLE snapshots (
            snapshot_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            parent TEXT,
            message TEXT NOT NULL,
            created TEXT NOT NULL,
            unit TEXT NOT NULL,
            manifest TEXT NOT NULL,
            sha256 TEXT NOT NULL
        )"""
    )
    _immutable(db, "snapshots")
    db.execute(
        """CREATE TABLE snapshot_labels (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(snapshot_id) DEFERRABLE INITIALLY DEFERRED,
            topic_id TEXT NOT NULL,
            unit_id TEXT NOT NULL,
            grade INTEGER NOT NULL,
            event_id TEXT,
            PRIMARY KEY (snapshot_id, topic_id, unit_id)
        ) WITHOUT ROWID"""
    )
    _immutable(db, "snapshot_labels")


@_migration
def m003_logical_clock(db: Database) -> None:
    """Each event's logical clock, which orders the log (see `labeler.judgments.log.event_order`).

    Existing events get the clock their time gives (its microseconds; 0 for a
    time that is not one): it depends on the event alone, so two workbenches
    holding the same event give it the same clock, and it keeps the order the
    log had (time, then event id), so no label changes. The local sequence is
    not used for that reason. The append-only guard is lifted for this one
    update and restored as it was.
    """
    db.execute("ALTER TABLE events ADD COLUMN clock INTEGER")
    clocks = [(clock_from_time(time), seq) for seq, time in db.execute("SELECT seq, time FROM events")]
    if clocks:
        db.execute("DROP TRIGGER events_no_update")
        db.conn.executemany("UPDATE events SET clock = ? WHERE seq = ?", clocks)
        db.execute(
            "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
            "BEGIN SELECT RAISE(ABORT, 'events is append-only: rows cannot be changed'); END"
        )
    db.execute("CREATE INDEX events_by_clock ON events (clock, event_id)")
    db.execute("CREATE INDEX events_by_assessor_clock ON events (assessor, clock, event_id)")


@_migration
def m004_replace_guards(db: Database) -> None:
    """Guards that also refuse INSERT OR REPLACE, sealed runs, and the digests `labeler check` recomputes.

    Every guard is dropped and created again from `labeler.store.guards`, so
    the triggers are exactly the text `labeler check` expects. The digests of
    what is stored now are recorded in between, before the guards are back.
    """
    from labeler.store.digests import chunks_sha256, rankings_sha256, text_sha256
    from labeler.store.guards import expected_guards

    guards = expected_guards(set(db.table_names()))  # the guards of tables later migrations make come with them
    for name in guards:
        db.execute(f"DROP TRIGGER IF EXISTS {name}")
    db.execute("ALTER TABLE runs ADD COLUMN rankings_sha256 TEXT")
    db.execute("ALTER TABLE chunkings ADD COLUMN chunks_sha256 TEXT")
    for (run_id,) in db.execute("SELECT run_id FROM runs").fetchall():
        db.execute("UPDATE runs SET rankings_sha256 = ? WHERE run_id = ?", [rankings_sha256(db, run_id), run_id])
    for (chunking_id,) in db.execute("SELECT chunking_id FROM chunkings").fetchall():
        db.execute(
            "UPDATE chunkings SET chunks_sha256 = ? WHERE chunking_id = ?",
            [chunks_sha256(db, chunking_id), chunking_id],
        )
    scale = db.execute("SELECT value FROM meta WHERE key = 'scale'").fetchone()
    if scale:
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('scale_sha256', ?)", [text_sha256(scale[0])])
    for sql in guards.values():
        db.execute(sql)


@_migration
def m005_event_chain(db: Database) -> None:
    """Chain every event to the log before it (`events.link`), and record the chain's end in `meta`.

    The guards stop a change made through SQL, but not someone who drops them,
    rewrites or deletes events and restores them; the chain makes that visible to
    `labeler check` (see `labeler.store.digests.event_link`). Existing events are
    linked in local order; the update guard is lifted for it and restored from
    `labeler.store.guards`, so it stays the text `check` expects.

    It also drops `events_by_assessor (assessor, seq)`: since the clock orders
    the log, `events_by_assessor_clock` answers every query by assessor, and
    each index costs a bulk import about a tenth of its time.
    """
    from labeler.store.digests import event_link
    from labeler.store.event_rows import _CHAIN_V5_COLUMNS, LOG_HEAD, LOG_LENGTH
    from labeler.store.guards import expected_guards

    db.execute("DROP INDEX IF EXISTS events_by_assessor")
    db.execute("ALTER TABLE events ADD COLUMN link BLOB")
    links, link = [], b""
    for seq, *values in db.execute(f"SELECT seq, {_CHAIN_V5_COLUMNS} FROM events ORDER BY seq"):
        link = event_link(link, values)
        links.append((link, seq))
    if links:
        db.execute("DROP TRIGGER events_no_update")
        db.conn.executemany("UPDATE events SET link = ? WHERE seq = ?", links)
        db.execute(expected_guards()["events_no_update"])
    for key, value in ((LOG_HEAD, link.hex()), (LOG_LENGTH, str(len(links)))):
        db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )


@_migration
def m006_run_retirements(db: Database) -> None:
    """Runs taken out of the default run sets of pool build, eval, coverage and compare.

    A sealed run's row refuses UPDATE, so retirement is a row of its own, append-only
    like the log: one per run, never changed. No foreign key: `runs import --replace`
    deletes the run row, and a cascade would meet this table's delete guard; a
    replaced run gets a new run_id (never one a retirement names), so it starts active.
    """
    from labeler.store.guards import expected_guards

    db.execute(
        """CREATE TABLE run_retirements (
            run_id INTEGER PRIMARY KEY,
            retired TEXT NOT NULL,
            reason TEXT NOT NULL
        )"""
    )
    for name, sql in expected_guards({"run_retirements"}).items():
        if name.startswith("run_retirements_"):
            db.execute(sql)


@_migration
def m007_assignments(db: Database) -> None:
    """Who is assigned which topic: events, the latest per topic wins, never updated.

    A row with no assessor takes the topic out of the plan (`labeler assign --clear`).
    `assessors` is the plan's assessor order (a JSON list): the second judge of a topic's
    overlap pairs is the one after its assessor, so it is derived, never stored per pair.
    """
    from labeler.store.guards import expected_guards

    db.execute(
        """CREATE TABLE assignments (
            assignment_id INTEGER PRIMARY KEY,
            topic_id TEXT NOT NULL,
            assessor TEXT,
            assessors TEXT NOT NULL,
            overlap REAL NOT NULL CHECK (overlap >= 0 AND overlap < 1),
            seed INTEGER NOT NULL,
            assigned TEXT NOT NULL,
            assigned_by TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX assignments_by_topic ON assignments (topic_id, assignment_id)")
    for name, sql in expected_guards({"assignments"}).items():
        if name.startswith("assignments_"):
            db.execute(sql)


@_migration
def m008_claims(db: Database) -> None:
    """Who is being shown which pair, until when: the leases that keep two assessors off the same unit.

    Not a log, and so not guarded: a claim is renewed (replaced) while a screen
    shows its pair and deleted when the pair is judged or left. It is local
    state, like a lock: `merge` never reads it and `backup` empties it in the
    copy. Times are epoch milliseconds, UTC (`labeler.workbench.claims`).
    """
    db.execute(
        """CREATE TABLE claims (
            unit TEXT NOT NULL,
            topic_id TEXT NOT NULL,
            unit_id TEXT NOT NULL,
            assessor TEXT NOT NULL,
            claimed INTEGER NOT NULL,
            lease_until INTEGER NOT NULL,
            PRIMARY KEY (unit, topic_id, unit_id, assessor)
        ) WITHOUT ROWID"""
    )


@_migration
def m009_model_labels(db: Database) -> None:
    """A model's probability per grade (`probs`) and, on a person's judgment, the model shown (`shown_model`).

    `probs` is canonical JSON (`{"0": p, ...}`, grades ascending; model grade events
    only); `shown_model` names the model whose label was on screen when a person
    judged, NULL when none was (blind). Existing events get NULL for both, and the
    chain hashes the two only when one is not NULL (`labeler.store.digests.event_link`),
    so every existing link stays valid: nothing is rewritten and no guard is lifted.
    """
    db.execute("ALTER TABLE events ADD COLUMN probs TEXT")
    db.execute("ALTER TABLE events ADD COLUMN shown_model TEXT")


@_migration
def m010_blind_overlap(db: Database) -> None:
    """Whether an assignment shows each judge of an overlap pair the other's label (`show_others`), and, on a
    person's judgment of an overlap pair, whose labels were on screen (`shown_others`).

    `show_others` is 0 (blind) for every assignment made before it. `shown_others` is a JSON list of
    assessors (`[]`: judged blind), NULL off an overlap pair and on every event written before it,
    which hashes as before (`labeler.store.digests.event_link`): no link changes, no guard is lifted.
    """
    db.execute("ALTER TABLE assignments ADD COLUMN show_others INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE events ADD COLUMN shown_others TEXT")


@_migration
def m011_snapshot_seals(db: Database) -> None:
    """Each snapshot's seal (`snapshots.seal`), and the number of the latest snapshot made (`meta`).

    A snapshot's `sha256` covers its labels; its seal covers its whole manifest (review
    statuses, counts, pools, unit, parent), which records the seal of its parent and the
    log head it was made at (`labeler.workbench.snapshots`), so `labeler check` sees a
    manifest edited, a snapshot removed, or events before it changed or removed. Snapshots
    made before have no seal (NULL): their labels stay sealed, their manifest is not, and
    nothing is rewritten. The number of the latest snapshot made is recorded so that
    removing it leaves a gap `check` reports.
    """
    from labeler.store.snapshot_rows import SNAPSHOTS_MADE

    db.execute("ALTER TABLE snapshots ADD COLUMN seal TEXT")
    latest = db.execute("SELECT max(snapshot_id) FROM snapshots").fetchone()[0]
    if latest is not None:
        db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [SNAPSHOTS_MADE, str(latest)],
        )


@_migration
def m012_answers(db: Database) -> None:
    """RAG answers: answer runs and their answers, and what a snapshot holds of nuggets and answer judgments.

    Nugget versions and answer judgments are events of the log (`labeler.answers.spaces`);
    these tables hold what is not a judgment. An answer run is imported whole and never
    changed (import it again under another name); retirement is a row of its own, as for
    runs. A snapshot's nuggets and answer labels sit beside its relevance labels.
    """
    from labeler.store.guards import expected_guards

    db.execute(
        """CREATE TABLE answer_runs (
            answer_run_id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            file TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            format TEXT NOT NULL,
            unit TEXT NOT NULL,
            imported TEXT NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE answers (
            answer_run_id INTEGER NOT NULL REFERENCES answer_runs(answer_run_id),
            topic_id TEXT NOT NULL,
            line INTEGER NOT NULL,
            topic_text TEXT,
            response_length INTEGER,
            refs TEXT NOT NULL,
            sentences TEXT NOT NULL,
            original TEXT NOT NULL,
            PRIMARY KEY (answer_run_id, topic_id)
        ) WITHOUT ROWID"""
    )
    db.execute(
        """CREATE TABLE answer_retirements (
            answer_run_id INTEGER PRIMARY KEY,
            retired TEXT NOT NULL,
            reason TEXT NOT NULL
        )"""
    )
    db.execute(
        """CREATE TABLE snapshot_nuggets (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(snapshot_id) DEFERRABLE INITIALLY DEFERRED,
            topic_id TEXT NOT NULL,
            nugget_id TEXT NOT NULL,
            importance TEXT NOT NULL,
            rank INTEGER NOT NULL,
            text TEXT NOT NULL,
            origin TEXT NOT NULL,
            event_id TEXT NOT NULL,
            PRIMARY KEY (snapshot_id, topic_id, nugget_id)
        ) WITHOUT ROWID"""
    )
    db.execute(
        """CREATE TABLE snapshot_answer_labels (
            snapshot_id INTEGER NOT NULL REFERENCES snapshots(snapshot_id) DEFERRABLE INITIALLY DEFERRED,
            space TEXT NOT NULL,
            topic_id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            grade INTEGER NOT NULL,
            event_id TEXT,
            PRIMARY KEY (snapshot_id, space, topic_id, item_id)
        ) WITHOUT ROWID"""
    )
    tables = {"answer_runs", "answers", "answer_retirements", "snapshot_nuggets", "snapshot_answer_labels"}
    for name, sql in expected_guards(tables).items():
        if name.split("_no_")[0] in tables:
            db.execute(sql)


SCHEMA_VERSION = len(_STEPS)

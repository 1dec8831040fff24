"""The append-only guards: the one text of every trigger that keeps logged rows as they were written.

The schema creates these triggers and `labeler check` compares each one's SQL
in `sqlite_master` with the text here, so a guard dropped, or replaced by a
trigger of the same name that does nothing, is reported.

UPDATE and DELETE triggers alone do not make a table append-only:
`INSERT OR REPLACE` (and `REPLACE`) deletes the old row and inserts a new one,
and SQLite fires no delete trigger for it unless `PRAGMA recursive_triggers`
is on. A BEFORE INSERT trigger that refuses a row whose key (primary or
unique) is already there stops it whatever the connection's pragmas, at the
cost of one key lookup per inserted row.
"""

from __future__ import annotations

IMMUTABLE_KEYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "events": (("seq",), ("event_id",)),
    "snapshots": (("snapshot_id",), ("name",)),
    "snapshot_labels": (("snapshot_id", "topic_id", "unit_id"),),
    "pools": (("pool_id",), ("name",)),
    "pool_entries": (("pool_id", "topic_id", "unit_id"),),
    "chunkings": (("chunking_id",), ("name",)),
    "chunks": (("chunking_id", "chunk_id"),),
    "document_changes": (("change_id",),),
    "run_retirements": (("run_id",),),
    "assignments": (("assignment_id",),),
    "answer_runs": (("answer_run_id",), ("name",)),
    "answers": (("answer_run_id", "topic_id"),),
    "answer_retirements": (("answer_run_id",),),
    "snapshot_nuggets": (("snapshot_id", "topic_id", "nugget_id"),),
    "snapshot_answer_labels": (("snapshot_id", "space", "topic_id", "item_id"),),
}
"""Tables whose rows never change once written, with every key a REPLACE could collide on."""

SEALED_RUN = "(SELECT rankings_sha256 FROM runs WHERE run_id = {row}.run_id) IS NOT NULL"
"""A run is sealed once its import recorded the digest of its rankings (`runs.rankings_sha256`)."""


def _key_exists(table: str, keys: tuple[tuple[str, ...], ...]) -> str:
    return " OR ".join(
        f"EXISTS (SELECT 1 FROM {table} WHERE " + " AND ".join(f"{c} = NEW.{c}" for c in key) + ")" for key in keys
    )


def _raise(table: str, what: str) -> str:
    return f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {what}'); END"


def _immutable_guards(table: str, keys: tuple[tuple[str, ...], ...]) -> dict[str, str]:
    return {
        f"{table}_no_update": f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        + _raise(table, "rows cannot be changed"),
        f"{table}_no_delete": f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
        + _raise(table, "rows cannot be deleted"),
        f"{table}_no_replace": f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} "
        f"WHEN {_key_exists(table, keys)} " + _raise(table, "rows cannot be replaced"),
    }


def _run_guards() -> dict[str, str]:
    """A run's rankings are written during its import, then sealed; a sealed run is removed whole.

    The import of a run may rewrite a topic's ranking (a topic whose lines
    stand apart in the file is merged with what was stored) until it records
    the rankings' digest. After that the rankings and the run row refuse
    UPDATE, DELETE and REPLACE; deleting the run row (`runs import
    --replace`) removes its rankings through the foreign key's cascade, which
    these triggers allow because the run is gone by then.
    """
    sealed_old, sealed_new = SEALED_RUN.format(row="OLD"), SEALED_RUN.format(row="NEW")
    rankings = "run_rankings"
    sealed = "the rankings of a sealed run cannot be"
    again = "(import it again with --replace)"
    return {
        "run_rankings_no_update": f"CREATE TRIGGER run_rankings_no_update BEFORE UPDATE ON {rankings} "
        f"WHEN {sealed_old} " + _raise(rankings, f"{sealed} changed"),
        "run_rankings_no_delete": f"CREATE TRIGGER run_rankings_no_delete BEFORE DELETE ON {rankings} "
        f"WHEN {sealed_old} " + _raise(rankings, f"{sealed} deleted"),
        "run_rankings_no_replace": f"CREATE TRIGGER run_rankings_no_replace BEFORE INSERT ON {rankings} "
        f"WHEN {sealed_new} AND {_key_exists(rankings, (('run_id', 'topic_id'),))} "
        + _raise(rankings, f"{sealed} replaced"),
        "runs_no_update": "CREATE TRIGGER runs_no_update BEFORE UPDATE ON runs WHEN OLD.rankings_sha256 IS NOT NULL "
        + _raise("runs", f"a sealed run cannot be changed {again}"),
        "runs_no_replace": "CREATE TRIGGER runs_no_replace BEFORE INSERT ON runs "
        f"WHEN {_key_exists('runs', (('run_id',), ('name',)))} "
        + _raise("runs", f"a run cannot be replaced in place {again}"),
    }


def expected_guards(tables: set[str] | None = None) -> dict[str, str]:
    """Trigger name -> the exact SQL `sqlite_master` holds for it.

    `tables` limits the append-only guards to the tables that exist: a migration
    that re-creates the guards runs before later migrations have made theirs.
    """
    guards: dict[str, str] = {}
    for table, keys in IMMUTABLE_KEYS.items():
        if tables is None or table in tables:
            guards.update(_immutable_guards(table, keys))
    guards.update(_run_guards())
    return guards


GUARDED_TABLES = (*IMMUTABLE_KEYS, "run_rankings", "runs")

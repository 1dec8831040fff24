"""`labeler check`: is this workbench whole? Schema, file integrity, keys, append-only guards, log, snapshots."""

from __future__ import annotations

from typing import Any

from labeler.store import Store
from labeler.store.check_rows import APPEND_ONLY_TABLES
from labeler.store.schema import SCHEMA_VERSION, migrations
from labeler.workbench.snapshots import verify_snapshots


def check_workbench(store: Store) -> dict[str, Any]:
    """Every check with ok and what is wrong; `ok` is true only when all pass."""
    checks = []

    def add(name: str, problems: list[str], fine: str) -> None:
        checks.append({"check": name, "ok": not problems, "detail": fine if not problems else problems[:20],
                       "problems": len(problems)})

    expected = [m.name for m in migrations._migrations]
    applied = store.applied_migrations()
    version = store.schema_version()
    add("schema", ([f"schema version {version}, expected {SCHEMA_VERSION}"] if version != SCHEMA_VERSION else [])
        + [f"migration {m} not applied" for m in expected if m not in applied],
        f"schema {version}, {len(applied)} migrations applied")
    add("file integrity", store.integrity_problems(), "SQLite integrity_check ok")
    add("foreign keys", store.foreign_key_problems(), "every reference resolves")
    triggers = store.trigger_names()
    missing = [f"{table}: UPDATE or DELETE guard missing" for table in APPEND_ONLY_TABLES
               if f"{table}_no_update" not in triggers]
    add("append-only guards", missing, f"{len(APPEND_ONLY_TABLES)} tables refuse UPDATE and DELETE")
    add("judgment log", [f"retract of a missing event: {e}" for e in store.retracts_without_target()]
        + [f"malformed event {e}" for e in store.malformed_events()], f"{store.event_count()} events consistent")
    verified = verify_snapshots(store)
    add("snapshot hashes", [f"{r['snapshot']}: stored {r['sha256'][:12]}, labels hash to {r['actual'][:12]}"
                            for r in verified["snapshots"] if not r["ok"]],
        f"{len(verified['snapshots'])} snapshots verified")
    add("runs", store.run_entry_mismatches(), f"{len(store.run_names())} runs complete")
    return {"path": str(store.path), "ok": all(c["ok"] for c in checks), "checks": checks}

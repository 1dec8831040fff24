"""`labeler check`: is this workbench whole, and is what it holds what was written?

Each check recomputes what it can from the file alone (guards' SQL, snapshot,
chunking, document, run and scale hashes, grades on the scale) and lists
every finding. A check that cannot run on a damaged file (a table missing, a
page unreadable) is itself a finding: nothing the file holds ends in a
traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from labeler.errors import LabelerError
from labeler.json_form import JsonResult, json_field
from labeler.store import Store
from labeler.store.check_rows import APPEND_ONLY_TABLES, reference_triggers
from labeler.store.connection import CONTENT_ERRORS, damage_reason
from labeler.store.guards import expected_guards
from labeler.store.schema import SCHEMA_VERSION, migrations
from labeler.wording import plural
from labeler.workbench.snapshot_seals import SEALED_LABELS, sealed
from labeler.workbench.snapshots import verify_snapshots

MAX_FINDINGS = 1000
"""Findings listed per check; `problems` counts them all."""

SHOWN_IN_DETAIL = 20  # findings a failed check's `detail` repeats in the JSON shape


@dataclass(frozen=True)
class CheckResult(JsonResult):
    """One check: whether it passed, what it verified (`fine`, when it did), and what it found wrong."""

    json_extra = {"detail": "ok"}

    check: str
    ok: bool
    problems: int
    findings: tuple[str, ...]
    fine: str = json_field(omit=True)  # in JSON only as the `detail` of a check that passed

    @property
    def detail(self) -> str | list[str]:
        """What it verified when it passed, else its first findings."""
        return self.fine if self.ok else list(self.findings[:SHOWN_IN_DETAIL])


@dataclass(frozen=True)
class Head(JsonResult):
    """Where the file ends: its log's length and last chain link, its latest snapshot and that one's seal.

    One file cannot prove that nothing was cut from its end (events after the latest
    snapshot, removed with the head recorded for them); a head kept elsewhere can: the log
    as it is later must hold this one at the same length (see docs/team.md).
    """

    events: int
    link: str
    snapshot: str | None
    seal: str | None


@dataclass(frozen=True)
class CheckReport(JsonResult):
    """`check_workbench`'s result: every check of one file, `ok` when all pass; `head` when it could be read."""

    json_extra = {"ok": "path", "findings": "checks"}

    path: str
    checks: tuple[CheckResult, ...]
    head: Head | None = None

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def findings(self) -> tuple[str, ...]:
        """Every finding of every check, each after its check's name."""
        return tuple(f"{c.check}: {finding}" for c in self.checks for finding in c.findings)


CHECK_ERRORS = (*CONTENT_ERRORS, LabelerError, OverflowError, UnicodeError)


def check_file(path: str | Path) -> CheckReport:
    """Open `path` read-only and check it; a file that cannot be opened as a workbench is a failed `file` check.

    Read-only: checking a copy never upgrades or writes it. A workbench of an
    older schema is reported as such (any other command upgrades it).
    """
    try:
        store = Store(path, readonly=True)
    except LabelerError as exc:
        return _result(path, [_entry("file", [exc.reason], "")])
    with store:
        return check_workbench(store)


def check_workbench(store: Store) -> CheckReport:
    """Every check with ok and what is wrong; `ok` is true only when all pass."""
    checks: list[CheckResult] = []

    def add(name: str, problems: Callable[[], Iterable[str]], fine: Callable[[], str]) -> None:
        try:
            found = list(problems())
            detail = fine() if not found else ""
        except CHECK_ERRORS as exc:
            found, detail = [f"could not be checked: {damage_reason(exc)}"], ""
        checks.append(_entry(name, found, detail))

    guards = expected_guards()
    add("schema", lambda: _schema_problems(store), lambda: f"schema {SCHEMA_VERSION}, every table as expected")
    add("file integrity", store.integrity_problems, lambda: "SQLite integrity_check ok")
    add("foreign keys", store.foreign_key_problems, lambda: "every reference resolves")
    add(
        "append-only guards",
        lambda: _guard_problems(store, guards),
        lambda: (
            f"{len(guards)} guards as expected: {len(APPEND_ONLY_TABLES)} tables refuse UPDATE, DELETE and "
            "REPLACE; sealed runs too"
        ),
    )
    add(
        "judgment log",
        lambda: (
            [f"retract of a missing event: {e}" for e in store.retracts_without_target()]
            + [f"malformed event {e}" for e in store.malformed_events()]
            + list(store.log_chain_problems())
            + list(store.clock_problems())
        ),
        lambda: f"{plural(store.event_count(), 'event')} consistent, their chain unbroken",
    )
    add("grade scale", store.scale_problems, lambda: f"scale {store.scale().name} matches its recorded SHA-256")
    add(
        "grades",
        lambda: store.grades_off_scale(store.scale().values),
        lambda: "every grade in the log and the snapshots is on the scale",
    )
    add(
        "snapshot hashes",
        lambda: _snapshot_problems(store),
        lambda: _snapshots_fine(store),
    )
    add(
        "snapshot labels",
        lambda: store.snapshot_label_problems() + store.snapshot_answer_problems(),
        lambda: "every snapshot label agrees with the event that decided it",
    )
    add(
        "chunkings",
        store.chunking_mismatches,
        lambda: plural(len(store.chunkings()), "chunking matches its hash", "chunkings match their hashes"),
    )
    add(
        "documents",
        store.document_hash_mismatches,
        lambda: plural(store.document_count(), "document matches its hash", "documents match their hashes"),
    )
    add(
        "runs",
        lambda: store.run_entry_mismatches() + store.run_digest_mismatches(),
        lambda: plural(
            len(store.run_names()),
            "run complete, its rankings match their digest",
            "runs complete, rankings match their digests",
        ),
    )
    return CheckReport(path=str(store.path), checks=tuple(checks), head=_head(store))


def _head(store: Store) -> Head | None:
    """The file's head as stored now (None when the file is too damaged to read it)."""
    try:
        events, link = store.log_head()
        latest = store.latest_snapshot()
    except CHECK_ERRORS:
        return None
    return Head(events, link, latest.name if latest else None, latest.seal if latest else None)


def _schema_problems(store: Store) -> list[str]:
    version = store.schema_version()
    applied = store.applied_migrations()
    problems = (
        [
            f"schema version {version}, expected {SCHEMA_VERSION}"
            + (": any labeler command upgrades it" if version < SCHEMA_VERSION else "")
        ]
        if version != SCHEMA_VERSION
        else []
    )
    problems += [f"migration {m.name} not applied" for m in migrations()._migrations if m.name not in applied]
    return problems + store.column_problems()


def _guard_problems(store: Store, guards: dict[str, str]) -> list[str]:
    found = store.triggers()
    problems = []
    for name, sql in guards.items():
        if name not in found:
            problems.append(f"guard {name} is missing")
        elif found[name][1] != sql:
            problems.append(f"guard {name} is not the expected trigger (its SQL differs)")
    problems += [
        f"trigger {name} on {found[name][0]} is not one of labeler's guards"
        for name in store.unexpected_triggers(set(guards))
    ]
    problems += [
        f"trigger {name} is not the one labeler's schema makes (its SQL differs)"
        for name, sql in reference_triggers().items()
        if name not in guards and name in found and found[name][1] != sql
    ]
    return problems


def _snapshot_problems(store: Store) -> list[str]:
    """Each snapshot's labels and seal (manifest, parent, log head), and none of v1..vN missing."""
    verified = verify_snapshots(store)
    problems = []
    for r in verified.snapshots:
        if r.actual != r.sha256:
            problems.append(f"snapshot {r.snapshot}: stored {r.sha256[:12]}, labels hash to {r.actual[:12]}")
        problems += r.findings
    return problems + list(verified.findings)


def _snapshots_fine(store: Store) -> str:
    snapshots = store.snapshots()
    unsealed = sum(1 for s in snapshots if sealed(s) == SEALED_LABELS)
    return f"{plural(len(snapshots), 'snapshot')} verified" + (
        f" ({unsealed} made before seals: sealed labels only)" if unsealed else ""
    )


def _entry(name: str, problems: list[str], fine: str) -> CheckResult:
    """One check; `findings` holds every finding (up to MAX_FINDINGS, then how many more)."""
    shown = problems[:MAX_FINDINGS]
    if len(problems) > MAX_FINDINGS:
        shown.append(f"... and {len(problems) - MAX_FINDINGS} more")
    return CheckResult(check=name, ok=not problems, fine=fine, problems=len(problems), findings=tuple(shown))


def _result(path: str | Path, checks: list[CheckResult]) -> CheckReport:
    return CheckReport(path=str(path), checks=tuple(checks))

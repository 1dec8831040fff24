"""Snapshot seals: an edited manifest, a removed snapshot and a removed event before a snapshot are each caught.

The workbench is changed with raw sqlite3, as someone bypassing labeler would, and the guards are put
back exactly as labeler makes them, so that only the seals can tell: `labeler check` and
`labeler snapshot verify` must each name the snapshot and what differs, exit 1, and not trace back.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlite_utils import Database
from support import new_workbench

from labeler.cli import cli
from labeler.store import Store
from labeler.store.connection import APPLICATION_ID
from labeler.store.digests import event_link, manifest_sha256
from labeler.store.event_rows import LOG_HEAD, LOG_LENGTH, chained_columns
from labeler.store.guards import expected_guards
from labeler.store.schema import migrations
from labeler.workbench.check import check_workbench
from labeler.workbench.record_judgments import Judgment, mark_topic, record_judgment
from labeler.workbench.snapshots import create_snapshot, verify_snapshots


def invoke(db: Path, *args: str):
    result = CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=True)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{type(result.exception).__name__}: {result.exception}"
    assert "Traceback" not in result.stdout + result.stderr
    return result


def judge(store: Store, topic: str, unit: str, grade: int, assessor: str = "ann") -> None:
    record_judgment(store, Judgment(topic_id=topic, unit_id=unit, assessor=assessor, grade=grade, allow_unknown=True))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Three snapshots: v1, v2 after topic 2 is marked reviewed, v3 after one more grade; then one more event."""
    path = new_workbench(tmp_path / "wb.db")
    with Store(path) as store:
        judge(store, "1", "d1", 2)
        judge(store, "2", "d1", 0)
        create_snapshot(store, "first")
        mark_topic(store, "2", "reviewed", assessor="ann", unit="doc")
        judge(store, "1", "d2", 1)
        create_snapshot(store, "second")
        judge(store, "1", "d3", 3)
        create_snapshot(store, "third")
        judge(store, "1", "d4", 0)  # after the latest snapshot
    return path


def tamper(db: Path, tables: set[str], *statements: str, params: tuple = ()) -> None:
    """Drop the tables' guards, run the statements, put the guards back exactly as labeler makes them."""
    guards = {name: sql for name, sql in expected_guards().items() if sql.split(" ON ")[1].split(" ")[0] in tables}
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        for name in guards:
            conn.execute(f"DROP TRIGGER {name}")
        for statement in statements:
            conn.execute(statement, params if "?" in statement else ())
        for sql in guards.values():
            conn.execute(sql)


def rechain(db: Path) -> None:
    """Recompute every event's link and the recorded head, as someone covering a removal would."""
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        columns = chained_columns(conn)
        link, rows = b"", conn.execute(f"SELECT seq, {columns} FROM events ORDER BY seq").fetchall()
        links = []
        for seq, *values in rows:
            link = event_link(link, values)
            links.append((link, seq))
    tamper(db, {"events"}, *(f"UPDATE events SET link = x'{link.hex()}' WHERE seq = {seq}" for link, seq in links))
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", [link.hex(), LOG_HEAD])
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", [str(len(rows)), LOG_LENGTH])


def findings(db: Path) -> tuple[list[str], list[str]]:
    """`check`'s findings and `snapshot verify`'s (each snapshot's, then the numbering's), both exiting 1."""
    checked = invoke(db, "check", "--json")
    assert checked.exit_code == 1, checked.stdout
    verified = invoke(db, "snapshot", "verify", "--json")
    assert verified.exit_code == 1, verified.stdout
    report = json.loads(verified.stdout)
    assert report["ok"] is False
    return json.loads(checked.stdout)["findings"], [f for s in report["snapshots"] for f in s["findings"]] + report[
        "findings"
    ]


def test_a_healthy_workbench_verifies_every_seal(db):
    assert invoke(db, "check").exit_code == 0
    report = json.loads(invoke(db, "snapshot", "verify", "--json").stdout)
    assert report["ok"] is True and report["findings"] == []
    assert [(s["snapshot"], s["sealed"], s["findings"]) for s in report["snapshots"]] == [
        (f"v{n}", "manifest", []) for n in (1, 2, 3)
    ]
    with Store(db) as store:
        v2, v3 = store.snapshot("v2"), store.snapshot("v3")
        assert v3.manifest["parent_seal"] == v2.seal == manifest_sha256(v2.manifest)
        assert v3.seal == manifest_sha256(v3.manifest) == v3.manifest["seal"]
        assert v3.manifest["log"]["events"] == store.event_count() - 1  # the event after it is not covered
        assert store.link_at(v3.manifest["log"]["events"]) == v3.manifest["log"]["head"]


def test_an_edited_review_status_is_named_by_snapshot_and_topic(db):
    tamper(
        db,
        {"snapshots"},
        "UPDATE snapshots SET manifest = json_set(manifest, '$.topics.2.review_status', 'unreviewed') "
        "WHERE name = 'v2'",
    )
    with Store(db) as store:
        assert store.snapshot("v2").manifest["topics"]["2"]["review_status"] == "unreviewed"  # what eval would read
    checked, verified = findings(db)
    changed = "snapshot v2: its manifest was changed after it was made (topic '2' differs from what was sealed"
    assert any(f.startswith(f"snapshot hashes: {changed}") for f in checked), checked
    parent = "snapshot v3: its parent v2 is not the one it was made after"
    assert any(parent in f for f in checked), checked
    assert any(f.startswith(changed) for f in verified) and any(parent in f for f in verified), verified
    one = json.loads(invoke(db, "snapshot", "verify", "v2", "--json").stdout)
    assert one["ok"] is False and one["snapshots"][0]["findings"][0].startswith(changed)


def test_an_edited_manifest_with_its_seal_recomputed_still_breaks_the_child(db):
    with Store(db) as store:
        manifest = dict(store.snapshot("v2").manifest)
    manifest["topics"]["2"]["review_status"] = "no_answer"
    manifest["seal"] = manifest_sha256(manifest)
    tamper(
        db,
        {"snapshots"},
        "UPDATE snapshots SET manifest = ?, seal = ? WHERE name = 'v2'",
        params=(json.dumps(manifest, sort_keys=True), manifest["seal"]),
    )
    checked, _ = findings(db)
    assert any("topic '2' differs from what was sealed" in f for f in checked), checked  # its recorded parts
    assert any("snapshot v3: its parent v2 is not the one it was made after" in f for f in checked), checked


def remove_snapshot(db: Path, number: int) -> None:
    tamper(
        db,
        {"snapshots", "snapshot_labels"},
        f"DELETE FROM snapshot_labels WHERE snapshot_id = {number}",
        f"DELETE FROM snapshots WHERE snapshot_id = {number}",
    )


def test_a_removed_latest_snapshot_leaves_a_gap(db):
    remove_snapshot(db, 3)
    checked, verified = findings(db)
    gap = "1 snapshot of v1..v3 is missing (v3): removed from the workbench"
    assert any(f.startswith(f"snapshot hashes: {gap}") for f in checked), checked
    assert any(f.startswith(gap) for f in verified), verified
    with Store(db) as store:
        made = create_snapshot(store, "after the removal")
    assert made.snapshot == "v4"  # the removed name is never given again: the gap stays


def test_a_removed_snapshot_in_the_middle_is_a_gap_and_an_orphan(db):
    remove_snapshot(db, 2)
    checked, verified = findings(db)
    assert any("1 snapshot of v1..v3 is missing (v2)" in f for f in checked), checked
    orphan = "snapshot v3: its parent 'v2' is not in the workbench: it was removed"
    assert any(orphan in f for f in checked) and any(orphan in f for f in verified), verified


def test_a_removed_event_before_the_latest_snapshot_is_caught_with_the_chain_rewritten(db):
    """The review mark of topic 2 decides no label: only the snapshots' recorded log heads can tell."""
    tamper(db, {"events"}, "DELETE FROM events WHERE kind = 'review'")
    rechain(db)
    checked, verified = findings(db)
    assert not any(f.startswith(("judgment log:", "snapshot labels:")) for f in checked), checked
    head = "events before the snapshot were changed, removed or inserted"
    for name in ("v2", "v3"):
        assert any(f.startswith(f"snapshot hashes: snapshot {name} was made when event") and head in f for f in checked)
    assert not any("snapshot v1" in f for f in checked), checked  # v1 was made before the mark
    assert any(f.startswith("snapshot v3 was made when event") for f in verified), verified


def test_events_cut_from_before_the_latest_snapshot_with_the_head_are_caught(db):
    """The last events and the recorded head removed together: the chain alone cannot tell, the snapshot can."""
    tamper(db, {"events"}, "DELETE FROM events WHERE seq >= (SELECT max(seq) - 1 FROM events)")
    rechain(db)
    checked, _ = findings(db)
    assert any(
        "snapshot v3 was made when the log held" in f and "events before the snapshot were removed" in f
        for f in checked
    ), checked


def test_a_cut_after_the_latest_snapshot_is_what_one_file_cannot_see(db):
    """The limit docs/team.md states: the event after v3 removed with the head passes; a kept head tells."""
    kept = json.loads(invoke(db, "check", "--json").stdout)["head"]
    tamper(db, {"events"}, "DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)")
    rechain(db)
    report = json.loads(invoke(db, "check", "--json").stdout)
    assert report["ok"] is True
    assert report["head"]["events"] == kept["events"] - 1 and report["head"]["link"] != kept["link"]


def schema_10(path: Path) -> Path:
    """A workbench at schema 10 (before seals) holding one snapshot with an old-style manifest."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        db = Database(conn)
        migrations().apply(db, stop_before="m011_snapshot_seals")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 10")
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        qrels = "1 0 d1 2\n"
        manifest = {
            "snapshot": "v1",
            "created": "2026-01-01T00:00:00",
            "message": "old",
            "parent": None,
            "pools": [],
            "unit": "doc",
            "chunking": None,
            "labels": 1,
            "topics": {
                "1": {"labels": 1, "relevant": 1, "nonrelevant": 0, "pooled_unjudged": 0, "review_status": "reviewed"}
            },
            "conflicts_left_out": [],
            "stale_left_out": 0,
            "sha256": hashlib.sha256(qrels.encode()).hexdigest(),
        }
        conn.execute(
            "INSERT INTO snapshots (snapshot_id, name, parent, message, created, unit, manifest, sha256) "
            "VALUES (1, 'v1', NULL, 'old', ?, 'doc', ?, ?)",
            [manifest["created"], json.dumps(manifest, sort_keys=True), manifest["sha256"]],
        )
        conn.execute("INSERT INTO snapshot_labels VALUES (1, '1', 'd1', 2, NULL)")
    return path


def test_a_snapshot_made_before_seals_verifies_as_sealed_labels_only(tmp_path):
    path = schema_10(tmp_path / "old.db")
    with Store(path) as store:  # upgraded
        old = store.snapshot("v1")
        assert old.seal is None and store.snapshots_made() == 1
        verified = verify_snapshots(store)
        assert verified.ok and verified.snapshots[0].sealed == "labels only", verified
        hashes = next(c for c in check_workbench(store).checks if c.check == "snapshot hashes")
        assert hashes.ok and "sealed labels only" in hashes.fine, hashes
        judge(store, "1", "d2", 0)
        made = create_snapshot(store, "sealed")
        child = store.snapshot(made.snapshot)
        assert made.snapshot == "v2" and child.manifest["parent_seal"] == manifest_sha256(old.manifest)
    text = invoke(path, "snapshot", "verify")
    assert text.exit_code == 0 and "v1: ok" in text.stderr and "sealed labels only" in text.stderr
    # the old manifest is not sealed itself, but its sealed child records its hash
    tamper(
        path,
        {"snapshots"},
        "UPDATE snapshots SET manifest = json_set(manifest, '$.topics.1.review_status', 'no_answer') WHERE name = 'v1'",
    )
    checked = json.loads(invoke(path, "check", "--json").stdout)["findings"]
    assert any("snapshot v2: its parent v1 is not the one it was made after" in f for f in checked), checked

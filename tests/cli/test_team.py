"""Team use: merging workbenches and logs (idempotent, order-independent), check, many writers at once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support import Cli, dump, new_workbench

from labeler.store import Store
from labeler.workbench.read_labels import current_labels


def workbench(tmp_path: Path, name: str) -> Cli:
    db = tmp_path / f"{name}.db"
    new_workbench(db)
    return Cli(db)


def labels(db: Path) -> dict:
    with Store(db) as store:
        return {
            pair: (state.label, state.conflict, dict(state.grades))
            for pair, state in current_labels(store, "doc").items()
        }


@pytest.fixture
def pair(tmp_path):
    """Two annotators' workbenches that judged partly the same pairs, offline."""
    a, b = workbench(tmp_path, "a"), workbench(tmp_path, "b")
    a("judgments", "add", "1", "d1", "2", "--assessor", "ann")
    a("judgments", "add", "1", "d2", "0", "--assessor", "ann")
    a("topics", "mark", "2", "no_answer", "--assessor", "ann")
    b("judgments", "add", "1", "d1", "2", "--assessor", "bob")  # agrees with ann
    b("judgments", "add", "1", "d2", "3", "--assessor", "bob")  # disagrees: a conflict after merging
    b("judgments", "add", "1", "d3", "1", "--assessor", "bob")
    b("judgments", "undo", "--assessor", "bob")  # bob takes d3 back
    return a, b


def test_merge_is_a_union_that_surfaces_conflicts(pair):
    a, b = pair
    result = a.json("merge", b.db)
    assert (result["events"], result["added"], result["already_present"]) == (4, 4, 0)
    assert result["new_conflicts"] == [{"unit": "doc", "topic": "1", "unit_id": "d2"}]
    state = labels(a.db)
    assert state[("1", "d1")] == (2, False, {"ann": 2, "bob": 2})
    assert state[("1", "d2")][1] is True and ("1", "d3") in state and state[("1", "d3")][0] is None
    assert a.json("status")["topics"]["2"]["review_status"] == "no_answer"  # review marks travel too


def test_merging_twice_changes_nothing(pair):
    a, b = pair
    a("merge", b.db)
    before = dump(a.db)
    assert a.json("merge", b.db)["added"] == 0
    assert dump(a.db) == before


def test_merge_is_order_independent(pair):
    a, b = pair
    a("merge", b.db)
    b("merge", a.db)
    assert labels(a.db) == labels(b.db)
    with Store(a.db) as sa, Store(b.db) as sb:
        assert sa.event_ids() == sb.event_ids()


def test_merge_never_writes_to_the_other_workbench(pair):
    a, b = pair
    before = b.db.read_bytes()
    a("merge", b.db)
    assert b.db.read_bytes() == before


def test_jsonl_log_round_trip(pair, tmp_path):
    a, b = pair
    log = tmp_path / "b.jsonl"
    b("export", "log", "-o", log)
    assert len(log.read_text().splitlines()) == 4
    direct = workbench(tmp_path, "direct")
    direct("merge", b.db)
    via_log = workbench(tmp_path, "vialog")
    assert via_log.json("merge", log)["added"] == 4
    assert labels(direct.db) == labels(via_log.db)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"event_id": "x"}\n', "bad.jsonl:1: an event needs"),
        ("not json\n", "bad.jsonl:1: invalid JSON"),
        (
            '{"event_id": "e", "topic_id": "1", "unit": "doc", "unit_id": "d", "kind": "smile", "assessor": "a", '
            '"source": "human", "time": "t"}\n',
            "bad.jsonl:1: unknown event kind 'smile'",
        ),
    ],
)
def test_bad_logs_are_refused_and_change_nothing(tmp_path, write, content, message):
    target = workbench(tmp_path, "t")
    before = dump(target.db)
    result = target("merge", write("bad.jsonl", content), expect=1)
    assert message in result.stderr
    assert dump(target.db) == before


def test_check_passes_on_a_sound_workbench_and_finds_tampering(pair):
    a, b = pair
    a("snapshot", "create", "-m", "v1")
    assert a.json("check")["ok"] is True
    with sqlite3.connect(a.db) as conn:  # someone bypasses labeler and its guards
        conn.execute("DROP TRIGGER snapshot_labels_no_update")
        conn.execute("UPDATE snapshot_labels SET grade = 3")
    result = a("check", "--json", expect=1)
    import json

    failed = {c["check"] for c in json.loads(result.stdout)["checks"] if not c["ok"]}
    assert failed == {"append-only guards", "snapshot hashes", "snapshot labels"}  # labels no longer match their events


WRITER = """
import sys
from labeler.store import Store
from labeler.workbench.record_judgments import Judgment, record_judgment

db, name = sys.argv[1], sys.argv[2]
with Store(db) as store:
    for i in range(500):
        record_judgment(store, Judgment(str(i % 25), f"{name}-d{i}", assessor=name, grade=i % 4, allow_unknown=True))
print("done", flush=True)
"""


@pytest.mark.slow
def test_eight_annotators_at_once_lose_nothing(tmp_path):
    db = tmp_path / "shared.db"
    new_workbench(db)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(db), f"a{n}"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for n in range(8)
    ]
    outputs = [p.communicate(timeout=300) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert "locked" not in err and out.strip() == "done"
    with Store(db) as store:
        assert store.event_count() == 8 * 500
        assert len(current_labels(store, "doc")) == 8 * 500
        assert list(store.log_chain_problems()) == []  # eight writers, one unbroken chain: no fork


def test_a_copy_taken_mid_write_opens_consistently(tmp_path):
    """A plain file copy of a busy workbench (WAL) is a consistent earlier state: check passes on it."""
    import shutil

    db = tmp_path / "busy.db"
    new_workbench(db)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    proc = subprocess.Popen([sys.executable, str(script), str(db), "w"], stdout=subprocess.PIPE, text=True)
    copies = []
    while proc.poll() is None and len(copies) < 5:
        copy = tmp_path / f"copy{len(copies)}.db"
        for suffix in ("", "-wal"):  # the main file and its write-ahead log, as a backup tool would
            source = Path(str(db) + suffix)
            if source.exists():
                shutil.copyfile(source, Path(str(copy) + suffix))
        copies.append(copy)
    proc.wait(timeout=120)
    for copy in copies:
        cli = Cli(copy)
        assert cli.json("check")["ok"] is True


def test_backup_copies_a_workbench_that_checks(pair, tmp_path):
    a, _ = pair
    a("snapshot", "create", "-m", "v1")
    copy = tmp_path / "backup.db"
    result = a.json("backup", copy)
    assert result["ok"] is True and result["events"] == 3 and result["snapshots"] == 1
    assert labels(copy) == labels(a.db)
    assert "exists already" in a("backup", copy, expect=1).stderr

"""Model labels in the log: `probs` and `shown_model` stored, chained, merged; kept out of the human labels."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from support import Cli, dump

from labeler.errors import BadArgumentError, LabelerError
from labeler.judgments.log import Event, probs_problem
from labeler.judgments.model_labels import ModelLabel
from labeler.store import Store
from labeler.store.digests import CHAIN_FIELDS, event_link
from labeler.workbench.check import check_file
from labeler.workbench.read_labels import current_labels, model_labels, model_names
from labeler.workbench.record_judgments import Judgment, record_judgment

P = {0: 0.1, 1: 0.2, 2: 0.3, 3: 0.4}


def model_grade(store: Store, topic: str, unit: str, grade: int, *, model: str = "m1", probs=P) -> Event:
    return record_judgment(
        store,
        Judgment(
            topic_id=topic,
            unit_id=unit,
            assessor="bot",
            grade=grade,
            source="model",
            model=model,
            probs=probs,
            allow_unknown=True,
        ),
    )


def human_grade(store: Store, topic: str, unit: str, grade: int, **fields) -> Event:
    return record_judgment(
        store, Judgment(topic_id=topic, unit_id=unit, assessor="ann", grade=grade, allow_unknown=True, **fields)
    )


def test_a_model_grade_is_stored_with_its_probabilities_and_read_back_as_a_model_label(db_path: Path):
    with Store(db_path) as store:
        event = model_grade(store, "t1", "d1", 3)
        model_grade(store, "t1", "d2", 0, model="m2", probs=None)
        assert store.event(event.event_id).probs == P
        assert model_labels(store, "m1") == {("t1", "d1"): ModelLabel("m1", 3, P)}
        assert model_labels(store, "m2") == {("t1", "d2"): ModelLabel("m2", 0, None)}
        assert model_names(store) == ["m1", "m2"]
        stored = store.db.execute("SELECT probs FROM events WHERE event_id = ?", [event.event_id]).fetchone()[0]
    assert stored == '{"0":0.1,"1":0.2,"2":0.3,"3":0.4}'  # canonical: grades ascending, no spaces


def test_the_latest_model_grade_counts_and_a_retract_takes_it_back(db_path: Path):
    with Store(db_path) as store:
        first = model_grade(store, "t1", "d1", 1)
        second = model_grade(store, "t1", "d1", 2, probs={0: 0.0, 1: 0.0, 2: 1.0, 3: 0.0})
        assert model_labels(store, "m1")[("t1", "d1")].grade == 2
        with store.transaction():
            store.append_event(Event("", 0, "t1", "d1", "retract", "ann", first.time, target=second.event_id))
        assert model_labels(store, "m1")[("t1", "d1")] == ModelLabel("m1", 1, P)


def test_a_model_grade_is_not_a_human_label(db_path: Path):
    """No label, no conflict, not judged: the queue, status, snapshots and eval read people's labels only."""
    with Store(db_path) as store:
        model_grade(store, "t1", "d1", 3)
        assert current_labels(store, "doc")[("t1", "d1")].label is None
        assert not current_labels(store, "doc")[("t1", "d1")].judged
        human_grade(store, "t1", "d1", 0)  # a person disagrees with the model: that is not a conflict
        state = current_labels(store, "doc")[("t1", "d1")]
        assert (state.label, state.conflict, state.grades) == (0, False, {"ann": 0})
        assert model_labels(store, "m1")[("t1", "d1")].grade == 3


def test_a_model_grade_does_not_count_in_a_snapshot(db_path: Path):
    cli = Cli(db_path)
    cli("judgments", "add", "t1", "d1", "2", "--assessor", "ann", "--allow-unknown")
    cli(
        "judgments",
        "add",
        "t1",
        "d2",
        "3",
        "--assessor",
        "bot",
        "--source",
        "model",
        "--model",
        "m1",
        "--allow-unknown",
    )
    cli("snapshot", "create", "-m", "first")
    with Store(db_path) as store:
        labels = store.db.execute("SELECT topic_id, unit_id, grade FROM snapshot_labels").fetchall()
    assert labels == [("t1", "d1", 2)]


def test_shown_model_is_recorded_on_a_persons_judgment_only(db_path: Path):
    with Store(db_path) as store:
        seen = human_grade(store, "t1", "d1", 2, shown_model="m1")
        blind = human_grade(store, "t1", "d2", 2)
        assert (store.event(seen.event_id).shown_model, store.event(blind.event_id).shown_model) == ("m1", None)
        before = dump(db_path)
        with pytest.raises(BadArgumentError, match="a model's judgment has no shown model"):
            record_judgment(
                store,
                Judgment(
                    topic_id="t1",
                    unit_id="d3",
                    assessor="bot",
                    grade=1,
                    source="model",
                    model="m1",
                    shown_model="m1",
                    allow_unknown=True,
                ),
            )
    assert dump(db_path) == before


@pytest.mark.parametrize(
    ("probs", "message"),
    [
        ({0: 0.5, 1: 0.5}, r"one probability per grade of the scale \(0, 1, 2, 3\), found grades \(0, 1\)"),
        ({0: 0.5, 1: 0.5, 2: 0.5, 3: -0.5}, r"grade 3 must be a number in \[0, 1\], found -0.5"),
        ({0: 0.25, 1: 0.25, 2: 0.25, 3: 0.2}, "must sum to 1"),
        ({0: 0.25, 1: 0.25, 2: 0.25, 3: float("nan")}, "must be a number in"),
        ({0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25, 4: 0.0}, "found grades"),
    ],
)
def test_unsound_probabilities_are_refused_and_nothing_changes(db_path: Path, probs, message):
    before = dump(db_path)
    with Store(db_path) as store, pytest.raises(BadArgumentError, match=message):
        model_grade(store, "t1", "d1", 1, probs=probs)
    assert dump(db_path) == before


def test_probabilities_on_a_persons_grade_are_refused(db_path: Path):
    with Store(db_path) as store, pytest.raises(BadArgumentError, match="only a model's grade carries probabilities"):
        human_grade(store, "t1", "d1", 1, probs=P)


def test_probs_within_the_tolerance_pass():
    assert probs_problem({0: 0.3, 1: 0.7 + 5e-7}, [0, 1]) is None
    assert probs_problem({0: 0.3, 1: 0.7 + 2e-6}, [0, 1]) is not None


def test_the_chain_hashes_the_new_fields_only_when_one_is_set():
    """An event without probs or shown_model links exactly as before they existed (19 fields)."""
    old = ["e1", "t1", "d1", "grade", "ann", "2026-01-01T00:00:00+00:00", 2, None, None, "human", None]
    old += [None, None, None, None, None, None, "doc", 5]
    assert len(old) == CHAIN_FIELDS
    assert event_link(b"x", [*old, None, None]) == event_link(b"x", old)
    assert event_link(b"x", [*old, None, "m1"]) != event_link(b"x", old)
    assert event_link(b"x", [*old, '{"0":1.0}', None]) != event_link(b"x", [*old, None, '{"0":1.0}'])


def test_check_passes_with_model_labels_and_finds_a_changed_probability(db_path: Path):
    with Store(db_path) as store:
        human_grade(store, "t1", "d1", 2)
        event = model_grade(store, "t1", "d2", 1)
        human_grade(store, "t1", "d3", 0, shown_model="m1")
    assert check_file(db_path).ok
    conn = sqlite3.connect(db_path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute(
        "UPDATE events SET probs = ? WHERE event_id = ?", ['{"0":0.4,"1":0.2,"2":0.3,"3":0.1}', event.event_id]
    )
    conn.commit()
    conn.close()
    report = check_file(db_path)
    assert not report.ok
    assert event.event_id in repr(report)


def test_export_and_merge_carry_probs_and_shown_model(tmp_path: Path, db_path: Path):
    with Store(db_path) as store:
        model_grade(store, "t1", "d1", 1)
        human_grade(store, "t1", "d1", 2, shown_model="m1")
    log = tmp_path / "log.jsonl"
    Cli(db_path)("export", "log", "--output", str(log))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["probs"] == {"0": 0.1, "1": 0.2, "2": 0.3, "3": 0.4} and "shown_model" not in lines[0]
    assert lines[1]["shown_model"] == "m1" and "probs" not in lines[1]
    for source in (log, db_path):  # a JSONL log and a workbench file
        other = tmp_path / f"other-{source.suffix[1:]}.db"
        Cli(other)("init")
        Cli(other)("merge", str(source))
        with Store(other) as store:
            assert model_labels(store, "m1") == {("t1", "d1"): ModelLabel("m1", 1, P)}
            assert [e.shown_model for e in store.all_events()] == [None, "m1"]
        assert check_file(other).ok


def test_a_merged_log_with_unsound_probs_is_refused_at_its_line(tmp_path: Path, db_path: Path):
    with Store(db_path) as store:
        model_grade(store, "t1", "d1", 1)
    log = tmp_path / "log.jsonl"
    Cli(db_path)("export", "log", "--output", str(log))
    row = json.loads(log.read_text())
    row["probs"] = {"0": 0.5, "1": 0.6, "2": 0.0, "3": 0.0}
    log.write_text(json.dumps(row) + "\n")
    other = tmp_path / "other.db"
    Cli(other)("init")
    before = dump(other)
    result = Cli(other)("merge", str(log), expect=1)
    assert f"{log}:1: probs must sum to 1" in result.stderr
    assert dump(other) == before


def test_import_a_models_jsonl_with_probabilities(db_path: Path, write):
    cli = Cli(db_path)
    path = write(
        "m.jsonl",
        '{"topic": "t1", "unit": "d1", "grade": 2, "probs": {"0": 0.1, "1": 0.1, "2": 0.7, "3": 0.1}}\n'
        '{"topic": "t1", "unit": "d2", "grade": 0}\n',
    )
    args = ("judgments", "import", str(path), "--source", "model", "--model", "gpt", "--assessor", "gpt")
    first = cli.json(*args, "--allow-unknown")
    assert (first["judgments"], first["unchanged"], first["source"]) == (2, 0, "model")
    again = cli.json(*args, "--allow-unknown")
    assert (again["judgments"], again["unchanged"]) == (0, 2)  # the same file twice changes nothing
    with Store(db_path) as store:
        assert model_labels(store, "gpt") == {
            ("t1", "d1"): ModelLabel("gpt", 2, {0: 0.1, 1: 0.1, 2: 0.7, 3: 0.1}),
            ("t1", "d2"): ModelLabel("gpt", 0, None),
        }
        assert not any(state.judged for state in current_labels(store, "doc").values())


def test_model_qrels_are_model_labels_too(db_path: Path, write):
    cli = Cli(db_path)
    path = write("m.qrels", "t1 0 d1 2\nt1 0 d2 0\n")
    args = ("judgments", "import", str(path), "--source", "model", "--model", "bm", "--allow-unknown", "--json")
    assert json.loads(cli(*args).stdout)["judgments"] == 2
    assert json.loads(cli(*args).stdout)["unchanged"] == 2
    with Store(db_path) as store:
        assert set(model_labels(store, "bm")) == {("t1", "d1"), ("t1", "d2")}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"topic": "t1", "unit": "d1", "grade": 7}\n', ":1: grade 7 is not on"),
        (
            '{"topic": "t1", "unit": "d1", "grade": 1}\n{"topic": "t1", "unit": "d2", "grade": 1, "p": 1}\n',
            ":2: unknown field(s) 'p'",
        ),
        (
            '{"topic": "t1", "unit": "d1", "grade": 1, "probs": {"0": 1.5, "1": 0, "2": 0, "3": 0}}\n',
            r":1: probs: the probability of grade 0 must be a number in [0, 1]",
        ),
        ('{"topic": "t1", "unit": "d1", "grade": 1, "probs": {"x": 1}}\n', ":1: probs: 'x' is not a grade"),
        (
            '{"topic": "t1", "unit": "d1", "grade": 1}\n{"topic": "t1", "unit": "d1", "grade": 2}\n',
            ":2: topic t1 unit d1 is labelled twice (first at line 1)",
        ),
        ('{"topic": "t1", "grade": 1}\n', ":1: a model label needs unit"),
        ('{"topic": "t 1", "unit": "d1", "grade": 1}\n', ":1: "),
    ],
)
def test_bad_model_jsonl_is_refused_at_its_line_and_nothing_changes(db_path: Path, write, text, message):
    path = write("m.jsonl", text)
    before = dump(db_path)
    result = Cli(db_path)(
        "judgments", "import", str(path), "--source", "model", "--model", "m", "--allow-unknown", expect=1
    )
    assert f"{path}{message}" in result.stderr and "Traceback" not in result.stderr
    assert dump(db_path) == before


def test_a_model_import_needs_the_models_name(db_path: Path, write):
    path = write("m.jsonl", '{"topic": "t1", "unit": "d1", "grade": 1}\n')
    result = Cli(db_path)("judgments", "import", str(path), "--source", "model", "--allow-unknown", expect=2)
    assert "model" in result.stderr


def test_errors_are_labeler_errors():
    assert issubclass(BadArgumentError, LabelerError)


def test_a_schema_8_log_keeps_its_links_through_the_upgrade(tmp_path: Path):
    """Events linked before probs and shown_model existed (19 fields) still check after migration 9."""
    from contextlib import closing

    from sqlite_utils import Database

    from labeler.store.connection import APPLICATION_ID
    from labeler.store.event_rows import LOG_HEAD, LOG_LENGTH
    from labeler.store.schema import migrations

    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        db = Database(conn)
        migrations().apply(db, stop_before="m009_model_labels")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("PRAGMA user_version = 8")
        link = b""
        for number, grade in enumerate([2, 0, 1]):
            values = [f"e{number}", "1", f"d{number}", "grade", "ann", "2026-01-01T10:00:00+00:00", grade]
            values += [None, None, "human", None, None, None, None, None, None, None, "doc", number + 1]
            link = event_link(link, values)  # what the labeler before model labels wrote
            db.execute(
                "INSERT INTO events (event_id, topic_id, unit_id, kind, assessor, time, grade, reason, note, source, "
                "model, active_ms, content_hash, judging_order, seed, target, pool, unit, clock, link) "
                f"VALUES ({', '.join('?' * 20)})",
                [*values, link],
            )
        db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?), (?, ?)", [LOG_HEAD, link.hex(), LOG_LENGTH, "3"]
        )
    with Store(path) as store:
        assert list(store.log_chain_problems()) == []
        model_grade(store, "1", "d9", 2)
        human_grade(store, "1", "d8", 1, shown_model="m1")
        assert list(store.log_chain_problems()) == []
    (log,) = [c for c in check_file(path).checks if c.check == "judgment log"]  # (this file has no scale: a test's)
    assert log.ok, log.findings


def test_check_finds_probs_on_a_persons_event_written_behind_the_checks(db_path: Path):
    """An event whose fields break the model-label rules (written by SQL, chain and all) is malformed."""
    with Store(db_path) as store:
        event = human_grade(store, "t1", "d1", 2)
    conn = sqlite3.connect(db_path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET probs = ? WHERE event_id = ?", ['{"2":1.0}', event.event_id])
    conn.commit()
    conn.close()
    with Store(db_path) as store:
        assert store.malformed_events() == [f"{event.event_id} (grade)"]


def test_a_models_file_cannot_mark_topics_reviewed(db_path: Path, write):
    path = write("m.qrels", "t1 0 d1 2\n")
    before = dump(db_path)
    result = Cli(db_path)(
        "judgments", "import", str(path), "--source", "model", "--model", "m", "--reviewed", "--allow-unknown", expect=2
    )
    assert "a model's labels cannot mark topics reviewed" in result.stderr
    assert dump(db_path) == before

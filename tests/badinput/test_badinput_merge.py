"""Merged logs and workbenches are checked like imported files: all or nothing, `file:line: reason`.

Each bad JSONL case is a two-line log: a sound event on line 1, the bad one on line 2, so that the
refusal must name line 2 and must not have written line 1 (the workbench stays byte-identical).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from badinput_support import Unchanged, assert_no_crash, assert_refused, invoke
from support import new_workbench

from labeler.workbench.init import init_workbench

SOUND = {
    "event_id": "e-sound",
    "topic_id": "1",
    "unit": "doc",
    "unit_id": "d1",
    "kind": "grade",
    "grade": 2,
    "assessor": "ann",
    "source": "human",
    "time": "2026-01-01T00:00:00.000000+00:00",
}
BAD = {
    "event_id": "e-bad",
    "topic_id": "1",
    "unit": "doc",
    "unit_id": "d2",
    "kind": "grade",
    "grade": 1,
    "assessor": "bob",
    "source": "human",
    "time": "2026-01-02T00:00:00.000000+00:00",
}
DELETE = object()


def with_fields(**fields) -> str:
    """The bad event as a JSON line: BAD with `fields` changed (DELETE removes one)."""
    row = dict(BAD)
    for name, value in fields.items():
        if value is DELETE:
            row.pop(name, None)
        else:
            row[name] = value
    return json.dumps(row, ensure_ascii=False)


def write_log(folder: Path, second_line: str) -> Path:
    log = folder / "log.jsonl"
    log.write_text(json.dumps(SOUND) + "\n" + second_line + "\n", encoding="utf-8")
    return log


DEEP = '{"note": ' + "[" * 100_000 + "]" * 100_000 + "}"
CASES = [
    # (line 2 of the log, a fragment of the reason)
    (with_fields(grade=7), "grade 7 is not on the scale 'default'"),  # off the workbench's scale
    (with_fields(grade=True), "grade must be an integer, found true\n"),  # a bool is not a grade (and is said once)
    (with_fields(grade=2.0), "grade must be an integer, found a number 2.0"),  # nor a float
    (with_fields(grade="2"), "grade must be an integer, found a string"),  # nor a string
    (with_fields(grade=DELETE), "a grade event needs a grade"),  # a grade event without one
    (with_fields(grade=-1), "grade -1 is not on the scale"),  # "pooled, not judged" is an import's, not a human's
    (with_fields(kind="adjudicate", grade=-2, source="import"), "grade -2 is not on"),  # nor an adjudication's
    (with_fields(kind="skip", grade=1), "a skip event has no grade"),  # a grade on a state
    (with_fields(time="yesterday"), "time 'yesterday' is not an ISO 8601 time"),  # not a time
    (with_fields(time="2026-13-45T00:00:00+00:00"), "is not an ISO 8601 time"),  # a month that does not exist
    (with_fields(time="2026-01-02T00:00:00"), "has no UTC offset"),  # an instant needs its offset
    (with_fields(time=1767312000), "time must be a string"),  # epoch seconds are not the log's time
    (with_fields(time="1969-07-20T20:17:00+00:00"), "before 1970"),  # before any clock
    (with_fields(time="2099-01-01T00:00:00.000000+00:00"), "ahead of this machine's clock"),  # a wrong clock
    (with_fields(clock=4_070_908_800_000_000), "clock 4070908800000000 is"),  # a clock from 2099, time sound
    (with_fields(clock="12"), "clock must be an integer, found a string"),  # a clock is a number
    (with_fields(clock=-5), "clock -5 is out of range"),  # before 1970
    (with_fields(kind="smile"), "unknown event kind 'smile'"),  # not a kind of the log
    (with_fields(source="oracle"), "unknown source 'oracle'"),  # not a source
    (
        with_fields(kind="review", unit_id=None, grade=None, reason="done"),
        "a review event's reason: unknown review mark 'done' (one of reviewed, no_answer, unreviewed)",
    ),  # no such mark
    (with_fields(kind="review", grade=None, reason="reviewed"), "its unit_id must be null"),  # a mark on a unit
    (
        with_fields(unit="chunk:nope"),
        "no chunking named 'nope' in this workbench (its chunkings: existing)",
    ),  # unknown chunking
    (with_fields(unit="paragraph"), "unit must be 'doc', 'chunk:NAME', 'nuggets'"),  # not a unit space
    (with_fields(unit_id=None), "a grade event needs a unit_id"),  # a grade of nothing
    (with_fields(topic_id="1\n2 0 forged"), "topic_id '1\\n2 0 forged' contains white space"),  # a forged qrels line
    (with_fields(assessor="bob\x1b[31m"), "contains a control character (U+001B)"),  # ESC in a name
    (with_fields(unit_id="d 2"), "unit_id 'd 2' contains white space"),  # a space in a unit id
    (with_fields(event_id=""), "event_id '' is empty"),  # an empty id
    (with_fields(event_id=42), "event_id must be a string, found int"),  # an id that is not a string
    (with_fields(event_id="e-sound", grade=0), "appears again with other content"),  # a reused id, other grade
    (with_fields(active_ms=10**30), "active_ms 1000000000000000000000000000000 is out of range"),  # no OverflowError
    (with_fields(active_ms=-3), "active_ms -3 is out of range"),  # negative time spent
    (with_fields(seed=2**63), "seed 9223372036854775808 is out of range"),  # one past SQLite's INTEGER
    ('{"event_id": "e-bad", "seed": ' + "9" * 5000 + "}", "a number with too many digits"),  # a 5000-digit int
    (DEEP, "nested too deeply"),  # no RecursionError
    (json.dumps({**BAD, "note": "\ud800"}), "half of a surrogate pair"),  # a lone surrogate (no UnicodeEncodeError)
    (with_fields(note=5), "note must be a string or null, found a number"),  # a field of the wrong type
    (with_fields(reason=["a"]), "reason must be a string or null, found an array"),  # an array where text goes
    (with_fields(model={"name": "x"}), "model must be a string or null, found an object"),  # an object
    (with_fields(color="red"), "unknown field(s) 'color'"),  # a field the log does not have
    (with_fields(seq=1), "unknown field(s) 'seq'"),  # the local sequence is not part of the log
    (with_fields(kind="retract", grade=None), "a retract event needs a target"),  # retract without target
    (with_fields(kind="retract", grade=None, target="nowhere"), "neither in this workbench nor in the log"),
    (with_fields(kind="retract", grade=None, target="e-sound", unit_id="d9"), "is about another pair"),
    (
        with_fields(kind="retract", grade=None, target="e-sound", unit_id="d1"),
        "retract by 'bob' targets event 'e-sound' of 'ann': an assessor withdraws only their own decisions",
    ),  # one assessor cannot withdraw another's grade
    (with_fields(target="e-sound"), "only a retract event has a target"),  # a target on a grade
    (with_fields(kind="unsure", grade=None), "an unsure judgment needs a reason"),  # unsure says why
    (with_fields(kind="note", grade=None, note="  "), "a note needs its text"),  # an empty note
    (with_fields(source="model"), "a model judgment needs the model's name"),  # a model without a name
    (with_fields(content_hash="abc"), "is not a SHA-256"),  # not a hash
    (with_fields(order="pool order"), "order 'pool order' contains white space"),  # the judging order is a name
    (with_fields(pool=""), "pool '' is empty"),  # an empty pool name
    (with_fields(kind=DELETE), "an event needs kind"),  # a required field missing
    (with_fields(assessor=None), "an event needs assessor"),  # or null
    ('{"grade": 1, "grade": 3, ' + with_fields()[1:], "'grade' given twice"),  # which grade counts?
    ("[1, 2]", "expected a JSON object, found an array"),  # not an object
    (with_fields(grade=float("nan")), "grade must be an integer, found a number nan"),  # NaN
    ("{not json", "invalid JSON"),  # not JSON at all
]


@pytest.mark.parametrize(("line", "fragment"), CASES, ids=[f"case{n}" for n in range(len(CASES))])
def test_a_bad_event_refuses_the_whole_log(workbench, line, fragment):
    log = write_log(workbench.parent, line)
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", log])
        assert_refused(result, log, 2, fragment)


def test_an_id_already_here_with_other_content_is_forged_not_already_here(workbench):
    log = write_log(workbench.parent, with_fields())
    assert invoke(workbench, ["merge", log]).exit_code == 0
    forged = workbench.parent / "forged.jsonl"
    forged.write_text(json.dumps({**BAD, "grade": 3}) + "\n")  # the same event id, another grade
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", forged])
        assert_refused(
            result,
            forged,
            1,
            "event 'e-bad' is already in this workbench with other content "
            "(grade 1 here, 3 there): a forged or corrupt event",
        )
    again = invoke(workbench, ["merge", log, "--json"])
    assert json.loads(again.stdout)["added"] == 0  # the same content stays idempotent


def test_future_events_are_merged_with_allow_future_and_flagged(workbench):
    log = write_log(workbench.parent, with_fields(time="2099-01-01T00:00:00.000000+00:00"))
    result = invoke(workbench, ["merge", log, "--allow-future", "--json"])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["added"] == 2
    assert out["future"] == [{"event_id": "e-bad", "time": "2099-01-01T00:00:00.000000+00:00", "line": 2}]


def test_the_clock_tolerance_is_an_option(workbench):
    soon = (datetime.now(timezone.utc) + timedelta(hours=2)).isoformat()  # two hours ahead: over 5 minutes
    log = write_log(workbench.parent, with_fields(time=soon))
    ahead = 2 * 3600
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["merge", log]), log, 2, "ahead of this machine's clock")
    result = invoke(workbench, ["merge", log, "--clock-tolerance", str(ahead + 3600), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["future"] == []


@pytest.mark.parametrize(
    ("tolerance", "hint"),
    [
        ("-1", ""),
        ("nan", ""),
        ("inf", " (pass --allow-future to merge events further ahead)"),
        ("1e300", " (pass --allow-future to merge events further ahead)"),  # a tolerance that allows every clock
        ("31622401", " (pass --allow-future to merge events further ahead)"),  # a second more than 366 days
    ],
)
def test_a_tolerance_out_of_its_range_is_refused(workbench, tolerance, hint):
    log = write_log(workbench.parent, with_fields())
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", log, "--clock-tolerance", tolerance])
        assert isinstance(result.exception, SystemExit), result.exception  # a bad argument: exit 2, no traceback
        assert result.exit_code == 2 and result.stderr == (
            "Error: --clock-tolerance: must be a number of seconds from 0 to 31622400 (366 days), "
            f"not {float(tolerance)}{hint}\n"
        )
    accepted = invoke(workbench, ["merge", log, "--clock-tolerance", "31622400"])  # the range's end is in it
    assert accepted.exit_code == 0, accepted.stderr


def test_a_fifo_is_refused_at_once(workbench):
    fifo = workbench.parent / "log.jsonl"
    os.mkfifo(fifo)
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["merge", fifo]), fifo, None, "named pipe (FIFO)")


# -- another workbench --------------------------------------------------------------------------


def other_workbench(folder: Path, *args: list[str], scale: str | None = None) -> Path:
    """A second workbench with one judgment, after running the given commands on it."""
    db = folder / "other.db"
    init_workbench(db, scale)
    for command in args:
        result = invoke(db, command)
        assert result.exit_code == 0, result.stderr
    result = invoke(db, ["judgments", "add", "1", "d1", "1", "--assessor", "bob", "--allow-unknown"])
    assert result.exit_code == 0, result.stderr
    return db


def test_a_workbench_with_another_scale_is_refused(workbench, tmp_path):
    other = other_workbench(tmp_path, scale="binary")
    with Unchanged(workbench):
        assert_refused(
            invoke(workbench, ["merge", other]),
            other,
            None,
            "its grade scale is 'binary' (grades 0, 1; relevant from 1), this workbench's is "
            "'default' (grades 0, 1, 2, 3; relevant from 1)",
        )


def test_a_chunking_of_the_same_name_with_other_chunks_is_refused(workbench, tmp_path):
    ids = tmp_path / "other.ids"
    ids.write_text("x1#0\nx1#1\nx1#2\n")  # the baseline's chunking 'existing' has x1#0 and x1#1 only
    other = other_workbench(tmp_path, ["corpus", "mapping", "derive", ids, "--name", "existing"])
    with Unchanged(workbench):
        assert_refused(
            invoke(workbench, ["merge", other]),
            other,
            None,
            "chunking 'existing' is another chunking there under the same name",
        )


def test_a_document_with_the_same_id_and_other_text_is_refused(tmp_path):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir(), theirs.mkdir()
    (ours / "c.jsonl").write_text('{"id": "d1", "text": "apples"}\n{"id": "d2", "text": "pears"}\n')
    (theirs / "c.jsonl").write_text('{"id": "d1", "text": "apples"}\n{"id": "d2", "text": "plums"}\n')
    db = ours / "wb.db"
    new_workbench(db)
    assert invoke(db, ["corpus", "import", ours / "c.jsonl"]).exit_code == 0
    other = other_workbench(theirs, ["corpus", "import", theirs / "c.jsonl"])
    with Unchanged(db):
        assert_refused(
            invoke(db, ["merge", other]),
            other,
            None,
            "1 document has the same id but another text there than here (e.g. 'd2')",
        )


def hostile(folder: Path, sql: str) -> Path:
    """Another workbench whose event row was changed behind labeler's back."""
    other = other_workbench(folder)
    with closing(sqlite3.connect(other)) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute(sql)
        conn.commit()
    return other


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("UPDATE events SET grade = 'high'", "grade must be an integer, found a string"),  # text in INTEGER
        ("UPDATE events SET grade = 9", "grade 9 is not on the scale"),  # off the scale
        ("UPDATE events SET time = 'yesterday'", "time 'yesterday' is not an ISO 8601 time"),
        ("UPDATE events SET assessor = 'a b'", "assessor 'a b' contains white space"),
        ("UPDATE events SET note = x'00ff'", "note must be a string or null, found bytes"),  # a blob
        ("UPDATE events SET unit = 'chunk:elsewhere'", "no chunking named 'elsewhere' in this workbench"),
    ],
)
def test_a_tampered_workbench_is_refused_with_the_event(workbench, tmp_path, sql, fragment):
    other = hostile(tmp_path, sql)
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", other])
        assert_refused(result, other, None, fragment)
        assert result.stderr.startswith(f"Error: {other}: event '")


def test_text_that_is_not_utf8_in_another_workbench_is_refused(workbench, tmp_path):
    other = hostile(tmp_path, "UPDATE events SET note = CAST(x'ff' AS TEXT)")
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["merge", other]), other, None, "cannot be read as a workbench")


def test_a_truncated_sqlite_file_is_refused(workbench, tmp_path):
    other = other_workbench(tmp_path)
    broken = tmp_path / "broken.db"
    broken.write_bytes(other.read_bytes()[:100] + b"\x00" * 50)
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", broken])
        assert_no_crash(result)
        assert result.exit_code == 1 and result.stderr.startswith(f"Error: {broken}: ")


# -- fuzz: whatever an event holds, merge refuses it or takes it, never a traceback ----------------

HOSTILE_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    7,
    2.5,
    float("inf"),
    10**19,
    -(10**19),
    "",
    " ",
    "x y",
    "a\x1b]2;title\x07",
    "\u202e",
    "\x00",
    "doc",
    "chunk:existing",
    "chunk:",
    "chunk:x y",
    "2026-01-01T00:00:00Z",
    "2099-01-01T00:00:00Z",
    "0001-01-01T00:00:00+01:00",
    "yesterday",
    "grade",
    "retract",
    "review",
    "reviewed",
    "model",
    "import",
    "e-sound",
    [],
    {},
    [[[]]],
    {"a": 1},
    "x" * 600,
    "\U0001f600",
]


@pytest.mark.parametrize("seed", range(6))
def test_fuzzed_events_never_crash_merge(workbench, seed):
    rng = random.Random(seed)
    fields = list(BAD) + [
        "reason",
        "note",
        "model",
        "active_ms",
        "content_hash",
        "order",
        "seed",
        "target",
        "pool",
        "clock",
        "extra",
    ]
    lines = []
    for _ in range(40):
        row = dict(BAD, event_id=f"f{rng.randrange(10**9)}")
        for name in rng.sample(fields, rng.randint(1, 4)):
            if rng.random() < 0.15:
                row.pop(name, None)
            else:
                row[name] = rng.choice(HOSTILE_VALUES)
        lines.append(json.dumps(row, ensure_ascii=rng.random() < 0.5, allow_nan=True))
    for line in lines:
        log = write_log(workbench.parent, line)
        result = invoke(workbench, ["merge", log])
        assert_no_crash(result)
        if result.exit_code == 1:
            assert result.stderr.startswith(f"Error: {log}:") and result.stderr.count("\n") == 1, result.stderr

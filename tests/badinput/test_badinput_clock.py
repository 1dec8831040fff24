"""The logical clock has one range on every road in: no merged event, and no local one, can overflow it.

A merged clock beyond the end of year 9999 (or below 0) is refused whatever the clock tolerance
says; a workbench whose clock was pushed to its end before that rule refuses the next event in
one line, and `check` names the event that pushed it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from badinput_support import Unchanged, assert_no_crash, assert_refused, invoke

from labeler.judgments.log import CLOCK_END, MAX_CLOCK, Event
from labeler.store import Store
from labeler.workbench.init import init_workbench

EVENT = {
    "event_id": "e-clock",
    "topic_id": "1",
    "unit": "doc",
    "unit_id": "d9",
    "kind": "grade",
    "grade": 2,
    "assessor": "bob",
    "source": "human",
    "time": "2026-01-01T00:00:00.000000+00:00",
}
ALL_FUTURE = ("--allow-future", "--clock-tolerance", "31622400")  # the widest a merge can be told to accept
OUT_OF_RANGE = [2**63 - 1, 2**63, 2**62, MAX_CLOCK + 1, -5]


def clocked_log(folder: Path, clock: int, name: str = "clock") -> Path:
    log = folder / f"{name}.jsonl"
    log.write_text(json.dumps({**EVENT, "event_id": f"e-{name}", "clock": clock}) + "\n", encoding="utf-8")
    return log


def ok(db: Path, *args: str) -> None:
    result = invoke(db, list(args))
    assert result.exit_code == 0, result.stderr


def clocks(db: Path) -> list[int]:
    with Store(db, readonly=True) as store:
        return [event.clock for event in store.all_events()]


def log_findings(db: Path) -> list[str]:
    result = invoke(db, ["check", "--json"])
    assert_no_crash(result)
    (log,) = [c for c in json.loads(result.stdout)["checks"] if c["check"] == "judgment log"]
    return log["findings"]


@pytest.mark.parametrize("clock", OUT_OF_RANGE)
@pytest.mark.parametrize("options", [(), ALL_FUTURE], ids=["plain", "future-allowed"])
def test_a_merged_clock_out_of_range_is_refused_whatever_the_tolerance(workbench, clock, options):
    log = clocked_log(workbench.parent, clock)
    where = "before 1970" if clock < 0 else "beyond the end of year 9999"
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["merge", log, *options]), log, 1, f"clock {clock} is out of range ({where})")


def test_out_of_range_clocks_are_refused_the_bound_merged_and_every_write_after_it_succeeds(workbench, tmp_path):
    """2^63-1, 2^63, 2^62 and -5 refused; a clock at the bound merged; judging, importing, undoing, marking go on."""
    for number, clock in enumerate([2**63 - 1, 2**63, 2**62, -5]):
        log = clocked_log(tmp_path, clock, name=f"bad{number}")
        with Unchanged(workbench):
            assert_refused(invoke(workbench, ["merge", log, *ALL_FUTURE]), log, 1, f"clock {clock} is out of range")
    ok(workbench, "merge", clocked_log(tmp_path, MAX_CLOCK, name="bound"), "--allow-future")
    ok(workbench, "judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown")
    qrels = tmp_path / "more.qrels"
    qrels.write_text("1 0 d2 1\n1 0 d3 0\n")
    ok(workbench, "judgments", "import", qrels, "--assessor", "imp")
    ok(workbench, "judgments", "undo", "--assessor", "ann")
    ok(workbench, "topics", "mark", "1", "reviewed")
    # past the bound the clock counts one per event: the grade, the two imported, the undo, the mark
    assert clocks(workbench) == [MAX_CLOCK, *range(MAX_CLOCK + 1, MAX_CLOCK + 6)]
    with Store(workbench, readonly=True) as store:
        kinds = [(e.kind, e.unit_id, e.grade) for e in store.all_events()]
    assert kinds == [
        ("grade", "d9", 2),
        ("grade", "d1", 2),
        ("grade", "d2", 1),
        ("grade", "d3", 0),
        ("retract", "d1", None),
        ("review", None, None),
    ]
    head = MAX_CLOCK + 5
    assert log_findings(workbench) == [
        f"the log's clock is near its end: it is at {head}, 5 past the clock's bound {MAX_CLOCK} (the end of year "
        f"9999), where an event merged from the far future put it; events recorded here count on from it (room "
        f"for {CLOCK_END - head} more events before its end), and no other workbench merges those past the bound"
    ]


def test_a_clock_a_year_short_of_the_bound_is_near_its_end_and_today_s_is_not(workbench, tmp_path):
    assert log_findings(workbench) == []
    ok(workbench, "judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown")
    assert log_findings(workbench) == []  # a clock of today: far from its end
    near = MAX_CLOCK - 86_400_000_000  # a day before the end of year 9999
    ok(workbench, "merge", clocked_log(tmp_path, near), "--allow-future")
    (finding,) = log_findings(workbench)
    assert finding.startswith(
        f"the log's clock is near its end: it is at {near}, 86400000000 short of the clock's bound {MAX_CLOCK}"
    )
    assert f"room for {CLOCK_END - near} more events" in finding


def test_another_workbench_s_clock_out_of_range_refuses_its_merge(workbench, tmp_path):
    other = tmp_path / "other.db"
    init_workbench(other)
    with Store(other) as store, store.transaction():  # written through the store: no merge rule on this road
        store.append_events([Event("e-far", 0, "1", "d9", "grade", "bob", EVENT["time"], grade=1, clock=2**62)])
    with Unchanged(workbench):
        assert_refused(
            invoke(workbench, ["merge", other, *ALL_FUTURE]),
            other,
            None,
            f"event 'e-far': clock {2**62} is out of range (beyond the end of year 9999)",
        )


def test_a_clock_written_past_the_bound_is_named_by_check_and_the_next_write_refused(workbench, tmp_path):
    """A workbench damaged before the rule: two more events fit, then every write is refused in one line."""
    with Store(workbench) as store, store.transaction():  # written through the store, past the merge's rule
        store.append_events([Event("e-forged", 0, "1", "d9", "grade", "bob", EVENT["time"], grade=1, clock=2**63 - 3)])
    ok(workbench, "judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown")
    ok(workbench, "judgments", "add", "1", "d2", "1", "--assessor", "ann", "--allow-unknown")
    assert clocks(workbench) == [2**63 - 3, 2**63 - 2, CLOCK_END]
    qrels = tmp_path / "more.qrels"
    qrels.write_text("1 0 d3 1\n")
    refusal = (
        f"Error: the judgment log's clock is at {CLOCK_END}, the largest a clock can be: no event can be recorded "
        f"after it (an event with a clock beyond {MAX_CLOCK}, the end of year 9999, was written into this workbench "
        "before merges refused such clocks; checking the workbench names it)\n"
    )
    for write in (
        ["judgments", "add", "1", "d3", "1", "--assessor", "ann", "--allow-unknown"],
        ["judgments", "import", qrels, "--assessor", "imp"],
        ["judgments", "undo", "--assessor", "ann"],
        ["topics", "mark", "1", "reviewed"],
    ):
        with Unchanged(workbench):
            result = invoke(workbench, write)
            assert_no_crash(result)
            assert result.exit_code == 1 and result.stderr == refusal and result.stdout == ""
    assert log_findings(workbench) == [
        f"event e-forged (seq 1) has clock {2**63 - 3}, beyond the clock's bound {MAX_CLOCK} (the end of year 9999), "
        f"written before merges refused such clocks: the log's clock is at {CLOCK_END}, no room for another event "
        "before its end"
    ]


def test_check_names_a_negative_clock_and_a_jump_among_counted_ones(workbench):
    with Store(workbench) as store, store.transaction():
        store.append_events(
            [
                Event("e-bound", 0, "1", "d1", "grade", "bob", EVENT["time"], grade=1, clock=MAX_CLOCK),
                Event("e-count", 0, "1", "d2", "grade", "bob", EVENT["time"], grade=1, clock=MAX_CLOCK + 1),
                Event("e-jump", 0, "1", "d3", "grade", "bob", EVENT["time"], grade=1, clock=MAX_CLOCK + 10),
                Event("e-neg", 0, "1", "d4", "grade", "bob", EVENT["time"], grade=1, clock=-1),
            ]
        )
    findings = log_findings(workbench)
    assert findings[0] == "event e-neg (seq 4) has clock -1: a clock is an integer, 0 or more"
    assert findings[1].startswith(f"event e-jump (seq 3) has clock {MAX_CLOCK + 10}, beyond the clock's bound")
    assert len(findings) == 2

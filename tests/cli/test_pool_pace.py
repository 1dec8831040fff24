"""`pool build`'s effort estimate says which pace it used: the median of the last timed judgments, or the default."""

from __future__ import annotations

from labeler.pace import DEFAULT_PER_HOUR
from labeler.store import Store
from labeler.workbench.record_judgments import Judgment, record_judgment

RUN = "1 Q0 d1 1 3 a\n1 Q0 d2 2 2 a\n1 Q0 d3 3 1 a\n1 Q0 d4 4 1 a\n"


def test_no_judgment_timed_names_the_default_pace(run_cli, write):
    run_cli("runs", "import", write("a.run", RUN), "--name", "a")
    out = run_cli("pool", "build", "--depth", "4").stderr
    assert f"at the default pace of {DEFAULT_PER_HOUR:g}/h: no judgments timed yet" in out


def test_the_median_of_the_timed_judgments(run_cli, write, db_path):
    run_cli("runs", "import", write("a.run", RUN), "--name", "a")
    with Store(db_path) as store:  # 10 s, 20 s, 30 s: a median of 20 s, 180 an hour
        for unit, ms in (("x1", 10_000), ("x2", 20_000), ("x3", 30_000)):
            record_judgment(
                store, Judgment(topic_id="1", unit_id=unit, assessor="ann", grade=0, active_ms=ms, allow_unknown=True)
            )
    result = run_cli.json("pool", "build", "--depth", "4")
    assert result["pace"] == {
        "per_hour": 180.0,
        "judgments": 3,
        "basis": "median",
        "description": "at 180/h, the median of the last 3 timed judgments",
    }
    assert (result["judgments_per_hour"], result["unjudged"], result["effort_hours"]) == (180.0, 4, 0.02)
    out = run_cli("pool", "build", "--depth", "3").stderr
    assert "About 0.02 hours of judging left, at 180/h, the median of the last 3 timed judgments." in out

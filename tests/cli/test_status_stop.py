"""`labeler status --stop RULE` and `labeler judge --stop RULE` (issue 16 item 3): the rule per topic, bad rules."""

from __future__ import annotations

from support import dump


def test_status_shows_per_topic_whether_the_rule_says_stop(run_cli, write):
    run_cli("runs", "import", write("a.run", "".join(f"1 Q0 d{i} {i} {9 - i} a\n" for i in range(1, 6))), "--name", "a")
    run_cli("pool", "build", "--depth", "5")
    run_cli("judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown")
    for unit in ("d2", "d3", "d4"):
        run_cli("judgments", "add", "1", unit, "0", "--assessor", "ann", "--allow-unknown")
    stopping = run_cli.json("status", "--stop", "window:3")["topics"]["1"]["stopping"]
    assert stopping == {
        "rule": "window:3",
        "stop": True,
        "judgments": 4,
        "relevant": 1,
        "reason": "no relevant unit in the last 3 judgments: the rule says stop",
    }
    result = run_cli.json("status", "--stop", "window:4")
    assert result["topics"]["1"]["stopping"]["stop"] is False
    assert result["topics"]["1"]["stopping"]["reason"] == "3 of 4 judgments since the last relevant unit"
    assert result["stopping"] == {"rule": "window:4", "stop": 0}
    assert run_cli.json("status")["stopping"]["rule"] == "window:10"
    text = run_cli("status", "--stop", "window:3").stdout
    assert "window:3" in text and "stop" in text


def test_a_bad_rule_is_a_bad_argument_naming_stop_and_changes_nothing(run_cli, db_path):
    run_cli("status")
    before = dump(db_path)
    for command in (["status"], ["judge", "--assessor", "ann"]):
        result = run_cli(*command, "--stop", "window:none", expect=2)
        assert "--stop" in result.stderr and "whole number" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    result = run_cli("status", "--stop", "maybe", expect=2)
    assert "no stopping rule 'maybe' (the rules are window, knee)" in result.stderr
    assert dump(db_path) == before

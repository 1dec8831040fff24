"""`labeler replay` on a Toy-2 workbench: the JSON shape, unjudged units both ways, bad input, nothing written."""

from __future__ import annotations

import pytest
from support import dump

from labeler.ordering import ORDERS

ARGS = ("replay", "--snapshot", "v1", "--depth", "5", "--runs", "A,B,C", "--measure", "P@5")


def test_json_shape_and_unjudged_left_out(toy):
    out = toy.json(*ARGS, "--stop", "window:2")
    assert out["snapshot"] == "v1"
    assert out["pool"] == {"depth": 5, "strategy": "depth", "runs": ["A", "B", "C"], "pairs": 11}
    assert out["relevant"] == 5
    assert out["unjudged"] == 1 and out["unjudged_units"] == {"q1": ["d11"]}
    assert out["unjudged_as_nonrelevant"] is False
    assert list(out["orders"]) == ["oracle", *(o.name for o in ORDERS.values() if not o.needs_model)]  # no --model
    for figures in out["orders"].values():
        assert set(figures) >= {"curve", "curve_share", "to_relevant", "tau", "tau_ap", "stopping", "topics"}
        assert set(figures["to_relevant"]) == {"50", "90", "95"}
        assert set(figures["tau"]) == {"10", "25", "50", "100"}
        assert figures["curve"][-1][0] == 10  # d11 left out: ten judgments
    assert out["orders"]["oracle"]["curve_share"] == 1.0
    # pool order without d11: found 1 2 3 4 4 4 5 5 5 5, area 38 of the oracle's 15 + 5 * 5 = 40
    assert out["orders"]["pool"]["curve"] == [[n, f] for n, f in enumerate([1, 2, 3, 4, 4, 4, 5, 5, 5, 5], 1)]
    assert out["orders"]["pool"]["curve_share"] == 38 / 40
    assert out["orders"]["pool"]["stopping"]["window:2"]["judgments"] == 6


def test_unjudged_as_nonrelevant_keeps_them_and_says_so(toy):
    out = toy.json(*ARGS, "--unjudged-as-nonrelevant")
    assert out["unjudged_as_nonrelevant"] is True and out["unjudged"] == 1
    assert out["orders"]["mtf"]["curve"] == [[n, f] for n, f in enumerate([1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5], 1)]
    assert out["orders"]["mtf"]["curve_share"] == 39 / 45
    assert out["orders"]["pool"]["curve_share"] == 43 / 45
    assert out["orders"]["mtf"]["to_relevant"] == {"50": 4, "90": 8, "95": 8}
    text = toy(*ARGS, "--unjudged-as-nonrelevant")
    assert "kept as non-relevant" in text.stderr


def test_terminal_output_has_the_table_and_the_chart(toy):
    result = toy(*ARGS, "--orders", "mtf")
    assert "curve share" in result.stdout and "oracle" in result.stdout and "mtf" in result.stdout
    assert "judgments" in result.stdout and "● oracle" in result.stdout
    assert "left out of the replay" in result.stderr


def test_nothing_is_written(toy):
    before = dump(toy.db)
    toy(*ARGS)
    assert dump(toy.db) == before


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        (("--depth", "0"), 2, "--depth"),
        (("--orders", "nope"), 2, "--orders"),
        (("--stop", "sometimes"), 2, "--stop"),
        (("--stop", "window:x"), 2, "--stop"),
        (("--measure", "nope@3"), 2, "--measure"),
        (("--strategy", "nope"), 2, "--strategy"),
        (("--runs", "A,A"), 2, "--runs"),
        (("--runs", "A,Z"), 1, "Z"),
        (("--snapshot", "v9"), 1, "v9"),
    ],
)
def test_bad_input_is_refused_with_a_reason_and_changes_nothing(toy, extra, code, words):
    before = dump(toy.db)
    args = list(ARGS)
    for i in range(0, len(extra), 2):
        flag, value = extra[i], extra[i + 1]
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    result = toy(*args, expect=code)
    assert result.stderr.startswith("Error:") and words in result.stderr
    assert "Traceback" not in result.stderr
    assert dump(toy.db) == before


def test_report_adds_the_replay_section(toy, tmp_path):
    page = tmp_path / "r.html"
    out = toy.json("report", "--html", page, "--replay-depth", "5", "--replay-runs", "A,B,C")
    assert out["replay"]["oracle"] == 1.0 and out["replay"]["pool"] == 38 / 40
    html = page.read_text()
    assert "<h2>Judging orders, replayed</h2>" in html
    for name in ("oracle", "pool", "rrf", "mtf", "random"):
        assert f"<title>{name}</title></polyline>" in html
    assert "left out of the replay" in html
    plain = tmp_path / "plain.html"
    toy("report", "--html", plain)
    assert "Judging orders" not in plain.read_text()


def test_report_replay_needs_depth_and_runs(toy, tmp_path):
    result = toy("report", "--html", tmp_path / "r.html", "--replay-depth", "5", expect=2)
    assert "--replay-runs" in result.stderr
    assert not (tmp_path / "r.html").exists()

"""`labeler replay` on a Toy-2 workbench: the JSON shape, unjudged units both ways, bad input, nothing written."""

from __future__ import annotations

import pytest
from support import dump

RUNS = {
    "A": "d1 d2 d3 d4 d5",
    "B": "d2 d6 d1 d7 d8",
    "C": "d9 d6 d10 d2 d11",
}
RELEVANT = {"d1", "d2", "d4", "d6", "d9"}
LABELLED = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10"]  # d11 never judged


@pytest.fixture
def toy(run_cli, write):
    run_cli("topics", "import", write("topics.tsv", "q1\tfirst topic\n"))
    for name, units in RUNS.items():
        lines = "".join(f"q1 Q0 {u} {r} {10 - r} {name}\n" for r, u in enumerate(units.split(), 1))
        run_cli("runs", "import", write(f"{name}.run", lines), "--name", name)
    qrels = "".join(f"q1 0 {u} {int(u in RELEVANT)}\n" for u in LABELLED)
    run_cli("judgments", "import", write("qrels.txt", qrels), "--reviewed")
    run_cli("snapshot", "create", "-m", "v1")
    return run_cli


ARGS = ("replay", "--snapshot", "v1", "--depth", "5", "--runs", "A,B,C", "--measure", "P@5")


def test_json_shape_and_unjudged_left_out(toy):
    out = toy.json(*ARGS, "--stop", "window:2")
    assert out["snapshot"] == "v1"
    assert out["pool"] == {"depth": 5, "strategy": "depth", "runs": ["A", "B", "C"], "pairs": 11}
    assert out["relevant"] == 5
    assert out["unjudged"] == 1 and out["unjudged_units"] == {"q1": ["d11"]}
    assert out["unjudged_as_nonrelevant"] is False
    assert list(out["orders"]) == ["oracle", "pool", "rrf", "mtf", "random"]
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

"""`coverage` and the report name the runs the pool favours only when their drop stands out, and say the rule."""

from __future__ import annotations

import html

import pytest

from labeler.coverage.bias import FAVOURED_RULE

# Three runs share s; each brings relevant units of its own (every unit is relevant and judged).
EVEN = {"A": ["s", "a1"], "B": ["s", "b1"], "C": ["s", "c1"]}
ONE_STANDS_OUT = {"A": ["s", "a1", "a2", "a3"], "B": ["s", "b1"], "C": ["s", "c1"]}


def campaign(run_cli, write, runs: dict[str, list[str]]) -> None:
    units = {unit for ranking in runs.values() for unit in ranking}
    run_cli(
        "judgments",
        "import",
        write("q.txt", "".join(f"1 0 {u} 1\n" for u in sorted(units))),
        "--assessor",
        "nist",
        "--reviewed",
        "--allow-unknown",
    )
    for name, ranking in runs.items():
        text = "".join(f"1 Q0 {u} {i} {10 - i} {name}\n" for i, u in enumerate(ranking, 1))
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name, "--allow-unknown")
    run_cli("snapshot", "create", "-m", "all judged")


@pytest.mark.parametrize(
    ("runs", "said", "favoured"),
    [
        (EVEN, f"The pool favours no run: no AP drop stands out ({FAVOURED_RULE}).", []),
        (
            ONE_STANDS_OUT,
            "The pool favours A (AP drop 0.333): scored without the units only they found, they lose more than "
            f"the other runs ({FAVOURED_RULE}).",
            ["A"],
        ),
    ],
)
def test_coverage_and_the_report_say_which_runs_stand_out_and_the_rule(run_cli, write, tmp_path, runs, said, favoured):
    campaign(run_cli, write, runs)
    args = ("coverage", "--depth", "4", "--measures", "AP")
    report = run_cli.json(*args)
    assert report["ranking"]["favoured"] == favoured
    assert [row["run"] for row in report["loro"]["AP"]["favoured"]] == favoured
    assert report["loro"]["AP"]["favoured_rule"] == FAVOURED_RULE
    assert all(row["loro"]["AP"]["drop"] > 0 for row in report["runs"].values())  # every run loses something
    assert said in run_cli(*args).stderr
    page = tmp_path / "report.html"
    run_cli("report", "--html", page, "--depth", "4")
    assert html.escape(said) in page.read_text(encoding="utf-8")

"""The seeds' worked numbers, entered through the CLI the way a team would (qrels + run -> snapshot -> eval)."""

from __future__ import annotations

import pytest


def load(run_cli, write, qrels: dict[str, dict[str, int]], runs: dict[str, dict[str, list[str]]]):
    """Import qrels (topics marked reviewed), runs, and snapshot v1."""
    lines = "".join(f"{t} 0 {d} {g}\n" for t, grades in qrels.items() for d, g in grades.items())
    run_cli("judgments", "import", write("q.txt", lines), "--assessor", "seed", "--reviewed")
    for name, rankings in runs.items():
        text = "".join(
            f"{t} Q0 {d} {i} {100 - i} {name}\n" for t, ranked in rankings.items() for i, d in enumerate(ranked, 1)
        )
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name)
    run_cli("snapshot", "create", "-m", "seed")


def test_recall_denominator_macro_micro_any_all(run_cli, write):
    # recall-denominator.en.txt: A has 3 relevant and finds 1, B finds its 1, C misses its 1, at k=2
    load(
        run_cli,
        write,
        {"A": {"a": 1, "b": 1, "c": 1}, "B": {"d": 1}, "C": {"e": 1}},
        {"r": {"A": ["a", "x", "b", "c"], "B": ["x", "d"], "C": ["x", "y"]}},
    )
    (run,) = run_cli.json("eval", "--measures", "R@2 AnyHit@2 AllHit@2")["runs"]
    recall = run["recall"]["2"]
    assert round(recall["macro"], 6) == 0.444444  # (1/3 + 1 + 0) / 3
    assert round(recall["micro"], 6) == 0.400000  # (1 + 1 + 0) / (3 + 1 + 1)
    assert round(run["aggregate"]["AnyHit@2"], 6) == 0.666667
    assert round(run["aggregate"]["AllHit@2"], 6) == 0.333333
    assert run["topics"]["scored"] == 3 and run["topics"]["excluded"] == {}


AUDIT_QRELS = {
    "q_faw": {"m1": 3, "m2": 2, "m3": 1},
    "q_store": {"s1": 3, "s2": 2, "s3": 1},
    "q_milk": {"d1": 3, "d2": 2, "d3": 1},
    "q_broad": {"m1": 3, "m2": 3, "m3": 2, "m4": 2, "m5": 1, "m6": 1, "s1": 2, "s2": 1},
}
AUDIT_RUN = {
    "q_faw": ["m2", "x3", "m1", "p1", "d2", "m3", "s1", "x1", "p3", "d5"],
    "q_store": ["d2", "s2", "x4", "s1", "p2", "s3", "m4", "d1", "p5", "x2"],
    "q_milk": ["d1", "s2", "x1", "d2", "x3", "d3", "m1", "p4", "s4", "x2"],
    "q_broad": ["m1", "s1", "m2", "m3", "x1", "m4", "m5", "m6", "s2", "d1"],
}


def test_denominator_audit_table(run_cli, write):
    reordered = {"q_milk": ["s2", "x1", "d2", "d1", "x3"]}  # d1 moved from rank 1 to rank 5
    load(run_cli, write, AUDIT_QRELS, {"fetch": AUDIT_RUN, "reordered": reordered})
    result = run_cli.json("eval", "--measures", "R@5 R@10 nDCG@5 RR P@5", "--per-query")
    fetch, moved = result["runs"]
    ndcg = {t: round(v["nDCG@5"], 3) for t, v in fetch["per_query"].items()}
    assert ndcg == {"q_faw": 0.735, "q_store": 0.536, "q_milk": 0.811, "q_broad": 0.880}
    assert round(fetch["aggregate"]["R@5"], 3) == 0.625  # mean of 0.667, 0.667, 0.667, 0.500
    assert round(fetch["aggregate"]["P@5"], 3) == 0.500
    assert fetch["recall"]["10"]["macro"] == 1.0  # stage 1: everything fetched by rank 10
    assert round(moved["per_query"]["q_milk"]["RR"], 3) == 0.333
    assert round(moved["per_query"]["q_milk"]["nDCG@5"], 3) == 0.481
    assert moved["topics"]["not_in_run"] == 3 and moved["topics"]["not_in_run_topics"] == [
        "q_broad",
        "q_faw",
        "q_store",
    ]


def test_q_broad_ceiling(run_cli, write):
    load(run_cli, write, {"q_broad": AUDIT_QRELS["q_broad"]}, {"fetch": {"q_broad": AUDIT_RUN["q_broad"]}})
    recall = run_cli.json("eval", "--measures", "R@5")["runs"][0]["recall"]["5"]
    assert (recall["macro"], recall["ceiling"], recall["share_of_ceiling"]) == (0.5, 0.625, 0.8)


def test_recall_ceiling_article(run_cli, write):
    # recall-ceiling.txt: 4 relevant documents, the retriever finds three at ranks 2, 5 and 9
    ranked = ["n1", "r1", "n2", "n3", "r2", "n4", "n5", "n6", "r3"] + [f"z{i}" for i in range(91)]
    load(run_cli, write, {"q": {"r1": 1, "r2": 1, "r3": 1, "r4": 1}}, {"r": {"q": ranked}})
    run = run_cli.json("eval", "--measures", "R@3 R@5 R@10 R@100")["runs"][0]
    assert [run["aggregate"][m] for m in ("R@3", "R@5", "R@10", "R@100")] == [0.25, 0.5, 0.75, 0.75]


def test_stage_table_shows_what_the_cut_lost(run_cli, write):
    keep5 = {t: ranked[:5] for t, ranked in AUDIT_RUN.items()}
    load(run_cli, write, AUDIT_QRELS, {"fetch10": AUDIT_RUN, "keep5": keep5})
    stages = run_cli.json("eval", "--measures", "R@10", "--stages", "fetch10,keep5")["stages"]
    fetch, keep = stages["rows"]
    assert fetch["recall"]["10"] == 1.0 and fetch["lost"]["10"] is None
    assert round(keep["recall"]["10"], 6) == 0.625 and round(keep["lost"]["10"], 6) == 0.375


def test_unreviewed_and_no_answer_topics_are_excluded_with_reasons(run_cli, write):
    run_cli("judgments", "import", write("q.txt", "1 0 a 1\n2 0 b 0\n"), "--assessor", "x", "--reviewed")
    run_cli("judgments", "add", "3", "c", "2", "--assessor", "ann")  # judged, never marked reviewed
    run_cli("runs", "import", write("r.run", "1 Q0 a 1 1 r\n3 Q0 c 1 1 r\n4 Q0 z 1 1 r\n"), "--name", "r")
    run_cli("snapshot", "create", "-m", "mixed")
    run = run_cli.json("eval", "--measures", "R@5")["runs"][0]
    assert run["topics"]["scored"] == 1
    assert run["topics"]["excluded_topics"] == {"2": "no_answer", "3": "in_progress"}
    assert run["topics"]["not_in_snapshot"] == 1  # topic 4
    widened = run_cli.json("eval", "--measures", "R@5", "--include-unreviewed")["runs"][0]
    assert widened["topics"]["scored"] == 2


def test_a_mean_over_no_topics_is_null_with_a_status(run_cli, write):
    run_cli("judgments", "add", "1", "a", "1", "--assessor", "ann")
    run_cli("runs", "import", write("r.run", "1 Q0 a 1 1 r\n"), "--name", "r")
    run_cli("snapshot", "create", "-m", "nothing reviewed")
    run = run_cli.json("eval", "--measures", "R@5 P@5")["runs"][0]
    assert run["aggregate"] == {"R@5": None, "P@5": None} and run["status"] == "no topics to score"
    assert "null" in run_cli("eval", "--measures", "R@5").stdout


def test_paired_comparison(run_cli, write):
    load(run_cli, write, AUDIT_QRELS, {"fetch": AUDIT_RUN, "same": AUDIT_RUN})
    result = run_cli.json("eval", "--compare", "fetch", "same", "--measures", "R@5")
    comparison = result["measures"]["R@5"]
    assert (comparison["wins"], comparison["ties"], comparison["losses"]) == (0, 4, 0)


@pytest.mark.parametrize("measures", ["R@0", "Hits@5", "nDCG@", "T(alpha=2)@5"])
def test_bad_measure_names_are_refused(run_cli, write, measures):
    load(run_cli, write, {"q": {"a": 1}}, {"r": {"q": ["a"]}})
    result = run_cli("eval", "--measures", measures, expect=2)  # a bad argument, as click's usage errors
    assert result.stderr.startswith("Error: --measures: ")


def test_paired_comparison_table_is_printed(run_cli, write):
    load(run_cli, write, AUDIT_QRELS, {"fetch": AUDIT_RUN, "keep5": {t: r[:5] for t, r in AUDIT_RUN.items()}})
    out = run_cli("eval", "--compare", "fetch", "keep5", "--measures", "R@10").stdout
    differences = out[out.index("differences: run - fetch") : out.index("p-values")]
    [row] = [line for line in differences.splitlines() if line.strip().startswith("keep5")]
    cells = [cell.strip() for cell in row.split("│")]
    assert cells[1] == "R@10" and cells[3:] == ["0", "0", "4"]  # keep5 loses on every topic at k=10

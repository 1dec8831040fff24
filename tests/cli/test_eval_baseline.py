"""`eval --baseline`, `eval --compare` and `compare OLD NEW --baseline`: paired tests against a declared baseline,
corrected over every run and measure; and `eval --compare` honouring `--average` (trec_eval's topic rule)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from labeler.metrics.significance import bonferroni, holm

QRELS = {
    "1": {"a": 2, "b": 1, "c": 0},
    "2": {"d": 1, "e": 0},
    "3": {"f": 1, "g": 1, "h": 1},
    "4": {"i": 2, "j": 0},
    "5": {"k": 1, "l": 1},
    "6": {"m": 0, "n": 0},  # judged, nothing relevant: trec_eval scores it 0, labeler's rule leaves it out
}
RUNS = {
    "base": {
        "1": ["c", "a", "x", "b"],
        "2": ["x", "y", "d"],
        "3": ["f", "x", "g"],
        "4": ["j", "x", "y", "i"],
        "5": ["x", "k"],
        "6": ["m", "n"],
    },
    "good": {
        "1": ["a", "b", "c"],
        "2": ["d", "x"],
        "3": ["f", "g", "h"],
        "4": ["i", "j"],
        "5": ["k", "x", "l"],
        "6": ["n", "m"],
    },
    "mixed": {
        "1": ["a", "c", "b"],
        "2": ["x", "y", "z", "d"],
        "3": ["x", "f", "g", "h"],
        "4": ["j", "i"],
        "5": ["l", "k"],
        "6": ["m"],
    },
}


def qrels_text(qrels: dict[str, dict[str, int]]) -> str:
    return "".join(f"{t} 0 {d} {g}\n" for t, grades in qrels.items() for d, g in grades.items())


def load(run_cli, write, qrels=QRELS, runs=RUNS) -> None:
    run_cli("judgments", "import", write("q.txt", qrels_text(qrels)), "--assessor", "seed", "--reviewed")
    for name, rankings in runs.items():
        text = "".join(
            f"{t} Q0 {d} {i} {100 - i} {name}\n" for t, ranked in rankings.items() for i, d in enumerate(ranked, 1)
        )
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name)
    run_cli("snapshot", "create", "-m", "seed")


def ir_measures_per_topic(qrels, run, measure: str) -> dict[str, float]:
    """Per-topic values by ir_measures (pytrec_eval), an implementation independent of labeler's."""
    ir_measures = pytest.importorskip("ir_measures")
    parsed = ir_measures.parse_measure(measure)
    scored = {t: {d: float(100 - i) for i, d in enumerate(ranked, 1)} for t, ranked in run.items() if t in qrels}
    return {m.query_id: m.value for m in ir_measures.iter_calc([parsed], qrels, scored)}


def test_compare_honours_average_trec_eval(run_cli, write):
    load(run_cli, write)
    # labeler's rule: topic 6 has no relevant label and is left out, in the table and in the comparison
    reviewed = run_cli.json("eval", "--compare", "base", "good", "--measures", "AP nDCG@3")
    assert reviewed["average"] == "reviewed" and reviewed["measures"]["AP"]["n"] == 5
    # trec_eval's rule: topic 6 scores 0 on both sides and is a tie (before the fix --compare ignored --average)
    table = run_cli.json("eval", "--average", "trec_eval", "--measures", "AP", "--per-query", "--runs", "base,good")
    assert [run["topics"]["scored"] for run in table["runs"]] == [6, 6]
    assert [run["per_query"]["6"]["AP"] for run in table["runs"]] == [0.0, 0.0]
    compared = run_cli.json("eval", "--compare", "base", "good", "--measures", "AP nDCG@3", "--average", "trec_eval")
    ap = compared["measures"]["AP"]
    assert compared["average"] == "trec_eval"
    assert ap["n"] == 6 and ap["topics"] == ["1", "2", "3", "4", "5", "6"] and ap["deltas"]["6"] == 0.0
    assert ap["mean_a"] == pytest.approx(table["runs"][0]["aggregate"]["AP"])
    assert ap["mean_b"] == pytest.approx(table["runs"][1]["aggregate"]["AP"])
    # the per-topic deltas, independently: ir_measures scores every labelled topic, 6 included, as trec_eval does
    for measure in ("AP", "nDCG@3"):
        base = ir_measures_per_topic(QRELS, RUNS["base"], measure)
        good = ir_measures_per_topic(QRELS, RUNS["good"], measure)
        assert compared["measures"][measure]["deltas"] == pytest.approx({t: good[t] - base[t] for t in base})


def test_eval_baseline_json_and_the_family(run_cli, write):
    load(run_cli, write)
    result = run_cli.json("eval", "--baseline", "base", "--measures", "AP nDCG@3", "--bootstrap", "200")
    assert result["baseline"] == "base"
    assert result["correction"] == {"method": "holm", "family_size": 4, "runs": 2, "measures": 2}
    assert result["bootstrap"] == {"method": "percentile", "resamples": 200, "seed": 0, "level": 0.95}
    assert list(result["comparisons"]) == ["good", "mixed"]
    assert "per_query" not in result["runs"][0]  # used for the tests, not printed unless asked
    family = [result["comparisons"][run][m] for run in ("good", "mixed") for m in ("AP", "nDCG@3")]
    for test in ("t_test", "randomization", "wilcoxon"):
        raw = [c["tests"][test]["p"] for c in family]
        assert [c["tests"][test]["p_adjusted"] for c in family] == pytest.approx(holm(raw))
    good_ap = result["comparisons"]["good"]["AP"]
    # the same pair through --compare: the same raw figures (its family is only its own measures)
    pair = run_cli.json("eval", "--compare", "base", "good", "--measures", "AP nDCG@3", "--bootstrap", "200")
    assert pair["correction"] == {"method": "holm", "family_size": 2, "runs": 1, "measures": 2}
    for key in ("n", "mean_a", "mean_b", "mean_delta", "improved", "tied", "degraded", "ci"):
        assert pair["measures"]["AP"][key] == good_ap[key]
    assert pair["measures"]["AP"]["tests"]["t_test"]["p"] == good_ap["tests"]["t_test"]["p"]
    # hand-counted: good is better than base on AP in topics 1, 2, 3, 4, 5 (all but the left-out 6)
    assert (good_ap["improved"], good_ap["tied"], good_ap["degraded"]) == (5, 0, 0)
    low, high = good_ap["ci"]["mean_delta"]
    assert low <= good_ap["mean_delta"] <= high


def test_eval_baseline_bonferroni_none_and_the_printed_family(run_cli, write):
    load(run_cli, write)
    args = ("eval", "--baseline", "base", "--measures", "AP nDCG@3 P@2", "--bootstrap", "50")
    bon = run_cli.json(*args, "--correction", "bonferroni")
    assert bon["correction"]["family_size"] == 6
    family = [c for by_measure in bon["comparisons"].values() for c in by_measure.values()]
    raw = [c["tests"]["randomization"]["p"] for c in family]
    assert [c["tests"]["randomization"]["p_adjusted"] for c in family] == pytest.approx(bonferroni(raw))
    none = run_cli.json(*args, "--correction", "none")
    assert all(
        c["tests"]["t_test"]["p_adjusted"] == c["tests"]["t_test"]["p"]
        for m in none["comparisons"].values()
        for c in m.values()
    )
    done = run_cli(*args)
    out = done.stdout + done.stderr  # the notes go to stderr, the tables to stdout
    assert "Holm over 6 comparisons (2 runs x 3 measures)" in out
    assert "percentile bootstrap" in out and "Against the baseline base" in out
    # a baseline named but left out of --runs is scored too
    named = run_cli.json("eval", "--baseline", "base", "--runs", "good", "--measures", "AP", "--bootstrap", "10")
    assert [run["run"] for run in named["runs"]] == ["base", "good"] and list(named["comparisons"]) == ["good"]


def test_bad_baseline_and_statistics_options_are_refused(run_cli, write):
    load(run_cli, write)
    result = run_cli("eval", "--baseline", "nope", "--measures", "AP", expect=2)
    assert result.stderr.startswith("Error: --baseline: ") and "Traceback" not in result.stderr
    assert run_cli("eval", "--baseline", "base", "--correction", "fdr", expect=2).stderr
    assert run_cli("eval", "--baseline", "base", "--bootstrap", "0", expect=2).stderr
    both = run_cli("eval", "--baseline", "base", "--compare", "base", "good", expect=2)
    assert both.stderr.startswith("Error: --baseline: ")
    assert run_cli("compare", "v1", "v1", "--baseline", "nope", expect=2).stderr.startswith("Error: --baseline: ")


def test_compare_snapshots_with_a_baseline(run_cli, write):
    first = {t: dict(list(grades.items())[:1]) for t, grades in QRELS.items()}
    load(run_cli, write, qrels=first)  # v1: one label per topic
    run_cli("judgments", "import", write("q2.txt", qrels_text(QRELS)), "--assessor", "seed", "--reviewed")
    run_cli("snapshot", "create", "-m", "all")  # v2
    result = run_cli.json("compare", "v1", "v2", "--depth", "3", "--baseline", "base", "--bootstrap", "100")
    measures = list(result["runs"]["base"]["after"])
    assert measures == ["Judged@3", "R@3", "nDCG@3", "AP"]
    assert result["baseline"] == "base" and result["baseline_snapshot"] == "v2"
    assert result["correction"] == {"method": "holm", "family_size": 8, "runs": 2, "measures": 4}
    # the means the comparison pairs are the report's own means under v2
    for run in ("good", "mixed"):
        for measure in measures:
            c = result["comparisons"][run][measure]
            assert c["mean_b"] == pytest.approx(result["runs"][run]["after"][measure])
            assert c["mean_a"] == pytest.approx(result["runs"]["base"]["after"][measure])
    done = run_cli("compare", "v1", "v2", "--depth", "3", "--baseline", "base", "--correction", "bonferroni")
    out = done.stdout + done.stderr
    assert "Bonferroni over 8 comparisons (2 runs x 4 measures)" in out and "under the labels of v2" in out
    assert "baseline" not in run_cli.json("compare", "v1", "v2", "--depth", "3")  # additions only when asked


def _dl2020() -> Path | None:
    """../shared/data/trec-dl-2020 beside the main checkout or beside the worktrees' folder, if present."""
    root = Path(__file__).resolve().parents[2]
    for shared in (root.parent / "shared", root.parent.parent / "shared"):
        if (shared / "data" / "trec-dl-2020").is_dir():
            return shared / "data" / "trec-dl-2020"
    return None


def test_dl2020_comparison_per_topic_values_match_ir_measures(run_cli, write):
    data = _dl2020()
    if data is None:
        pytest.skip("../shared/data/trec-dl-2020 is absent")
    with gzip.open(data / "qrels.txt.gz", "rt") as handle:
        qrels_lines = handle.read()
    run_cli("judgments", "import", write("q.txt", qrels_lines), "--assessor", "nist", "--reviewed")
    runs = {}
    for name in ("bm25", "tasb"):
        with gzip.open(data / f"{name}.run.gz", "rt") as handle:
            text = handle.read()
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name)
        ranked: dict[str, list[tuple[int, str]]] = {}
        for line in text.splitlines():
            topic, _, doc, rank, *_ = line.split()
            ranked.setdefault(topic, []).append((int(rank), doc))
        runs[name] = {t: [d for _, d in sorted(pairs)] for t, pairs in ranked.items()}
    run_cli("snapshot", "create", "-m", "nist")
    qrels: dict[str, dict[str, int]] = {}
    for line in qrels_lines.splitlines():
        topic, _, doc, grade = line.split()
        qrels.setdefault(topic, {})[doc] = int(grade)
    result = run_cli.json(
        "eval", "--compare", "bm25", "tasb", "--measures", "nDCG@10", "--average", "trec_eval", "--bootstrap", "100"
    )
    c = result["measures"]["nDCG@10"]
    base = ir_measures_per_topic(qrels, runs["bm25"], "nDCG@10")
    other = ir_measures_per_topic(qrels, runs["tasb"], "nDCG@10")
    assert c["n"] == len(base) == 54
    assert c["deltas"] == pytest.approx({t: other[t] - base[t] for t in base}, abs=1e-9)
    json.dumps(result)  # plain JSON


def test_a_test_that_could_not_run_prints_a_dash_and_its_json_stays_null(run_cli, write):
    """A run ranking as the baseline does: every delta is 0, so Wilcoxon (zero deltas dropped) has no data."""
    load(run_cli, write, runs={**RUNS, "same": RUNS["base"]})
    args = ("--measures", "AP", "--bootstrap", "20")
    result = run_cli.json("eval", "--baseline", "base", "--runs", "same", *args)
    assert result["comparisons"]["same"]["AP"]["tests"]["wilcoxon"] == {
        "statistic": None,
        "p": None,
        "n_nonzero": 0,
        "p_adjusted": None,
    }
    for shown in (
        run_cli("eval", "--baseline", "base", "--runs", "same", *args).stdout,
        run_cli("eval", "--compare", "base", "same", *args).stdout,
    ):
        (row,) = [line for line in shown.splitlines() if line.startswith(" same │ AP") and "1.0000" in line]
        assert [cell.strip() for cell in row.split("│")[2:]] == ["1.0000 (1.0000)", "1.0000 (1.0000)", "–"]
        assert "null" not in shown and "-0.000" not in shown
        assert " same │ AP      │ 0.000 [0.000, 0.000] " in shown


def test_a_value_that_rounds_to_zero_prints_as_zero_never_negative():
    from labeler.cli.eval import _mean_and_interval, _p

    assert _mean_and_interval(-0.0002, [-0.0004, -0.0]) == "0.000 [0.000, 0.000]"
    assert _mean_and_interval(-0.0006, [-0.0012, 0.0001]) == "-0.001 [-0.001, 0.000]"
    assert _p({"p": None, "p_adjusted": None}) == "–"
    assert _p({"p": 0.03, "p_adjusted": 0.09}) == "0.0300 (0.0900)"

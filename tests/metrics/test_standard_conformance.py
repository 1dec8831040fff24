"""labeler agrees with trec_eval 10.0's own expected outputs to the 4 decimals it prints.

The inputs and outputs are NIST's test files (tests/conformance/trec_eval/, with their licence).
The TREC files are parsed here with a few lines of code, on purpose: the test
checks the metrics, not labeler's readers. Rankings are sorted the way
trec_eval sorts them (score desc, then docno desc) and handed to `evaluate`
in that order, as the services do.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from labeler.metrics import evaluate

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance" / "trec_eval"

# trec_eval measure name -> labeler name (the conformance README's name map, plus ndcg).
NAME_MAP = [
    (re.compile(r"P_(\d+)"), "P@{}"),
    (re.compile(r"recall_(\d+)"), "R@{}"),
    (re.compile(r"ndcg_cut_(\d+)"), "nDCG@{}"),
    (re.compile(r"map_cut_(\d+)"), "AP@{}"),
    (re.compile(r"success_(\d+)"), "Success@{}"),
    (re.compile(r"map"), "AP"),
    (re.compile(r"recip_rank"), "RR"),
    (re.compile(r"Rprec"), "Rprec"),
    (re.compile(r"bpref"), "Bpref"),
    (re.compile(r"infAP"), "infAP"),
    (re.compile(r"ndcg"), "nDCG"),
]

# (expected output, qrels, run, threshold (-l), depth (-M), all qrels topics (-c))
CASES = {
    "out.test.aq": ("qrels.test", "results.test", 1, None, False),
    "out.test.aqc": ("qrels.test", "results.trunc", 1, None, True),
    "out.test.aqcM": ("qrels.test", "results.trunc", 1, 100, True),
    "out.test.aql": ("qrels.rel_level", "results.test", 2, None, False),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", 1, None, False),
}


def labeler_name(trec_name: str) -> str | None:
    for pattern, template in NAME_MAP:
        match = pattern.fullmatch(trec_name)
        if match:
            return template.format(*match.groups())
    return None


def read_qrels(path: Path) -> dict[str, dict[str, int]]:
    """TREC qrels; `#` starts a comment only at the start of a line (ids like `..._2286987788#13_...` keep theirs)."""
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        topic, _, unit, grade = line.split()[:4]
        qrels[topic][unit] = int(grade)
    return dict(qrels)


def read_run(path: Path) -> dict[str, list[str]]:
    """TREC run -> {topic: [docno, ...]} in trec_eval's order: score desc, then docno desc; rank ignored."""
    entries: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        entries[fields[0]].append((float(fields[4]), fields[2]))
    return {topic: [unit for _, unit in sorted(rows, reverse=True)] for topic, rows in entries.items()}


def read_expected(path: Path) -> dict[str, dict[str, float]]:
    """{trec_eval measure: {topic or 'all': value}}."""
    expected: dict[str, dict[str, float]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        measure, topic, value = line.split()
        if measure != "runid" and not measure.startswith("relstring"):  # the rows that hold no number
            expected[measure][topic] = float(value)
    return dict(expected)


@cache
def scored(case: str):
    """(evaluation, expected, rankings) for one expected-output file, computed once."""
    qrels_name, run_name, threshold, depth, all_qrels_topics = CASES[case]
    qrels = read_qrels(CONFORMANCE / qrels_name)
    rankings = read_run(CONFORMANCE / run_name)
    topics = sorted(qrels) if all_qrels_topics else sorted(set(qrels) & set(rankings))
    expected = read_expected(CONFORMANCE / case)
    measures = sorted({labeler_name(m) for m in expected} - {None})
    evaluation = evaluate(qrels, rankings, measures, topics=topics, threshold=threshold, depth=depth)
    return evaluation, expected, rankings


def _params():
    params = []
    for case in CASES:
        for line in (CONFORMANCE / case).read_text().splitlines():
            measure, topic = line.split()[:2]
            if topic == "all" and labeler_name(measure):
                params.append(pytest.param(case, measure, id=f"{case}-{measure}"))
    return params


@pytest.mark.parametrize(("case", "trec_measure"), _params())
def test_measure_matches_trec_eval_per_topic_and_mean(case, trec_measure):
    evaluation, expected, _ = scored(case)
    name = labeler_name(trec_measure)
    rows = expected[trec_measure]
    per_topic = {topic: value for topic, value in rows.items() if topic != "all"}
    if case != "out.comment.test":
        # -q outputs list every scored topic; the comment test prints only the mean.
        assert set(per_topic) == set(evaluation.per_query)
    for topic, value in per_topic.items():
        assert evaluation.per_query[topic][name] == pytest.approx(value, abs=5e-5), f"topic {topic}"
    assert evaluation.aggregate[name] == pytest.approx(rows["all"], abs=5e-5)
    assert evaluation.counts[name] == expected["num_q"]["all"]


def _unjudged_params():
    return [case for case in CASES if case != "out.comment.test"]


@pytest.mark.parametrize("case", _unjudged_params())
@pytest.mark.parametrize("k", [5, 10, 20])
def test_judged_and_unj_split_the_top_k(case, k):
    # trec_eval unj_k = unjudged in top k / k and Judged@k = judged in top k / k, so they sum to
    # min(len, k)/k: 1 - Judged@k for rankings of at least k units, but both are 0 for an empty one.
    qrels_name, run_name, threshold, depth, _ = CASES[case]
    _, expected, rankings = scored(case)
    unj = expected[f"unj_{k}"]
    topics = sorted(unj.keys() - {"all"})
    evaluation = evaluate(
        read_qrels(CONFORMANCE / qrels_name), rankings, [f"Judged@{k}"], topics=topics, threshold=threshold, depth=depth
    )
    long_enough = 0
    for topic in topics:
        judged = evaluation.per_query[topic][f"Judged@{k}"]
        returned = len(rankings.get(topic, [])[:depth])
        if returned >= k:
            long_enough += 1
            assert 1 - judged == pytest.approx(unj[topic], abs=5e-5), f"topic {topic}"
        assert judged + unj[topic] == pytest.approx(min(returned, k) / k, abs=5e-5), f"topic {topic}"
    assert long_enough >= 2


def _rbp_params():
    # trec_eval's rbp rescales graded gains (and reads uninitialised min/max, pooling_literature.md §8),
    # so only the binary qrels are comparable with labeler's binary-gain RBP.
    return ["out.test.aq", "out.test.aqc", "out.test.aqcM"]


@pytest.mark.parametrize("case", _rbp_params())
def test_rbp_and_residual_match_trec_eval_on_binary_qrels(case):
    # trec_eval 10.0's default rbp persistence is p = 0.9 (found by matching all topics); labeler's default is 0.8.
    from labeler.metrics import rbp

    qrels_name, run_name, threshold, depth, _ = CASES[case]
    _, expected, rankings = scored(case)
    qrels = read_qrels(CONFORMANCE / qrels_name)
    topics = sorted(expected["rbp"].keys() - {"all"})
    evaluation = evaluate(qrels, rankings, ["RBP(p=0.9)"], topics=topics, threshold=threshold, depth=depth)
    for topic in topics:
        ranking = rankings.get(topic, [])[:depth]
        assert evaluation.per_query[topic]["RBP(p=0.9)"] == pytest.approx(expected["rbp"][topic], abs=5e-5)
        residual = evaluation.per_query_residuals[topic]["RBP(p=0.9)"]
        assert residual == rbp(ranking, qrels[topic], threshold, 0.9)[1]
        if ranking:
            assert residual == pytest.approx(expected["rbp_resid"][topic], abs=5e-5), f"topic {topic}"
        else:
            # trec_eval -c prints 0 for every measure of a topic the run lacks; an empty ranking
            # leaves everything unknown, so labeler's residual is p^0 = 1 (the interval is [0, 1]).
            assert (expected["rbp_resid"][topic], residual) == (0.0, 1.0)
    assert evaluation.aggregate["RBP(p=0.9)"] == pytest.approx(expected["rbp"]["all"], abs=5e-5)


def test_qrels_with_comment_lines_give_out_test():
    qrels = read_qrels(CONFORMANCE / "qrels.test.with-comments")
    plain = read_qrels(CONFORMANCE / "qrels.test")
    # Three comment lines are skipped; the one docno that holds a '#' (CR#93E-1860) is kept as an id.
    assert {t: len(units) for t, units in qrels.items()} == {t: len(units) for t, units in plain.items()}
    assert qrels["301"]["CR#93E-1860"] == 0
    rankings = read_run(CONFORMANCE / "results.test")
    expected = read_expected(CONFORMANCE / "out.test")
    names = {m: labeler_name(m) for m in expected if labeler_name(m)}
    evaluation = evaluate(qrels, rankings, list(names.values()), topics=sorted(rankings), threshold=1)
    for trec_name, name in names.items():
        assert evaluation.aggregate[name] == pytest.approx(expected[trec_name]["all"], abs=5e-5), trec_name

"""trec_eval's own expected outputs, reproduced through the whole workbench path (import, snapshot, eval)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from badinput.badinput_support import settled_files
from full_workbench import copy_to
from support import Cli, built_once

from labeler.workbench.init import init_workbench

NAME_MAP = {"map": "AP", "recip_rank": "RR", "Rprec": "Rprec", "bpref": "Bpref", "infAP": "infAP", "ndcg": "nDCG"}
PATTERNS = [
    (r"P_(\d+)", "P@{}"),
    (r"recall_(\d+)", "R@{}"),
    (r"ndcg_cut_(\d+)", "nDCG@{}"),
    (r"map_cut_(\d+)", "AP@{}"),
    (r"success_(\d+)", "Success@{}"),
]


def labeler_name(trec_name: str) -> str | None:
    if trec_name in NAME_MAP:
        return NAME_MAP[trec_name]
    for pattern, template in PATTERNS:
        match = re.fullmatch(pattern, trec_name)
        if match:
            return template.format(match.group(1))
    return None


def expected(path) -> dict[str, dict[str, float]]:
    """{labeler measure: {topic or 'all': value}} from a trec_eval output file."""
    values: dict[str, dict[str, float]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        measure, topic, value = line.split()
        name = labeler_name(measure)
        if name is not None:
            values[name][topic] = float(value)
    return values


CASES = [
    # (expected output, qrels, results, extra eval options, scale file content or None)
    ("out.test.aq", "qrels.test", "results.test", [], None),
    ("out.test.aqc", "qrels.test", "results.trunc", [], None),  # -c: missing topics score 0 (labeler's default)
    ("out.test.aqcM", "qrels.test", "results.trunc", ["--depth", "100"], None),  # -M100
    ("out.test.aql", "qrels.rel_level", "results.test", [], "0\tno\n1\tlow\n2\tmid\n3\thigh\n4\ttop\nthreshold\t2\n"),
    # MS MARCO v2.1 segment ids; one topic has no relevant label: trec_eval averages it in as 0, labeler's
    # default excludes it (the seeds' rule), so its numbers are reproduced with --average trec_eval
    ("out.comment.test", "qrels.comment.test", "results.comment.test", ["--average", "trec_eval"], None),
    ("out.test.aq", "qrels.test", "results.test", ["--average", "trec_eval"], None),
    ("out.test.aqc", "qrels.test", "results.trunc", ["--average", "trec_eval_c"], None),
]


@pytest.fixture
def judged(conformance, tmp_path_factory, tmp_path):
    """judged(qrels, results, scale) -> a CLI on a workbench holding the qrels (reviewed, snapshot v1) and the run.

    Each combination is imported once per test run (several cases score the same files) and copied per test.
    """

    def _judged(qrels: str, results: str, scale: str | None = None) -> Cli:
        def build(folder: Path) -> bytes:
            db = folder / "conf.db"
            scale_file = None
            if scale:
                scale_file = folder / "scale.tsv"
                scale_file.write_text(scale)
            init_workbench(db, str(scale_file) if scale_file else None)
            cli = Cli(db)
            cli("judgments", "import", conformance / qrels, "--assessor", "nist", "--reviewed")
            cli("runs", "import", conformance / results, "--name", "run")
            cli("snapshot", "create", "-m", f"{qrels} {results}")
            settled_files(db)  # no connection open: the WAL is checkpointed into the file
            return db.read_bytes()

        key = f"conformance-{qrels}-{results}-{'scaled' if scale else 'default'}"
        return Cli(copy_to(built_once(tmp_path_factory, key, build), tmp_path / "conf"))

    return _judged


@pytest.mark.parametrize(
    ("out", "qrels", "results", "options", "scale"), CASES, ids=[c[0] + "".join(c[3]) for c in CASES]
)
def test_eval_matches_trec_eval(conformance, judged, out, qrels, results, options, scale):
    cli = judged(qrels, results, scale)
    want = expected(conformance / out)
    measures = sorted(want)
    result = cli.json("eval", "--measures", " ".join(measures), "--per-query", *options)
    (run,) = result["runs"]
    mismatches = []
    for measure in measures:
        for topic, value in want[measure].items():
            got = run["aggregate"][measure] if topic == "all" else run["per_query"].get(topic, {}).get(measure)
            if got is None or abs(got - value) > 0.00005 + 1e-12:
                mismatches.append((measure, topic, value, got))
    assert mismatches == [], f"{len(mismatches)} values differ from {out}, e.g. {mismatches[:5]}"
    # the topics trec_eval averaged over (num_q) are the ones labeler scored
    num_q = next(
        int(line.split()[2])
        for line in (conformance / out).read_text().splitlines()
        if line.split()[:2] == ["num_q", "all"]
    )
    assert run["topics"]["scored"] == num_q


def test_labeler_default_excludes_the_topic_without_relevant_labels(judged):
    cli = judged("qrels.comment.test", "results.comment.test")
    run = cli.json("eval", "--measures", "AP")["runs"][0]
    assert run["topics"]["scored"] == 30 and run["topics"]["excluded"] == {"no_answer": 1}
    assert run["topics"]["not_in_snapshot"] == 301 - 31


@pytest.mark.parametrize(("qrels", "results"), [("qrels.test", "results.test"), ("qrels.test", "results.trunc")])
def test_eval_judged_only_matches_trec_eval_j(conformance, judged, qrels, results):
    """`eval --judged-only` through the workbench: trec_eval -J's doubles (its C code, via pytrec_eval)."""
    import pytrec_eval

    cli = judged(qrels, results)
    names = {"P@10": "P_10", "AP": "map", "nDCG@10": "ndcg_cut_10", "Bpref": "bpref", "RR": "recip_rank"}
    run = {}
    for line in (conformance / results).read_text().splitlines():
        topic, _, unit, _, score, *_ = line.split()
        run.setdefault(topic, {})[unit] = float(score)
    labels: dict[str, dict[str, int]] = {}
    for line in (conformance / qrels).read_text().splitlines():
        topic, _, unit, grade = line.split()[:4]
        labels.setdefault(topic, {})[unit] = int(grade)
    run = {t: units for t, units in run.items() if t in labels}
    evaluator = pytrec_eval.RelevanceEvaluator(labels, set(names.values()) - {"P_10"} | {"P.10"}, 1, True)
    want = evaluator.evaluate(run)
    out = cli.json("eval", "--measures", " ".join(names), "--per-query", "--average", "trec_eval", "--judged-only")
    (scored,) = out["runs"]
    assert out["judged_only"] is True and set(scored["per_query"]) == set(want)
    for topic, row in want.items():
        assert {m: scored["per_query"][topic][m] for m in names} == {m: row[t] for m, t in names.items()}
    default = cli.json("eval", "--measures", "P@10", "--average", "trec_eval")
    assert default["judged_only"] is False and default["runs"][0]["aggregate"] != scored["aggregate"]["P@10"]
    assert "judged-only (condensed lists)" in cli("eval", "--measures", "P@10", "--judged-only").stdout

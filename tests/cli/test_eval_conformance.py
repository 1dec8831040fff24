"""trec_eval's own expected outputs, reproduced through the whole workbench path (import, snapshot, eval)."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

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


@pytest.mark.parametrize(
    ("out", "qrels", "results", "options", "scale"), CASES, ids=[c[0] + "".join(c[3]) for c in CASES]
)
def test_eval_matches_trec_eval(conformance, tmp_path, write, out, qrels, results, options, scale):
    from support import Cli

    from labeler.workbench import init_workbench

    db = tmp_path / "conf.db"
    init_workbench(db, str(write("scale.tsv", scale)) if scale else None)
    cli = Cli(db)
    cli("judgments", "import", conformance / qrels, "--assessor", "nist", "--reviewed")
    cli("runs", "import", conformance / results, "--name", "run")
    cli("snapshot", "create", "-m", out)
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


def test_labeler_default_excludes_the_topic_without_relevant_labels(conformance, tmp_path):
    from support import Cli

    from labeler.workbench import init_workbench

    db = tmp_path / "c.db"
    init_workbench(db)
    cli = Cli(db)
    cli("judgments", "import", conformance / "qrels.comment.test", "--assessor", "nist", "--reviewed")
    cli("runs", "import", conformance / "results.comment.test", "--name", "run")
    cli("snapshot", "create", "-m", "rag24")
    run = cli.json("eval", "--measures", "AP")["runs"][0]
    assert run["topics"]["scored"] == 30 and run["topics"]["excluded"] == {"no_answer": 1}
    assert run["topics"]["not_in_snapshot"] == 301 - 31

"""`export run --format parquet` and `eval --runs-parquet`: DuckDB scores the same runs to the same JSON."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support import CONFORMANCE, ROOT, Cli

pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")

CASES = [
    ["--per-query"],
    ["--per-query", "--depth", "7"],
    ["--average", "trec_eval", "--measures", "P@5 AP nDCG@10 Bpref infAP RBP(p=0.8)"],
    ["--average", "trec_eval_c", "--per-query"],
    ["--runs", "b", "--stages", "a,b"],
    ["--compare", "a", "b"],
]


@pytest.fixture
def exported(run_cli: Cli, tmp_path):
    """A workbench with two runs and a snapshot, the SQLite eval of each case, and the runs as Parquet.

    After the export the workbench's runs are replaced by other rankings under the same names, so an
    answer read from the SQLite runs instead of the Parquet files could not equal the first one.
    """
    run_cli("judgments", "import", CONFORMANCE / "qrels.test", "--assessor", "nist", "--reviewed")
    run_cli("runs", "import", CONFORMANCE / "results.test", "--name", "a")
    run_cli("runs", "import", CONFORMANCE / "results.trunc", "--name", "b", "--stage", "rerank")
    run_cli("snapshot", "create", "-m", "conformance")
    want = [run_cli("eval", *case, "--json").stdout for case in CASES]
    folder = tmp_path / "runs"
    folder.mkdir()
    for name in ("a", "b"):
        run_cli("export", "run", name, "--format", "parquet", "-o", folder / f"{name}.parquet")
    run_cli("runs", "import", CONFORMANCE / "results.trunc", "--name", "a", "--replace")
    run_cli("runs", "import", CONFORMANCE / "results.test", "--name", "b", "--stage", "rerank", "--replace")
    assert run_cli("eval", *CASES[0], "--json").stdout != want[0]
    return run_cli, folder, want


@pytest.mark.parametrize("index", range(len(CASES)), ids=[" ".join(c) for c in CASES])
def test_eval_over_parquet_gives_the_sqlite_json(exported, index):
    run_cli, folder, want = exported
    assert run_cli("eval", *CASES[index], "--runs-parquet", folder, "--json").stdout == want[index]


def test_the_layout_columns_types_order_and_metadata(run_cli: Cli, write, tmp_path):
    run = "1 Q0 d1 7 0.30000000000000004 s\n1 Q0 d2 3 0.30000000000000004 s\n10 Q0 d1 1 12 s\n2 Q0 d2 1 1e-17 s\n"
    run_cli("runs", "import", write("r.txt", run), "--name", "r", "--stage", "rerank")
    out = tmp_path / "r.parquet"
    result = run_cli("export", "run", "r", "--format", "parquet", "-o", out)
    assert "as Parquet" in result.stderr + result.stdout
    table = pq.read_table(out)
    assert [(f.name, str(f.type)) for f in table.schema] == [
        ("topic", "string"),
        ("unit", "string"),
        ("rank", "int64"),
        ("score", "double"),
    ]
    # canonical order (score desc, id desc), topics in natural order, stored ranks, exact scores
    assert table.to_pylist() == [
        {"topic": "1", "unit": "d2", "rank": 3, "score": 0.30000000000000004},
        {"topic": "1", "unit": "d1", "rank": 7, "score": 0.30000000000000004},
        {"topic": "2", "unit": "d2", "rank": 1, "score": 1e-17},
        {"topic": "10", "unit": "d1", "rank": 1, "score": 12.0},
    ]

    meta = json.loads(table.schema.metadata[b"labeler.run"])
    assert (meta["name"], meta["unit"], meta["stage"], meta["layout"]) == ("r", "doc", "rerank", 1)


def test_export_follows_the_output_rule(run_cli: Cli, write, tmp_path):
    run_cli("runs", "import", write("r.txt", "1 Q0 d1 1 2 s\n"), "--name", "r")
    kept = write("r.parquet", "keep me\n")
    result = run_cli("export", "run", "r", "--format", "parquet", "-o", kept, expect=1)
    assert "exists" in result.stderr and kept.read_text() == "keep me\n"
    run_cli("export", "run", "r", "--format", "parquet", "-o", kept, "--force")
    assert pq.read_table(kept).num_rows == 1
    assert (
        "workbench"
        in run_cli("export", "run", "r", "--format", "parquet", "-o", run_cli.db, "--force", expect=1).stderr
    )
    assert "-o" in run_cli("export", "run", "r", "--format", "parquet", expect=2).stderr
    missing = run_cli("export", "run", "nope", "--format", "parquet", "-o", tmp_path / "n.parquet", expect=1)
    assert "nope" in missing.stderr
    assert not (tmp_path / "n.parquet").exists()


def test_a_folder_without_runs_is_an_error(run_cli: Cli, tmp_path):
    run_cli("judgments", "import", CONFORMANCE / "qrels.test", "--assessor", "nist", "--reviewed")
    run_cli("snapshot", "create", "-m", "x")
    (tmp_path / "empty").mkdir()
    assert "no .parquet run" in run_cli("eval", "--runs-parquet", tmp_path / "empty", expect=1).stderr
    (tmp_path / "empty" / "x.parquet").write_bytes(b"not parquet")
    assert "Error:" in run_cli("eval", "--runs-parquet", tmp_path / "empty", expect=1).stderr


def test_without_the_extra_the_error_says_what_to_install(run_cli: Cli, write, tmp_path, monkeypatch):
    run_cli("runs", "import", write("r.txt", "1 Q0 d1 1 2 s\n"), "--name", "r")
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` now raises ImportError
    monkeypatch.setitem(sys.modules, "duckdb", None)
    result = run_cli("export", "run", "r", "--format", "parquet", "-o", tmp_path / "r.parquet", expect=1)
    assert "pip install 'relevance-labeler[parquet]'" in result.stderr and result.stderr.startswith("Error:")
    assert not (tmp_path / "r.parquet").exists()
    result = run_cli("eval", "--runs-parquet", tmp_path, expect=1)
    assert result.stderr.startswith("Error:") and "pip install 'relevance-labeler[parquet]'" in result.stderr


def test_no_other_command_imports_duckdb_or_pyarrow_parquet():
    # pandas (which sqlite_utils imports when it is installed) imports pyarrow itself: that is not labeler's doing
    # and costs every command; what labeler loads only for the Parquet path is duckdb and pyarrow.parquet.
    code = (
        "import sys; from click.testing import CliRunner; from labeler.cli import cli; "
        "import labeler.cli.runs, labeler.cli.eval, labeler.workbench, labeler.workbench.evaluation; "
        "r = CliRunner().invoke(cli, ['eval', '--help']); assert r.exit_code == 0, r.output; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'duckdb' or m.startswith('pyarrow.parquet')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_a_chunk_run_collapsed_to_document_labels_scores_the_same(run_cli: Cli, write, tmp_path):
    corpus = (
        '{"id": "d1", "text": "one two three four five"}\n{"id": "d2", "text": "six seven eight nine"}\n'
        '{"id": "d3", "text": "ten eleven"}\n'
    )
    run_cli("corpus", "import", write("c.jsonl", corpus))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    chunks = "1 Q0 d1#0 1 2.5 x\n1 Q0 d2#1 2 1.25 x\n1 Q0 d3#0 3 1.0 x\n1 Q0 d1#2 4 0.5 x\n2 Q0 d1#2 1 0.1 x\n"
    run_cli("runs", "import", write("c.run", chunks + "2 Q0 d2#0 2 0.05 x\n"), "--name", "cr", "--unit", "chunk:w2")
    run_cli("judgments", "import", write("q.txt", "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n2 0 d1 0\n2 0 d2 1\n"), "--reviewed")
    run_cli("snapshot", "create", "-m", "docs")
    folder = tmp_path / "runs"
    folder.mkdir()
    run_cli("export", "run", "cr", "--format", "parquet", "-o", folder / "cr.parquet")
    for depth in ([], ["--depth", "1"]):  # the cut comes after the collapse, on both paths
        want = run_cli.json("eval", "--per-query", *depth)
        assert want["runs"][0]["units"]["chunks_collapsed"] > 0
        assert run_cli.json("eval", "--per-query", *depth, "--runs-parquet", folder) == want

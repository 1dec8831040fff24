"""`labeler export run`: a run leaves the workbench as a TREC file that re-imports to the same rankings."""

from __future__ import annotations

import sqlite3

from support import SAMPLE

CORPUS = '{"id": "d1", "text": "one two three four five"}\n{"id": "d2", "text": "six seven eight nine"}\n'
# Scores that a careless format would round (0.1 + 0.2, a long fraction), ties broken by id, ranks out of order.
DOC_RUN = (
    "1 Q0 d1 7 0.30000000000000004 sys\n1 Q0 d2 3 0.30000000000000004 sys\n"
    "2 Q0 d2 1 1e-17 sys\n2 Q0 d1 2 -3.141592653589793 sys\n10 Q0 d1 1 12 sys\n"
)


def _digest(db, name: str) -> str:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT rankings_sha256 FROM runs WHERE name = ?", [name]).fetchone()[0]


def _round_trip(run_cli, tmp_path, name: str, *import_args: str) -> str:
    """Export `name` to a file, import it as `again`, and check both stored digests match; the text back."""
    path = tmp_path / f"{name}.out"
    run_cli("export", "run", name, "-o", path)
    run_cli("runs", "import", path, "--name", "again", *import_args, "--replace")
    assert _digest(run_cli.db, "again") == _digest(run_cli.db, name)
    return path.read_text(encoding="utf-8")


def test_a_doc_run_re_imports_to_the_same_rankings_digest(run_cli, write, tmp_path):
    run_cli("runs", "import", write("r.txt", DOC_RUN), "--name", "r")
    text = _round_trip(run_cli, tmp_path, "r")
    # canonical order (score desc, id desc), natural topic order, stored ranks, repr scores, tag = run name
    assert text.splitlines() == [
        "1 Q0 d2 3 0.30000000000000004 r",
        "1 Q0 d1 7 0.30000000000000004 r",
        "2 Q0 d2 1 1e-17 r",
        "2 Q0 d1 2 -3.141592653589793 r",
        "10 Q0 d1 1 12.0 r",
    ]


def test_stdout_without_o_is_the_same_text(run_cli, write, tmp_path):
    run_cli("runs", "import", write("r.txt", DOC_RUN), "--name", "r")
    text = _round_trip(run_cli, tmp_path, "r")
    assert run_cli("export", "run", "r").stdout == text


def test_a_chunk_run_re_imports_to_the_same_rankings_digest(run_cli, write, tmp_path):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run_cli(
        "runs",
        "import",
        write("c.run", "1 Q0 d1#0 1 2.5 x\n1 Q0 d2#1 2 1.25 x\n2 Q0 d1#2 1 0.1 x\n"),
        "--name",
        "cr",
        "--unit",
        "chunk:w2",
    )
    text = _round_trip(run_cli, tmp_path, "cr", "--unit", "chunk:w2")
    assert text.splitlines()[0] == "1 Q0 d1#0 1 2.5 cr"


def test_a_built_in_retrievers_run_re_imports_to_the_same_rankings_digest(run_cli, tmp_path):
    run_cli("corpus", "import", SAMPLE / "corpus.jsonl")
    run_cli("topics", "import", SAMPLE / "topics.jsonl")
    made = run_cli.json("runs", "retrieve", "--retriever", "fts5", "--name", "fts", "--depth", "20")
    text = _round_trip(run_cli, tmp_path, "fts")
    assert len(text.splitlines()) == made["entries"] > 0


def test_an_existing_file_is_kept_without_force(run_cli, write, tmp_path):
    run_cli("runs", "import", write("r.txt", DOC_RUN), "--name", "r")
    target = write("out.run", "keep me\n")
    result = run_cli("export", "run", "r", "-o", target, expect=1)
    assert "exists" in result.stderr and target.read_text() == "keep me\n"
    run_cli("export", "run", "r", "-o", target, "--force")
    assert target.read_text().startswith("1 Q0 d2 3 ")


def test_an_unknown_run_is_one_line_and_writes_nothing(run_cli, tmp_path):
    target = tmp_path / "none.run"
    result = run_cli("export", "run", "nope", "-o", target, expect=1)
    assert result.stderr.strip().splitlines() == ["Error: no run named 'nope' (run 'labeler runs list')"]
    assert not target.exists() and result.stdout == ""

"""`labeler answers ...`: import, list, show, export and retire answer runs, with what the workbench holds after."""

from __future__ import annotations

import json

import pytest
from support import SAMPLE

from labeler.formats.answers import canonical_json
from labeler.store import Store

RAG24 = SAMPLE / "answers_rag24.jsonl"
RAG25 = SAMPLE / "answers_rag25.jsonl"


@pytest.fixture
def sample(run_cli):
    run_cli("corpus", "import", SAMPLE / "corpus.jsonl")
    run_cli("topics", "import", SAMPLE / "topics.jsonl")
    return run_cli


def canonical_lines(path) -> str:
    return "".join(canonical_json(json.loads(line)) + "\n" for line in path.read_text(encoding="utf-8").splitlines())


def test_import_stores_the_answers_with_citations_as_unit_ids(sample):
    result = sample.json("answers", "import", RAG24, "--name", "rag-a")
    assert result["name"] == "rag-a" and result["format"] == "trec-rag-2024" and result["unit"] == "doc"
    assert (result["answers"], result["topics"], result["sentences"]) == (4, 4, 14)
    assert result["cited_sentences"] == 13 and result["unknown_units"] == 0
    import hashlib

    assert result["sha256"] == hashlib.sha256(RAG24.read_bytes()).hexdigest()
    with Store(sample.db) as store:
        answer = store.answer("rag-a", "6")
        assert answer is not None
        assert answer.sentences[0].citations == ("med-001", "med-002")
        assert answer.sentences[3].citations == ()
        assert store.answer_topics("rag-a") == {"3": ["rag-a"], "6": ["rag-a"], "10": ["rag-a"], "13": ["rag-a"]}


def test_a_2025_file_with_ids_as_citations_imports(sample):
    result = sample.json("answers", "import", RAG25, "--name", "rag-b")
    assert result["format"] == "trec-rag-2025" and result["answers"] == 3
    with Store(sample.db) as store:
        answer = store.answer("rag-b", "6")
        assert answer is not None and answer.sentences[1].citations == ("med-002",)
        assert (
            answer.topic_text
            == "What conditions and behaviours raise or lower a person's chance of developing heart disease?"
        )


@pytest.mark.parametrize(("path", "run"), [(RAG24, "rag-a"), (RAG25, "rag-b")])
def test_export_gives_back_every_field_of_every_line_in_file_order(sample, tmp_path, path, run):
    sample("answers", "import", path, "--name", run)
    assert sample("answers", "export", run).stdout == canonical_lines(path)
    out = tmp_path / "out.jsonl"
    summary = sample.json("answers", "export", run, "-o", out)
    assert out.read_text(encoding="utf-8") == canonical_lines(path)
    assert summary["exported"] == "answers" and summary["lines"] == len(path.read_text().splitlines())
    again = sample.json("answers", "import", out, "--name", f"{run}-again")
    assert again["answers"] == len(path.read_text().splitlines())
    assert sample("answers", "export", f"{run}-again").stdout == canonical_lines(path)


def test_export_keeps_fields_labeler_does_not_read(run_cli, write):
    line = {"run_id": "r", "topic_id": "1", "references": ["d1"], "answer": [{"text": "x", "citations": [0], "s": 1}]}
    line["extra"] = {"z": [1.5, None, "é"], "a": True}
    path = write("a.jsonl", json.dumps(line) + "\n")
    run_cli("answers", "import", path, "--name", "r")
    assert json.loads(run_cli("answers", "export", "r").stdout) == line


def test_export_refuses_an_existing_file_without_force(sample, tmp_path):
    sample("answers", "import", RAG24, "--name", "rag-a")
    out = tmp_path / "out.jsonl"
    out.write_text("keep\n")
    result = sample("answers", "export", "rag-a", "-o", out, expect=1)
    assert result.stderr.startswith("Error: ") and out.read_text() == "keep\n"
    sample("answers", "export", "rag-a", "-o", out, "--force")
    assert out.read_text(encoding="utf-8") == canonical_lines(RAG24)


def test_list_hides_retired_runs_unless_all(sample):
    sample("answers", "import", RAG24, "--name", "rag-a")
    sample("answers", "import", RAG25, "--name", "rag-b")
    assert [r["name"] for r in sample.json("answers", "list")] == ["rag-a", "rag-b"]
    retired = sample.json("answers", "retire", "rag-b", "--reason", "a weaker system")
    assert retired["already_retired"] is False and retired["reason"] == "a weaker system"
    assert [r["name"] for r in sample.json("answers", "list")] == ["rag-a"]
    listed = sample.json("answers", "list", "--all")
    assert [(r["name"], r.get("retired_reason")) for r in listed] == [("rag-a", None), ("rag-b", "a weaker system")]
    again = sample.json("answers", "retire", "rag-b", "--reason", "twice")
    assert again["already_retired"] is True and again["reason"] == "a weaker system"
    text = sample("answers", "list").stdout
    assert "rag-a" in text and "rag-b" not in text


def test_show_gives_the_sentences_and_the_cited_texts(sample):
    sample("answers", "import", RAG24, "--name", "rag-a")
    shown = sample.json("answers", "show", "rag-a", "3")
    assert [s["number"] for s in shown["sentences"]] == [1, 2, 3, 4]
    assert shown["sentences"][3]["citations"] == ["astro-004", "astro-009"]
    cited = {unit["unit_id"]: unit for unit in shown["cited"]}
    assert list(cited) == ["astro-001", "astro-002", "astro-003", "astro-004", "astro-009"]
    assert cited["astro-001"]["title"] == "The transit method for finding exoplanets"
    assert cited["astro-001"]["known"] is True and "transit" in cited["astro-001"]["text"]
    text = sample("answers", "show", "rag-a", "3").stdout
    assert "4. Gravitational microlensing" in text and "[astro-004, astro-009]" in text


def test_show_of_a_chunk_run_gives_the_chunk_text(sample, write):
    sample("corpus", "chunk", "--name", "w50", "--size", "50", "--chunk-overlap", "0")
    with Store(sample.db) as store:
        chunk = store.chunks_of("w50", "astro-002")[1]
    line = {"run_id": "c", "topic_id": "3", "references": [chunk.chunk_id], "answer": [{"text": "x", "citations": [0]}]}
    result = sample.json("answers", "import", write("c.jsonl", json.dumps(line) + "\n"), "--name", "c")
    assert result["unit"] == "chunk:w50"
    (unit,) = sample.json("answers", "show", "c", "3")["cited"]
    assert unit["doc_id"] == "astro-002" and 0 < len(unit["text"].split()) <= 50


def test_an_evaluation_only_workbench_takes_any_ids(run_cli):
    result = run_cli.json("answers", "import", RAG24, "--name", "rag-a")
    assert result["unit"] == "doc" and result["unknown_units"] == 0
    unit = run_cli.json("answers", "show", "rag-a", "13")["cited"][0]
    assert unit == {"unit_id": "hist-001", "doc_id": "hist-001", "title": "", "text": "", "known": False}

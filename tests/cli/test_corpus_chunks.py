"""`labeler corpus chunks`: a chunking's chunks with their texts, for an outside chunk retriever."""

from __future__ import annotations

import json

from labeler.store import Store

# Non-ASCII text (offsets are characters, not bytes) and a tab and newline inside a document.
CORPUS = '{"id": "d1", "text": "Café crème brûlée 🍮 dessert"}\n{"id": "d2", "text": "one\\ttwo\\nthree four five"}\n'


def test_a_made_chunking_lists_its_chunks_with_their_document_spans(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    rows = [json.loads(line) for line in run_cli("corpus", "chunks", "--chunking", "w2", "--json").stdout.splitlines()]
    with Store(db_path) as store:
        expected = []
        for doc_id in ("d1", "d2"):
            text = store.document(doc_id).text
            expected += [
                {
                    "chunk_id": c.chunk_id,
                    "doc_id": doc_id,
                    "start": c.start,
                    "end": c.end,
                    "text": text[c.start : c.end],
                }
                for c in store.chunks_of("w2", doc_id)
            ]
    assert rows == expected
    assert [r["text"] for r in rows] == ["Café crème", "brûlée 🍮", "dessert", "one\ttwo", "three four", "five"]


def test_text_output_is_one_tab_separated_line_a_chunk(run_cli, write):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    lines = run_cli("corpus", "chunks", "--chunking", "w2").stdout.splitlines()
    assert len(lines) == 6
    assert lines[3] == "d2#0\td2\t0\t7\tone\\ttwo"  # the tab inside the text is escaped: the columns stay five


def test_a_mapping_without_offsets_lists_no_text(run_cli, write):
    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "mapping", "import", write("m.tsv", "p1\td1\np2\td2\n"), "--name", "m")
    rows = [json.loads(line) for line in run_cli("corpus", "chunks", "--chunking", "m", "--json").stdout.splitlines()]
    assert rows == [
        {"chunk_id": "p1", "doc_id": "d1", "start": None, "end": None, "text": None},
        {"chunk_id": "p2", "doc_id": "d2", "start": None, "end": None, "text": None},
    ]
    assert run_cli("corpus", "chunks", "--chunking", "m").stdout.splitlines()[0] == "p1\td1\t-\t-\t-"


def test_an_unknown_chunking_is_one_line_and_nothing_on_stdout(run_cli):
    for args in ((), ("--json",)):
        result = run_cli("corpus", "chunks", "--chunking", "nope", *args, expect=1)
        assert result.stdout == ""
        assert result.stderr.strip().splitlines() == [
            "Error: no chunking named 'nope' (run 'labeler corpus chunkings')"
        ]


def test_each_streamed_line_is_the_rows_json_form(run_cli, write, db_path):
    """The stream writes `vars(row)` for speed: it must stay what `to_json()` gives, key order included."""
    from labeler.workbench.corpus import chunk_rows

    run_cli("corpus", "import", write("c.jsonl", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    lines = run_cli("corpus", "chunks", "--chunking", "w2", "--json").stdout.splitlines()
    with Store(db_path) as store:
        rows = list(chunk_rows(store, "w2"))
    assert [list(json.loads(line)) for line in lines] == [["chunk_id", "doc_id", "start", "end", "text"]] * 6
    assert [json.loads(line) for line in lines] == [row.to_json() for row in rows]
    assert all(vars(row) == row.to_json() and list(vars(row)) == list(row.to_json()) for row in rows)

"""Hostile ids: every importer and every command argument that names a topic, unit, run, assessor or chunking
refuses what the id rule (labeler.ids) refuses, says where, and leaves the workbench byte-for-byte unchanged.

The cases are ids that got through before the rule, or would forge something if they did: a newline or a
space that writes a second qrels line, an ESC or C1 sequence that drives the annotator's terminal, a bidi
override or a zero-width space that makes two ids look alike, an id longer than 512 characters.
"""

from __future__ import annotations

import json

import pytest
from badinput_support import Unchanged, assert_refused, command, invoke, settled_files
from support import new_workbench

LONG = "d" * 513
FORGED = "d1 3\n2 0 forged"  # the issue's forgery: one label that exports as two qrels lines


def jsonl(*records: dict) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


# (file name, text, line, fragment of the reason); the importer is the file name's first word
FILES = [
    # runs, TREC columns: split() leaves no white space, so these are the characters it kept
    (
        "run_esc.trec",
        "1 Q0 d1 1 2.0 t\n1 Q0 d\x1b[2J 2 1.0 t\n",
        2,
        "unit id 'd\\x1b[2J' contains a control character (U+001B) at character 2",
    ),
    ("run_csi.trec", "1 Q0 d\x9b1 1 2.0 t\n", 1, "unit id 'd\\x9b1' contains a control character (U+009B)"),
    ("run_del.trec", "1 Q0 d\x7f 1 2.0 t\n", 1, "control character (U+007F)"),
    (
        "run_bidi_topic.trec",
        "1 Q0 d1 1 2.0 t\n2\u202e Q0 d1 1 2.0 t\n",
        2,
        "topic id '2\\u202e' contains an invisible formatting character (U+202E)",
    ),
    ("run_zero_width.trec", "1 Q0 d\u200b1 1 2.0 t\n", 1, "invisible formatting character (U+200B)"),
    ("run_long.trec", f"1 Q0 {LONG} 1 2.0 t\n", 1, "unit id 'dddd"),
    # runs, JSONL: a JSON string can hold any character
    (
        "run_forged.jsonl",
        jsonl({"topic": "1", "unit": FORGED, "score": 1}),
        1,
        "unit id 'd1 3\\n2 0 forged' contains white space (U+0020) at character 3",
    ),
    ("run_empty_unit.jsonl", jsonl({"topic": "1", "unit": "", "score": 1}), 1, "unit id '' is empty"),
    (
        "run_nul.jsonl",
        jsonl({"topic": "1", "unit": "d1", "score": 2}, {"topic": "1", "unit": "d\x00", "score": 1}),
        2,
        "unit id 'd\\x00' contains a control character (U+0000)",
    ),
    (
        "run_tab_topic.jsonl",
        jsonl({"qid": "1\t2", "docno": "d1", "score": 1}),
        1,
        "topic id '1\\t2' contains white space (U+0009)",
    ),
    # qrels, TREC and BEIR
    ("qrels_osc.qrels", "1 0 d1 1\n1 0 d\x1b]2;owned\x07 1\n", 2, "unit id 'd\\x1b]2;owned\\x07' contains a control"),
    ("qrels_bidi_topic.qrels", "1\u202e 0 d1 1\n", 1, "topic id '1\\u202e' contains an invisible formatting"),
    ("qrels_long.qrels", f"1 0 {LONG} 1\n", 1, "is 513 characters long (at most 512)"),
    ("qrels_zero_width.tsv", "query-id\tcorpus-id\tscore\n1\td\u200b1\t1\n", 2, "unit id 'd\\u200b1'"),
    # topics: JSONL, TSV, TREC
    ("topics_forged.jsonl", jsonl({"id": "1\n2", "title": "t"}), 1, "topic id '1\\n2' contains white space (U+000A)"),
    ("topics_esc.jsonl", jsonl({"_id": "\x1b[31m1", "text": "t"}), 1, "topic id '\\x1b[31m1' contains a control"),
    ("topics_bidi.tsv", "1\ta\n2\u202e3\tb\n", 2, "topic id '2\\u202e3' contains an invisible formatting"),
    (
        "topics_csi.trec",
        "<top>\n<num> Number: 3\x9b01\n<title> t\n</top>\n",
        1,
        "topic number '3\\x9b01' contains a control character (U+009B)",
    ),
    ("topics_long.tsv", f"{LONG}\ttitle\n", 1, "topic id 'dddd"),
    # corpus: JSONL and TSV
    ("corpus_cr.jsonl", jsonl({"id": "d\r1", "text": "x"}), 1, "document id 'd\\r1' contains white space (U+000D)"),
    (
        "corpus_nbsp.jsonl",
        jsonl({"id": "d\u00a01", "text": "x"}),
        1,
        "document id 'd\\xa01' contains white space (U+00A0)",
    ),
    ("corpus_esc.tsv", "d1\tx\nd\x1b2\ty\n", 2, "document id 'd\\x1b2' contains a control character"),
    ("corpus_zero_width.tsv", "d\u200b1\tx\n", 1, "invisible formatting character (U+200B)"),
    ("corpus_long.tsv", f"{LONG}\tx\n", 1, "characters long (at most 512)"),
    # chunk mappings: imported (columns, JSONL) and derived
    ("mapping_esc.tsv", "c\x1b1 d1\n", 1, "chunk id 'c\\x1b1' contains a control character"),
    (
        "mapping_bidi_doc.jsonl",
        jsonl({"chunk_id": "c1", "doc_id": "d\u202e1"}),
        1,
        "document id 'd\\u202e1' contains an invisible formatting",
    ),
    ("mapping_empty_chunk.jsonl", jsonl({"chunk_id": "", "doc_id": "d1"}), 1, "chunk id '' is empty"),
    ("derive_csi.txt", "d1#0\nd1#\x9b1\n", 2, "chunk id 'd1#\\x9b1' contains a control character (U+009B)"),
    ("derive_long.txt", f"d1#{LONG}\n", 1, "chunk id 'd1#ddd"),
]


@pytest.mark.parametrize(("name", "text", "line", "fragment"), FILES, ids=[row[0] for row in FILES])
def test_a_hostile_id_in_a_file_is_refused_at_its_line(workbench, tmp_path, name, text, line, fragment):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with Unchanged(workbench):
        result = invoke(workbench, command(name.split("_", 1)[0], path))
    assert_refused(result, path, line, fragment)


QRELS = "1 0 d1 1\n"

# (arguments, where, fragment); every command would write something if the id were accepted
ARGUMENTS = [
    (
        ["judgments", "add", "1", FORGED, "3", "--assessor", "a", "--allow-unknown"],
        "argument UNIT",
        "unit id 'd1 3\\n2 0 forged' contains white space (U+0020) at character 3",
    ),
    (
        ["judgments", "add", "", "d1", "1", "--assessor", "a", "--allow-unknown"],
        "argument TOPIC",
        "topic id '' is empty",
    ),
    (
        ["judgments", "add", "1\x1b[2J", "d1", "1", "--assessor", "a", "--allow-unknown"],
        "argument TOPIC",
        "topic id '1\\x1b[2J' contains a control character (U+001B)",
    ),
    (
        ["judgments", "add", "1", "d1\t", "1", "--assessor", "a", "--allow-unknown"],
        "argument UNIT",
        "contains white space (U+0009)",
    ),
    (
        ["judgments", "add", "1", "d1", "1", "--assessor", "a b", "--allow-unknown"],
        "--assessor",
        "assessor name 'a b' contains white space (U+0020) at character 2",
    ),
    (
        ["judgments", "add", "1", "d1", "1", "--assessor", "", "--allow-unknown"],
        "--assessor",
        "assessor name '' is empty",
    ),
    (
        ["judgments", "adjudicate", "1", "d\u200b1", "1", "--assessor", "a"],
        "argument UNIT",
        "unit id 'd\\u200b1' contains an invisible formatting character (U+200B)",
    ),
    (["judgments", "adjudicate", "1\r", "d1", "1", "--assessor", "a"], "argument TOPIC", "white space (U+000D)"),
    (
        ["judgments", "adjudicate", "1", "d1", "1", "--assessor", "\u202eevil"],
        "--assessor",
        "invisible formatting character (U+202E)",
    ),
    (["judgments", "import", "{qrels}", "--assessor", "ann\x9b"], "--assessor", "control character (U+009B)"),
    (["topics", "mark", "1 2", "reviewed", "--assessor", "a"], "argument TOPIC", "topic id '1 2' contains white space"),
    (["topics", "mark", "1", "reviewed", "--assessor", "a" * 513], "--assessor", "is 513 characters long"),
    (["judgments", "undo", "--assessor", "a\x00"], "--assessor", "control character (U+0000)"),
    (["runs", "import", "{run}", "--name", "r\n2"], "--name", "run name 'r\\n2' contains white space (U+000A)"),
    (["runs", "import", "{run}", "--name", ""], "--name", "run name '' is empty"),
    (
        ["runs", "retrieve", "--retriever", "fts5", "--name", "bm25 x"],
        "--name",
        "run name 'bm25 x' contains white space",
    ),
    (["corpus", "chunk", "--name", "w\x1b", "--size", "5"], "--name", "chunking name 'w\\x1b' contains a control"),
    (["corpus", "chunk", "--name", "w:10", "--size", "5"], "--name", "chunking name 'w:10' may not hold ':'"),
    (["corpus", "mapping", "derive", "{ids}", "--name", "seg\u00a0v2"], "--name", "white space (U+00A0)"),
]


@pytest.mark.parametrize(
    ("args", "where", "fragment"), ARGUMENTS, ids=[f"{a[0]}-{a[1]}-{i}" for i, (a, _, _) in enumerate(ARGUMENTS)]
)
def test_a_hostile_id_argument_is_refused_by_name(workbench, tmp_path, args, where, fragment):
    files = {"qrels": tmp_path / "q.qrels", "run": tmp_path / "r.trec", "ids": tmp_path / "ids.txt"}
    files["qrels"].write_text(QRELS)
    files["run"].write_text("1 Q0 d1 1 2.0 t\n")
    files["ids"].write_text("d1#0\n")
    args = [arg.format(**files) if arg.startswith("{") else arg for arg in args]
    with Unchanged(workbench):
        result = invoke(workbench, args)
    assert_refused(result, where, None, fragment)


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("ann bob", "white space (U+0020)"),
        ("ann\x1b[2J", "control character (U+001B)"),
    ],
)
def test_a_hostile_default_assessor_names_labeler_assessor(workbench, monkeypatch, value, fragment):
    monkeypatch.setenv("LABELER_ASSESSOR", value)
    with Unchanged(workbench):
        result = invoke(workbench, ["judgments", "add", "1", "d1", "1", "--allow-unknown"])
    assert_refused(result, "LABELER_ASSESSOR", None, fragment)


def test_the_issues_forged_qrels_line_never_reaches_an_export(tmp_path):
    """`judgments add 1 $'d1 3\\n2 0 forged' 3` was accepted: one label in the snapshot, two lines in its qrels."""
    (tmp_path / "forgery").mkdir()
    db = tmp_path / "forgery" / "wb.db"
    new_workbench(db)
    assert invoke(db, ["judgments", "add", "1", "d1", "2", "--assessor", "ann"]).exit_code == 0
    settled_files(db)
    with Unchanged(db):
        result = invoke(db, ["judgments", "add", "1", FORGED, "3", "--assessor", "ann"])
    assert_refused(result, "argument UNIT", None, "unit id 'd1 3\\n2 0 forged' contains white space")
    assert invoke(db, ["snapshot", "create", "-m", "v1"]).exit_code == 0
    exported = invoke(db, ["export", "qrels"])
    assert exported.exit_code == 0, exported.stderr
    assert exported.stdout == "1 0 d1 2\n"
    verified = invoke(db, ["snapshot", "verify"])
    assert verified.exit_code == 0, verified.stderr

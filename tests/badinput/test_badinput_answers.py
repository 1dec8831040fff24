"""`answers ...` refusals: one `Error:` line naming the file and line (or the argument), and nothing written."""

from __future__ import annotations

import json

import pytest
from badinput_support import Unchanged, assert_bad_argument, assert_no_crash, assert_refused, invoke

CORPUS = "".join(json.dumps({"id": f"d{i}", "title": f"t{i}", "text": f"text {i}"}) + "\n" for i in range(1, 4))
TOPICS = "".join(json.dumps({"id": t, "title": f"topic {t}"}) + "\n" for t in ("1", "2"))


def line(topic="1", refs=("d1",), cites=(0,), **more):
    row = {
        "run_id": "r",
        "topic_id": topic,
        "references": list(refs),
        "answer": [{"text": "x", "citations": list(cites)}],
    }
    row.update(more)
    return json.dumps(row) + "\n"


@pytest.fixture
def known(workbench, tmp_path):
    """The baseline workbench with a corpus (d1..d3), topics 1 and 2 and an answer run `taken`."""
    files = {"c.jsonl": CORPUS, "t.jsonl": TOPICS, "a.jsonl": line()}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    for args in (
        ["corpus", "import", tmp_path / "c.jsonl"],
        ["topics", "import", tmp_path / "t.jsonl"],
        ["answers", "import", tmp_path / "a.jsonl", "--name", "taken"],
    ):
        result = invoke(workbench, args)
        assert result.exit_code == 0, result.stderr
    return workbench


@pytest.mark.parametrize(
    ("text", "at", "fragment"),
    [
        (line() + "[]\n", 2, "expected a JSON object"),
        (line() + line(), 2, "topic 1 has two answers (first at line 1)"),
        (line() + line(topic="2", cites=(3,)), 2, "sentence 1 cites reference 3, out of range"),
        (line(answer=[]), 1, "empty answer"),
        (line() + line(topic="2", refs=("d 2",)), 2, "reference id 'd 2' contains white space"),
    ],
)
def test_a_bad_line_is_refused_at_its_line(known, tmp_path, text, at, fragment):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with Unchanged(known):
        result = invoke(known, ["answers", "import", path, "--name", "new"])
    assert_refused(result, path, at, fragment)


def test_a_cited_id_not_in_the_corpus_is_refused_at_the_first_line_citing_it(known, tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(line() + line(topic="2", refs=("d1", "zz"), cites=(0, 1)))
    with Unchanged(known):
        result = invoke(known, ["answers", "import", path, "--name", "new"])
    assert_refused(result, path, 2, "1 cited id not in the corpus, e.g. zz")
    assert "--allow-unknown" in result.stderr
    accepted = invoke(known, ["answers", "import", path, "--name", "new", "--allow-unknown", "--json"])
    assert accepted.exit_code == 0 and json.loads(accepted.stdout)["unknown_units"] == 1


def test_a_topic_the_workbench_lacks_is_refused_at_its_line(known, tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(line() + line(topic="9"))
    with Unchanged(known):
        result = invoke(known, ["answers", "import", path, "--name", "new"])
    assert_refused(result, path, 2, "1 topic not in the workbench: 9")


def test_chunk_ids_go_to_their_chunking(workbench, tmp_path):
    """The baseline holds chunking `existing` (x1#0, x1#1) and no corpus: its chunk ids find their space."""
    path = tmp_path / "a.jsonl"
    path.write_text(line(refs=("x1#0",)))
    ok = invoke(workbench, ["answers", "import", path, "--name", "new", "--json"])
    assert ok.exit_code == 0 and json.loads(ok.stdout)["unit"] == "chunk:existing"


def test_an_id_of_another_unit_space_is_refused_even_when_unknown_ids_are_allowed(known, tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(line(refs=("x1#0",)) + line(topic="2", refs=("d2",)))
    args = ["answers", "import", path, "--name", "new", "--unit", "chunk:existing", "--allow-unknown"]
    with Unchanged(known):
        result = invoke(known, args)
    assert_refused(result, path, 2, "1 id is a document of this workbench (unit doc), not a chunk")


def test_an_existing_name_is_refused_before_the_file_is_read(known, tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text("not read\n")
    with Unchanged(known):
        result = invoke(known, ["answers", "import", path, "--name", "taken"])
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: an answer run named 'taken' exists already")


def test_a_name_that_is_no_id_is_refused(known, tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(line())
    with Unchanged(known):
        result = invoke(known, ["answers", "import", path, "--name", "a b"])
    assert_refused(result, "--name", None, "contains white space")


def test_a_chunking_the_workbench_lacks_is_a_bad_argument(known, tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text(line())
    with Unchanged(known):
        result = invoke(known, ["answers", "import", path, "--name", "new", "--unit", "chunk:nope"])
    assert_bad_argument(result, "--unit", "no chunking named 'nope'")


def test_a_missing_file_is_refused(known, tmp_path):
    with Unchanged(known):
        result = invoke(known, ["answers", "import", tmp_path / "none.jsonl", "--name", "new"])
    assert_refused(result, tmp_path / "none.jsonl", None, "")


@pytest.mark.parametrize(
    "args",
    [
        ["answers", "show", "nope", "1"],
        ["answers", "show", "taken", "2"],
        ["answers", "retire", "nope", "--reason", "x"],
        ["answers", "export", "nope"],
    ],
)
def test_an_unknown_run_or_answer_is_refused(known, args):
    with Unchanged(known):
        result = invoke(known, args)
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("Error: ") and (
        "no answer run named 'nope'" in result.stderr or "topic '2'" in result.stderr
    )


def test_export_of_an_unknown_run_writes_no_file(known, tmp_path):
    out = tmp_path / "out.jsonl"
    with Unchanged(known):
        result = invoke(known, ["answers", "export", "nope", "-o", out])
    assert result.exit_code == 1 and not out.exists()


def test_an_empty_reason_is_a_bad_argument(known):
    with Unchanged(known):
        result = invoke(known, ["answers", "retire", "taken", "--reason", " "])
    assert_bad_argument(result, "--reason", "a retirement needs its reason")


def test_export_json_without_an_output_file_is_a_bad_argument(known):
    with Unchanged(known):
        result = invoke(known, ["answers", "export", "taken", "--json"])
    assert_bad_argument(result, "--json", "summary of the file written")

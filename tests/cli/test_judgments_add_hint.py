"""`judgments add` with one unknown id: a chunk id names `--unit chunk:NAME`; an unknown topic says so plainly.

Without `--unit`, a chunk id of the one chunking is that chunking's (the id decides the space); given as a
document (`--unit doc`), it is refused with the chunking named, and `--allow-unknown` does not file it there.
"""

from __future__ import annotations

import pytest
from badinput.badinput_support import Unchanged, assert_no_crash, invoke

CORPUS = "d1\t" + " ".join(f"w{i}" for i in range(10)) + "\n"  # chunks of 5 words: d1#0 d1#1
TOPICS = "1\tfirst\n2\tsecond\n"


@pytest.fixture
def chunked(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("topics", "import", write("t.tsv", TOPICS))
    run_cli("corpus", "chunk", "--name", "w5", "--size", "5")
    return db_path


def _refused(result, fragment: str) -> str:
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == "", result.stdout + result.stderr
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert fragment in result.stderr, result.stderr
    return result.stderr


def test_a_chunk_id_given_as_a_document_names_its_chunking(chunked):
    with Unchanged(chunked):
        result = invoke(chunked, ["judgments", "add", "1", "d1#1", "2", "--assessor", "ann", "--unit", "doc"])
    message = _refused(
        result,
        "no document 'd1#1' in the corpus; chunking 'w5' holds it (pass --unit chunk:w5 to read it as its chunks)",
    )
    assert "--allow-unknown" not in message


def test_a_chunk_id_accepted_as_unknown_is_still_not_filed_as_a_document(chunked):
    with Unchanged(chunked):
        result = invoke(
            chunked, ["judgments", "add", "1", "d1#1", "2", "--assessor", "ann", "--unit", "doc", "--allow-unknown"]
        )
    _refused(result, "1 id is a chunk of w5 of this workbench (unit chunk:w5), not a document (pass --unit chunk:w5")


def test_without_unit_a_chunk_id_goes_to_its_chunking(chunked, run_cli):
    run_cli("judgments", "add", "1", "d1#1", "2", "--assessor", "ann")
    (event,) = run_cli.json("judgments", "log")
    assert (event["unit"], event["unit_id"]) == ("chunk:w5", "d1#1")


def test_the_suggested_unit_records_the_judgment(chunked, run_cli):
    run_cli("judgments", "add", "1", "d1#1", "2", "--assessor", "ann", "--unit", "chunk:w5")
    (event,) = run_cli.json("judgments", "log")
    assert (event["unit"], event["unit_id"], event["grade"]) == ("chunk:w5", "d1#1", 2)


def test_an_id_nobody_holds_keeps_the_allow_unknown_advice(chunked):
    with Unchanged(chunked):
        result = invoke(chunked, ["judgments", "add", "1", "zz", "2", "--assessor", "ann"])
    message = _refused(result, "no document 'zz' in the corpus (pass --allow-unknown to accept it)")
    assert "--unit" not in message


def test_an_unknown_topic_is_named_as_a_topic(chunked):
    with Unchanged(chunked):
        result = invoke(chunked, ["judgments", "add", "9", "d1#1", "2", "--assessor", "ann"])
    message = _refused(result, "topic '9' is not in the workbench, which holds 2 topics")
    assert "labeler topics list" in message and "document" not in message

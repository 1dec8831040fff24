"""Ids unknown to the corpus that an existing chunking holds: the error names `--unit chunk:NAME` first."""

from __future__ import annotations

import pytest
from badinput.badinput_support import Unchanged, assert_refused, invoke

CORPUS = "d1\t" + " ".join(f"w{i}" for i in range(12)) + "\nd2\tone two three\n"
# chunks of 5 words: d1#0 d1#1 d1#2, d2#0
CHUNK_RUN = "1 Q0 d1#1 1 9 c\n1 Q0 d2#0 2 8 c\n1 Q0 d1#0 3 7 c\n"
MOSTLY_CHUNKS = "1 Q0 d1 1 9 c\n1 Q0 d1#1 2 8 c\n1 Q0 zz 3 7 c\n1 Q0 d1#2 4 6 c\n1 Q0 d2#0 5 5 c\n"
UNKNOWN_RUN = "1 Q0 d1 1 9 c\n1 Q0 nowhere 2 8 c\n1 Q0 d1#0 3 7 c\n1 Q0 elsewhere 4 6 c\n"


@pytest.fixture
def chunked(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w5", "--size", "5")
    return db_path


def test_a_chunk_run_without_unit_suggests_the_chunking_that_holds_its_ids(chunked, write):
    path = write("chunk.run", CHUNK_RUN)
    with Unchanged(chunked):
        result = invoke(chunked, ["runs", "import", path, "--name", "c"])
    assert_refused(result, path, 1, "3 ids not in the corpus")
    message = result.stderr
    assert message.endswith(
        "3 ids not in the corpus, e.g. d1#0, d1#1, d2#0; chunking 'w5' holds 3 of the 3 (pass --unit chunk:w5 "
        "to read them as its chunks)\n"
    )


def test_a_chunk_run_accepted_as_unknown_is_still_not_a_document_run(chunked, write):
    path = write("chunk.run", CHUNK_RUN)
    with Unchanged(chunked):
        result = invoke(chunked, ["runs", "import", path, "--name", "c", "--allow-unknown"])
    assert_refused(result, path, 1, "3 ids are chunks of w5 of this workbench (unit chunk:w5), not documents")


def test_mostly_chunk_ids_still_name_the_chunking_with_its_count(chunked, write):
    path = write("mostly.run", MOSTLY_CHUNKS)
    result = invoke(chunked, ["runs", "import", path, "--name", "c"])
    assert_refused(result, path, 2, "chunking 'w5' holds 3 of the 4")


def test_truly_unknown_ids_keep_the_allow_unknown_advice(chunked, write):
    path = write("unknown.run", UNKNOWN_RUN)
    result = invoke(chunked, ["runs", "import", path, "--name", "u"])
    # one chunk id of three unknown: not mostly chunks, so no --unit advice
    assert_refused(
        result, path, 2, "3 ids not in the corpus, e.g. d1#0, elsewhere, nowhere (pass --allow-unknown to accept them)"
    )
    assert "--unit" not in result.stderr


def test_chunk_qrels_without_unit_suggest_the_chunking(chunked, write):
    path = write("chunk.qrels", "1 0 d1#0 2\n1 0 d2#0 0\n")
    with Unchanged(chunked):
        result = invoke(chunked, ["judgments", "import", path, "--assessor", "ann", "--unit", "doc"])
    assert_refused(result, path, 1, "chunking 'w5' holds 2 of the 2 (pass --unit chunk:w5 to read them as its chunks)")


def test_the_suggested_unit_imports_the_run(chunked, write):
    path = write("chunk.run", CHUNK_RUN)
    assert invoke(chunked, ["runs", "import", path, "--name", "c", "--unit", "chunk:w5"]).exit_code == 0

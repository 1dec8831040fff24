"""What `labeler runs retrieve` refuses: exit 1 (2 for a bad option value), one clear line, the workbench unchanged."""

from __future__ import annotations

import pytest
from support import dump


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        # (arguments after `runs retrieve`, what stderr says, the exit code: 2 for an option value out of range)
        (("--retriever", "ql", "--topics", "1,77"), "1 topic not in the workbench: 77", 1),
        (("--retriever", "ql", "--unit", "chunk:nope"), "--unit: no chunking named 'nope'", 2),
        (("--retriever", "ql", "--unit", "passage"), "--unit: unit must be 'doc' or 'chunk:NAME', not 'passage'", 2),
        (("--retriever", "ql", "--mu", "0"), "--mu: must be a number above 0 and at most 1000000000, not '0'", 2),
        (("--retriever", "ql", "--param", "mu=0"), "retriever 'ql': mu must be a positive number, not 0", 1),
        (("--retriever", "ql", "--param", "k1=2"), "retriever 'ql' takes no parameter k1 (it takes mu)", 1),
        (("--retriever", "command:echo hi", "--mu", "3"), "a command retriever takes no parameters", 1),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(hand_cli, db_path, args, message, code):
    before = dump(db_path)
    result = hand_cli("runs", "retrieve", "--name", "r", *args, expect=code)
    assert result.stderr.startswith("Error: ") and message in result.stderr
    assert dump(db_path) == before


@pytest.mark.parametrize("retriever", ["fts5", "bm25s", "ql"])
def test_no_corpus(run_cli, topics_file, retriever):
    run_cli("topics", "import", topics_file)
    result = run_cli("runs", "retrieve", "--retriever", retriever, "--name", "r", expect=1)
    assert result.stderr == (
        f"Error: no corpus: retriever {retriever!r} searches the workbench's own corpus (run 'labeler corpus import')\n"
    )


@pytest.mark.parametrize("retriever", ["fts5", "bm25s", "ql", "command:echo"])
def test_no_topics(run_cli, corpus_file, retriever):
    run_cli("corpus", "import", corpus_file)
    result = run_cli("runs", "retrieve", "--retriever", retriever, "--name", "r", expect=1)
    assert result.stderr == "Error: no topics: a retriever needs queries (run 'labeler topics import')\n"


def test_a_chunking_without_offsets_has_no_text_to_search(hand_cli, write):
    hand_cli("corpus", "mapping", "derive", write("ids.txt", "d1#a\nd2#b\n"), "--name", "derived")
    result = hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "r", "--unit", "chunk:derived", expect=1)
    assert "chunking 'derived' has chunks without offsets" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # an argument that names nothing: the flag, then why (exit 2, like click's own usage errors)
        (("--retriever", "nope"), "Error: --retriever: unknown retriever 'nope': choose one of fts5, bm25s, ql, or"),
        (("--retriever", "ql", "--topics", ","), "Error: --topics: topic id '' is empty\n"),
    ],
)
def test_an_argument_that_names_nothing_exits_2_and_changes_nothing(hand_cli, db_path, args, message):
    before = dump(db_path)
    result = hand_cli("runs", "retrieve", "--name", "r", *args, expect=2)
    assert result.stderr.startswith(message)
    assert dump(db_path) == before


def test_bad_usage_exits_2(hand_cli):
    assert hand_cli("runs", "retrieve", "--name", "r", expect=2).exit_code == 2  # no --retriever
    result = hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "r", "--param", "mu", expect=2)
    assert "expected KEY=VALUE" in result.stderr
    hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "r", "--depth", "0", expect=2)
    hand_cli("runs", "retrieve", "--retriever", "ql", "--name", "r", "--query", "narrative", expect=2)

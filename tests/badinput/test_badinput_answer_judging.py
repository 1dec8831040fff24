"""`labeler judge --answers`: a bad task, run list or assessor is refused in one `Error:` line before any screen,
and the workbench is left byte-for-byte as it was."""

from __future__ import annotations

import pytest
from answers.judged_answers import add_judged_answers
from badinput_support import Unchanged, assert_bad_argument, assert_no_crash, invoke
from support import new_workbench

from labeler.store import Store


@pytest.fixture
def db(tmp_path):
    path = new_workbench(tmp_path / "wb.db")
    with Store(path) as store:
        add_judged_answers(store)
    return path


@pytest.mark.parametrize(
    ("args", "flag", "fragment"),
    [
        (["--runs", "rag1"], "--runs", "answer runs are judged with --answers"),
        (["--answers", "nuggets", "--runs", "rag1,rag1"], "--runs", "given twice"),
        (["--answers", "nuggets", "--write-nuggets"], "--answers", "nuggets are written or answers judged"),
    ],
)
def test_a_bad_argument_is_refused_with_exit_2(db, args, flag, fragment):
    with Unchanged(db):
        assert_bad_argument(invoke(db, ["judge", "--assessor", "ann", *args]), flag, fragment)


def test_an_unknown_task_is_a_usage_error(db):
    with Unchanged(db):
        result = invoke(db, ["judge", "--assessor", "ann", "--answers", "relevance"])
    assert_no_crash(result)
    assert result.exit_code == 2 and result.stderr.count("Error:") == 1 and "'relevance'" in result.stderr


@pytest.mark.parametrize(
    ("args", "error", "code"),
    [
        (["--runs", "nope"], "Error: --runs: no answer run named 'nope'", 2),  # a bad argument, as everywhere
        (["--topic", "3"], "Error: no answer run judged here has an answer to topic '3'", 1),
    ],
)
def test_an_unknown_answer_run_or_topic_is_refused_by_name(db, args, error, code):
    with Unchanged(db):
        result = invoke(db, ["judge", "--assessor", "ann", "--answers", "support", *args])
    assert_no_crash(result)
    assert result.exit_code == code, result.stderr
    assert result.stderr.startswith(error) and result.stderr.count("\n") == 1 and result.stdout == "", result.stderr

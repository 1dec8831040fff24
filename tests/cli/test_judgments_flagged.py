"""`labeler judgments flagged`: every standing flag, with who, when, why and the pair's label now."""

from __future__ import annotations

import pytest
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_refused, invoke

CORPUS = "d1\talpha\nd2\tbeta\nd3\tgamma\n"
TOPICS = "1\tfirst\n2\tsecond\n10\ttenth\n"


@pytest.fixture
def flagged(run_cli, write, db_path):
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("topics", "import", write("t.tsv", TOPICS))
    run_cli("judgments", "add", "10", "d3", "--kind", "flag", "--reason", "odd text", "--assessor", "bob")
    run_cli("judgments", "add", "2", "d1", "--kind", "flag", "--reason", "which sense?", "--assessor", "ann")
    run_cli("judgments", "add", "2", "d1", "2", "--assessor", "ann")  # graded after the flag
    run_cli("judgments", "add", "1", "d2", "--kind", "flag", "--assessor", "ann")
    run_cli("judgments", "undo", "--assessor", "ann")  # retracts the flag on 1/d2
    return db_path


def test_flags_stay_listed_after_grading_and_an_undone_flag_goes(flagged, run_cli):
    rows = run_cli.json("judgments", "flagged")
    assert [(r["topic"], r["unit_id"]) for r in rows] == [("2", "d1"), ("10", "d3")]  # natural topic order
    graded, untouched = rows
    assert (graded["assessor"], graded["reason"], graded["unit"]) == ("ann", "which sense?", "doc")
    assert (graded["label"], graded["state"], graded["open"], graded["grades"]) == (2, "judged", False, {"ann": 2})
    assert (untouched["label"], untouched["state"], untouched["open"]) == (None, "unjudged", True)
    assert untouched["time"] and untouched["event"]


def test_the_text_table_shows_the_grade_beside_the_flag(flagged, run_cli):
    out = run_cli("judgments", "flagged").stdout
    assert "2 flags" in out and "which sense?" in out and "odd text" in out
    line = next(row for row in out.splitlines() if "which sense?" in row)
    assert "ann" in line and "judged" in line and " 2 " in line


def test_topic_and_unit_filters(flagged, run_cli):
    assert [r["unit_id"] for r in run_cli.json("judgments", "flagged", "--topic", "10")] == ["d3"]
    assert run_cli.json("judgments", "flagged", "--unit", "doc") == run_cli.json("judgments", "flagged")
    assert "No flagged pairs for topic 1." in run_cli("judgments", "flagged", "--topic", "1").stderr


@pytest.mark.parametrize(
    ("args", "where", "fragment"),
    [
        (["--topic", "99"], None, "no topic '99' in the workbench"),
        (["--topic", "a\nb"], "--topic", "topic id"),
        (["--unit", "chunk:nope"], "--unit", "no chunking named 'nope'"),
    ],
)
def test_bad_filters_are_refused(flagged, args, where, fragment):
    with Unchanged(flagged):
        result = invoke(flagged, ["judgments", "flagged", *args])
    if where is None:
        assert result.exit_code == 1 and result.stdout == "" and fragment in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    elif where == "--unit":
        assert_bad_argument(result, where, fragment)
    else:
        assert_refused(result, where, None, fragment)

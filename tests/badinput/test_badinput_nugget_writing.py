"""`labeler judge --write-nuggets` refuses an unknown topic, a workbench without topics and a bad assessor name."""

from __future__ import annotations

from badinput_support import Unchanged, assert_no_crash, assert_refused, invoke


def test_an_unknown_topic_is_refused_with_the_hint_to_list_them(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["judge", "--assessor", "ann", "--write-nuggets", "--topic", "999"])
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "Error: no topic '999' in the workbench (run 'labeler topics list')\n"


def test_a_workbench_without_topics_is_refused_with_the_hint_to_import_them(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["judge", "--assessor", "ann", "--drafts-from", "gpt"])
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("Error: the workbench has no topics (") and result.stderr.count("\n") == 1


def test_a_bad_assessor_name_is_refused_as_judging_refuses_it(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["judge", "--assessor", "a b", "--write-nuggets", "--topic", "1"])
    assert_refused(result, "--assessor", None, "assessor name 'a b' contains white space")

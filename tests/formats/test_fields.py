"""The id helpers every reader shares (labeler.formats.fields) apply the one id rule."""

from __future__ import annotations

import pytest

from labeler.errors import QrelsFormatError, TopicFormatError
from labeler.formats.fields import clean_id, column_id
from labeler.ids import MAX_ID_LENGTH


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("d1", "d1"),
        (" d1 ", "d1"),  # JSON values are stripped around the id (BEIR files hold " 8 ")
        (301, "301"),  # a JSON integer id is its digits
        ("d#1", "d#1"),
    ],
)
def test_clean_id_accepts(value, expected):
    assert clean_id(value, "topic id", path="t.jsonl", line=1, error=TopicFormatError) == expected


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("a b", "topic id 'a b' contains white space (U+0020) at character 2"),
        ("  ", "topic id '' is empty"),
        ("a\x1bb", "control character (U+001B)"),
        ("a\u200bb", "invisible formatting character (U+200B)"),
        ("x" * (MAX_ID_LENGTH + 1), "is 513 characters long"),
        (True, "topic id must be a string or an integer, found true"),
        (1.5, "found a number"),
    ],
)
def test_clean_id_refuses_with_file_and_line(value, fragment):
    with pytest.raises(TopicFormatError) as refused:
        clean_id(value, "topic id", path="t.jsonl", line=7, error=TopicFormatError)
    assert refused.value.path == "t.jsonl" and refused.value.line == 7
    assert fragment in refused.value.reason


def test_column_id_takes_a_printable_id_as_it_is():
    assert column_id("x" * MAX_ID_LENGTH, "unit id", path="q", line=1, error=QrelsFormatError) == "x" * MAX_ID_LENGTH


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("d\x9b1", "control character (U+009B)"),
        ("d\u202e1", "invisible formatting character (U+202E)"),
        ("d\x7f", "control character (U+007F)"),
        ("x" * (MAX_ID_LENGTH + 1), "characters long"),
        ("", "is empty"),
    ],
)
def test_column_id_refuses(text, fragment):
    with pytest.raises(QrelsFormatError, match="unit id") as refused:
        column_id(text, "unit id", path="q", line=3, error=QrelsFormatError)
    assert refused.value.line == 3 and fragment in refused.value.reason

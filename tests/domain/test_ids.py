"""The one id rule (labeler.ids): each refused class of character, and what stays allowed."""

from __future__ import annotations

import pytest

from labeler.errors import QrelsFormatError
from labeler.ids import MAX_ID_LENGTH, InvalidIdError, check_id, id_problem, is_valid_id


@pytest.mark.parametrize(
    "text",
    [
        "d1",
        "msmarco_v2.1_doc_00_0#3_1234",  # '#' inside an id is data (MS MARCO v2.1 segments)
        "doc-1/para:2",
        "é中文",  # any script
        "x" * MAX_ID_LENGTH,  # exactly at the limit
        "👍",
    ],
)
def test_valid_ids(text):
    assert id_problem(text) is None
    assert check_id(text, "unit id") == text


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "is empty"),
        ("x" * (MAX_ID_LENGTH + 1), "characters long"),
        ("d1 3\n2 0 forged", "white space (U+0020) at character 3"),  # a forged qrels line
        (" d1", "white space (U+0020) at character 1"),
        ("d1\t", "white space (U+0009)"),
        ("d1\n", "white space (U+000A)"),
        ("d1\r", "white space (U+000D)"),
        ("a\x00b", "control character (U+0000)"),
        ("a\x1b[2Jb", "control character (U+001B)"),  # clears a terminal
        ("a\x7fb", "control character (U+007F)"),
        ("a\x9bb", "control character (U+009B)"),  # C1 CSI
        ("a\u00a0b", "white space (U+00A0)"),  # no-break space
        ("a\u3000b", "white space (U+3000)"),
        ("a\u2028b", "white space (U+2028)"),  # line separator
        ("a\u202eb", "invisible formatting character (U+202E)"),  # right-to-left override
        ("a\u200bb", "invisible formatting character (U+200B)"),  # zero-width space
        ("\ufeffa", "invisible formatting character (U+FEFF)"),
        ("a\ud800b", "lone surrogate (U+D800)"),
        ("a\ue000b", "private-use character (U+E000)"),
    ],
)
def test_refused_ids(text, fragment):
    assert fragment in id_problem(text)
    assert not is_valid_id(text)
    with pytest.raises(InvalidIdError, match="argument UNIT"):
        check_id(text, "argument UNIT")


def test_a_refused_id_names_its_file_and_line_and_is_shown_escaped():
    with pytest.raises(QrelsFormatError) as caught:
        check_id("a\x1b]2;x\x07", "document id", path="q.qrels", line=7, error=QrelsFormatError)
    message = caught.value.location_message()
    assert message.startswith("q.qrels:7: document id 'a\\x1b]2;x\\x07' contains a control character")
    assert "\x1b" not in message


@pytest.mark.parametrize("value", [3, None, True, ["d1"]])
def test_non_strings_are_refused(value):
    with pytest.raises(InvalidIdError, match="must be a string"):
        check_id(value, "topic id")

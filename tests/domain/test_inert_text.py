"""labeler.inert: control characters and escape sequences become visible text."""

from __future__ import annotations

import pytest

from labeler.inert import inert_json, visible, visible_line


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text", "plain text"),
        ("tab\tand\nnewline", "tab\tand\nnewline"),  # layout is kept
        ("\x1b]2;pwned\x07", "\\x1b]2;pwned\\x07"),  # OSC: retitles a terminal
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),  # CSI: clears the screen
        ("\x9b2J", "\\x9b2J"),  # the 8-bit CSI
        ("a\x00b\x7f", "a\\x00b\\x7f"),
        ("a\rb", "a\\x0db"),  # a bare CR would overwrite the line
        ("\u202eevil", "\\u202eevil"),  # bidi override
        ("[/b] [link=file:///etc/passwd]x", "[/b] [link=file:///etc/passwd]x"),  # markup is the front ends' job
    ],
)
def test_visible(text, shown):
    assert visible(text) == shown
    assert "\x1b" not in visible(text)


def test_visible_line_escapes_layout_too():
    assert visible_line("a\tb\nc\x1b") == "a\\tb\\nc\\x1b"


def test_inert_json_escapes_what_json_dumps_leaves_raw_and_parses_the_same():
    import json

    value = {"note": "a\x7fb\x9bc\u202ed\x1be", "plain": "é中👍"}
    text = inert_json(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value
    assert not any(char in text for char in "\x7f\x9b\u202e\x1b")
    assert "é中👍" in text  # other non-ASCII text stays as it is

"""User text made inert: control characters and escape sequences shown, never obeyed.

A document, a topic title, a note or a run name may hold ESC sequences
(`ESC ] 2 ; title BEL` retitles a terminal, `ESC [ 2 J` clears it) or other
control characters. Shown raw they act on the annotator's terminal. `visible`
turns each into a visible escape (`\\x1b`, `\\x07`, `\\u202e`), keeping tab and
newline, so text keeps its meaning and loses its power. Markup (`[b]`, `[/b]`,
`[link=...]`) is the front ends' concern: they hand the result to Rich or
Textual as plain text (`rich.text.Text`, `textual.content.Content`), never as
markup; see `labeler.cli.common.printing` and `labeler.tui.text`.
"""

from __future__ import annotations

import re

# C0 except tab and newline, DEL, C1 (U+0080-U+009F, which holds the 8-bit CSI and OSC), and the
# invisible bidi and formatting controls that make text read differently from what it is.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character (but tab and newline) as a visible escape."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_escape, text)


def visible_line(text: str) -> str:
    """`visible`, with tab and newline escaped too: for a table cell or a one-line message."""
    return visible(text).replace("\t", "\\t").replace("\n", "\\n")


def inert_json(text: str) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) with DEL, C1 and bidi controls as `\\uXXXX`.

    json.dumps escapes C0 controls itself but leaves these raw; escaped, the parsed value is
    the same and the text printed on a terminal (or a log `cat` to one) can no longer act on it.
    """
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)

"""Field rules shared by every JSONL and column reader, so ids mean the same everywhere.

Ids obey the one id rule of `labeler.ids` (non-empty, at most 512 characters,
no white space, control or invisible characters), checked here for every
importer; JSON values are named by their JSON type in messages.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

from labeler.errors import FormatError
from labeler.ids import MAX_ID_LENGTH, check_id


def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages users understand."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return "a number"
    names: dict[type, str] = {dict: "an object", list: "an array", str: "a string"}
    return names.get(type(value), type(value).__name__)


# SQLite's INTEGER range: a grade, rank or offset outside it cannot be stored.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# An integer as C's atol reads it (trec_eval): ASCII digits only. Python's int() also takes
# "1_000" and digits of other scripts ("٣" is 3), which trec_eval would read as 0.
ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")
# White space Python's str.split() separates fields at but C's isspace() (trec_eval) does not:
# U+00A0, U+2003, U+3000, U+001C..U+001F ... A line holding one would be read differently.
OTHER_SPACE = re.compile(r"[^\S \t\n\r\f\v]")

_FEW_OTHER_SPACES = "\x1c\x1d\x1e\x1f"  # the white space str.split() knows among ASCII characters
# where lines are not the plain "a b c ..." most files hold: separators other than one space
_NOT_PLAIN = ("  ", "\t", "\n ", " \n", "\x0b", "\x0c")


def plain_fields(lines: list[str], count: int, *, also_not_plain: tuple[str, ...] = ()) -> list[str] | None:
    """Every field of `lines` in order when each line is exactly `count` fields apart by white space; else None.

    The fast paths of the run and qrels readers: a few C calls over the block's text instead of a
    split per line, and None for anything the line-by-line path must look at (white space other
    than ASCII's, blank lines, a line with more or fewer fields, or a separator in `also_not_plain`).
    Lines of single spaces are proved by counting spaces; any other separator by counting each line's
    fields.
    """
    text = "\n".join(lines)
    if text.isascii():  # O(1) in CPython: the string knows its kind
        if any(space in text for space in _FEW_OTHER_SPACES):
            return None
    elif OTHER_SPACE.search(text):
        return None
    if text.startswith(" ") or text.endswith(" ") or any(part in text for part in _NOT_PLAIN + also_not_plain):
        if set(map(len, map(str.split, lines))) != {count}:
            return None
    elif set(map(str.count, lines, itertools.repeat(" "))) != {count - 1}:  # single spaces: count - 1 of them
        return None
    return text.split()


# A \uD800-\uDFFF escape: JSON can encode half a surrogate pair, which is not text.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def decode_json(text: str, *, path: str | Path, line: int, error: type[FormatError]) -> Any:
    """Decode JSON text starting at `line`; every way it can fail is `error`, never a traceback.

    Besides syntax errors this refuses integers longer than Python converts,
    nesting too deep to decode, and lone surrogate escapes ("\\ud800"),
    which decode to a string that cannot be stored as UTF-8.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"invalid JSON: {exc.msg} at column {exc.colno}", path=path, line=line + exc.lineno - 1) from None
    except ValueError:  # an integer longer than Python converts (4300 digits by default)
        raise error("invalid JSON: a number with too many digits", path=path, line=line) from None
    except RecursionError:
        raise error("invalid JSON: nested too deeply", path=path, line=line) from None
    if SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise error(
                "invalid JSON: a \\u escape is half of a surrogate pair, not text", path=path, line=line
            ) from None
    return value


def split_fields(text: str, *, path: str | Path, line: int, error: type[FormatError]) -> list[str]:
    """The white-space-separated fields of a line, as trec_eval reads them."""
    check_separators(text, path=path, line=line, error=error)
    return text.split()


def check_separators(text: str, *, path: str | Path, line: int, error: type[FormatError]) -> None:
    """Refuse white space that Python would split at and trec_eval would keep inside a field."""
    found = OTHER_SPACE.search(text)
    if found:
        raise error(
            f"contains the white space U+{ord(found.group()):04X}: fields are separated by spaces or tabs, "
            "and ids may not contain white space",
            path=path,
            line=line,
        )


def integer_field(text: str, what: str, *, path: str | Path, line: int, error: type[FormatError]) -> int:
    """A field holding an integer in ASCII digits that fits SQLite's INTEGER."""
    shown = repr(text) if len(text) <= 40 else f"{text[:40]!r}..."
    if not ASCII_INTEGER.fullmatch(text):
        raise error(f"{what} {shown} is not an integer", path=path, line=line)
    try:
        value = int(text)
    except ValueError:  # more digits than Python converts
        value = None
    if value is None or not INT64_MIN <= value <= INT64_MAX:
        raise error(f"{what} {shown} is out of range (a 64-bit integer)", path=path, line=line)
    return value


def json_object(text: str, *, path: str | Path, line: int, error: type[FormatError]) -> dict[str, Any]:
    """Decode one JSONL line that must hold an object."""
    value = decode_json(text, path=path, line=line, error=error)
    if not isinstance(value, dict):
        raise error(f"expected a JSON object, found {json_type(value)}", path=path, line=line)
    return value


def clean_id(value: Any, what: str, *, path: str | Path, line: int, error: type[FormatError]) -> str:
    """An id obeying the id rule (`labeler.ids`), around which white space is dropped; a JSON integer is its digits."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise error(f"{what} must be a string or an integer, found {json_type(value)}", path=path, line=line)
    return check_id(str(value).strip(), what, path=path, line=line, error=error)


def column_id(text: str, what: str, *, path: str | Path, line: int, error: type[FormatError]) -> str:
    """An id read from a white-space-separated column: it holds no white space, the rest of the rule is checked.

    The fast path is inlined (two C calls per field), since runs and qrels run to millions of lines; an id
    that is not ASCII goes through `check_id`, which returns it in NFC.
    """
    if text and len(text) <= MAX_ID_LENGTH and text.isascii() and text.isprintable():
        return text
    return check_id(text, what, path=path, line=line, error=error)

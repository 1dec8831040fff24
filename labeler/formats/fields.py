"""Field rules shared by every JSONL and column reader, so ids mean the same everywhere.

An id must survive a whitespace-separated TREC file, so it may not be empty
or contain white space; JSON values are named by their JSON type in messages.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from labeler.errors import FormatError


def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages users understand."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return "a number"
    names = {dict: "an object", list: "an array", str: "a string"}
    return names.get(type(value), type(value).__name__)


def json_object(
    text: str, *, path: str | Path, line: int, error: type[FormatError]
) -> dict[str, Any]:
    """Decode one JSONL line that must hold an object."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"invalid JSON: {exc.msg} at column {exc.colno}", path=path, line=line) from None
    if not isinstance(value, dict):
        raise error(f"expected a JSON object, found {json_type(value)}", path=path, line=line)
    return value


def clean_id(
    value: Any, what: str, *, path: str | Path, line: int, error: type[FormatError]
) -> str:
    """An id as a stripped string; refuse what a whitespace-separated run could not carry."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise error(f"{what} must be a string or an integer, found {json_type(value)}", path=path, line=line)
    text = str(value).strip()
    if not text:
        raise error(f"{what} is empty", path=path, line=line)
    if any(char.isspace() for char in text):
        raise error(f"{what} {text!r} contains whitespace", path=path, line=line)
    return text

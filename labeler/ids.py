"""The one id rule: what a topic, unit, run, assessor, chunking or snapshot name may be.

Ids travel through whitespace-separated TREC files (qrels, runs), terminals and
HTML, so an id that holds white space, a line break or a control character
could forge a qrels line, a run entry or an escape sequence on an annotator's
screen. Every entry point (importers, `judgments add`, `adjudicate`, `merge`,
the TUI and `serve`) checks ids here, so the rule is one rule.

The rule: non-empty; at most `MAX_ID_LENGTH` characters; no white space of any
kind (Unicode category Z*, and the C0 separators Python splits at); no control
characters (Cc: C0, DEL, C1, so no NUL and no ESC); no invisible format
characters (Cf: bidi overrides, zero-width spaces, the BOM), which would make
two different ids look the same; no lone surrogates (Cs), which are not text;
no private-use or unassigned code points (Co, Cn). In short: every character
printable (Python's `str.isprintable`) and none a space. Anything else is
allowed, `#` included (MS MARCO v2.1 segment ids hold one).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

from labeler.errors import BadArgumentError, LabelerError

MAX_ID_LENGTH = 512

_REFUSED_CATEGORIES = {
    "Zs": "white space",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
}


class InvalidIdError(LabelerError):
    """An id that breaks the id rule (see `labeler.ids`)."""


def id_problem(text: str) -> str | None:
    """Why `text` is not a valid id, or None when it is one."""
    if not text:
        return "is empty"
    if len(text) > MAX_ID_LENGTH:
        return f"is {len(text)} characters long (at most {MAX_ID_LENGTH})"
    if text.isprintable() and " " not in text:  # the fast path, at C speed: imports check millions of ids
        return None
    for position, char in enumerate(text, 1):
        category: str | None
        if char.isspace():
            category = "white space"
        else:
            category = _REFUSED_CATEGORIES.get(unicodedata.category(char))
            if category is None:
                continue
        return f"contains {category} (U+{ord(char):04X}) at character {position}, which an id may not hold"
    return None  # pragma: no cover - isprintable() is False only for the categories above


def shown_id(text: str, limit: int = 60) -> str:
    """An id quoted for a message: Python's repr escapes every control and invisible character."""
    shown = repr(text[:limit])
    return shown if len(text) <= limit else shown + "..."


def check_id(
    value: object,
    what: str,
    *,
    path: str | Path | None = None,
    line: int | None = None,
    error: type[LabelerError] = InvalidIdError,
) -> str:
    """`value` when it is a valid id; else `error` naming `what`, and where it came from.

    `what` says which id and from where when there is no file, e.g. "topic id"
    or "argument TOPIC"; `path` and `line` locate it in a file.
    """
    if not isinstance(value, str):
        raise error(f"{what} must be a string, found {type(value).__name__}", path=path, line=line)
    problem = id_problem(value)
    if problem is not None:
        raise error(f"{what} {shown_id(value)} {problem}", path=path, line=line)
    return value


def is_valid_id(value: object) -> bool:
    return isinstance(value, str) and id_problem(value) is None


# A comma-separated list of names typed as an argument (`--runs a,b`, `--topics 1,2`) has one reading:
# every name obeys the id rule (so `a,,b` is refused for its empty name) and no name comes twice. A
# list names a set; a repeat is a typo that would count twice (a pool over the same run twice) or be
# dropped without a word. Either refusal is a bad argument (exit 2 in the CLI), named by the parameter.


def parse_names(text: str, what: str, argument: str) -> list[str]:
    """`"a, b,c"` as `["a", "b", "c"]`: each name checked by the id rule, a repeated name refused."""
    names = [part.strip() for part in text.split(",")]
    for name in names:
        check_name(name, what, argument)
    refuse_repeats(names, what, argument)
    return names


def refuse_repeats(names: list[str], what: str, argument: str) -> None:
    """A `BadArgumentError` naming the first name given more than once, if any is."""
    counts = Counter(names)
    repeated = next((name for name in names if counts[name] > 1), None)
    if repeated is not None:
        raise BadArgumentError(f"{what} {repeated!r} is given twice", argument=argument)


def check_name(name: str, what: str, argument: str) -> None:
    """The id rule, its refusal said as a bad `argument` (exit 2 in the CLI) rather than a bad file."""
    try:
        check_id(name, what)
    except LabelerError as error:
        raise BadArgumentError(error.reason, argument=argument) from None

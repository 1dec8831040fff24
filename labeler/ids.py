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

One Unicode form: an id is compared, stored and shown in Unicode normal form NFC
(`normal_id`). `café` typed as `e` + combining acute (NFD, as some file systems and
keyboards give it) and as the one character `é` (NFC) look the same and are the
same id: `check_id` returns the NFC form, and every entry point keeps what it
returns (files, arguments, the TUI). A merged event is the exception: its fields are
content another workbench recorded, so it is never rewritten; `check_id(exact=True)`
refuses an id that is not NFC instead (see `labeler.formats.judgment_log`).

Look-alike assessor names: NFC does not make Cyrillic `аnn` Latin `ann`. An assessor
name may not mix letters of two alphabets that share look-alike letters (Latin,
Greek, Cyrillic, Armenian, Cherokee, Coptic: `script_problem`), and `skeleton` folds
a name as a reader sees it (compatibility forms, case, the usual Greek and Cyrillic
look-alikes of Latin letters, 0 and 1), so a new name whose skeleton is an existing
assessor's can be refused (`labeler.workbench.record_judgments`). A small table of the common
look-alikes, not Unicode's whole confusables list: the aim is the honest typo and the
easy impersonation, not every homoglyph.
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


def normal_id(text: str) -> str:
    """`text` in Unicode normal form NFC; an ASCII id (nearly all of them) is returned as it is, at C speed."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def all_normal(ids: list[str], joined: str) -> bool:
    """Whether every id of a column is NFC already; `joined` is the column's text (ASCII: no call per id)."""
    return joined.isascii() or all(map(_is_nfc, ids))


def _is_nfc(text: str) -> bool:
    return unicodedata.is_normalized("NFC", text)


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
    exact: bool = False,
) -> str:
    """`value` in NFC when it is a valid id; else `error` naming `what`, and where it came from.

    `what` says which id and from where when there is no file, e.g. "topic id"
    or "argument TOPIC"; `path` and `line` locate it in a file. The caller keeps the
    returned id, not `value`: they differ when `value` is not NFC. With `exact`, such
    a value is refused instead (content that may not be rewritten: a merged event).
    """
    if not isinstance(value, str):
        raise error(f"{what} must be a string, found {type(value).__name__}", path=path, line=line)
    normal = normal_id(value)
    problem = id_problem(normal)
    if problem is not None:
        raise error(f"{what} {shown_id(value)} {problem}", path=path, line=line)
    if exact and normal != value:
        raise error(
            f"{what} {ascii(value[:60])} is not in Unicode normal form NFC ({ascii(normal[:60])} is)",
            path=path,
            line=line,
        )
    return normal


def is_valid_id(value: object) -> bool:
    return isinstance(value, str) and id_problem(value) is None


# A comma-separated list of names typed as an argument (`--runs a,b`, `--topics 1,2`) has one reading:
# every name obeys the id rule (so `a,,b` is refused for its empty name) and no name comes twice. A
# list names a set; a repeat is a typo that would count twice (a pool over the same run twice) or be
# dropped without a word. Either refusal is a bad argument (exit 2 in the CLI), named by the parameter.


def parse_names(text: str, what: str, argument: str) -> list[str]:
    """`"a, b,c"` as `["a", "b", "c"]`: each name checked by the id rule, a repeated name refused."""
    names = [check_name(part.strip(), what, argument) for part in text.split(",")]
    refuse_repeats(names, what, argument)
    return names


def refuse_repeats(names: list[str], what: str, argument: str) -> None:
    """A `BadArgumentError` naming the first name given more than once, if any is."""
    counts = Counter(names)
    repeated = next((name for name in names if counts[name] > 1), None)
    if repeated is not None:
        raise BadArgumentError(f"{what} {repeated!r} is given twice", argument=argument)


def check_name(name: str, what: str, argument: str) -> str:
    """The id rule (the name returned in NFC), its refusal said as a bad `argument` (exit 2 in the CLI)."""
    try:
        return check_id(name, what)
    except LabelerError as error:
        raise BadArgumentError(error.reason, argument=argument) from None


LOOKALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "CHEROKEE", "COPTIC")
"""Alphabets whose letters pass for each other's: a name may use letters of one of them only."""

# Greek and Cyrillic letters (lower case: the skeleton casefolds first) that look like a Latin letter, and 0, 1.
_LOOKALIKES = str.maketrans(
    {
        **dict(zip("аеорсухіјѕһԁԛԝүӏвкмнтьпг", "aeopcyxijshdqwylbkmhtbnr", strict=True)),
        **dict(zip("οαβνικτρυχεηζμ", "oabviktpuxenzu", strict=True)),
        "0": "o",
        "1": "l",
        "ı": "i",
    }
)


def script_problem(name: str) -> str | None:
    """Why a name mixes alphabets with look-alike letters (Cyrillic `а` among Latin letters), or None."""
    scripts = {_script(char) for char in name if char.isalpha()}
    mixed = sorted(scripts & set(LOOKALIKE_SCRIPTS))
    if len(mixed) < 2:
        return None
    return f"mixes {' and '.join(s.title() for s in mixed)} letters, which look alike"


def _script(char: str) -> str:
    """The script a letter's Unicode name starts with (`CYRILLIC SMALL LETTER A`: CYRILLIC)."""
    return unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]


def skeleton(name: str) -> str:
    """`name` as a reader sees it: NFKC, case-folded, common Greek and Cyrillic look-alikes (and 0, 1) as Latin."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKES)

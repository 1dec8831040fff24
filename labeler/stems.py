"""Query terms found in a text by their Snowball stem, exact words marked apart.

An assessor skims for the query's words; `pump` should catch `pumps` and `pumping`, and
`anthropology` should catch `Anthropology's`. `find_terms` finds each term twice over:

- **exact**: the term as a whole word, in any case (`Pump`, `PUMP`); a term that is not one
  word (`heat-pump`, `c++`) is found this way only;
- **stem**: a word whose Snowball stem (PyStemmer) is the term's (`pumps`, `pumping`), in the
  topic's language. Words are letters and digits, with an apostrophe inside (`women's`, or the
  typographic `women’s`); a word that holds an exact match is not a stem match too.

The language is the topic's `language` (or `lang`) field, a Snowball language name (`german`)
or its two-letter ISO 639-1 code (`de`); English when the topic has none. A topic imported
with a language no stemmer covers (files imported before the field was checked) is matched
exactly only.

PyStemmer is a dependency of labeler, not an option: highlighting by stem is part of reading
every unit, PyStemmer has no dependencies of its own and ships compiled wheels for the
platforms and Python versions labeler supports (the bm25s retriever stems with it too), and a
fallback would make two highlighting rules to document, test and explain to assessors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

DEFAULT_LANGUAGE = "english"
LANGUAGE_KEYS = ("language", "lang")  # a topic's field naming its language, the first found wins
# Snowball algorithms that are variants, not languages
NOT_LANGUAGES = frozenset({"porter", "dutch_porter"})
# ISO 639-1 codes of the languages Snowball stems (those the installed PyStemmer lacks are left out)
ISO_639_1 = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "cs": "czech", "da": "danish",
    "nl": "dutch", "en": "english", "eo": "esperanto", "et": "estonian", "fi": "finnish", "fr": "french",
    "de": "german", "el": "greek", "hi": "hindi", "hu": "hungarian", "id": "indonesian", "ga": "irish",
    "it": "italian", "lt": "lithuanian", "ne": "nepali", "no": "norwegian", "nb": "norwegian",
    "fa": "persian", "pl": "polish", "pt": "portuguese", "ro": "romanian", "ru": "russian",
    "sr": "serbian", "st": "sesotho", "es": "spanish", "sv": "swedish", "ta": "tamil", "tr": "turkish",
    "yi": "yiddish",
}  # fmt: skip
WORD = re.compile(r"\w+(?:['’]\w+)*")


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The languages a topic may name: the installed PyStemmer's Snowball languages, sorted."""
    import Stemmer

    return tuple(sorted(set(Stemmer.algorithms()) - NOT_LANGUAGES))


def language_name(value: str) -> str | None:
    """The Snowball language `value` names (`German`, `de`), or None when no stemmer covers it."""
    key = value.strip().lower()
    name = ISO_639_1.get(key, key)
    return name if name in languages() else None


def topic_language(extra: Mapping[str, Any]) -> str | None:
    """The stemming language of a topic, from its extra fields: English when it names none, None when unknown."""
    for key in LANGUAGE_KEYS:
        if key in extra:
            value = extra[key]
            return language_name(value) if isinstance(value, str) else None
    return DEFAULT_LANGUAGE


@dataclass(frozen=True)
class TermMatch:
    start: int
    end: int
    term: str  # the term as given, whichever word form matched it
    exact: bool  # the term itself (any case); False: another word with its stem


@lru_cache(maxsize=8)
def _stemmer(language: str) -> Any:
    import Stemmer

    return Stemmer.Stemmer(language)


def _stem_key(word: str) -> str:
    return word.lower().replace("’", "'")


@lru_cache(maxsize=64)
def _exact_pattern(terms: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(term) for term in sorted(terms, key=len, reverse=True))
    return re.compile(r"\b(" + alternatives + r")\b", re.IGNORECASE)


@lru_cache(maxsize=64)
def _stems(terms: tuple[str, ...], language: str) -> dict[str, str]:
    """{stem: term} for the terms that are one word; the first term of a stem wins."""
    words = [term for term in terms if WORD.fullmatch(term)]
    stems = _stemmer(language).stemWords([_stem_key(word) for word in words])
    found: dict[str, str] = {}
    for stem, term in zip(stems, words, strict=True):
        found.setdefault(stem, term)
    return found


def find_terms(text: str, terms: Sequence[str], language: str | None = DEFAULT_LANGUAGE) -> list[TermMatch]:
    """Every exact and stem match of the terms in `text`, in reading order (no language: exact only)."""
    unique = tuple(dict.fromkeys(term for term in terms if term))
    if not unique:
        return []
    exact = _exact_matches(text, unique)
    if language is None:
        return exact
    return sorted(exact + _stem_matches(text, unique, language, exact), key=lambda match: match.start)


def _exact_matches(text: str, terms: tuple[str, ...]) -> list[TermMatch]:
    named = {term.lower(): term for term in reversed(terms)}
    return [
        TermMatch(m.start(), m.end(), named.get(m.group(0).lower(), m.group(0).lower()), True)
        for m in _exact_pattern(terms).finditer(text)
    ]


def _stem_matches(text: str, terms: tuple[str, ...], language: str, exact: list[TermMatch]) -> list[TermMatch]:
    """The words of `text` outside the exact matches whose stem is a term's."""
    stems = _stems(terms, language)
    words = _outside(WORD.finditer(text), exact) if stems else []
    keys = _stemmer(language).stemWords([_stem_key(m.group(0)) for m in words]) if words else []
    pairs = zip(words, keys, strict=True)
    return [TermMatch(m.start(), m.end(), stems[key], False) for m, key in pairs if key in stems]


def _outside(words: Iterable[re.Match[str]], matches: list[TermMatch]) -> list[re.Match[str]]:
    """The words (in order) that meet none of the matches (in order, not overlapping): one pass over both."""
    kept = []
    index = 0
    for word in words:
        while index < len(matches) and matches[index].end <= word.start():
            index += 1
        if index < len(matches) and matches[index].start < word.end():
            continue
        kept.append(word)
    return kept

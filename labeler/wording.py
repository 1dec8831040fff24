"""Counts in messages: "1 judgment", "2 judgments", never "1 judgment(s)".

A base module (no labeler imports), so the CLI, the TUI and the services word counts alike.
"""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and the noun that agrees with it: `plural(1, "topic")` is "1 topic", `plural(0, "topic")` "0 topics".

    `many` is the plural when adding "s" is wrong (`plural(n, "entry", "entries")`).
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"


def agrees(count: int, one: str, many: str) -> str:
    """The verb that agrees with `count`: `agrees(1, "has", "have")` is "has"."""
    return one if count == 1 else many


def alternatives(words: list[str]) -> str:
    """Choices as a phrase: `alternatives(["a", "b", "c"])` is "a, b, or c" (one word alone, as is)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])}, or {words[-1]}"

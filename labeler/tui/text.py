"""Turning a unit's text into highlighted paragraphs: query terms, the annotator's terms, the chunk.

Pure functions over strings, so highlighting is tested without a terminal.

User data (ids, titles, names, notes, messages, document text) is inert on screen:
- never handed to a widget as a markup `str`: Textual and Rich parse a `str` as markup,
  which drops `[x]`, turns `[@click=...]` into an action, and raises on `[/b]`. It goes as
  `plain(text)` (a Content, for Static and Label), `cell(text)` (DataTable), `Text(shown(text))`
  (Rich Table), or `notify(..., markup=False)`;
- its control characters are shown as visible escapes (`shown`, `shown_lines`, from
  `labeler.inert`): a document holding `ESC ] 2 ; title BEL` or `ESC [ 2 J` drew those bytes
  to the terminal, which retitled it or cleared it. The unit text is escaped per paragraph,
  with its highlight offsets mapped (`Paragraph.shown_offset`); the app's `notify` escapes too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import accumulate

from rich.text import Text
from textual.content import Content

from labeler.errors import LabelerError
from labeler.inert import visible, visible_line
from labeler.models import Topic
from labeler.mojibake import repaired, repaired_with_cuts
from labeler.stems import DEFAULT_LANGUAGE, find_terms, topic_language
from labeler.tui.hints import tui_message
from labeler.workbench.reading import UnitText

STOPWORDS = frozenset(
    "a an and are as at be by for from how in is it of on or that the this to was what when where which who why "
    "with does do did can about into than then there their them they its not no yes vs versus".split()
)
# Exact matches of a term are solid blocks; words that only share the term's stem are the same colour
# as text, underlined (so they tell apart on a monochrome terminal too) and never bold.
QUERY_STYLE = "bold black on yellow"
EXTRA_STYLE = "bold black on magenta"
QUERY_STEM_STYLE = "underline yellow"
EXTRA_STEM_STYLE = "underline magenta"
# underlined as well: on 256-colour terminals (tmux, ssh) red and magenta come out close, the underline never does
CURRENT_HIT_STYLE = "bold underline white on red"
CHUNK_STYLE = "on #1f3a5f"

CONTEXT_LEVELS = ("chunk", "±1 chunk", "±3 chunks", "document")


def shown(text: str) -> str:
    """One line of user text as it is drawn: every control character (tab, newline too) a visible escape."""
    return visible_line(text)


def shown_lines(text: str) -> str:
    """User text of several lines as it is drawn: newlines and tabs kept, other controls visible escapes."""
    return visible(text)


def plain(text: str) -> Content:
    """User text for a Static or a Label: no markup read, control characters shown."""
    return Content(visible(text))


def cell(text: str, *, wrap: bool = False) -> Text:
    """A DataTable cell that shows `text` as it is.

    DataTable reads a `str` cell as Rich markup, with emoji codes (`:cat:`) replaced;
    this is the Text it makes of a markup-free `str` in a one-line row, control characters shown.
    `wrap`: the text wraps between words in a row of auto height (`add_row(..., height=None)`)
    instead of being cropped at the column's width.
    """
    return Text(visible_line(text), no_wrap=not wrap, end="")


def error_message(error: BaseException) -> str:
    """What a failed worker tells the annotator: a LabelerError's `file:line: reason`, else the exception."""
    return tui_message(error) if isinstance(error, LabelerError) else f"{type(error).__name__}: {error}"


def query_terms(*texts: str) -> list[str]:
    """Content words of a topic's title (and what else is given), lower-cased, in order, no repeats."""
    seen: dict[str, None] = {}
    for text in texts:
        for word in re.findall(r"[\w'-]+", text.lower()):
            word = word.strip("'-")
            if len(word) >= 3 and word not in STOPWORDS:
                seen.setdefault(word, None)
    return list(seen)


def topic_terms(topic: Topic | None) -> tuple[list[str], str | None]:
    """What the text is searched for: the topic title's content words, and the topic's stemming language."""
    if topic is None:
        return [], DEFAULT_LANGUAGE
    return query_terms(topic.title), topic_language(topic.extra)


@dataclass(frozen=True)
class Paragraph:
    start: int  # offset of the paragraph in the document text
    text: str

    @property
    def shown(self) -> str:
        """The text as it is drawn: control characters as visible escapes (longer than the text)."""
        return self._escaped[0]

    def shown_offset(self, offset: int) -> int:
        """Where character `offset` of `text` lands in `shown` (hits and spans are found in `text`)."""
        offsets = self._escaped[1]
        return offset if offsets is None else offsets[max(0, min(offset, len(self.text)))]

    @cached_property
    def _escaped(self) -> tuple[str, tuple[int, ...] | None]:
        shown = visible(self.text)
        if shown == self.text:
            return shown, None
        # a CR ending a line (a CRLF document) is dropped, not spelled out: it cannot move the cursor there
        text = self.text
        pieces = ["" if char == "\r" and text[i + 1 : i + 2] == "\n" else visible(char) for i, char in enumerate(text)]
        return "".join(pieces), tuple(accumulate((len(piece) for piece in pieces), initial=0))


@dataclass(frozen=True)
class Hit:
    paragraph: int
    start: int  # offsets inside the paragraph
    end: int
    term: str  # the term it matches (for a stem match, not the word in the text)
    exact: bool = True  # the term itself; False: a word with the term's stem


def readable_view(view: UnitText) -> UnitText:
    """The unit as it is read: mojibake in its title and text repaired (`labeler.mojibake`), offsets moved along.

    A chunk's span and its neighbours' are offsets into the document text; the text is repaired
    between them, so they still mark the same words. The stored text is not changed.
    """
    if not view.known:
        return view
    size = len(view.text)
    spans = [span for span in (view.span, *view.neighbours) if span is not None]
    text, moved = repaired_with_cuts(view.text, [offset for span in spans for offset in span])
    title = repaired(view.title)
    if text == view.text and title == view.title:
        return view

    def at(span: tuple[int, int]) -> tuple[int, int]:
        return moved[min(max(span[0], 0), size)], moved[min(max(span[1], 0), size)]

    return replace(
        view,
        title=title,
        text=text,
        span=None if view.span is None else at(view.span),
        neighbours=tuple(at(span) for span in view.neighbours),
    )


def visible_range(view: UnitText, level: int) -> tuple[int, int]:
    """The character range shown for a chunk at a context level (the whole text for documents)."""
    if not view.is_chunk or view.span is None or level >= len(CONTEXT_LEVELS) - 1:
        return 0, len(view.text)
    if level <= 0:
        return view.span
    reach = 1 if level == 1 else 3
    spans = list(view.neighbours)
    index = spans.index(view.span) if view.span in spans else None
    if index is None:
        return view.span
    first = spans[max(0, index - reach)]
    last = spans[min(len(spans) - 1, index + reach)]
    return min(first[0], view.span[0]), max(last[1], view.span[1])


def paragraphs(text: str, start: int, end: int) -> list[Paragraph]:
    """Split text[start:end] at blank lines, keeping each paragraph's offset."""
    result = []
    position = start
    for match in re.finditer(r"\n\s*\n", text[start:end] + "\n\n"):
        piece_end = start + match.start()
        piece = text[position : min(piece_end, end)]
        if piece.strip():
            result.append(Paragraph(position, piece))
        position = start + match.end()
    return result or [Paragraph(start, text[start:end])]


def find_hits(parts: list[Paragraph], terms: list[str], language: str | None = DEFAULT_LANGUAGE) -> list[Hit]:
    """Every match of the terms, in reading order: whole words in any case, and words of the same stem.

    The rules are `labeler.stems.find_terms`'s; `language` is the topic's (None: exact words only).
    """
    return [
        Hit(i, match.start, match.end, match.term, match.exact)
        for i, part in enumerate(parts)
        for match in find_terms(part.text, terms, language)
    ]


def render(
    part: Paragraph,
    index: int,
    hits: list[Hit],
    extra_terms: set[str],
    span: tuple[int, int] | None,
    current: Hit | None,
) -> Text:
    """One paragraph as rich Text: the chunk's background, then term highlights, the current hit last.

    The text drawn is `part.shown` (control characters escaped); offsets are mapped to it.
    """
    text = Text(part.shown)
    at = part.shown_offset
    if span is not None:
        start, end = max(span[0] - part.start, 0), min(span[1] - part.start, len(part.text))
        if start < end:
            text.stylize(CHUNK_STYLE, at(start), at(end))
    for hit in hits:
        if hit.paragraph == index:
            text.stylize(hit_style(hit, extra_terms), at(hit.start), at(hit.end))
    if current is not None and current.paragraph == index:
        text.stylize(CURRENT_HIT_STYLE, at(current.start), at(current.end))
    return text


def hit_style(hit: Hit, extra_terms: set[str]) -> str:
    """A hit's highlight: the annotator's terms apart from the topic's, exact words apart from stem matches."""
    if hit.term in extra_terms:
        return EXTRA_STYLE if hit.exact else EXTRA_STEM_STYLE
    return QUERY_STYLE if hit.exact else QUERY_STEM_STYLE


def term_counts(hits: list[Hit], terms: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(terms, 0)
    for hit in hits:
        for term in terms:
            if hit.term == term.lower():
                counts[term] += 1
    return counts


SPARK = "▁▂▃▄▅▆▇█"


def spark(values: list[float | None]) -> str:
    """A sparkline on an absolute 0..1 scale (so two runs' curves can be compared by eye); · for undefined."""
    out = []
    for value in values:
        if value is None:
            out.append("·")
        else:
            out.append(SPARK[min(len(SPARK) - 1, max(0, round(value * (len(SPARK) - 1))))])
    return "".join(out)

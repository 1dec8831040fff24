"""The text under judgment, with highlights, chunk-in-parent context and hit navigation.

The whole unit (title, context notes, paragraphs) is one `Static` whose content is
replaced for every unit, so judging a thousand units mounts no widget at all: a widget
per paragraph made every key mount and remove dozens of widgets, which Textual keeps
alive for a while (see labeler/tui/gc_policy.py) and the garbage collector then walks.
Paragraphs are separated by a blank line, as the per-paragraph widgets' margins did.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from labeler.mojibake import prepare
from labeler.stems import DEFAULT_LANGUAGE
from labeler.tui.text import (
    CONTEXT_LEVELS,
    Hit,
    Paragraph,
    find_hits,
    paragraphs,
    plain,
    readable_view,
    render,
    shown,
    term_counts,
    visible_range,
)
from labeler.wording import plural
from labeler.workbench.reading import UnitText

TITLE = ".unit-view--title"  # component classes, styled in UnitView's CSS
NOTE = ".unit-view--note"
# under the title when the unit's text needed a repair (labeler.mojibake), in each form
REPAIRED_NOTE = "Encoding errors repaired (o: text as stored)"
STORED_NOTE = "Text as stored (o: encoding errors repaired)"


class UnitView(VerticalScroll):
    """Shows one unit: a document, or a chunk highlighted inside its parent document."""

    COMPONENT_CLASSES = {"unit-view--title", "unit-view--note"}
    DEFAULT_CSS = """
    UnitView { padding: 0 1; }
    UnitView > .unit-view--title { text-style: bold; }
    UnitView > .unit-view--note { color: $text-muted; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: UnitText | None = None  # as stored
        self.readable: UnitText | None = None  # mojibake repaired: what is shown unless `raw`
        self.raw = False  # show the text as stored (kept from unit to unit until turned off)
        self.language: str | None = DEFAULT_LANGUAGE  # the topic's, for matching terms by stem
        self.terms: list[str] = []
        self.extra_terms: list[str] = []
        self.level = len(CONTEXT_LEVELS) - 1
        self.parts: list[Paragraph] = []
        self.hits: list[Hit] = []
        self.hit_index: int | None = None
        self.body = Static(id="unit-body")
        # where the text starts in the body: the title and the note above the first paragraph
        self._head: list[str] = []
        # the paragraph and the offset in it to bring into view once the body is laid out
        self._target: tuple[int, int] | None = None

    def compose(self):
        yield self.body

    def on_mount(self) -> None:
        # after the first paint, before the judging screen settles the garbage collector (gc_policy)
        self.call_after_refresh(prepare)

    def show(
        self, view: UnitText | None, terms: list[str], *, message: str = "", language: str | None = DEFAULT_LANGUAGE
    ) -> None:
        """Show a new unit (or a message when there is none), scrolled to the chunk.

        The text is repaired here, once per unit shown (`readable_view`, which also caches the
        last texts); the keys that redraw it (hits, context, terms, raw) reuse it.
        `language`: the topic's stemming language (None: terms are matched as exact words only).
        """
        self.view = view
        self.readable = readable_view(view) if view is not None else None
        self.language = language
        self.terms = terms
        self.level = len(CONTEXT_LEVELS) - 1
        self.hit_index = None
        self._rebuild(message)

    def add_terms(self, terms: list[str]) -> None:
        for term in terms:
            if term and term.lower() not in (t.lower() for t in self.extra_terms):
                self.extra_terms.append(term.lower())
        self.hit_index = None
        self._rebuild()

    def widen(self, step: int) -> str:
        """Change the context shown around a chunk; returns the new level's name."""
        if self.view is None or not self.view.is_chunk:
            return CONTEXT_LEVELS[-1]
        self.level = max(0, min(len(CONTEXT_LEVELS) - 1, self.level + step))
        self._rebuild()
        return CONTEXT_LEVELS[self.level]

    def next_hit(self, step: int) -> Hit | None:
        """Jump to the next (or previous) highlighted term; wraps around."""
        if not self.hits:
            return None
        if self.hit_index is None:
            self.hit_index = 0 if step > 0 else len(self.hits) - 1
        else:
            self.hit_index = (self.hit_index + step) % len(self.hits)
        self._rebuild()
        return self.hits[self.hit_index]

    def toggle_raw(self) -> str:
        """Show the text as stored instead of repaired, or back (for this unit and the next); says which, in words."""
        self.raw = not self.raw
        self.hit_index = None
        self._rebuild()
        shown = "Text as stored" if self.raw else "Text repaired for reading"
        return shown if self.repaired or self.view is None else f"{shown} (this one has nothing to repair)"

    @property
    def displayed(self) -> UnitText | None:
        """The unit in the form it is shown: repaired, or as stored (`raw`)."""
        return self.view if self.raw else self.readable

    @property
    def repaired(self) -> bool:
        """Whether the unit's repaired text differs from its stored text."""
        return self.readable is not None and self.readable is not self.view

    def counts(self) -> dict[str, int]:
        return term_counts(self.hits, self.terms + self.extra_terms)

    def _rebuild(self, message: str = "") -> None:
        view = self.displayed
        self._head, self._target = [], None
        if view is None:
            self.parts, self.hits = [], []
            self._set(plain(message or "Nothing to show."), "\n")  # plain: it names the topic
            return
        if not view.known:
            self.parts, self.hits = [], []
            self._set(
                Content.assemble(
                    (shown(view.unit_id), "bold"),
                    "\n\nThe workbench has no text for this unit "
                    "(evaluation-only use: import the corpus to read it).\n",
                )
            )
            return
        start, end = visible_range(view, self.level)
        self.parts = paragraphs(view.text, start, end)
        self.hits = find_hits(self.parts, self.terms + self.extra_terms, self.language)
        current = self.hits[self.hit_index] if self.hit_index is not None and self.hits else None
        title = shown(view.title or view.doc_id or "")
        head: list[str | Content | tuple[str, str]] = [(title, TITLE), "\n\n"]
        self._head = [title, ""]
        for note in self._notes(view, start):
            head += [(note, NOTE), "\n"]
            self._head.append(note)
        extra = set(self.extra_terms)
        text = Text("\n\n").join(
            render(part, index, self.hits, extra, view.span, current) for index, part in enumerate(self.parts)
        )
        tail: list[str | tuple[str, str]] = ["\n"]  # a blank line closes the text, as a paragraph's margin did
        if view.is_chunk and end < len(view.text):
            tail = ["\n\n", (f"… {plural(len(view.text) - end, 'character')} after (+ to widen)", NOTE)]
        if current is not None:
            self._target = (current.paragraph, current.start)
        elif view.span is not None:
            for index, part in enumerate(self.parts):
                if part.start <= view.span[0] < part.start + len(part.text) + 2:
                    self._target = (index, min(max(view.span[0] - part.start, 0), len(part.text)))
                    break
        self._set(Content.assemble(*head, Content.from_rich_text(text, self.app.console), *tail))

    def _notes(self, view: UnitText, start: int) -> list[str]:
        """The lines between the title and the text: which form of the text is shown, what is above the chunk."""
        notes = []
        if self.repaired:
            notes.append(STORED_NOTE if self.raw else REPAIRED_NOTE)
        if view.is_chunk and start > 0:
            notes.append(f"… {plural(start, 'character')} before (+ to widen)")
        return notes

    def _set(self, content: Content, end: str = "") -> None:
        self.body.update(content + end if end else content)
        if self._target is None:
            self.scroll_home(animate=False)
        else:
            self.call_after_refresh(self._scroll_to_target)

    # -- bringing the current hit (or the chunk) into view -------------------------------

    def target_line(self) -> tuple[int, int] | None:
        """(first line of the target's paragraph, line of the target) in the scrolled area, or None.

        Counted with Textual's own wrapping at the body's current width, so it holds only
        once the body is laid out (after a refresh).
        """
        if self._target is None:
            return None
        width = self.body.size.width
        if width <= 0:
            return None
        index, offset = self._target
        top = self.body.virtual_region.y + sum(wrapped_height(line, width) for line in self._head)
        top += sum(wrapped_height(part.shown, width) + 1 for part in self.parts[:index])
        part = self.parts[index]
        return top, top + line_of_offset(part.shown, part.shown_offset(offset), width)

    def _scroll_to_target(self) -> None:
        lines = self.target_line()
        if lines is None:
            return
        top, line = lines
        height = self.scrollable_content_region.height
        # the paragraph's start at the top, as long as the target is then in view; else the
        # target's line one line below the top
        self.scroll_to(y=top if line - top < height else line - 1, animate=False)


def wrapped_height(text: str, width: int) -> int:
    """Lines `text` takes in a Static of that width (Textual's wrapping, folding long words)."""
    return len(Content(text).wrap(width))


def line_of_offset(text: str, offset: int, width: int) -> int:
    """The line, counted from 0, holding character `offset` of `text` wrapped at `width`.

    Wrapping cuts each line of the text into pieces and drops only spaces at a cut, so
    the pieces are walked along the text. (Tabs, which Textual expands, can shift this
    by a line; the scroll keeps a line of margin above the target.)
    """
    line = 0
    position = 0  # where the current source line starts in text
    for source in text.split("\n"):
        pieces = [piece.plain for piece in Content(source).wrap(width)] or [""]
        if offset <= position + len(source):
            cursor = 0
            for index, piece in enumerate(pieces[:-1]):
                end = cursor + len(piece)
                while end < len(source) and source[end].isspace():
                    end += 1
                following = pieces[index + 1]
                end -= len(following) - len(following.lstrip())  # spaces the next piece starts with
                if offset - position < end:
                    return line + index
                cursor = end
            return line + len(pieces) - 1
        line += len(pieces)
        position += len(source) + 1
    return max(line - 1, 0)

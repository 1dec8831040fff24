"""The text under judgment, with highlights, chunk-in-parent context and hit navigation."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import Static

from labeler.tui.text import (
    CONTEXT_LEVELS,
    Hit,
    Paragraph,
    find_hits,
    paragraphs,
    render,
    term_counts,
    visible_range,
)
from labeler.workbench.reading import UnitText


class UnitView(VerticalScroll):
    """Shows one unit: a document, or a chunk highlighted inside its parent document."""

    DEFAULT_CSS = """
    UnitView { padding: 0 1; }
    UnitView .unit-title { text-style: bold; margin-bottom: 1; }
    UnitView .paragraph { margin-bottom: 1; }
    UnitView .context-note { color: $text-muted; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: UnitText | None = None
        self.terms: list[str] = []
        self.extra_terms: list[str] = []
        self.level = len(CONTEXT_LEVELS) - 1
        self.parts: list[Paragraph] = []
        self.hits: list[Hit] = []
        self.hit_index: int | None = None

    def show(self, view: UnitText | None, terms: list[str], *, message: str = "") -> None:
        """Show a new unit (or a message when there is none), scrolled to the chunk."""
        self.view = view
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

    def counts(self) -> dict[str, int]:
        return term_counts(self.hits, self.terms + self.extra_terms)

    def _rebuild(self, message: str = "") -> None:
        self.remove_children()
        view = self.view
        if view is None:
            self.parts, self.hits = [], []
            self.mount(Static(message or "Nothing to show.", classes="paragraph"))
            return
        if not view.known:
            self.parts, self.hits = [], []
            self.mount(Static(f"[b]{view.unit_id}[/b]\n\nThe workbench has no text for this unit "
                              "(evaluation-only use: import the corpus to read it).", classes="paragraph"))
            return
        start, end = visible_range(view, self.level)
        self.parts = paragraphs(view.text, start, end)
        self.hits = find_hits(self.parts, self.terms + self.extra_terms)
        current = self.hits[self.hit_index] if self.hit_index is not None and self.hits else None
        widgets = [Static(view.title or view.doc_id, classes="unit-title", markup=False)]
        if view.is_chunk and start > 0:
            widgets.append(Static(f"… {start} characters before (+ to widen)", classes="context-note"))
        target = None
        extra = set(self.extra_terms)
        for index, part in enumerate(self.parts):
            widget = Static(render(part, index, self.hits, extra, view.span, current), classes="paragraph")
            widgets.append(widget)
            if current is not None and current.paragraph == index:
                target = widget
            elif target is None and current is None and view.span is not None \
                    and part.start <= view.span[0] < part.start + len(part.text) + 2:
                target = widget
        if view.is_chunk and end < len(view.text):
            widgets.append(Static(f"… {len(view.text) - end} characters after (+ to widen)", classes="context-note"))
        self.mount(*widgets)
        if target is not None:
            self.call_after_refresh(self.scroll_to_widget, target, animate=False, top=True)
        else:
            self.scroll_home(animate=False)

"""Chunk windows: hand-worked offsets, and the fast word-window path equal to the word-span path."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.chunking import WORD, _windows, chunk_document, validate_window
from labeler.errors import BadArgumentError
from labeler.models import Document, content_hash

TEXT = "one two  three\nfour five six seven"  # words at 0-3, 4-7, 9-14, 15-19, 20-24, 25-28, 29-34


def spans(document, **kwargs):
    return [(c.chunk_id, c.start, c.end) for c in chunk_document(document, **kwargs)]


def test_word_windows_without_overlap():
    doc = Document("D", "", TEXT)
    assert spans(doc, size=3, overlap=0) == [("D#0", 0, 14), ("D#1", 15, 28), ("D#2", 29, 34)]
    chunks = chunk_document(doc, size=3, overlap=0)
    assert [TEXT[c.start : c.end] for c in chunks] == ["one two  three", "four five six", "seven"]
    assert chunks[0].hash == content_hash("one two  three") and chunks[0].doc_id == "D"


def test_word_windows_with_overlap_never_end_in_a_suffix():
    doc = Document("D", "", TEXT)
    # step 2: words 0-2, 2-4, 4-6; the window starting at word 6 would be a suffix of the last
    assert spans(doc, size=3, overlap=1) == [("D#0", 0, 14), ("D#1", 9, 24), ("D#2", 20, 34)]


def test_one_window_for_a_short_document_and_one_empty_chunk_for_an_empty_one():
    assert spans(Document("D", "", "  just two  "), size=5, overlap=0) == [("D#0", 2, 10)]
    assert spans(Document("D", "", ""), size=5, overlap=0) == [("D#0", 0, 0)]
    assert spans(Document("D", "", " \n\t "), size=5, overlap=2) == [("D#0", 0, 0)]


def test_sentences():
    doc = Document("D", "", "First one. Second? Third!  Fourth")
    assert spans(doc, size=2, overlap=0, by="sentences") == [("D#0", 0, 18), ("D#1", 19, 33)]


def test_windows_that_would_not_advance_are_refused():
    with pytest.raises(BadArgumentError, match=r"must be smaller than the window's size \(3\), not 3") as refused:
        validate_window(3, 3)
    assert refused.value.argument == "chunk_overlap"
    with pytest.raises(BadArgumentError, match="at least 1") as refused:
        validate_window(0, 0)
    assert refused.value.argument == "size"
    with pytest.raises(BadArgumentError, match="0 or more, not -1") as refused:
        validate_window(3, -1)
    assert refused.value.argument == "chunk_overlap"


WHITE = [" ", "  ", "\n", "\t", "\r\n", "\u00a0", "\u2003", "\u3000", "\x0b", "\x1c"]


WORD_CHARS = st.characters(blacklist_categories=("Zs", "Cc", "Zl", "Zp", "Cs"))


# 100 texts: every kind of white space in WHITE between words of any script, windows of 1 to 12 words, with and
# without leading space; more examples only repeat these.
@settings(max_examples=100, deadline=None)
@given(
    words=st.lists(st.text(WORD_CHARS, min_size=1, max_size=6), max_size=40),
    gaps=st.lists(st.sampled_from(WHITE), min_size=41, max_size=41),
    size=st.integers(1, 12),
    lead=st.booleans(),
)
def test_the_window_regex_cuts_exactly_where_word_spans_do(words, gaps, size, lead):
    """overlap 0 takes one regex match per window; it must equal `_windows` over every word's span."""
    text = (gaps[-1] if lead else "") + "".join(w + g for w, g in zip(words, gaps[: len(words)], strict=True))
    if any(not WORD.fullmatch(w) for w in words):
        return  # a "word" holding white space the category filter let through: not a word
    expected = list(_windows([m.span() for m in WORD.finditer(text)], size, 0)) or [(0, 0)]
    got = [(c.start, c.end) for c in chunk_document(Document("D", "", text), size=size, overlap=0)]
    assert got == expected

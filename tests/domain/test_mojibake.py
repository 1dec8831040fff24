"""labeler.mojibake: encoding errors repaired for reading, nothing else changed, nothing unsafe produced."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.inert import visible
from labeler.mojibake import repaired, repaired_with_cuts

# what labeler.inert escapes: a repaired text may hold these only where the stored text did
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")
MARKUP = "[]<>&\\\x1b"  # Rich markup, HTML, entities, escapes


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        # MS MARCO passages as stored (UTF-8 read as Windows-1252 / Latin-1 upstream)
        ("so are convinced theyâ\x80\x99re getting big fast", "so are convinced they’re getting big fast"),
        ("â\x80\x9cShamelessâ\x80\x9d is said", "“Shameless” is said"),
        ("13 â\x80\x93 25 reps", "13 – 25 reps"),
        ("Dictionary & Thesaurus Â© Cambridge", "Dictionary & Thesaurus © Cambridge"),
        ("don\x92t", "don’t"),  # Windows-1252 read as Latin-1: the C1 character is the quote it stands for
        ("ﬁsh", "fish"),  # a PDF ligature
        ("cafe\u0301", "café"),  # NFC: one character, one cell
    ],
)
def test_mojibake_is_repaired(stored, read):
    assert repaired(stored) == read


@pytest.mark.parametrize(
    "text",
    [
        "plain ASCII, [b]markup[/b] & <tags>",
        "&lt;script&gt; and &amp;: entities are what a page about HTML says",
        "“curly” quotes and an em dash — are typography",
        "ＦＵＬＬＷＩＤＴＨ ［bold］ stays fullwidth",  # no fullwidth bracket turned into `[`
        "line one\u2028line two\r\nCRLF",  # line breaks as stored
        "tab\tand\nnewline",
        "Grüße aus Köln, 北京, Москва",  # correct non-ASCII text
        "\x1b]2;pwned\x07 and \x1b[2J stay",  # escape sequences: kept for labeler.inert to show
        "a joiner\u200d, a mark\u200e and an \u202eoverride stay",  # they change how text reads: shown as escapes
    ],
)
def test_what_is_not_an_encoding_error_is_left_as_it_is(text):
    assert repaired(text) == text


def test_the_repair_is_shown_inert_afterwards():
    """A repair may yield a bidi control (mojibake of U+202E): labeler.inert shows it as an escape."""
    override = repaired("â\x80®evil")
    assert override == "\u202eevil" and visible(override) == "\\u202eevil"
    assert visible(repaired("\x1b[2J\x9b1m")) == "\\x1b[2J›1m"  # the C1 CSI read as Windows-1252, ESC escaped


def test_zero_width_spaces_are_dropped_from_the_repaired_text():
    stored = "in the â\x80\x8blungs, one of the very \u200bsmall \ufefftubes"
    assert repaired(stored) == "in the lungs, one of the very small tubes"


# mojibake pieces, controls, markup and plain letters: the repair's inputs at their worst
PIECES = st.sampled_from(
    ["â\x80\x99", "â\x80", "Ã", "Â", "\x9b", "\x85", "\x1b", "\x07", "[", "]", "<", "&", "&lt;", "\\", "é", "€", "®"]
    + ["\u202e", "\u200b", "ï»¿", "ðŸ", "\ud83d", "\ufb01", "\uff3b", "\u212a", "a", " ", "\n", "word"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_a_repair_adds_no_markup_and_nothing_inert_lets_through(text):
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")  # a lone surrogate cannot be stored
    fixed = repaired(text)
    for char in MARKUP:
        assert fixed.count(char) <= text.count(char), (char, text, fixed)
    assert not UNSAFE.search(visible(fixed).replace("\t", "").replace("\n", ""))


def test_pieces_between_cuts_keep_the_cuts_on_the_same_words():
    text = "Weâ\x80\x99re here. Theyâ\x80\x99re there. Plain end."
    cuts = [text.index("They"), text.index("Plain")]
    fixed, moved = repaired_with_cuts(text, cuts)
    assert fixed == "We’re here. They’re there. Plain end."
    assert fixed[moved[cuts[0]] :].startswith("They’re") and fixed[moved[cuts[1]] :] == "Plain end."
    assert moved[0] == 0 and moved[len(text)] == len(fixed)


def test_a_cut_inside_a_mojibake_sequence_leaves_it_as_stored():
    text = "theyâ\x80\x99re"
    fixed, moved = repaired_with_cuts(text, [5])  # between â and \x80
    assert fixed[moved[5] :] == repaired("\x80\x99re") and moved[len(text)] == len(fixed)

"""Mojibake repaired for reading: a unit's text as its author wrote it, the stored text untouched.

Web corpora (MS MARCO among them) hold text that was written in UTF-8 and decoded as
Windows-1252 or Latin-1 on its way: `weâ\\x80\\x99re` for `we’re`, `â\\x80\\x9cShamelessâ\\x80\\x9d`
for `“Shameless”`. `repaired` undoes that with ftfy, for display only: the workbench stores,
hashes, exports, retrieves and judges the text exactly as it was imported, and the judging
screen shows that form too on a key.

Which of ftfy's fixes apply, and why (`REPAIR`):

- `fix_encoding`, with its defaults: the repair this is for. Text decoded as Latin-1 holds C1
  characters (U+0080-U+009F) where Windows-1252 had printable ones; ftfy reads such a character
  as the one it stands for (`don\\x92t` -> `don’t`), so a repaired text holds a printable
  character where the stored one holds a C1 control (the raw form shows the control's escape).
- `fix_surrogates`: UTF-16 surrogate pairs left in the text become the character they encode.
- `fix_latin_ligatures`: `ﬁ` -> `fi` (text extracted from PDF), so that query terms are found in it.
- `normalization="NFC"`: a letter and its combining accent become one character, which a terminal
  draws in one cell and a highlighted term matches however it was typed.

Left off:

- `unescape_html`: an entity is not an encoding error, and a page about HTML that says
  `&lt;script&gt;` says just that; unescaping would turn a document's words into markup-like text.
- `remove_terminal_escapes`, `remove_control_chars`: escape sequences and control characters are
  kept so that `labeler.inert` shows them (`\\x1b[2J`) as it shows them in every user text;
  removing them would hide what the stored text holds.
- `fix_line_breaks`: paragraphs are split where the stored text splits them (a U+2028 is shown as
  its escape, as elsewhere).
- `uncurl_quotes`, `fix_character_width`, `fix_c1_controls` on its own: the author's typography
  (curly quotes, fullwidth forms in CJK text) is not an error, and a lone C1 control outside
  mojibake stays a control, shown as its escape.

Beyond ftfy, zero-width spaces (U+200B, and U+FEFF, a byte order mark inside the text) are
dropped from the repaired text: invisible, they mean nothing on a terminal but where a line may
break, and shown as escapes they left a repaired MS MARCO passage as hard to read as its
mojibake (`in the \\u200blungs, one of the very \\u200bsmall \\u200btubes`). The joiners, direction
marks and bidi controls are kept (they change how text reads, so they are shown as escapes).

The repaired text is user text like any other: the front ends make it inert after the repair
(`labeler.inert.visible`), so nothing ftfy produces reaches a terminal as a control character
(a repaired U+202E is shown as `\\u202e`), and they hand it on as plain text, never as markup.
ftfy is imported on the first repair, so commands that show no text do not load it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ftfy import TextFixerConfig

ZERO_WIDTH_SPACES = str.maketrans("", "", "\u200b\ufeff")
# Long documents are repaired once per unit shown; the last few are kept, so going back costs nothing.
CACHED_TEXTS = 64


@lru_cache(maxsize=1)
def _config() -> TextFixerConfig:
    from ftfy import TextFixerConfig

    return TextFixerConfig(
        unescape_html=False,
        remove_terminal_escapes=False,
        fix_encoding=True,
        fix_c1_controls=False,
        fix_surrogates=True,
        fix_latin_ligatures=True,
        fix_character_width=False,
        uncurl_quotes=False,
        fix_line_breaks=False,
        remove_control_chars=False,
        normalization="NFC",
        explain=False,
    )


def prepare() -> None:
    """Load ftfy now (some 60 ms), so that the first text needing a repair does not pay for it on a judging key."""
    _config()


@lru_cache(maxsize=CACHED_TEXTS)
def repaired(text: str) -> str:
    """`text` with its mojibake repaired (see the module's notes); ASCII text is returned as it is."""
    if text.isascii():  # none of the fixes applied changes ASCII
        return text
    from ftfy import fix_text

    return fix_text(text, _config()).translate(ZERO_WIDTH_SPACES)


def repaired_with_cuts(text: str, cuts: Iterable[int]) -> tuple[str, dict[int, int]]:
    """`text` repaired piece by piece between the `cuts` (character offsets), and where each cut lands.

    A chunk's offsets into its document hold in the repaired document through the map: the pieces
    are repaired apart, so a mojibake sequence that a chunking cut in two stays as it is.
    """
    bounds = sorted({0, len(text), *(min(max(cut, 0), len(text)) for cut in cuts)})
    moved = {0: 0}
    pieces = []
    position = 0
    for start, end in zip(bounds, bounds[1:], strict=False):
        piece = repaired(text[start:end])
        pieces.append(piece)
        position += len(piece)
        moved[end] = position
    return "".join(pieces), moved

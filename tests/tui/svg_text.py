"""The text of a Textual SVG screenshot, line by line, as the terminal showed it.

Asserting on text fragments keeps layout tests robust: a colour or a Textual upgrade
changes the SVG's bytes, not the words on each line.
"""

from __future__ import annotations

import html
import re

_TEXT = re.compile(r'<text [^>]*?x="([\d.]+)"[^>]*?clip-path="url\(#[\w-]+-line-(\d+)\)"[^>]*>([^<]*)</text>')
CELL = 12.2  # the width of a character cell in Textual's SVG export


def screen_lines(svg: str) -> list[str]:
    """Each terminal row's text; spans are placed at their column, so the gaps between them are kept."""
    rows: dict[int, list[str]] = {}
    for x, line, content in _TEXT.findall(svg):
        row = rows.setdefault(int(line), [])
        column = round(float(x) / CELL)
        text = html.unescape(content).replace("\xa0", " ")
        if len(row) < column:
            row.extend(" " * (column - len(row)))
        row[column : column + len(text)] = list(text)
    return ["".join(rows.get(index, [])).rstrip() for index in range(max(rows, default=-1) + 1)]


def screen_text(svg: str) -> str:
    return "\n".join(screen_lines(svg))

"""docs/tui.md's key table is the judging screen's keys: none missing, none made up.

The table is written by hand; the keys live in `BINDINGS` (plus one key per grade of the
scale, and Textual's command palette). Read from the running screen's public
`active_bindings`, so a key added, renamed or dropped in the code fails here until the
table says so.
"""

from __future__ import annotations

import re
from pathlib import Path

from textual.binding import Binding

from labeler.tui import make_app
from labeler.tui.screens.judge import JudgeScreen

DOC = Path(__file__).resolve().parents[2] / "docs" / "tui.md"
HEADER = "| key | what it does |"
PALETTE = Binding("ctrl+p", "command_palette", "palette")  # Textual binds it at run time, in no BINDINGS


def key_table() -> list[tuple[list[str], str]]:
    """([keys in backticks], the whole row in lower case) for each row of the table.

    A row `0` … `3` stands for every key from the first to the last.
    """
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        keys_cell = line.split("|")[1]
        keys = re.findall(r"`([^`]+)`", keys_cell)
        if "…" in keys_cell:
            first, last = (int(k) for k in keys)
            keys = [str(n) for n in range(first, last + 1)]
        rows.append((keys, line.lower()))
    return rows


def labelers_bindings(screen: JudgeScreen) -> list[Binding]:
    """The keys labeler declares for the judging screen: its BINDINGS, the app's, then the palette.

    Textual's own generic keys (focus, copy, quit with ctrl+q) are left to the help screen.
    """
    declared = []
    for node in (screen, screen.app):
        for cls in type(node).__mro__:
            if cls.__module__.startswith("labeler.") and "BINDINGS" in cls.__dict__:
                declared += [b if isinstance(b, Binding) else Binding(*b) for b in cls.__dict__["BINDINGS"]]
    return [*declared, PALETTE]


def names(app, binding: Binding, key: str) -> set[str]:
    """How the table may write a key: its name (`backspace`) or how it is shown (`←`, `/`)."""
    return {
        key,
        app.get_key_display(Binding(key, binding.action)),
        *([binding.key_display] if binding.key_display else []),
    }


async def test_every_key_of_the_judging_screen_is_in_the_table_and_every_key_there_is_bound(judging_db):
    rows = key_table()
    assert rows, f"no key table under {HEADER!r} in {DOC}"
    app = make_app(judging_db, assessor="ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, JudgeScreen)
        active = screen.active_bindings
        bound = {key: names(app, entry.binding, key) for key, entry in active.items()}

        documented = [(binding, key) for binding in labelers_bindings(screen) for key in binding.key.split(",")]
        grade_keys = [
            (entry.binding, key) for key, entry in active.items() if entry.binding.action.startswith("grade(")
        ]
        assert grade_keys, "the judging screen has no grade keys"
        for binding, key in documented + grade_keys:
            key = key.strip()
            assert key in active, f"{key} ({binding.description}) is declared but not active on the judging screen"
            shown_as = names(app, binding, key)
            row = next((text for keys, text in rows if shown_as & set(keys)), None)
            assert row is not None, f"the key {key} ({binding.description}) is missing from the table in {DOC.name}"
            if binding.action.startswith("grade("):
                assert "grade" in row, row
            else:
                assert binding.description.lower() in row, (
                    f"the row of {key} does not say {binding.description!r}: {row}"
                )

        for keys, text in rows:
            for written in keys:
                assert any(written in shown for shown in bound.values()), (
                    f"the table lists `{written}` but no key of the judging screen is bound to it: {text}"
                )

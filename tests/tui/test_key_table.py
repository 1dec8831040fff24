"""docs/tui.md's key table is the judging screen's keys and keymap ids: none missing, none made up.

The table is written by hand; the keys live in `BINDINGS` (plus one key per grade of the
scale, and Textual's command palette). Read from the running screen's public
`active_bindings`, so a key added, renamed or dropped in the code fails here until the
table says so.
"""

from __future__ import annotations

import re
from pathlib import Path

from textual.binding import Binding

from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.judge import JudgeScreen

DOC = Path(__file__).resolve().parents[2] / "docs" / "tui.md"
HEADER = "| key | what it does | keymap id |"
PALETTE = Binding("ctrl+p", "command_palette", "palette")  # Textual binds it at run time, in no BINDINGS


def key_table() -> list[tuple[list[str], str, list[str]]]:
    """([keys in backticks], the whole row in lower case, [keymap ids in backticks]) for each row of the table.

    A row `0` … `3` stands for every key from the first to the last (and `judge.grade_0` …
    `judge.grade_3` for every id between).
    """
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = line.split("|")
        keys_cell, ids_cell = cells[1], cells[-2]
        keys = re.findall(r"`([^`]+)`", keys_cell)
        ids = re.findall(r"`([^`]+)`", ids_cell)
        if "…" in keys_cell:
            first, last = (int(k) for k in keys)
            keys = [str(n) for n in range(first, last + 1)]
            prefix = ids[0].rstrip("0123456789")
            ids = [f"{prefix}{n}" for n in range(first, last + 1)]
        rows.append((keys, line.lower(), ids))
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
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
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
            row, ids = next(((text, ids) for keys, text, ids in rows if shown_as & set(keys)), (None, []))
            assert row is not None, f"the key {key} ({binding.description}) is missing from the table in {DOC.name}"
            if binding.action != PALETTE.action:
                assert binding.id in ids, f"the row of {key} does not give its keymap id {binding.id!r}: {row}"
            if binding.action.startswith("grade("):
                assert "grade" in row, row
            else:
                assert binding.description.lower() in row, (
                    f"the row of {key} does not say {binding.description!r}: {row}"
                )

        bound_ids = {binding.id for binding, _ in documented + grade_keys}
        for keys, text, ids in rows:
            assert set(ids) <= bound_ids, f"the table gives keymap ids no key of the judging screen has: {text}"
            for written in keys:
                assert any(written in shown for shown in bound.values()), (
                    f"the table lists `{written}` but no key of the judging screen is bound to it: {text}"
                )


def labeler_screen_classes() -> list[type]:
    """Every screen and app class of labeler.tui, with the bindings each declares in its own BINDINGS."""
    import importlib
    import pkgutil

    import labeler.tui
    import labeler.tui.screens

    classes = []
    for package in (labeler.tui, labeler.tui.screens):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            classes += [
                value
                for value in vars(module).values()
                if isinstance(value, type) and value.__module__ == module.__name__ and "BINDINGS" in value.__dict__
            ]
    return classes


def test_every_key_labeler_declares_has_its_own_keymap_id():
    """Textual's keymap finds a binding by its id: one without an id cannot be remapped, a shared one moves both."""
    classes = labeler_screen_classes()
    assert {"JudgeScreen", "LabelerApp", "HistoryScreen", "HelpScreen"} <= {cls.__name__ for cls in classes}
    ids = []
    for cls in classes:
        for binding in cls.__dict__["BINDINGS"]:
            assert isinstance(binding, Binding) and binding.id, f"{cls.__name__}: {binding} has no keymap id"
            ids.append(binding.id)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


async def test_a_keymap_moves_a_key_and_the_help_shows_where(judging_db):
    from judging_support import events

    from labeler.tui.screens.help import HelpScreen

    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.set_keymap({"judge.skip": "k", "judge.grade_2": "ctrl+g"})
        await pilot.pause()
        assert isinstance(app.screen, JudgeScreen)
        await pilot.press("s")  # the old key does nothing now
        await pilot.press("k")
        await pilot.press("ctrl+g")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        own = dict((description, keys.split()) for keys, description in app.screen.rows)
        assert own["Skip"] == ["k"] and own["highly relevant"] == ["^g"]
    assert [(e.kind, e.unit_id, e.grade) for e in events(judging_db)] == [("skip", "d1", None), ("grade", "d2", 2)]

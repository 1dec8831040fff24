"""`?` lists every key of the judging screen, labeler's first, Textual's generic keys apart."""

from __future__ import annotations

from svg_text import screen_text
from textual.binding import Binding

from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.help import HelpScreen
from labeler.tui.screens.judge import JudgeScreen


async def test_help_lists_every_judging_key_before_the_generic_ones(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        own = dict((description, keys.split()) for keys, description in help_screen.rows)
        generic = dict((description, keys.split()) for keys, description in help_screen.generic_rows)
        for binding in JudgeScreen.BINDINGS:
            for key in binding.key.split(","):
                assert app.get_key_display(Binding(key, binding.action)) in own[binding.description], binding
        assert own["Undo"] == ["⌫", "^z"]
        for grade, label in [("0", "not relevant"), ("1", "related"), ("2", "highly relevant")]:
            assert own[label] == [grade]
        assert list(own)[:3] == ["not relevant", "related", "highly relevant"]  # the grade keys first
        assert {"Focus Next", "Focus Previous", "palette"} <= set(generic)
        assert not {"Focus Next", "Focus Previous", "palette", "Copy selected text"} & set(own)
        assert own["Quit"] == ["q"] and generic["Quit"] == ["^q"]
        text = screen_text(app.export_screenshot())
        assert (
            text.index("Judging keys")
            < text.index("^z")
            < text.index("Generic keys (Textual)")
            < text.index("Focus Next")
        )

"""The served name prompt (`labeler serve`, `judge --ask-assessor`) applies the id rule and lets the user retype."""

from __future__ import annotations

from judging_support import answer_prompt, events, grades, until
from textual.widgets import Input, Label

from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.judge import JudgeScreen
from labeler.tui.screens.prompt import TextPrompt

SIZE = (120, 40)


async def test_the_assessor_prompt_refuses_a_name_with_a_space_and_takes_the_retyped_one(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="unknown", ask_assessor=True))
    async with app.run_test(size=SIZE) as pilot:
        await answer_prompt(pilot, "bad name", closes=False, typed=True)
        await until(
            pilot,
            lambda: (
                app.screen.query_one("#problem", Label).display
                and app.screen.query_one("#problem", Label).region.height >= 1
            ),
            "the reason shown",
        )
        assert isinstance(app.screen, TextPrompt), "a name with a space was taken"
        shown = app.screen.query_one("#problem", Label)
        assert shown.display and shown.region.height >= 1, "the reason is not on screen"
        problem = str(shown.render())
        assert "assessor name 'bad name' contains white space (U+0020) at character 4" in problem
        assert app.screen.query_one(Input).value == "bad name"  # kept, selected: typing replaces it
        await answer_prompt(pilot, "carol", typed=True)
        await until(pilot, lambda: isinstance(app.screen, JudgeScreen), "the judging screen")
        assert app.session.assessor == "carol"
        await pilot.press("2")
    assert grades(judging_db, assessor="carol") == {("1", "d1"): 2}
    assert {event.assessor for event in events(judging_db)} == {"carol"}


async def test_escape_on_the_assessor_prompt_asks_again(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="unknown", ask_assessor=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt) and not isinstance(app.screen, JudgeScreen)
    assert events(judging_db) == []

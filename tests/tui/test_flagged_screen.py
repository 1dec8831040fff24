"""The flagged screen (`F`, or the palette): a flag stays listed after grading, and Enter opens the pair."""

from __future__ import annotations

from judging_support import answer_prompt, back_to, events, grades, open_screen, palette, until
from textual.widgets import DataTable

from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.flagged import FlaggedScreen
from labeler.tui.screens.judge import JudgeScreen

SIZE = (140, 40)


def current(app):
    return app.session.current.unit_id if app.session.current else None


def rows(app) -> list[list[str]]:
    table = app.screen.query_one(DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_a_flagged_then_graded_pair_is_listed_with_its_grade_and_opens(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        assert current(app) == "d1"
        await pilot.press("f")
        await answer_prompt(pilot, "date looks wrong", typed=True)
        await pilot.press("2")  # flag d1 with a reason, then grade it: the session moves on to d2
        await pilot.pause()
        assert current(app) == "d2"
        await open_screen(pilot, "F", FlaggedScreen)
        (row,) = rows(app)
        assert row[:3] == ["1", "d1", "ann"] and row[4:] == ["date looks wrong", "2", "judged"]
        await back_to(pilot, "enter", JudgeScreen)
        assert current(app) == "d1"
    assert [(e.kind, e.reason) for e in events(judging_db)] == [("flag", "date looks wrong"), ("grade", None)]
    assert grades(judging_db) == {("1", "d1"): 2}


async def test_the_palette_opens_it_and_an_undone_flag_is_gone(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):  # two flags without a reason, the second undone
            await pilot.press("f")
            await answer_prompt(pilot, "")
        await pilot.press("ctrl+z")
        await pilot.pause()
        await palette(pilot, "Flagged pairs")
        await until(pilot, lambda: isinstance(app.screen, FlaggedScreen) and app.screen.is_mounted, "the flagged pairs")
        assert [r[:2] for r in rows(app)] == [["1", "d1"]]
        await back_to(pilot, "escape", JudgeScreen)

"""The adjudication screen shows the unit's text beside the grades: settling a conflict needs reading it."""

from __future__ import annotations

from svg_text import screen_text

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.workbench.record_judgments import Judgment, record_judgment


def conflict(db, topic, unit_id, unit="doc"):
    with Store(db) as store:
        record_judgment(store, Judgment(topic_id=topic, unit_id=unit_id, assessor="bob", grade=3, unit=unit))
        record_judgment(store, Judgment(topic_id=topic, unit_id=unit_id, assessor="cat", grade=0, unit=unit))


async def test_the_conflicting_document_is_shown_beside_its_grades(judging_db):
    conflict(judging_db, "1", "d2")
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, AdjudicationScreen)
        text = screen_text(app.export_screenshot())
        assert "bob" in text and "cat" in text  # the grades
        assert "Stored grain" in text and "Weevils damage stored maize grain." in text  # d2's title and text


async def test_the_text_follows_the_selected_conflict(judging_db):
    conflict(judging_db, "1", "d1")
    conflict(judging_db, "2", "d3")
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert "Fall armyworm caterpillars eat maize leaves." in screen_text(app.export_screenshot())
        await pilot.press("down")
        await pilot.pause()
        text = screen_text(app.export_screenshot())
        assert "Milk fever is low blood calcium" in text and "Fall armyworm" not in text

"""Blind second judgments on screen: ann grades overlap pairs with notes; bob's judging screen, history and
topic list show neither her grade nor her note; once bob has judged, the pair waits in adjudication with both."""

from __future__ import annotations

from judging_support import answer_prompt, back_to, open_screen, until
from svg_text import screen_text

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.history import HistoryScreen
from labeler.tui.screens.judge import JudgeScreen
from labeler.tui.screens.topics import TopicsScreen
from labeler.workbench.assignments import assign
from labeler.workbench.read_labels import pair_state
from labeler.workbench.reading import ConflictNote, conflicts

SIZE = (160, 45)
NOTE = "armyworm named"


def shown(app):
    item = app.session.current
    return None if item is None else (item.topic_id, item.unit_id)


async def test_the_second_judge_sees_nothing_until_both_judged_then_the_pair_is_adjudicated(judging_db):
    with Store(judging_db) as store:
        assign(store, ["ann", "bob"], overlap=0.99, seed=1)  # topic 1 is ann's, bob judges its overlap pairs
    ann = make_app(JudgeRequest(db_path=judging_db, assessor="ann", topic="1"))
    async with ann.run_test(size=SIZE) as pilot:
        assert shown(ann) == ("1", "d1")
        await pilot.press("n")
        await answer_prompt(pilot, NOTE)
        await pilot.press("3")
        await until(pilot, lambda: shown(ann) == ("1", "d2"), "ann moved on")
        await pilot.press("n")
        await answer_prompt(pilot, "weevils only")
        await pilot.press("0")
        await until(pilot, lambda: shown(ann) == ("1", "d6"), "ann moved on again")
    with Store(judging_db) as store:
        assert pair_state(store, "doc", "1", "d1").grades == {"ann": 3}

    bob = make_app(JudgeRequest(db_path=judging_db, assessor="bob", topic="1"))
    async with bob.run_test(size=SIZE) as pilot:
        assert shown(bob) == ("1", "d1")  # still bob's to judge, whoever graded it
        text = screen_text(bob.export_screenshot())
        assert "unjudged" in text and "judged by others" not in text and NOTE not in text
        await open_screen(pilot, "t", TopicsScreen)
        topics = screen_text(bob.export_screenshot())
        assert "0 of 8 judged, 0 relevant" in topics and "0/4" in topics  # ann's two grades count nowhere
        await back_to(pilot, "escape", JudgeScreen)
        await open_screen(pilot, "h", HistoryScreen)
        history = screen_text(bob.export_screenshot())
        assert NOTE not in history and "weevils" not in history and "grade 3" not in history
        await back_to(pilot, "escape", JudgeScreen)
        await pilot.press("1")
        await until(pilot, lambda: shown(bob) == ("1", "d2"), "bob moved on")
        await pilot.press("left")
        await until(pilot, lambda: shown(bob) == ("1", "d1"), "bob went back")
        assert "conflict" in screen_text(bob.export_screenshot())  # both judged: no longer blind
    with Store(judging_db) as store:
        waiting = {(c.topic, c.unit_id): c for c in conflicts(store)}
        assert list(waiting) == [("1", "d1")]
        assert {(g.assessor, g.grade) for g in waiting[("1", "d1")].grades} == {("ann", 3), ("bob", 1)}
        assert waiting[("1", "d1")].notes == (ConflictNote("ann", NOTE),)
        assert pair_state(store, "doc", "1", "d2").grades == {"ann": 0}  # not bob's yet: still blind for him

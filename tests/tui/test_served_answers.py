"""Answer judging as a browser session of `labeler serve` runs it: the assessor's name is asked first, nothing is
shown or claimed before it is given, and the judgments then carry it; a name another live session holds is refused."""

from __future__ import annotations

import pytest
from judging_support import answer_prompt, until
from svg_text import screen_text

from labeler.judgments.log import GRADE
from labeler.store import Store
from labeler.tui import make_answers_app
from labeler.tui.live_names import LiveNames
from labeler.tui.screens.answer_judging import NuggetScreen
from labeler.tui.screens.prompt import TextPrompt

SIZE = (120, 40)


@pytest.fixture
def names(tmp_path):
    """The folder a serve gives its sessions to hold their names in."""
    folder = tmp_path / "names"
    folder.mkdir()
    return folder


def claims(db):
    with Store(db) as store:
        return store.live_claims("nugget:rag1", 0)


async def test_a_served_answers_session_asks_the_name_first_then_judges_as_it(answers_db, names):
    db, nuggets = answers_db
    n1 = nuggets["1"][0]
    app = make_answers_app(db, "server", "nuggets", ask_assessor=True, live_names=names)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, TextPrompt) and "Your name" in screen_text(app.export_screenshot())
        assert app.session.current is None and claims(db) == {}  # nothing is the placeholder's
        await answer_prompt(pilot, "alice")
        await until(pilot, lambda: isinstance(app.screen, NuggetScreen), "the nugget screen opened")
        assert (app.session.current.topic_id, app.session.current.item_id) == ("1", n1)
        assert "alice" in screen_text(app.export_screenshot())
        await pilot.press("2")
        await until(pilot, lambda: app.session.current.item_id != n1, "moved on")
    with Store(db) as store:
        grades = [(e.assessor, e.unit_id, e.grade) for e in store.unit_events("nugget:rag1") if e.kind == GRADE]
    assert grades == [("alice", n1, 2)]
    assert claims(db) == {}  # quitting let the item shown go


async def test_a_name_another_served_session_holds_is_refused(answers_db, names):
    db, _ = answers_db
    other = LiveNames(names)
    assert other.take("alice")
    try:
        app = make_answers_app(db, "server", "support", ask_assessor=True, live_names=names)
        async with app.run_test(size=SIZE) as pilot:
            await answer_prompt(pilot, "alice", closes=False)
            await until(
                pilot, lambda: "is in use in another browser session" in screen_text(app.export_screenshot()), "refused"
            )
            assert isinstance(app.screen, TextPrompt) and app.session.current is None
    finally:
        other.release()

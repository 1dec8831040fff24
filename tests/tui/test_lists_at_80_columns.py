"""At 80x24 the topics, history and flagged tables fit the screen: a status is never cut, user text wraps."""

from __future__ import annotations

import pytest
from judging_support import answer_prompt, column_on_screen, open_screen
from textual.widgets import DataTable

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.flagged import FlaggedScreen
from labeler.tui.screens.history import HistoryScreen
from labeler.tui.screens.topics import TopicsScreen
from labeler.workbench.record_judgments import import_judgments
from labeler.workbench.status import status

NOTE = "the second paragraph contradicts the title and its date is from another century entirely"
REASON = "wrong language for this collection"


@pytest.fixture
def reopened_db(judging_db, tmp_path):
    """Prior labels imported as reviewed: topics 1 and 2 are reopened by the pool's unjudged units."""
    qrels = tmp_path / "prior.qrels"
    qrels.write_text("1 0 d1 2\n2 0 d3 1\n3 0 d5 1\n3 0 d4 0\n")
    with Store(judging_db) as store:
        import_judgments(store, qrels, assessor="nist", reviewed=True)
    return judging_db


def review_statuses(db) -> list[str]:
    with Store(db) as store:
        return [str(row.review) for row in status(store).topics.values()]


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_topics_table_shows_every_review_status_whole(reopened_db, size):
    expected = review_statuses(reopened_db)
    assert expected == ["reopened by P1 (3 unjudged)", "reopened by P1 (1 unjudged)", "reviewed"]
    app = make_app(JudgeRequest(db_path=reopened_db, assessor="ann"))
    async with app.run_test(size=size) as pilot:
        await open_screen(pilot, "t", TopicsScreen)
        table = app.screen.query_one(DataTable)
        assert await column_on_screen(pilot, table, "review status") == expected
        assert await column_on_screen(pilot, table, "conflicts") == ["0", "0", "0"]
        assert await column_on_screen(pilot, table, "left") == ["3", "1", "0"]
        titles = await column_on_screen(pilot, table, "title")
        assert titles[0] == "maize pests" and table.region.right <= size[0]
        heights = [row.height for row in table.ordered_rows]
        assert heights == ([2, 2, 1] if size[0] == 80 else [1, 1, 1])  # a narrow screen wraps, a wide one does not


async def test_a_resized_topics_screen_lays_its_table_out_again(reopened_db):
    app = make_app(JudgeRequest(db_path=reopened_db, assessor="ann"))
    async with app.run_test(size=(160, 45)) as pilot:
        await open_screen(pilot, "t", TopicsScreen)
        await pilot.press("down")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert await column_on_screen(pilot, table, "review status") == review_statuses(reopened_db)
        assert table.cursor_row == 1  # the topic under the cursor stays under it


async def test_history_at_80_columns_shows_each_decision_whole_and_wraps_the_note(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await answer_prompt(pilot, NOTE)
        await pilot.press("2", "0")
        await open_screen(pilot, "h", HistoryScreen)
        table = app.screen.query_one(DataTable)
        assert await column_on_screen(pilot, table, "decision") == ["grade 0", "grade 2", "note"]
        assert await column_on_screen(pilot, table, "reason / note") == ["", "", NOTE]
        assert await column_on_screen(pilot, table, "unit") == ["d2", "d1", "d1"]
        assert app.screen.query_one("Vertical").region.right <= 80


async def test_flagged_at_80_columns_shows_the_reason_and_state_whole(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await answer_prompt(pilot, REASON)
        await open_screen(pilot, "F", FlaggedScreen)
        table = app.screen.query_one(DataTable)
        assert await column_on_screen(pilot, table, "reason") == [REASON]
        assert await column_on_screen(pilot, table, "state") == ["unjudged"]
        assert await column_on_screen(pilot, table, "flagged by") == ["ann"]
        assert "time" not in [column.label.plain for column in table.ordered_columns]  # left out to fit
        assert app.screen.query_one("Vertical").region.right <= 80

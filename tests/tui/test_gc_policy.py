"""The judging UI takes its start-up objects out of the garbage collector, and gives them back at exit."""

from __future__ import annotations

import gc

from labeler.tui import JudgeRequest, make_app

SIZE = (140, 40)
REAL_GC_POLICY = True  # the real settle(), its full collection included (tests/tui/conftest.py)


async def test_start_up_objects_are_frozen_while_judging_and_released_at_exit(judging_db):
    assert gc.get_freeze_count() == 0
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert gc.get_freeze_count() > 10_000  # Textual, Rich, labeler, the screen's widgets
        await pilot.press("2", "0")
        assert gc.get_freeze_count() > 10_000
    assert gc.get_freeze_count() == 0

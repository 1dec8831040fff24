"""`←` goes back exactly one position in the order the pairs were shown."""

from __future__ import annotations

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.workbench.session import JudgingSession


def unit(session):
    return session.current.unit_id if session.current else None


def test_previous_steps_back_one_position_at_a_time(judging_db):
    with Store(judging_db) as store:
        session = JudgingSession(store, "ann")
        session.start("1")
        session.judge(2)
        session.judge(0)
        assert unit(session) == "d6"  # shown: d1, d2, d6
        session.previous_pair()
        assert unit(session) == "d2"
        session.previous_pair()
        assert unit(session) == "d1"  # not back to d6, as when d2 was moved to the end of the visited list
        session.previous_pair()
        assert unit(session) == "d1"  # the first pair shown: nowhere further back
        assert session.visited == [("1", "d1"), ("1", "d2"), ("1", "d6")]


def test_judging_a_pair_reached_by_going_back_continues_the_order(judging_db):
    with Store(judging_db) as store:
        session = JudgingSession(store, "ann")
        session.start("1")
        session.judge(2)
        session.judge(0)
        session.previous_pair()
        session.previous_pair()
        session.judge(1)  # re-judged d1; the queue's next pair is shown
        assert unit(session) == "d6"
        session.previous_pair()
        assert unit(session) == "d1"  # the pair just re-judged
        session.previous_pair()
        assert unit(session) == "d6"  # then what was shown before it


def test_previous_after_the_queue_empties_shows_the_last_pair(judging_db):
    with Store(judging_db) as store:
        session = JudgingSession(store, "ann")
        session.start("3")
        session.judge(0)
        session.judge(0)
        assert session.current is None
        session.previous_pair()
        assert unit(session) == "d4"
        session.previous_pair()
        assert unit(session) == "d5"


async def test_left_key_goes_back_one_pair_each_press(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("2", "0", "3")
        assert unit(app.session) == "d4"
        seen = []
        for _ in range(3):
            await pilot.press("left")
            seen.append(unit(app.session))
        assert seen == ["d6", "d2", "d1"]

"""The judging screen (and so the browser, which serves the same app) says why there is nothing to judge."""

from __future__ import annotations

from judging_support import until
from support import listening, notices

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.widgets.unit_view import UnitView
from labeler.workbench.assignments import assign

SIZE = (140, 40)
WHY = (
    "Nothing for carol to judge in this pool: 8 pairs in 3 topics are assigned to others (ann 6, bob 2); "
    "carol has no topic in the assignment plan."
)


def body(app) -> str:
    return " ".join(str(app.screen.query_one(UnitView).query("Static").first().render()).split())


async def test_an_assessor_without_an_assignment_is_told_the_pairs_are_others_not_done(judging_db):
    with Store(judging_db) as store:
        assign(store, ["ann", "bob"])
    app = make_app(JudgeRequest(db_path=judging_db, assessor="carol"))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await pilot.pause()
        assert app.session.current is None
        text = body(app)
        assert WHY in text and "done" not in text.split("•")[0]
        assert "labeler assign --assessors ann,bob,carol, in a shell" in text
        await pilot.press("right")  # no unfinished topic: the notification says why too
        await until(pilot, lambda: notices(app), "the notification")
        assert [n.message for n in notices(app)] == [WHY]
    with Store(judging_db) as store:
        assert store.live_claims("doc", 0) == {}  # carol was shown nothing, so holds nothing

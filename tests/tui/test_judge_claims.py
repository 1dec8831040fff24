"""Two judging apps on one workbench: each shows a pair the other does not, leases end, quitting lets go."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from judging_support import grades

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.widgets.unit_view import UnitView

SIZE = (140, 40)


def shown(app):
    item = app.session.current
    return None if item is None else (item.topic_id, item.unit_id)


def claims(db):
    with Store(db) as store:
        return store.live_claims("doc", 0)


async def test_two_apps_never_show_the_same_unit(judging_db):
    ann, bob = (
        make_app(JudgeRequest(db_path=judging_db, assessor="ann")),
        make_app(JudgeRequest(db_path=judging_db, assessor="bob")),
    )
    async with ann.run_test(size=SIZE) as pa, bob.run_test(size=SIZE) as pb:
        assert shown(ann) == ("1", "d1") and shown(bob) == ("1", "d2")
        steps = [
            (pa, "right"),
            (pb, "1"),
            (pa, "s"),
            (pb, "right"),
            (pa, "2"),
            (pb, "left"),
            (pa, "right"),
            (pb, "0"),
            (pa, "left"),
            (pb, "right"),
        ]
        for pilot, key in steps:
            await pilot.press(key)
            await pilot.pause()
            assert shown(ann) is None or shown(ann) != shown(bob), (key, shown(ann), shown(bob))
            held = claims(judging_db)
            for app, name in ((ann, "ann"), (bob, "bob")):
                if shown(app) is not None:
                    assert held.get(shown(app)) == {name}, (key, name, held)
        assert len(grades(judging_db, "ann")) + len(grades(judging_db, "bob")) >= 3
    assert claims(judging_db) == {}  # quitting let both pairs go


async def test_only_held_pairs_left_says_so(judging_db):
    with Store(judging_db) as store:
        from labeler.workbench.claims import claim_pair

        for unit in ("d1", "d2", "d6", "d4"):
            claim_pair(store, "cy", "1", unit)
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann", topic="1"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert shown(app) is None and app.session.held == 4
        text = str(app.screen.query_one(UnitView).query("Static").first().render())
        assert "Nothing for ann to judge in topic 1: 4 pairs are held by other assessors (cy 4)" in text


async def test_a_lease_that_ends_returns_the_unit_to_the_other_app(judging_db):
    ann = make_app(JudgeRequest(db_path=judging_db, assessor="ann", lease=timedelta(minutes=5)))
    bob = make_app(JudgeRequest(db_path=judging_db, assessor="bob", lease=timedelta(minutes=5)))
    async with ann.run_test(size=SIZE) as pa, bob.run_test(size=SIZE) as pb:
        assert shown(ann) == ("1", "d1") and shown(bob) == ("1", "d2")
        later = datetime.now(timezone.utc) + timedelta(minutes=6)  # ann walked away: her lease on d1 ended
        ann.session.now = bob.session.now = lambda: later
        await pb.press("1")  # bob judges d2 and is given the first free pair: d1, back from ann
        await pb.pause()
        assert shown(bob) == ("1", "d1")
        await pa.press("2")  # ann comes back: her key must not grade the pair she lost, nor the next one
        await pa.pause()
        assert shown(ann) == ("1", "d6")
        assert grades(judging_db, "ann") == {}
        assert claims(judging_db) == {("1", "d1"): {"bob"}, ("1", "d6"): {"ann"}}

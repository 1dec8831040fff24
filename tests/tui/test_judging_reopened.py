"""The judging screen follows the pool: a reopened topic is opened first, and the status shown is the pool's space's."""

from __future__ import annotations

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.widgets.topic_card import TopicCard
from labeler.workbench.record_judgments import Judgment, mark_topic, record_judgment

SIZE = (140, 40)


def card(app) -> str:
    return str(app.screen.query_one(TopicCard).render())


async def test_a_reviewed_topic_with_unjudged_pool_units_is_opened_first(judging_db):
    with Store(judging_db) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="ann", grade=2))
        mark_topic(store, "1", "reviewed", assessor="ann")  # three of its four P1 units unjudged
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert (app.session.topic_id, app.session.current.unit_id) == ("1", "d2")
        assert "reopened by P1 (3 unjudged)" in card(app)


async def test_a_topic_reviewed_at_document_level_is_open_in_a_chunk_pool(chunk_db):
    with Store(chunk_db) as store:
        for unit in ("d1", "d2", "d6", "d4"):
            record_judgment(store, Judgment(topic_id="1", unit_id=unit, assessor="ann", grade=1, unit="doc"))
        mark_topic(store, "1", "reviewed", assessor="ann", unit="doc")
    app = make_app(JudgeRequest(db_path=chunk_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert (app.session.topic_id, app.session.current.unit_id) == ("1", "d6#2")
        assert "[unreviewed]" in card(app)
        await pilot.press("2")
        assert "[in_progress]" in card(app)
        await pilot.press("d")  # marks the chunk space, not the documents
    with Store(chunk_db) as store:
        assert [(e.unit, e.reason) for e in store.review_events("1")] == [
            ("doc", "reviewed"),
            ("chunk:w10", "reviewed"),
        ]

"""The judging screen's one-topic review status agrees with the all-topics computation."""

from __future__ import annotations

from labeler.judgments import IN_PROGRESS
from labeler.store import Store
from labeler.workbench import mark_topic, record_judgment, undo
from labeler.workbench.session import topic_review_status
from labeler.workbench.status import topic_review_statuses


def test_one_topic_status_equals_the_bulk_status(db_path):
    with Store(db_path) as store:
        record_judgment(store, "1", "a", assessor="ann", grade=2, allow_unknown=True)
        record_judgment(store, "2", "b", assessor="ann", grade=0, allow_unknown=True)
        mark_topic(store, "2", "no_answer", assessor="ann")
        record_judgment(store, "3", "c", assessor="bob", grade=1, allow_unknown=True)
        mark_topic(store, "3", "reviewed", assessor="bob")
        record_judgment(store, "4", "d", assessor="ann", grade=3, allow_unknown=True)
        mark_topic(store, "4", "reviewed", assessor="ann")
        mark_topic(store, "4", "unreviewed", assessor="ann")
        record_judgment(store, "5", "e", assessor="ann", grade=1, allow_unknown=True)
        undo(store, "ann")
        bulk = topic_review_statuses(store)
        for topic in ("1", "2", "3", "4", "5", "6"):
            assert topic_review_status(store, topic) == bulk.get(topic, IN_PROGRESS), topic

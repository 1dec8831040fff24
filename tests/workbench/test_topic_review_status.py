"""The judging screen's one-topic review status agrees with the all-topics computation."""

from __future__ import annotations

from labeler.judgments.log import IN_PROGRESS
from labeler.store import Store
from labeler.workbench.record_judgments import Judgment, mark_topic, record_judgment, undo
from labeler.workbench.review import topic_review_state
from labeler.workbench.status import topic_review_statuses


def topic_review_status(store: Store, topic_id: str, unit: str | None = None) -> str:
    """The judging screen's one-topic status: only this topic's events and pool units are read."""
    return topic_review_state(store, topic_id, unit).status


def test_one_topic_status_equals_the_bulk_status(db_path):
    with Store(db_path) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id="a", assessor="ann", grade=2, allow_unknown=True))
        record_judgment(store, Judgment(topic_id="2", unit_id="b", assessor="ann", grade=0, allow_unknown=True))
        mark_topic(store, "2", "no_answer", assessor="ann")
        record_judgment(store, Judgment(topic_id="3", unit_id="c", assessor="bob", grade=1, allow_unknown=True))
        mark_topic(store, "3", "reviewed", assessor="bob")
        record_judgment(store, Judgment(topic_id="4", unit_id="d", assessor="ann", grade=3, allow_unknown=True))
        mark_topic(store, "4", "reviewed", assessor="ann")
        mark_topic(store, "4", "unreviewed", assessor="ann")
        record_judgment(store, Judgment(topic_id="5", unit_id="e", assessor="ann", grade=1, allow_unknown=True))
        undo(store, "ann")
        bulk = topic_review_statuses(store)
        for topic in ("1", "2", "3", "4", "5", "6"):
            assert topic_review_status(store, topic) == bulk.get(topic, IN_PROGRESS), topic


def test_one_topic_state_equals_the_bulk_state_with_pools_and_spaces(db_path, tmp_path):
    from labeler.workbench.pools import build_pool
    from labeler.workbench.review import topic_review_state, topic_review_states
    from labeler.workbench.runs import import_run
    from labeler.workbench.status import all_topic_ids

    run = tmp_path / "r.run"
    run.write_text("".join(f"{t} Q0 u{t}-{r} {r} {9 - r} r\n" for t in ("1", "2", "3") for r in (1, 2)))
    with Store(db_path) as store:
        import_run(store, run, "r", allow_unknown=True)
        build_pool(store, 2)
        record_judgment(store, Judgment(topic_id="1", unit_id="u1-1", assessor="ann", grade=2, allow_unknown=True))
        mark_topic(store, "1", "reviewed", assessor="ann")  # one of two pool units unjudged: reopened
        for unit in ("u2-1", "u2-2"):
            record_judgment(store, Judgment(topic_id="2", unit_id=unit, assessor="ann", grade=0, allow_unknown=True))
        mark_topic(store, "2", "no_answer", assessor="ann")
        record_judgment(store, Judgment(topic_id="3", unit_id="u3-1", assessor="ann", grade=1, allow_unknown=True))
        bulk = topic_review_states(store, "doc", topics=all_topic_ids(store))
        assert str(bulk["1"]) == "reopened by P1 (1 unjudged)"
        assert (bulk["2"].status, bulk["3"].status) == ("no_answer", "in_progress")
        for topic in ("1", "2", "3"):
            assert topic_review_state(store, topic) == bulk[topic], topic
            assert topic_review_status(store, topic, "doc") == bulk[topic].status


def test_both_forms_see_a_grade_after_the_mark_and_keep_a_mark_with_nothing_after(db_path, tmp_path):
    """The all-topics form skips reading a topic's events when nothing was graded since its mark; the one-topic
    form reads them: the same function, so the same answer either way."""
    from labeler.workbench.pools import build_pool
    from labeler.workbench.review import topic_review_state, topic_review_states
    from labeler.workbench.runs import import_run
    from labeler.workbench.status import all_topic_ids

    run = tmp_path / "r.run"
    run.write_text("".join(f"{t} Q0 u{t}-{r} {r} {9 - r} r\n" for t in ("1", "2") for r in (1, 2)))
    with Store(db_path) as store:
        import_run(store, run, "r", allow_unknown=True)
        build_pool(store, 2)
        for topic in ("1", "2"):
            for unit in (f"u{topic}-1", f"u{topic}-2"):
                record_judgment(
                    store, Judgment(topic_id=topic, unit_id=unit, assessor="ann", grade=0, allow_unknown=True)
                )
            mark_topic(store, topic, "reviewed", assessor="ann")
        record_judgment(
            store, Judgment(topic_id="1", unit_id="u1-2", assessor="ann", grade=1, allow_unknown=True)
        )  # a new label after the mark
        bulk = topic_review_states(store, "doc", topics=all_topic_ids(store))
        assert (bulk["1"].status, bulk["2"].status) == ("in_progress", "reviewed")
        for topic in ("1", "2"):
            assert topic_review_state(store, topic) == bulk[topic], topic

"""The services apply the id rule themselves, so the TUI and `labeler serve` refuse what the CLI refuses.

The CLI checks its arguments first (to name them); these tests call the services directly, as the
judging screens do, and check that nothing reaches the log or the workbench.
"""

from __future__ import annotations

import pytest

from labeler.ids import InvalidIdError
from labeler.store import Store
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.record_judgments import Judgment, adjudicate, mark_topic, record_judgment, undo
from labeler.workbench.runs import import_run

HOSTILE = [
    ("d1 3\n2 0 forged", "white space (U+0020)"),  # a second qrels line on export
    ("", "is empty"),
    ("d\x1b[2J", "control character (U+001B)"),  # clears the annotator's terminal
    ("d\u202e1", "invisible formatting character (U+202E)"),
]


def event_count(db) -> int:
    with Store(db) as store:
        return len(store.recent_events(limit=100))


@pytest.mark.parametrize(("bad", "fragment"), HOSTILE)
def test_record_judgment_and_adjudicate_refuse_a_hostile_topic_unit_or_assessor(db_path, bad, fragment):
    calls = [
        lambda store: record_judgment(
            store, Judgment(topic_id="1", unit_id=bad, assessor="ann", grade=1, allow_unknown=True)
        ),
        lambda store: record_judgment(
            store, Judgment(topic_id=bad, unit_id="d1", assessor="ann", grade=1, allow_unknown=True)
        ),
        lambda store: record_judgment(
            store, Judgment(topic_id="1", unit_id="d1", assessor=bad, grade=1, allow_unknown=True)
        ),
        lambda store: adjudicate(store, "1", bad, 1, assessor="ann"),
        lambda store: adjudicate(store, bad, "d1", 1, assessor="ann"),
        lambda store: mark_topic(store, bad, "reviewed", assessor="ann"),
        lambda store: mark_topic(store, "1", "reviewed", assessor=bad),
        lambda store: undo(store, bad),
    ]
    with Store(db_path) as store:
        for call in calls:
            with pytest.raises(InvalidIdError) as refused:
                call(store)
            assert fragment in refused.value.reason
    assert event_count(db_path) == 0


def test_a_valid_id_with_hash_and_any_script_is_recorded(db_path):
    with Store(db_path) as store:
        record_judgment(
            store,
            Judgment(topic_id="1", unit_id="msmarco_v2.1_doc_00_0#3_1234", assessor="zoë", grade=1, allow_unknown=True),
        )
        record_judgment(store, Judgment(topic_id="中文", unit_id="d1", assessor="ann", grade=2, allow_unknown=True))
    assert event_count(db_path) == 2


@pytest.mark.parametrize(("name", "fragment"), [("r 1", "white space"), ("r\x9b", "control character"), ("", "empty")])
def test_import_run_refuses_a_hostile_name_before_reading(db_path, write, name, fragment):
    path = write("run.trec", "1 Q0 d1 1 2.0 t\n")
    with Store(db_path) as store:
        with pytest.raises(InvalidIdError, match=f"run name .*{fragment}"):
            import_run(store, path, name)
        assert store.run_names() == []


@pytest.mark.parametrize(
    ("name", "fragment"), [("w 10", "white space"), ("w:10", "may not hold ':'"), ("w\u200b", "invisible formatting")]
)
def test_a_chunking_name_obeys_the_id_rule_and_holds_no_colon(db_path, write, name, fragment):
    corpus = write("c.tsv", "d1\tone two three\n")
    with Store(db_path) as store:
        import_corpus(store, corpus)
        with pytest.raises(InvalidIdError, match=f"chunking name .*{fragment}"):
            chunk_corpus(store, name, size=2, overlap=0)
        assert store.chunking(name) is None

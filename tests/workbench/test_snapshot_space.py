"""The service's choice of unit space, as the TUI uses it (`default_unit`: the space being judged)."""

from __future__ import annotations

import pytest

from labeler.errors import LabelerError, argument_hint
from labeler.store import Store
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.snapshots import create_snapshot

CORPUS = "d1\tone two three four\nd2\tfive six seven eight\n"


@pytest.fixture
def two_chunkings(run_cli, write):
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run_cli("corpus", "chunk", "--name", "w3", "--size", "3")
    return run_cli.db


def judge(db, unit: str, unit_id: str, grade: int = 1) -> None:
    with Store(db) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id=unit_id, grade=grade, assessor="ann", unit=unit))


def test_the_space_being_judged_is_taken_when_several_have_labels(two_chunkings):
    judge(two_chunkings, "doc", "d1")
    judge(two_chunkings, "chunk:w2", "d1#0")
    with Store(two_chunkings) as store:
        assert create_snapshot(store, "tui", default_unit="chunk:w2").unit == "chunk:w2"
        with pytest.raises(LabelerError, match=r"doc \(1 label\), chunk:w2 \(1 label\)$") as refused:
            create_snapshot(store, "cli")
        assert refused.value.hints == (argument_hint("unit", "doc|chunk:w2", why="to say which to freeze"),)


def test_a_space_being_judged_without_labels_gives_way_to_the_one_that_has_them(two_chunkings):
    judge(two_chunkings, "doc", "d1")
    with Store(two_chunkings) as store:
        assert create_snapshot(store, "tui", default_unit="chunk:w3").unit == "doc"


def test_several_spaces_and_the_judged_one_empty_is_refused(two_chunkings):
    judge(two_chunkings, "doc", "d1")
    judge(two_chunkings, "chunk:w2", "d1#0")
    with Store(two_chunkings) as store:
        with pytest.raises(LabelerError, match="labels exist in 2 unit spaces"):
            create_snapshot(store, "tui", default_unit="chunk:w3")
        assert store.snapshots() == []


def test_no_labels_anywhere_freezes_the_judged_space(two_chunkings):
    with Store(two_chunkings) as store:
        result = create_snapshot(store, "empty", default_unit="chunk:w3")
    assert (result.unit, result.labels, result.new) == ("chunk:w3", 0, True)

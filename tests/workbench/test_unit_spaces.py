"""The rule of `labeler.workbench.unit_spaces`, case by case: the unit asked, the ids' own space, the space held."""

from __future__ import annotations

import pytest

from labeler.errors import BadArgumentError, LabelerError, UnknownIdError, argument_hint
from labeler.store import Store
from labeler.workbench.pools import build_pool
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.unit_spaces import held_spaces, refuse_foreign, write_space

CORPUS = "d1\tone two three four five six\nd2\tseven eight\n"  # d1#2 is w2's alone (w3: d1#0, d1#1)
CHUNK_RUN = "1 Q0 d1#0 1 9 c\n1 Q0 d2#0 2 8 c\n"
DOC_RUN = "1 Q0 d1 1 9 d\n1 Q0 d2 2 8 d\n"


@pytest.fixture
def bench(run_cli, write):
    """Documents, two chunkings (w2, w3), a chunk run of w2 and a document run; no pool, no judgment."""
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run_cli("corpus", "chunk", "--name", "w3", "--size", "3")
    run_cli("runs", "import", write("c.run", CHUNK_RUN), "--name", "chunks", "--unit", "chunk:w2")
    run_cli("runs", "import", write("d.run", DOC_RUN), "--name", "docs")
    with Store(run_cli.db) as store:
        yield store


def judge(store: Store, unit_id: str, unit: str) -> None:
    record_judgment(store, Judgment(topic_id="1", unit_id=unit_id, grade=1, assessor="ann", unit=unit))


def test_chunkings_and_runs_alone_hold_no_space_and_doc_is_the_default(bench):
    assert held_spaces(bench) == []
    assert write_space(bench, None) == "doc"


def test_one_space_held_is_the_space(bench):
    build_pool(bench, 2, runs=["chunks"])
    assert held_spaces(bench) == ["chunk:w2"]
    assert write_space(bench, None) == "chunk:w2"


def test_several_spaces_held_are_refused_with_their_counts_and_the_choices(bench):
    build_pool(bench, 2, runs=["chunks"])
    judge(bench, "d1", "doc")
    with pytest.raises(LabelerError) as refused:
        write_space(bench, None, why="to say which")
    assert refused.value.reason == (
        "the workbench holds 2 unit spaces: doc (1 run, 0 pools, 1 label), chunk:w2 (1 run, 1 pool, 0 labels); "
        "which one is not clear"
    )
    assert refused.value.hints == (argument_hint("unit", "doc|chunk:w2", why="to say which"),)


def test_the_unit_asked_for_wins_and_is_checked(bench):
    judge(bench, "d1", "doc")
    judge(bench, "d1#0", "chunk:w2")
    assert write_space(bench, "chunk:w3") == "chunk:w3"
    with pytest.raises(BadArgumentError, match="no chunking named 'w9'"):
        write_space(bench, "chunk:w9")


@pytest.mark.parametrize(
    ("ids", "space"),
    [
        (["d1", "d2"], "doc"),  # every id a document
        (["d1#2"], "chunk:w2"),  # a chunk only w2 has (w3 cuts d2 into d2#0, d2#1)
        (["d1", "nowhere"], "doc"),  # an id nobody knows decides nothing
    ],
)
def test_the_ids_decide_when_they_belong_to_one_space(bench, ids, space):
    judge(bench, "d1", "doc")
    judge(bench, "d1#0", "chunk:w2")  # two spaces held: only the ids can say
    assert write_space(bench, None, ids=[ids]) == space


def test_ids_two_chunkings_share_go_to_the_one_held(bench):
    judge(bench, "d1#0", "chunk:w2")
    assert write_space(bench, None, ids=[["d1#0", "d1#1"]]) == "chunk:w2"


def test_ids_two_chunkings_share_and_neither_held_are_refused(bench):
    with pytest.raises(LabelerError, match=r"2 chunks of w2 \(chunk:w2\), 2 chunks of w3 \(chunk:w3\)$"):
        write_space(bench, None, ids=[["d1#0", "d1#1"]])


def test_ids_of_two_held_spaces_are_refused(bench):
    judge(bench, "d1", "doc")
    judge(bench, "d1#0", "chunk:w2")
    with pytest.raises(LabelerError, match=r"1 document \(doc\), 1 chunk of w2 \(chunk:w2\)$") as refused:
        write_space(bench, None, ids=[["d2"], ["d1#2"]])
    assert refused.value.hints[0].value == "doc|chunk:w2"


def test_ids_of_another_space_are_refused_as_unknown_and_named(bench):
    with pytest.raises(UnknownIdError, match=r"^2 ids are documents of this workbench \(unit doc\), not chunks of w2$"):
        refuse_foreign(bench, "chunk:w2", ["d1", "d2"])
    with pytest.raises(UnknownIdError, match=r"^1 id is a chunk of w2 of this workbench \(unit chunk:w2\), not a doc"):
        refuse_foreign(bench, "doc", ["d1#2"])
    refuse_foreign(bench, "doc", ["nowhere"])  # an id nobody holds may be accepted


def test_a_judgment_accepted_as_unknown_is_never_filed_in_another_space(bench):
    with pytest.raises(UnknownIdError, match="not a chunk of w2"):
        record_judgment(
            bench, Judgment(topic_id="1", unit_id="d1", grade=1, assessor="ann", unit="chunk:w2", allow_unknown=True)
        )
    assert bench.unit_spaces() == []
    record_judgment(
        bench, Judgment(topic_id="1", unit_id="elsewhere", grade=1, assessor="ann", unit="chunk:w2", allow_unknown=True)
    )
    assert bench.unit_spaces() == ["chunk:w2"]

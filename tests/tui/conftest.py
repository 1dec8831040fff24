"""A small judging workbench for UI tests: 3 topics, 12 documents, a chunking, doc and chunk runs, a pool."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import new_workbench

from labeler.store import Store
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

DOCS = {
    "d1": ("Maize pests", "Fall armyworm caterpillars eat maize leaves.\n\nFarmers scout fields weekly."),
    "d2": ("Stored grain", "Weevils damage stored maize grain.\n\nHermetic bags stop them."),
    "d3": ("Milk fever", "Milk fever is low blood calcium in dairy cows after calving."),
    "d4": ("Cheese", "Cheese is made from milk with starter cultures."),
    "d5": ("Pulsars", "Pulsars are rotating neutron stars."),
    "d6": (
        "Long maize history",
        "Maize was domesticated in Mexico. It spread north and south over centuries. "
        "Farmers selected larger cobs. Pests followed the crop everywhere. Armyworm arrived in Africa in 2016. "
        "It spread to Asia soon after. Control relies on scouting and biological agents.",
    ),
}
TOPICS = (
    "1\tmaize pests\tHow to control pests of maize?\tA relevant document names a pest and a control.\n"
    "2\tmilk fever\tWhat is milk fever in cows?\tExplains the disease.\n"
    "3\tpulsar discovery\tWho discovered pulsars?\tNames the discoverer.\n"
)
RUN = (
    "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d6 3 7 r\n1 Q0 d4 4 6 r\n"
    "2 Q0 d3 1 9 r\n2 Q0 d4 2 8 r\n"
    "3 Q0 d5 1 9 r\n3 Q0 d4 2 8 r\n"
)


def _write_inputs(folder: Path) -> None:
    corpus = "".join(json.dumps({"id": k, "title": t, "text": x}) + "\n" for k, (t, x) in DOCS.items())
    (folder / "corpus.jsonl").write_text(corpus)
    (folder / "topics.tsv").write_text(TOPICS)
    (folder / "run.txt").write_text(RUN)


@pytest.fixture(autouse=True)
def freeze_without_collecting(request, monkeypatch):
    """The judging screen's `gc_policy.settle` freezes without its full collection, except in test_gc_policy.

    The collection is for a real session's start (about 0.2 s, once); in the test process it walks
    pytest's and every earlier test's objects too, about 0.5 s of CPU per app (a third of the UI
    tests' CPU). The freeze is kept, so each app runs as in a session; test_gc_policy
    (`REAL_GC_POLICY`) checks the policy itself.
    """
    if getattr(request.module, "REAL_GC_POLICY", False):
        return
    import gc

    from labeler.tui import gc_policy

    monkeypatch.setattr(gc_policy, "settle", gc.freeze)


@pytest.fixture(scope="session")
def judging_template(tmp_path_factory) -> Path:
    """The judging workbench, built once per session and settled (no -wal or -shm) for copying."""
    folder = tmp_path_factory.mktemp("judging-template")
    db = new_workbench(folder / "judge.db")
    _write_inputs(folder)
    with Store(db) as store:
        import_corpus(store, folder / "corpus.jsonl")
        import_topics(store, folder / "topics.tsv")
        import_run(store, folder / "run.txt", "bm25")
        build_pool(store, 4)
    Store(db).close()  # the last connection checkpoints the WAL and removes its files
    assert sorted(p.name for p in folder.glob("judge.db*")) == ["judge.db"]
    return db


@pytest.fixture
def judging_db(tmp_path, judging_template):
    """A workbench with a depth-4 document pool: topic 1 has d1 d2 d6 d4 (in that order).

    Each test gets its own copy of the session's template, beside the input files it was built from.
    """
    _write_inputs(tmp_path)
    db = tmp_path / "judge.db"
    shutil.copyfile(judging_template, db)
    return db


@pytest.fixture
def chunk_db(tmp_path, judging_db):
    """The same workbench plus a 10-word chunking and a chunk-level pool of one chunk of d6."""
    with Store(judging_db) as store:
        chunk_corpus(store, "w10", size=10, overlap=0)
        (tmp_path / "chunks.txt").write_text("1 Q0 d6#2 1 9 c\n")
        import_run(store, tmp_path / "chunks.txt", "chunks", unit="chunk:w10")
        build_pool(store, 1, runs=["chunks"])
    return judging_db


@pytest.fixture
def answers_db(judging_db):
    """The same workbench plus run rag1's answers to topics 1 and 2 and their nuggets: `(db, topic -> nugget ids)`."""
    from answers.judged_answers import add_judged_answers

    with Store(judging_db) as store:
        nuggets = add_judged_answers(store)
    return judging_db, nuggets

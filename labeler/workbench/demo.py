"""The demo: the whole workflow on sample_corpus/, each step reported as data for the front end to word.

It builds a fresh workbench: corpus, a chunking, topics, built-in retrievers
at document and chunk level and at two stages, the sample's partial prior
judgments as snapshot v1, and a depth-10 pool whose unjudged units are ready
to judge. Each step calls the same workbench function a user's command would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import labeler
from labeler.errors import BadArgumentError, LabelerError
from labeler.json_form import JsonResult, json_field
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.init import init_workbench
from labeler.workbench.pools import build_pool
from labeler.workbench.record_judgments import import_judgments
from labeler.workbench.retrieve import RetrieveRequest, retrieve_run
from labeler.workbench.snapshots import create_snapshot
from labeler.workbench.topics import import_topics

# (run name, retriever, unit, depth, stage): three retrievers at document level, one at chunk level,
# and the same retriever at two stages (100 candidates, 5 passed on as context)
DEMO_RUNS = (
    ("fts5", "fts5", "doc", 100, "candidate"),
    ("bm25s", "bm25s", "doc", 100, "candidate"),
    ("ql", "ql", "doc", 100, "candidate"),
    ("fts5-chunks", "fts5", "chunk:w100", 100, "candidate"),
    ("fts5-context", "fts5", "doc", 5, "context"),
)


def sample_corpus_dir() -> Path:
    """The sample corpus the package ships (labeler/sample_corpus/; a checkout's sample_corpus/ links to it)."""
    folder = Path(labeler.__file__).resolve().parent / "sample_corpus"
    if not (folder / "corpus.jsonl").exists():
        raise LabelerError(f"the sample corpus is missing from the installed package ({folder}): reinstall labeler")
    return folder


def default_demo_dir() -> Path:
    return Path.cwd() / f"labeler-demo-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


@dataclass(frozen=True)
class DemoStep:
    """One step of the demo as data: the use case called, its arguments in call order, and what it gave.

    The front end words it (the CLI as the command a user would type); `arguments` holds only
    those a user would give, values as text.
    """

    action: str
    arguments: tuple[tuple[str, str], ...]
    outcome: str


@dataclass(frozen=True)
class DemoBuilt(JsonResult):
    """`build_demo`'s result: the demo workbench's file and the folder it was built in."""

    db: Path = json_field(encode=str)
    folder: Path = json_field(encode=str)


def build_demo(folder: Path, say: Callable[[DemoStep], None]) -> DemoBuilt:
    """Build the demo workbench in `folder`; `say(step)` reports each step as it is done."""
    sample = sample_corpus_dir()
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "demo.db"
    if db.exists():
        raise BadArgumentError(f"a demo workbench exists here already ({db}): choose a new folder", argument="dir")
    init_workbench(db)
    say(DemoStep("init", (), "a new workbench with the default 0-3 scale (relevant from 1)"))
    with Store(db) as store:
        documents = import_corpus(store, sample / "corpus.jsonl")
        say(DemoStep("import_corpus", (("path", str(sample / "corpus.jsonl")),), plural(documents.added, "document")))
        topics = import_topics(store, sample / "topics.jsonl")
        say(DemoStep("import_topics", (("path", str(sample / "topics.jsonl")),), plural(topics.added, "topic")))
        chunking = chunk_corpus(store, "w100", size=100, overlap=20)
        say(
            DemoStep(
                "chunk_corpus",
                (("name", "w100"), ("size", "100"), ("chunk_overlap", "20")),
                f"{plural(chunking.chunks, 'chunk')} of {plural(chunking.documents, 'document')}",
            )
        )
        for name, retriever, unit, depth, stage in DEMO_RUNS:
            run = retrieve_run(
                store, RetrieveRequest(retriever=retriever, name=name, unit=unit, depth=depth, stage=stage)
            )
            say(
                DemoStep(
                    "retrieve_run",
                    (("retriever", retriever), ("name", name), ("unit", unit), ("depth", str(depth)), ("stage", stage)),
                    f"{plural(run.entries, 'result')} for {plural(run.topics, 'topic')}",
                )
            )
        imported = import_judgments(store, sample / "prior.qrels", assessor="prior", reviewed=True, unit="doc")
        say(
            DemoStep(
                "import_judgments",
                (("path", str(sample / "prior.qrels")), ("assessor", "prior"), ("reviewed", "")),
                f"{plural(imported.judgments, 'earlier judgment')} of {plural(imported.topics, 'topic')}",
            )
        )
        snapshot = create_snapshot(store, "prior judgments", unit="doc")
        say(
            DemoStep(
                "create_snapshot",
                (("message", "prior judgments"),),
                f"{snapshot.snapshot}: {plural(snapshot.labels, 'label')}",
            )
        )
        pool = build_pool(store, 10, unit="doc")
        say(
            DemoStep(
                "build_pool",
                (("depth", "10"), ("unit", "doc")),
                f"{pool.pool}: {plural(pool.pairs, 'pair')}, {pool.added_judged} already judged, "
                f"{pool.unjudged} to judge",
            )
        )
    return DemoBuilt(db=db, folder=folder)

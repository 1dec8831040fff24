"""`labeler demo`: the whole workflow on sample_corpus/, each step printed as the command a user would type.

It builds a fresh workbench: corpus, a chunking, topics, built-in retrievers
at document and chunk level and at two stages, the sample's partial prior
judgments as snapshot v1, and a depth-10 pool whose unjudged units are ready
to judge. Each step calls the same workbench function as the command shown.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import labeler
from labeler.errors import LabelerError
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.judging import import_judgments
from labeler.workbench.pools import build_pool
from labeler.workbench.retrieve import retrieve_run
from labeler.workbench.setup import init_workbench
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
    """sample_corpus/ beside the package (a source checkout or an editable install)."""
    folder = Path(labeler.__file__).resolve().parents[1] / "sample_corpus"
    if not (folder / "corpus.jsonl").exists():
        raise LabelerError(
            f"sample_corpus/ not found at {folder}: run the demo from a checkout of labeler (pip install -e .)"
        )
    return folder


def default_demo_dir() -> Path:
    return Path.cwd() / f"labeler-demo-{datetime.now().strftime('%Y%m%d-%H%M%S')}"


def build_demo(folder: Path, say: Callable[[str, str], None]) -> dict[str, Any]:
    """Build the demo workbench in `folder`; `say(command, result)` reports each step."""
    sample = sample_corpus_dir()
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "demo.db"
    if db.exists():
        raise LabelerError("a demo workbench exists here already: pass a new --dir", path=db)
    prefix = f"labeler --db {db}"
    init_workbench(db)
    say(f"{prefix} init", "a new workbench with the default 0-3 scale (relevant from 1)")
    with Store(db) as store:
        result = import_corpus(store, sample / "corpus.jsonl")
        say(f"{prefix} corpus import {sample / 'corpus.jsonl'}", plural(result['added'], 'document'))
        result = import_topics(store, sample / "topics.jsonl")
        say(f"{prefix} topics import {sample / 'topics.jsonl'}", plural(result['added'], 'topic'))
        result = chunk_corpus(store, "w100", size=100, overlap=20)
        say(
            f"{prefix} corpus chunk --name w100 --size 100 --overlap 20",
            f"{plural(result['chunks'], 'chunk')} of {plural(result['documents'], 'document')}",
        )
        for name, retriever, unit, depth, stage in DEMO_RUNS:
            result = retrieve_run(store, retriever, name, unit=unit, depth=depth, stage=stage)
            say(
                f"{prefix} runs retrieve --retriever {retriever} --name {name} --unit {unit} --depth {depth} "
                f"--stage {stage}",
                f"{plural(result['entries'], 'result')} for {plural(result['topics'], 'topic')}",
            )
        imported = import_judgments(store, sample / "prior.qrels", assessor="prior", reviewed=True, unit="doc")
        say(
            f"{prefix} judgments import {sample / 'prior.qrels'} --assessor prior --reviewed",
            f"{plural(imported.judgments, 'earlier judgment')} of {plural(imported.topics, 'topic')}",
        )
        result = create_snapshot(store, "prior judgments", unit="doc")
        say(
            f"{prefix} snapshot create -m 'prior judgments'",
            f"{result['snapshot']}: {plural(result['labels'], 'label')}",
        )
        result = build_pool(store, 10, unit="doc")
        say(
            f"{prefix} pool build --depth 10 --unit doc",
            f"{result['pool']}: {plural(result['pairs'], 'pair')}, {result['added_judged']} already judged, "
            f"{result['unjudged']} to judge",
        )
    return {"db": str(db), "folder": str(folder)}

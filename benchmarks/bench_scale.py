"""Benchmark: the whole workbench at real sizes, from corpus import to the judging UI.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_scale.py [--docs 1000000] [--chunks-per-doc 4] [--topics 5000] [--depth 1000]
                                     [--runs 10] [--pool-depth 100] [--qrels-per-topic 20] [--judgments 300]
                                     [--lines 100M] [--quick] [--reuse] [--only TASK ...] [--trectools-topics N]
                                     [--profile TASK] [--out DIR]

It generates, seeded, into benchmarks/data/scale/<sizes>/ (reused while its
params.json matches): a corpus of `--docs` short synthetic documents whose
word counts give exactly `--chunks-per-doc` chunks at 30 words; `--topics`
topics (ids 1..N, three-word titles); `--runs` TREC runs of `--depth` results
per topic ranking corpus documents (each topic has 1,500 candidate documents in
a latent order that every run follows with its own noise, plus random others,
so runs overlap near the top as real runs do); and `--qrels-per-topic` graded
judgments per topic (at least one relevant each), mostly of top candidates.

Then it builds one workbench, step by step, each step in a fresh Python
subprocess (so each peak RSS, `_common.peak_rss_mb()`, is that step's
alone; the time is taken inside the child around the labeler call):
topics, corpus (`import_corpus`), chunking (`chunk_corpus`, 30 words, no
overlap), runs (`import_run` of every file, unit ids checked against the
corpus), the pool (`build_pool`, depth `--pool-depth`), judgments
(`import_judgments(..., reviewed=True)` and `create_snapshot`; the pool holds more than the
qrels, so those topics are `reopened`, and the measuring tasks pass `include_reopened=True` to score
them all). On that
workbench it measures `status`, `evaluate_runs` (one run with four measures,
and all runs with the default measures), `coverage_report`, and the judging UI
(`make_app` driven by Textual's Pilot: `--judgments` grade keys in a row; the
figure is `JudgeScreen.latencies`, from the key's action to the next unit
drawn). Beside them: trectools pooling (`TrecRun` + `TrecPoolMaker().make_pool(
runs, strategy="topX", topX=pool depth)`) on the first `--trectools-topics`
topics of the same run files, and ir_measures scoring one run from its file.

`--lines N` (`100M`, `5M`, `50000000`) sets the topics to N / (runs x depth), so
`--lines 100M` is 10 runs x 10,000 topics x 1,000 results (the corpus keeps
`--docs`). Data generation is reported as its own step (`generate`: the
seconds, the lines and the largest peak RSS of its worker processes).

Beside the SQLite path, two tasks measure the Parquet path (`pip install
'relevance-labeler[parquet]'`): `parquet_export` writes every run with
`export_run_parquet` into DATA/.../parquet/, and `eval_parquet` scores all
runs (default measures, per topic) both ways in one process, interleaved
(SQLite, Parquet, x3; medians of the wall and CPU seconds), and says whether
the two `--json` reports are identical.

`--quick` divides documents and topics by 10 (100,000 documents, 500 topics;
runs keep their depth, so 5,000,000 run lines). `--reuse` keeps a workbench
already built with the same parameters and measures only the tasks on it.
Results are printed as a table and written as JSON to DIR/scale.json (default
benchmarks/out/, scale-quick.json with --quick). With --profile TASK, cProfile
runs around that task's labeler call and the top functions go to
DIR/scale_profile_TASK.txt.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

import _common
from _common import machine, now_iso, peak_rss_mb, vocabulary

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = _common.DATA / "scale"
GENERATOR_VERSION = 1
SEED = 11
CANDIDATES = 1_500  # per-topic documents in a latent order that every run follows, with noise
CHUNK_WORDS = 30
CHUNKING = "w30"
ASSESSOR = "prior"
EVAL_MEASURES = "nDCG@10 R@100 AP P@10"  # the four ir_measures computes for one run
IR_MEASURES_NAMES = {"nDCG@10": "nDCG@10", "R@100": "R@100", "AP": "AP", "P@10": "P@10"}
TARGET_POOL_SPEEDUP = 10.0
TARGET_UI_P95_MS = 50.0
GRADE_WEIGHTS = {0: 60, 1: 20, 2: 12, 3: 8}  # the grade keys pressed in the UI

BUILD_TASKS = ["topics", "corpus", "chunk", "runs", "pool", "judgments"]
MEASURE_TASKS = [
    "status",
    "eval_one",
    "eval_all",
    "coverage",
    "parquet_export",
    "eval_parquet",
    "ui",
    "trectools",
    "ir_measures",
]


# -- data -----------------------------------------------------------------------


def params_for(args: argparse.Namespace) -> dict:
    return {
        "generator_version": GENERATOR_VERSION,
        "seed": SEED,
        "docs": args.docs,
        "chunks_per_doc": args.chunks_per_doc,
        "topics": args.topics,
        "depth": args.depth,
        "runs": args.runs,
        "qrels_per_topic": args.qrels_per_topic,
        "candidates_per_topic": CANDIDATES,
    }


def data_dir(params: dict) -> Path:
    return DATA / (
        f"d{params['docs']}-c{params['chunks_per_doc']}-t{params['topics']}-k{params['depth']}"
        f"-r{params['runs']}-q{params['qrels_per_topic']}"
    )


def doc_id(number: int, docs: int) -> str:
    return f"D{number:0{max(7, len(str(docs - 1)))}d}"


def topic_candidates(qid: str, docs: int) -> list[int]:
    """A topic's candidate documents, most relevant first (the same list in every process)."""
    return random.Random(f"{SEED}:topic:{qid}").sample(range(docs), min(CANDIDATES, docs))


def generate_corpus(folder: str, params: dict) -> dict:
    """Documents of 30*(c-1)+1 .. 30*c words, so that 30-word chunks give exactly c per document; topics."""
    rng = random.Random(f"{SEED}:corpus")
    vocab = vocabulary(rng)
    docs, per_doc = params["docs"], params["chunks_per_doc"]
    low, high = CHUNK_WORDS * (per_doc - 1) + 1, CHUNK_WORDS * per_doc
    words = 0
    with open(Path(folder) / "corpus.jsonl", "w", encoding="utf-8", newline="\n") as out:
        batch = []
        for number in range(docs):
            count = rng.randint(low, high)
            words += count
            text = " ".join(rng.choices(vocab, k=count))
            cut = rng.randint(count // 3, 2 * count // 3)  # two sentences
            parts = text.split(" ")
            text = " ".join(parts[:cut]).capitalize() + ". " + " ".join(parts[cut:]).capitalize() + "."
            title = " ".join(rng.choices(vocab, k=4)).capitalize()
            batch.append(json.dumps({"id": doc_id(number, docs), "title": title, "text": text}))
            if len(batch) == 10_000:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")
    with open(Path(folder) / "topics.tsv", "w", encoding="utf-8", newline="\n") as out:
        for topic in range(1, params["topics"] + 1):
            out.write(f"{topic}\t{' '.join(rng.sample(vocab, 3))}\n")
    return {"documents": docs, "words": words}


def generate_qrels(folder: str, params: dict) -> dict:
    """Per topic: most judgments among the top 60 candidates, the rest deeper; at least one relevant."""
    docs, per_topic = params["docs"], params["qrels_per_topic"]
    lines = 0
    with open(Path(folder) / "qrels.txt", "w", encoding="utf-8", newline="\n") as out:
        for topic in range(1, params["topics"] + 1):
            qid = str(topic)
            candidates = topic_candidates(qid, docs)
            rng = random.Random(f"{SEED}:qrels:{qid}")
            top = min(60, len(candidates))
            near = min(per_topic * 3 // 4, top)
            chosen = [(i, candidates[i]) for i in rng.sample(range(top), near)]
            deep = list(range(top, min(600, len(candidates))))
            chosen += [(i, candidates[i]) for i in rng.sample(deep, min(per_topic - near, len(deep)))]
            grades = [
                rng.choices([0, 1, 2, 3], weights=[40, 30, 20, 10] if i < 60 else [85, 10, 4, 1])[0] for i, _ in chosen
            ]
            if not any(grades):
                grades[0] = 1
            for (_, doc), grade in zip(chosen, grades, strict=True):
                out.write(f"{qid} 0 {doc_id(doc, docs)} {grade}\n")
                lines += 1
    return {"qrels": lines}


def generate_run(folder: str, params: dict, run_index: int) -> dict:
    """One run: per topic, the candidates in the latent order plus this run's noise, mixed with random documents.

    Ids are distinct within a topic's ranking; scores descend with ties (about
    one step in eight repeats the previous score); ranks follow the file order.
    """
    rng = random.Random(f"{SEED}:run:{run_index}")
    docs, depth = params["docs"], params["depth"]
    spread = rng.uniform(20.0, 60.0)  # how far this run's order strays from the latent one
    tag = f"scale{run_index:02d}"
    width = max(7, len(str(docs - 1)))
    lines = 0
    with open(Path(folder) / f"run{run_index:02d}.trec", "w", encoding="utf-8", newline="\n") as out:
        for topic in range(1, params["topics"] + 1):
            qid = str(topic)
            candidates = topic_candidates(qid, docs)
            gauss = rng.gauss
            keyed = sorted((i + gauss(0.0, spread), doc) for i, doc in enumerate(candidates))
            likely = iter([doc for _, doc in keyed])
            share = rng.uniform(0.75, 0.95)
            seen: set[int] = set()
            ranking: list[int] = []
            uniform = rng.random
            while len(ranking) < depth:
                doc = next(likely, None) if uniform() < share else None
                if doc is None:
                    doc = rng.randrange(docs)
                if doc not in seen:
                    seen.add(doc)
                    ranking.append(doc)
            score = rng.uniform(20.0, 30.0)
            parts = []
            for rank, doc in enumerate(ranking, 1):
                parts.append(f"{qid} Q0 D{doc:0{width}d} {rank} {score:.4f} {tag}\n")
                if uniform() >= 0.125:
                    score -= rng.uniform(0.0001, 0.02)
            out.write("".join(parts))
            lines += len(parts)
    return {"run": run_index, "lines": lines}


def _generate_part(job: tuple) -> dict:
    kind, folder, params, extra = job
    if kind == "corpus":
        part = generate_corpus(folder, params)
    elif kind == "qrels":
        part = generate_qrels(folder, params)
    else:
        part = generate_run(folder, params, extra)
    return {**part, "peak_rss_mb": peak_rss_mb()}  # the worker's peak so far (it may have run other parts)


def run_paths(folder: Path, runs: int) -> list[Path]:
    return [folder / f"run{i:02d}.trec" for i in range(runs)]


def ensure_data(params: dict, console) -> tuple[Path, float | None]:
    """The data folder, generated (on all CPUs) unless present with the same parameters; and the time taken."""
    folder = data_dir(params)
    marker = folder / "params.json"
    if marker.exists():
        try:
            if json.loads(marker.read_text()) == params:
                return folder, None
        except ValueError:
            pass
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    console.print(f"Generating the data into {folder} (once; reused while params.json matches) ...")
    start = time.perf_counter()
    jobs = [("corpus", str(folder), params, None)] + [("run", str(folder), params, i) for i in range(params["runs"])]
    jobs.append(("qrels", str(folder), params, None))
    with multiprocessing.Pool(max(1, min(os.cpu_count() or 1, len(jobs)))) as workers:
        parts = workers.map(_generate_part, jobs, chunksize=1)
    elapsed = time.perf_counter() - start
    (folder / "generated.json").write_text(json.dumps({"seconds": elapsed, "parts": parts}, indent=2) + "\n")
    marker.write_text(json.dumps(params, indent=2) + "\n")
    return folder, elapsed


def parse_lines(text: str) -> int:
    """`100M`, `5M`, `500k` or a plain number of run lines."""
    scale = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}.get(text[-1:].lower(), 1)
    return int(float(text[:-1] if scale > 1 else text) * scale)


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))


def subset_runs(folder: Path, runs: int, topics: int, depth: int) -> list[Path]:
    """The first `topics` topics of each run file (they are written topic by topic), for trectools."""
    target = folder / f"first{topics}"
    paths = [target / p.name for p in run_paths(folder, runs)]
    if all(p.exists() for p in paths):
        return paths
    target.mkdir(exist_ok=True)
    keep = topics * depth
    for source, path in zip(run_paths(folder, runs), paths, strict=True):
        with open(source, encoding="utf-8") as handle, open(path.with_suffix(".part"), "w", encoding="utf-8") as out:
            for number, line in enumerate(handle):
                if number >= keep:
                    break
                out.write(line)
        path.with_suffix(".part").rename(path)
    return paths


# -- the tasks, each run in a fresh child process ------------------------------------


def profiled(args: dict, task: str, call):
    """Run `call()`, under cProfile when this task is the one asked for; the top lines go to a file."""
    if args.get("profile") != task:
        return call()
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        return call()
    finally:
        profiler.disable()
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text).strip_dirs()
        stats.sort_stats("cumulative").print_stats(35)
        stats.sort_stats("tottime").print_stats(20)
        out = Path(args["out"])
        out.mkdir(parents=True, exist_ok=True)
        (out / f"scale_profile_{task}.txt").write_text(text.getvalue())


def plain(result):
    """A workbench result as its `--json` shape (the use cases return frozen dataclasses with `to_json`)."""
    return result.to_json() if hasattr(result, "to_json") else result


def timed(args: dict, task: str, call) -> tuple[object, float]:
    start = time.perf_counter()
    result = profiled(args, task, call)
    return plain(result), time.perf_counter() - start


def task_topics(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.init import init_workbench
    from labeler.workbench.topics import import_topics

    init_workbench(args["db"])  # not timed
    with Store(args["db"]) as store:
        result, seconds = timed(args, "topics", lambda: import_topics(store, Path(args["data"]) / "topics.tsv"))
    return {"seconds": seconds, "items": result["added"], "peak_rss_mb": peak_rss_mb()}


def task_corpus(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.corpus import import_corpus

    with Store(args["db"]) as store:
        result, seconds = timed(args, "corpus", lambda: import_corpus(store, Path(args["data"]) / "corpus.jsonl"))
    return {"seconds": seconds, "items": result["added"], "peak_rss_mb": peak_rss_mb()}


def task_chunk(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.corpus import chunk_corpus

    with Store(args["db"]) as store:
        result, seconds = timed(args, "chunk", lambda: chunk_corpus(store, CHUNKING, size=CHUNK_WORDS, overlap=0))
    return {
        "seconds": seconds,
        "items": result["chunks"],
        "documents": result["documents"],
        "peak_rss_mb": peak_rss_mb(),
    }


def task_runs(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.runs import import_run

    per_run = []
    lines = 0
    with Store(args["db"]) as store:

        def import_all() -> None:
            nonlocal lines
            for index in range(args["runs"]):
                start = time.perf_counter()
                result = plain(import_run(store, Path(args["data"]) / f"run{index:02d}.trec", f"r{index:02d}"))
                per_run.append(time.perf_counter() - start)
                lines += result["lines"]

        _, seconds = timed(args, "runs", import_all)
    return {"seconds": seconds, "items": lines, "per_run_seconds": per_run, "peak_rss_mb": peak_rss_mb()}


def task_pool(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.pools import build_pool

    with Store(args["db"]) as store:
        result, seconds = timed(args, "pool", lambda: build_pool(store, args["pool_depth"]))
    return {
        "seconds": seconds,
        "items": result["pairs"],
        "pool": result["pool"],
        "topics": len(result["per_topic"]),
        "unjudged": result["unjudged"],
        "peak_rss_mb": peak_rss_mb(),
    }


def task_judgments(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.record_judgments import import_judgments
    from labeler.workbench.snapshots import create_snapshot

    with Store(args["db"]) as store:
        imported, import_seconds = timed(
            args,
            "judgments",
            lambda: import_judgments(store, Path(args["data"]) / "qrels.txt", assessor=ASSESSOR, reviewed=True),
        )
        snapshot, snapshot_seconds = timed(args, "snapshot", lambda: create_snapshot(store, "bench_scale qrels"))
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {
        "seconds": import_seconds + snapshot_seconds,
        "items": imported["judgments"],
        "import_seconds": import_seconds,
        "snapshot_seconds": snapshot_seconds,
        "snapshot": snapshot["snapshot"],
        "labels": snapshot["labels"],
        "peak_rss_mb": peak_rss_mb(),
    }


def task_status(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.status import status

    with Store(args["db"]) as store:
        result, seconds = timed(args, "status", lambda: status(store))
    return {
        "seconds": seconds,
        "items": len(result["topics"]),
        "totals": result["totals"],
        "peak_rss_mb": peak_rss_mb(),
    }


def task_eval_one(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs

    with Store(args["db"]) as store:
        report, seconds = timed(
            args,
            "eval_one",
            lambda: evaluate_runs(store, EvalRequest(runs=["r00"], measures=EVAL_MEASURES, include_reopened=True)),
        )
    run = report["runs"][0]
    return {
        "seconds": seconds,
        "items": run["topics"]["scored"],
        "values": run["aggregate"],
        "peak_rss_mb": peak_rss_mb(),
    }


def task_eval_all(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs

    with Store(args["db"]) as store:
        report, seconds = timed(args, "eval_all", lambda: evaluate_runs(store, EvalRequest(include_reopened=True)))
    return {
        "seconds": seconds,
        "items": len(report["runs"]),
        "measures": report["measures"],
        "topics": report["runs"][0]["topics"]["scored"],
        "peak_rss_mb": peak_rss_mb(),
    }


def task_coverage(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.coverage import CoverageRequest, coverage_report

    with Store(args["db"]) as store:
        report, seconds = timed(
            args, "coverage", lambda: coverage_report(store, CoverageRequest(include_reopened=True))
        )
    judged = {name: row["judged"] for name, row in report["runs"].items()}
    return {
        "seconds": seconds,
        "items": len(report["topics"]),
        "judged_at_10": judged,
        "scored_topics": report["scored_topics"],
        "peak_rss_mb": peak_rss_mb(),
    }


def _parquet_folder(args: dict) -> Path:
    return Path(args["data"]) / "parquet"


def task_parquet_export(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.parquet_runs import export_run_parquet

    folder = _parquet_folder(args)
    folder.mkdir(exist_ok=True)
    written = 0
    with Store(args["db"]) as store:
        names = [run.name for run in store.runs()]
        cpu = time.process_time()

        def export_all() -> None:
            nonlocal written
            for name in names:
                written += export_run_parquet(store, name, folder / f"{name}.parquet", force=True).bytes

        _, seconds = timed(args, "parquet_export", export_all)
        cpu = time.process_time() - cpu
        lines = sum(run.entries for run in store.runs())
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "items": lines,
        "runs": len(names),
        "parquet_mb": written / 1e6,
        "peak_rss_mb": peak_rss_mb(),
    }


def task_eval_parquet(args: dict) -> dict:
    """All runs scored from SQLite and from the Parquet files, interleaved, 3 times each; the JSON compared."""
    from labeler.store import Store
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs
    from labeler.workbench.parquet_runs import parquet_runs

    times: dict[str, list[tuple[float, float]]] = {"sqlite": [], "parquet": []}
    texts: dict[str, str] = {}
    with Store(args["db"]) as store:
        for _ in range(args.get("repeats", 3)):
            for path in ("sqlite", "parquet"):
                wall, cpu = time.perf_counter(), time.process_time()
                if path == "sqlite":
                    report = evaluate_runs(store, EvalRequest(include_reopened=True, per_query=True))
                else:
                    with parquet_runs(store, _parquet_folder(args)) as runs:
                        report = profiled(
                            args,
                            "eval_parquet",
                            lambda r=runs: evaluate_runs(r, EvalRequest(include_reopened=True, per_query=True)),
                        )
                times[path].append((time.perf_counter() - wall, time.process_time() - cpu))
                texts[path] = json.dumps(report.to_json(), sort_keys=True)
    medians = {path: [statistics.median(t[i] for t in pairs) for i in (0, 1)] for path, pairs in times.items()}
    return {
        "seconds": medians["parquet"][0],
        "cpu_seconds": medians["parquet"][1],
        "sqlite_seconds": medians["sqlite"][0],
        "sqlite_cpu_seconds": medians["sqlite"][1],
        "all_seconds": {path: [round(w, 3) for w, _ in pairs] for path, pairs in times.items()},
        "items": len(json.loads(texts["parquet"])["runs"]),
        "identical_json": texts["sqlite"] == texts["parquet"],
        "json_bytes": len(texts["sqlite"]),
        "peak_rss_mb": peak_rss_mb(),
    }


def grade_sequence(count: int) -> list[int]:
    rng = random.Random(SEED)
    return rng.choices(list(GRADE_WEIGHTS), weights=list(GRADE_WEIGHTS.values()), k=count)


def task_ui(args: dict) -> dict:
    """The real app on the workbench, opened on a topic with enough unjudged units; grade keys in a row."""
    import asyncio

    from labeler.store import Store
    from labeler.tui import JudgeRequest, make_app
    from labeler.tui.screens.judge import JudgeScreen
    from labeler.workbench.queue import pool_topics, queue

    grades = grade_sequence(args["judgments"])
    with Store(args["db"]) as store:  # not timed: pick the first topic from the middle on with enough work left
        topics = pool_topics(store)
        middle = len(topics) // 2
        topic = next(
            (t for t in topics[middle:] + topics[:middle] if len(queue(store, t, assessor="bench")) >= len(grades)),
            topics[middle],
        )

    async def drive() -> dict:
        start = time.perf_counter()
        app = make_app(JudgeRequest(db_path=args["db"], assessor="bench", topic=topic))
        made = time.perf_counter() - start
        pressed = 0
        async with app.run_test(size=(140, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, JudgeScreen), screen
            await pilot.pause()
            screen.latencies = []
            while pressed < len(grades) and app.session.current is not None:
                await pilot.press(str(grades[pressed]))
                pressed += 1
            await pilot.pause()
            latencies = list(screen.latencies)
        return {
            "latencies_ms": [x * 1000 for x in latencies],
            "presses": pressed,
            "topic": topic,
            "make_app_ms": made * 1000,
        }

    result = asyncio.run(drive())
    values = sorted(result["latencies_ms"])
    if values:
        result["median_ms"] = statistics.median(values)
        result["p95_ms"] = statistics.quantiles(values, n=100, method="inclusive")[94] if len(values) > 1 else values[0]
        result["max_ms"] = values[-1]
    result["seconds"] = sum(values) / 1000
    result["items"] = len(values)
    result["peak_rss_mb"] = peak_rss_mb()
    return result


def task_trectools(args: dict) -> dict:
    try:
        from trectools import TrecPoolMaker, TrecRun
    except ImportError as exc:
        return {"skipped": f"trectools not importable ({exc}); pip install trectools to measure it"}
    start = time.perf_counter()
    runs = [TrecRun(path) for path in args["files"]]
    parsed = time.perf_counter()
    pool = TrecPoolMaker().make_pool(runs, strategy="topX", topX=args["pool_depth"])
    done = time.perf_counter()
    pairs = {(str(t), str(d)) for t, docs in pool.pool.items() for d in docs}
    lines = sum(len(run.run_data) for run in runs)
    del runs
    # not timed: the same topics of labeler's pool, to compare membership
    same = None
    if Path(args["db"]).exists():
        from labeler.store import Store

        with Store(args["db"]) as store:
            latest = store.latest_pool()
            if latest is not None:
                topics = {t for t, _ in pairs}
                ours = {(t, u) for t in topics for u in store.pool_topic_units(latest.name, t)}
                same = {
                    "labeler_pairs": len(ours),
                    "only_trectools": len(pairs - ours),
                    "only_labeler": len(ours - pairs),
                }
    return {
        "seconds": done - start,
        "parse_seconds": parsed - start,
        "pool_seconds": done - parsed,
        "items": len(pairs),
        "lines": lines,
        "topics": args["topics"],
        "comparison": same,
        "peak_rss_mb": peak_rss_mb(),
    }


def task_ir_measures(args: dict) -> dict:
    try:
        import ir_measures
    except ImportError as exc:
        return {"skipped": f"ir_measures not importable ({exc}); pip install ir-measures to measure it"}
    measures = [ir_measures.parse_measure(IR_MEASURES_NAMES[name]) for name in EVAL_MEASURES.split()]
    start = time.perf_counter()
    qrels = list(ir_measures.read_trec_qrels(args["qrels"]))
    run = list(ir_measures.read_trec_run(args["run"]))
    parsed = time.perf_counter()
    result = ir_measures.calc_aggregate(measures, qrels, run)
    done = time.perf_counter()
    judged = ir_measures.calc_aggregate([ir_measures.parse_measure("Judged@10")], qrels, run)
    judged_seconds = time.perf_counter() - done
    return {
        "seconds": done - start,
        "parse_seconds": parsed - start,
        "calc_seconds": done - parsed,
        "items": len({r.query_id for r in run}),
        "lines": len(run),
        "values": {str(m): float(v) for m, v in result.items()},
        "judged_at_10": float(next(iter(judged.values()))),
        "judged_seconds": judged_seconds,
        "peak_rss_mb": peak_rss_mb(),
    }


TASKS = {
    "topics": ("import_topics", task_topics),
    "corpus": ("import_corpus", task_corpus),
    "chunk": ("chunk_corpus (30 words, no overlap)", task_chunk),
    "runs": ("import_run, every run (ids checked)", task_runs),
    "pool": ("build_pool (depth)", task_pool),
    "judgments": ("import_judgments --reviewed + create_snapshot", task_judgments),
    "status": ("status", task_status),
    "eval_one": ("evaluate_runs, 1 run, 4 measures", task_eval_one),
    "eval_all": ("evaluate_runs, all runs, default measures", task_eval_all),
    "coverage": ("coverage_report (depth 10, all runs)", task_coverage),
    "parquet_export": ("export_run_parquet, every run (pyarrow)", task_parquet_export),
    "eval_parquet": ("evaluate_runs over Parquet (DuckDB), all runs, per topic", task_eval_parquet),
    "ui": ("judging UI: grade key to next unit drawn", task_ui),
    "trectools": ("trectools TrecRun + make_pool topX", task_trectools),
    "ir_measures": ("ir_measures, 1 run from files, 4 measures", task_ir_measures),
}
UNITS = {
    "topics": "topics",
    "corpus": "documents",
    "chunk": "chunks",
    "runs": "lines",
    "pool": "pooled pairs",
    "judgments": "judgments",
    "status": "topics",
    "eval_one": "topics",
    "eval_all": "runs",
    "coverage": "topics",
    "parquet_export": "lines",
    "eval_parquet": "runs",
    "ui": "keys",
    "trectools": "pooled pairs",
    "ir_measures": "topics",
}


def run_child(task: str, args: dict) -> dict:
    """Run one task in a fresh interpreter; it prints one JSON object on its last stdout line."""
    return _common.run_child(__file__, ["--child", task, json.dumps(args)])


# -- the report -----------------------------------------------------------------------


def db_size_mb(db: Path) -> float:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*")) / 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=1_000_000)
    parser.add_argument("--chunks-per-doc", type=int, default=4)
    parser.add_argument("--topics", type=int, default=5_000)
    parser.add_argument("--depth", type=int, default=1_000, help="results per topic in each run")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--pool-depth", type=int, default=100)
    parser.add_argument("--qrels-per-topic", type=int, default=20)
    parser.add_argument("--judgments", type=int, default=300, help="grade keys pressed in the UI")
    parser.add_argument(
        "--lines",
        type=parse_lines,
        default=None,
        help="total run lines, e.g. 100M: sets --topics to LINES / (runs x depth)",
    )
    parser.add_argument("--quick", action="store_true", help="1/10 of the documents and topics")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep a workbench built with the same parameters; measure only the tasks on it",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=list(TASKS),
        help="run only these tasks (build tasks need the "
        "ones before them done: use with --reuse for the measuring tasks)",
    )
    parser.add_argument(
        "--trectools-topics",
        type=int,
        default=500,
        help="trectools pools the first N topics of the same runs (all: 0); its pooling time grows "
        "with topics x rows, and it holds every run in memory",
    )
    parser.add_argument("--profile", choices=list(TASKS), help="cProfile this task's labeler call")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where scale.json goes")
    parser.add_argument("--child", choices=list(TASKS), help=argparse.SUPPRESS)
    parser.add_argument("child_args", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(TASKS[args.child][1](json.loads(args.child_args))))
        return
    if args.quick:
        args.docs, args.topics = args.docs // 10, args.topics // 10
    if args.lines:
        args.topics = max(1, args.lines // (args.runs * args.depth))

    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 120))
    wall_start = time.perf_counter()
    load_before = os.getloadavg()
    params = params_for(args)
    folder, generated = ensure_data(params, console)
    if generated is None:
        console.print(f"Reusing the data in {folder} (params.json matches).")
    else:
        console.print(f"Generated the data in {folder} in {generated:.0f} s.")
    generation = json.loads((folder / "generated.json").read_text()) if (folder / "generated.json").exists() else {}
    run_files = run_paths(folder, args.runs)
    total_lines = args.runs * args.topics * args.depth
    inputs = [p for p in folder.iterdir() if p.is_file() and p.suffix in (".jsonl", ".tsv", ".trec", ".txt")]
    data_mb = sum(p.stat().st_size for p in inputs) / 1e6
    console.print(
        f"{args.docs:,} documents x {args.chunks_per_doc} chunks; {args.runs} runs x {args.topics:,} topics "
        f"x {args.depth:,} results = {total_lines:,} run lines; {args.qrels_per_topic} judgments per topic; "
        f"{data_mb:,.0f} MB of files."
    )

    db = folder / "scale.db"
    build_marker = folder / "build.json"
    build_params = {**params, "pool_depth": args.pool_depth}
    reuse = (
        args.reuse
        and db.exists()
        and build_marker.exists()
        and json.loads(build_marker.read_text()).get("params") == build_params
    )
    tasks = list(args.only or (MEASURE_TASKS if reuse else BUILD_TASKS + MEASURE_TASKS))
    if any(t in BUILD_TASKS for t in tasks) and "topics" in tasks:
        for old in folder.glob("scale.db*"):
            old.unlink()
        build_marker.unlink(missing_ok=True)
    elif reuse:
        built = json.loads(build_marker.read_text())["date"]
        console.print(f"Reusing the workbench {db} ({db_size_mb(db):,.0f} MB), built {built}.")

    trectools_topics = args.trectools_topics or args.topics
    child = {
        "db": str(db),
        "data": str(folder),
        "runs": args.runs,
        "pool_depth": args.pool_depth,
        "judgments": args.judgments,
        "profile": args.profile,
        "out": str(args.out),
    }
    results: dict[str, dict] = {}
    previous = {}
    if reuse and build_marker.exists():
        previous = json.loads(build_marker.read_text()).get("results", {})
    for task in tasks:
        extra = {}
        if task == "trectools":
            if trectools_topics >= args.topics:
                files = run_files
                trectools_topics = args.topics
            else:
                files = subset_runs(folder, args.runs, trectools_topics, args.depth)
            extra = {"files": [str(p) for p in files], "topics": trectools_topics}
        elif task == "ir_measures":
            extra = {"run": str(run_files[0]), "qrels": str(folder / "qrels.txt")}
        console.print(f"measuring {TASKS[task][0]} ...")
        result = run_child(task, {**child, **extra})
        results[task] = result
        if "error" in result:
            console.print(f"  failed: {result['error']}")
            if task in BUILD_TASKS:
                break
        elif "seconds" in result:
            console.print(f"  {result['seconds']:.1f} s, peak RSS {result['peak_rss_mb']:,.0f} MB")
        if task == "judgments" and "error" not in result:
            build_marker.write_text(
                json.dumps(
                    {
                        "params": build_params,
                        "date": now_iso(),
                        "results": {t: results[t] for t in BUILD_TASKS if t in results},
                    },
                    indent=2,
                )
                + "\n"
            )
    wall = time.perf_counter() - wall_start
    if generation:
        previous["generate"] = {
            "seconds": generation["seconds"],
            "items": sum(part.get("lines", 0) for part in generation["parts"]),
            "peak_rss_mb": max((part.get("peak_rss_mb", 0.0) for part in generation["parts"]), default=0.0),
            "workers": max(1, min(os.cpu_count() or 1, len(generation["parts"]))),
        }
    shown = {**{t: r for t, r in previous.items() if t not in results}, **results}

    table = Table(
        title=f"labeler at scale: {args.docs:,} documents, {args.runs} runs x {args.topics:,} topics x "
        f"{args.depth:,}, pool depth {args.pool_depth}"
    )
    for column in ("task", "seconds", "items", "items/s", "peak RSS MB"):
        table.add_column(column, justify="left" if column == "task" else "right")
    for task in ["generate", *BUILD_TASKS, *MEASURE_TASKS]:
        if task not in shown:
            continue
        result = shown[task]
        if task == "generate":
            table.add_row(
                f"generate the data ({result['workers']} processes; peak of one)"
                + ("" if generated is not None else " (earlier)"),
                f"{result['seconds']:.2f}",
                f"{result['items']:,} run lines",
                f"{result['items'] / result['seconds']:,.0f}",
                f"{result['peak_rss_mb']:,.0f}",
            )
            continue
        label = TASKS[task][0] + (" (earlier build)" if task not in results else "")
        if task == "pool":
            label = f"build_pool (depth {args.pool_depth})" + (" (earlier build)" if task not in results else "")
        if task == "trectools":
            label = f"trectools TrecRun + make_pool topX={args.pool_depth}, first {trectools_topics:,} topics"
        if "seconds" not in result:
            table.add_row(label, "-", "-", "-", "-")
            continue
        items = result.get("items")
        if task == "ui":
            table.add_row(
                label + " (p95 ms)",
                f"{result.get('p95_ms', float('nan')):.1f} ms",
                f"{items:,} keys",
                "-",
                f"{result['peak_rss_mb']:,.0f}",
            )
            continue
        table.add_row(
            label,
            f"{result['seconds']:.2f}",
            f"{items:,} {UNITS[task]}" if items is not None else "-",
            f"{items / result['seconds']:,.0f}" if items and result["seconds"] else "-",
            f"{result['peak_rss_mb']:,.0f}",
        )
    console.print(table)

    notes = []
    summary: dict[str, object] = {}
    runs = shown.get("runs", {})
    if "per_run_seconds" in runs:
        notes.append(
            f"import_run per run: {', '.join(f'{s:.1f}' for s in runs['per_run_seconds'])} s "
            f"({runs['items'] / runs['seconds']:,.0f} lines/s overall)."
        )
    pool, trectools = shown.get("pool", {}), shown.get("trectools", {})
    if "seconds" in pool and "pool_seconds" in trectools:
        ours = pool["seconds"] / pool["topics"]
        theirs = trectools["seconds"] / trectools["topics"]
        speedup = theirs / ours
        summary["pool_speedup_per_topic"] = speedup
        notes.append(
            f"Pooling: labeler {pool['seconds']:.1f} s for {pool['topics']:,} topics ({ours * 1000:.2f} ms "
            f"per topic, {pool['items']:,} pairs); trectools {trectools['seconds']:.1f} s for "
            f"{trectools['topics']:,} topics ({trectools['parse_seconds']:.1f} s parse + "
            f"{trectools['pool_seconds']:.1f} s pool; {theirs * 1000:.1f} ms per topic): labeler is "
            f"{speedup:.0f}x faster per topic ({'meets' if speedup >= TARGET_POOL_SPEEDUP else 'misses'} "
            f"the target of {TARGET_POOL_SPEEDUP:g}x)."
        )
        if trectools["topics"] < pool["topics"]:
            scale = pool["topics"] / trectools["topics"]
            estimate = trectools["pool_seconds"] * scale * scale
            notes.append(
                f"  trectools ran on {trectools['topics']:,} of {pool['topics']:,} topics: its topX pooling "
                f"filters a whole run's DataFrame per (run, topic), so on all topics its pool step would "
                f"grow about {scale:.0f} x {scale:.0f} (estimate: {estimate:,.0f} s) and it would hold all "
                f"{total_lines:,} lines in memory; the per-topic ratio above flatters trectools."
            )
        if trectools.get("comparison"):
            c = trectools["comparison"]
            notes.append(
                f"  Same topics: trectools {trectools['items']:,} pairs, labeler {c['labeler_pairs']:,}; "
                f"{c['only_trectools']:,} only in trectools, {c['only_labeler']:,} only in labeler "
                "(trectools breaks score ties by docid ascending, labeler by docid descending, as trec_eval)."
            )
    one, irm = shown.get("eval_one", {}), shown.get("ir_measures", {})
    if "values" in one and "values" in irm:
        agree = all(abs(one["values"][m] - irm["values"][m]) < 5e-5 for m in IR_MEASURES_NAMES if m in irm["values"])
        notes.append(
            f"Scoring one run ({one['items']:,} topics): labeler {one['seconds']:.2f} s "
            f"(peak {one['peak_rss_mb']:,.0f} MB), ir_measures {irm['seconds']:.2f} s from the files "
            f"({irm['parse_seconds']:.2f} s parse + {irm['calc_seconds']:.2f} s calc, peak "
            f"{irm['peak_rss_mb']:,.0f} MB); means {'agree' if agree else 'DIFFER'} to 4 decimals: "
            + ", ".join(f"{m} {one['values'][m]:.4f}/{irm['values'][m]:.4f}" for m in IR_MEASURES_NAMES)
        )
        notes.append(
            f"  ir_measures Judged@10 on the same run: {irm['judged_at_10']:.4f} in "
            f"{irm['judged_seconds']:.2f} s (after parsing)."
        )
    ui = shown.get("ui", {})
    if "p95_ms" in ui:
        summary["ui_p95_ms"] = ui["p95_ms"]
        notes.append(
            f"Judging UI on topic {ui['topic']}: {ui['presses']} grade keys, median {ui['median_ms']:.1f} ms, "
            f"p95 {ui['p95_ms']:.1f} ms, max {ui['max_ms']:.1f} ms "
            f"({'meets' if ui['p95_ms'] < TARGET_UI_P95_MS else 'misses'} p95 < {TARGET_UI_P95_MS:g} ms); "
            f"make_app {ui['make_app_ms']:.0f} ms."
        )
    export, both = shown.get("parquet_export", {}), shown.get("eval_parquet", {})
    if "seconds" in export:
        notes.append(
            f"Parquet export: {export['items']:,} lines of {export['runs']} runs in {export['seconds']:.1f} s "
            f"(CPU {export['cpu_seconds']:.1f} s), {export['parquet_mb']:,.0f} MB of Parquet."
        )
    if "identical_json" in both:
        summary["parquet_identical_json"] = both["identical_json"]
        summary["parquet_vs_sqlite_eval"] = both["seconds"] / both["sqlite_seconds"]
        notes.append(
            f"eval of all runs, per topic, interleaved x3 (medians): SQLite {both['sqlite_seconds']:.2f} s "
            f"(CPU {both['sqlite_cpu_seconds']:.2f} s), Parquet through DuckDB {both['seconds']:.2f} s "
            f"(CPU {both['cpu_seconds']:.2f} s), ratio {both['seconds'] / both['sqlite_seconds']:.2f}; the two "
            f"JSON reports ({both['json_bytes']:,} bytes) are {'IDENTICAL' if both['identical_json'] else 'DIFFERENT'}."
        )
    judgments = shown.get("judgments", {})
    if "import_seconds" in judgments:
        notes.append(
            f"Judgments: import_judgments {judgments['import_seconds']:.1f} s, create_snapshot "
            f"{judgments['snapshot_seconds']:.1f} s ({judgments['labels']:,} labels)."
        )
    for task, result in results.items():
        if "skipped" in result:
            notes.append(f"note: {task} skipped: {result['skipped']}")
        elif "error" in result:
            notes.append(f"note: {task} failed: {result['error']}")
    if db.exists():
        summary["workbench_mb"] = db_size_mb(db)
        notes.append(f"Workbench file: {summary['workbench_mb']:,.0f} MB (the input files: {data_mb:,.0f} MB).")
    notes.append(f"Wall time of this invocation: {wall / 60:.1f} min (data generation included when it ran).")
    load_after = os.getloadavg()
    notes.append(
        f"Load average (1 min) before / after: {load_before[0]:.2f} / {load_after[0]:.2f} on {os.cpu_count()} "
        "CPUs (other work on the machine slows every figure, the UI tail most)."
    )
    for note in notes:
        console.print(note)

    report = {
        "benchmark": "scale",
        "date": now_iso(),
        "machine": machine(
            ("textual", "trectools", "pandas", "ir-measures", "pytrec-eval-terrier", "duckdb", "pyarrow")
        ),
        "command": "python benchmarks/bench_scale.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "params": build_params,
        "total_run_lines": total_lines,
        "data_mb": data_mb,
        "generation_seconds": generated,
        "wall_seconds": wall,
        "load_average_1min": {"before": load_before[0], "after": load_after[0]},
        "targets": {"pool_speedup": TARGET_POOL_SPEEDUP, "ui_p95_ms": TARGET_UI_P95_MS},
        "summary": summary,
        "results": {
            task: {"task": TASKS[task][0] if task in TASKS else "generate the data", **result}
            for task, result in shown.items()
        },
        "notes": notes,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    name = "scale-quick.json" if args.quick else "scale.json"
    (args.out / name).write_text(json.dumps(report, indent=2) + "\n")
    console.print(f"Wrote {args.out / name}.")


if __name__ == "__main__":
    main()

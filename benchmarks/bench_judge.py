"""Benchmark: judging latency in the Textual UI and in the judging service, with a million pooled units.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_judge.py [--pooled 1000000] [--judgments 300] [--repeat 3] [--log N] [--out DIR]
                                     [--profile] [--rebuild]

It builds two workbenches into benchmarks/data/judge/ (reused when params.json
matches; pass --rebuild to force it):

- big: synthetic topics, 10 seeded TREC runs of 100 results per topic (doc ids
  from an id space of a billion, so depth-20 pooling of 10 runs gives ~180
  distinct units per topic), imported with `import_run` into a workbench
  without a corpus (evaluation-only), then a small corpus holding the pooled
  documents of the 50 topics judged here, then `build_pool(store, 20)`: at
  least `--pooled` pairs. The time of each build step is printed.
- small: the sample corpus (171 documents, 18 topics) with two hand-made runs
  (title terms, seeded shuffle) pooled at depth 10: the baseline.
- with --log N, also big+log: a copy of big whose log already holds N imported
  judgments (qrels of pooled pairs of other topics), to show what a long log costs.

Then it measures, each in a fresh Python subprocess on a fresh copy of the
workbench:

- ui: the real app (`make_app(...)`, `app.run_test(size=(140, 40))`), opened on
  a topic in the middle of the topic list; Pilot presses `--judgments` grade keys
  in a row (and `d`, topic done, when a topic runs out). The figure is the
  screen's own `JudgeScreen.latencies`: from the key's action to
  `call_after_refresh` firing, i.e. judge + commit + next unit drawn. Run
  `--repeat` times (fresh processes); the figures pool all runs, and the full
  (generation 2) garbage collections seen during the keys are counted, with the
  objects the app had frozen out of the collector (labeler/tui/gc_policy.py) and
  the screen's widget count before and after the keys.
- service: `JudgingSession.judge(grade)` alone (commit and advance), then the
  other service calls the screen makes per key (`store.topic`, `topic_status`,
  `pair_status`), and `session.advance()` alone.

Results are printed as a table and written as JSON to DIR/judge.json (default
benchmarks/out/). With --profile, cProfile runs around 300 `session.judge` calls
(plus the screen's service calls) on the big workbench and the top functions go
to DIR/judge_profile.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _common
from _common import machine, now_iso, peak_rss_mb, vocabulary

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = _common.DATA / "judge"
SAMPLE = ROOT / "sample_corpus"
GENERATOR_VERSION = 1
SEED = 7
RUNS = 10
RESULTS_PER_TOPIC = 100
POOL_DEPTH = 20
ID_SPACE = 1_000_000_000  # doc ids D000000000 .. D999999999
CONSENSUS = 5  # per-topic documents every run may put in its top 20 (runs overlap near the top, as real runs do)
CORPUS_TOPICS = 50  # topics, from the middle one on, whose pooled documents get a text
SMALL_DEPTH = 10
SMALL_RUN_LENGTH = 30
TARGET_P95_MS = 50.0
GRADE_WEIGHTS = {0: 60, 1: 20, 2: 12, 3: 8}  # the grade keys pressed, drawn with a seeded generator


# -- data -------------------------------------------------------------------------


def params_for(pooled: int) -> dict:
    return {
        "generator_version": GENERATOR_VERSION,
        "seed": SEED,
        "pooled_at_least": pooled,
        "runs": RUNS,
        "results_per_topic": RESULTS_PER_TOPIC,
        "pool_depth": POOL_DEPTH,
        "id_space": ID_SPACE,
        "consensus_per_topic": CONSENSUS,
        "corpus_topics": CORPUS_TOPICS,
        "small_depth": SMALL_DEPTH,
    }


def big_db() -> Path:
    return DATA / "big.db"


def small_db() -> Path:
    return DATA / "small.db"


def generate_big(pooled: int, folder: Path) -> dict:
    """Topics, runs and a corpus for the pooled documents of CORPUS_TOPICS topics from the middle one on.

    Topics are added until the depth-20 pool of the 10 runs reaches `pooled` pairs
    (the generator knows each topic's pool: scores strictly descend, so the
    canonical order is the file order). Within a ranking ids are distinct.
    """
    rng = random.Random(SEED)
    vocab = vocabulary(rng)
    folder.mkdir(parents=True, exist_ok=True)
    run_files = [open(folder / f"run{i:02d}.trec", "w", encoding="utf-8", newline="\n") for i in range(RUNS)]
    topics: list[tuple[str, str]] = []
    top_ids: dict[str, set[str]] = {}  # topic -> pooled ids (kept for all topics: the corpus topics are chosen last)
    total = 0
    lines = 0
    try:
        while total < pooled:
            qid = str(len(topics) + 1)
            title = " ".join(rng.sample(vocab, 3))
            topics.append((qid, title))
            consensus = [rng.randrange(ID_SPACE) for _ in range(CONSENSUS)]
            pooled_here: set[int] = set()
            for run_index, out in enumerate(run_files):
                ranking: list[int] = []
                seen: set[int] = set()
                top = [doc for doc in consensus if rng.random() < 0.5]
                seen.update(top)
                while len(top) < POOL_DEPTH:
                    doc = rng.randrange(ID_SPACE)
                    if doc not in seen:
                        seen.add(doc)
                        top.append(doc)
                rng.shuffle(top)
                ranking.extend(top)
                while len(ranking) < RESULTS_PER_TOPIC:
                    doc = rng.randrange(ID_SPACE)
                    if doc not in seen:
                        seen.add(doc)
                        ranking.append(doc)
                pooled_here.update(ranking[:POOL_DEPTH])
                score = rng.uniform(20.0, 30.0)
                parts = []
                for rank, doc in enumerate(ranking, 1):
                    parts.append(f"{qid} Q0 D{doc:09d} {rank} {score:.4f} judge{run_index:02d}\n")
                    score -= rng.uniform(0.001, 0.05)  # strictly descending: no ties
                out.write("".join(parts))
                lines += len(ranking)
            top_ids[qid] = {f"D{doc:09d}" for doc in pooled_here}
            total += len(pooled_here)
    finally:
        for out in run_files:
            out.close()
    with open(folder / "topics.tsv", "w", encoding="utf-8", newline="\n") as out:
        for qid, title in topics:
            out.write(f"{qid}\t{title}\tWhat is known about {title}?\tA relevant document explains {title}.\n")
    middle = middle_topic(len(topics))
    corpus_topics = [str(int(middle) + i) for i in range(CORPUS_TOPICS) if int(middle) + i <= len(topics)]
    titles = dict(topics)
    documents = 0
    with open(folder / "corpus.jsonl", "w", encoding="utf-8", newline="\n") as out:
        written: set[str] = set()
        for qid in corpus_topics:
            title_words = titles[qid].split()
            for doc_id in sorted(top_ids[qid]):
                if doc_id in written:
                    continue
                written.add(doc_id)
                paragraphs = []
                for _ in range(rng.randint(2, 4)):
                    words = [rng.choice(vocab) for _ in range(rng.randint(30, 70))]
                    for _ in range(rng.randint(0, 3)):  # some of the topic's words, for the highlighter
                        words[rng.randrange(len(words))] = rng.choice(title_words)
                    paragraphs.append(" ".join(words).capitalize() + ".")
                record = {
                    "id": doc_id,
                    "title": " ".join(rng.sample(vocab, 4)).capitalize(),
                    "text": "\n\n".join(paragraphs),
                }
                out.write(json.dumps(record) + "\n")
                documents += 1
    return {
        "topics": len(topics),
        "lines": lines,
        "expected_pairs": total,
        "middle_topic": middle,
        "corpus_topics": [corpus_topics[0], corpus_topics[-1]],
        "documents": documents,
    }


def middle_topic(topics: int) -> str:
    return str(topics // 2)


def generate_small(folder: Path) -> dict:
    """Two hand-made runs over the sample corpus: title-term frequency, and a seeded shuffle."""
    folder.mkdir(parents=True, exist_ok=True)
    docs = [json.loads(line) for line in (SAMPLE / "corpus.jsonl").read_text(encoding="utf-8").splitlines() if line]
    topics = [json.loads(line) for line in (SAMPLE / "topics.jsonl").read_text(encoding="utf-8").splitlines() if line]
    words = {d["id"]: re.findall(r"\w+", (d["title"] + " " + d["text"]).lower()) for d in docs}
    rng = random.Random(SEED)
    with (
        open(folder / "title_tf.trec", "w", encoding="utf-8") as lexical,
        open(folder / "shuffle.trec", "w", encoding="utf-8") as shuffled,
    ):
        for topic in topics:
            terms = [t for t in re.findall(r"\w+", topic["title"].lower()) if len(t) > 2]
            scored = sorted(((sum(words[d].count(t) for t in terms), d) for d in words), key=lambda s: (-s[0], s[1]))
            for rank, (score, doc_id) in enumerate(scored[:SMALL_RUN_LENGTH], 1):
                lexical.write(f"{topic['id']} Q0 {doc_id} {rank} {score + (SMALL_RUN_LENGTH - rank) / 100:.2f} tf\n")
            order = rng.sample(sorted(words), SMALL_RUN_LENGTH)
            for rank, doc_id in enumerate(order, 1):
                shuffled.write(f"{topic['id']} Q0 {doc_id} {rank} {SMALL_RUN_LENGTH - rank + 1} shuffle\n")
    return {"topics": len(topics), "documents": len(docs), "middle_topic": middle_topic(len(topics))}


def ensure_workbenches(pooled: int, rebuild: bool, console) -> dict:
    """The build report: the one on file when params.json matches, else a new build (in a child process)."""
    params = params_for(pooled)
    marker = DATA / "params.json"
    report_file = DATA / "build.json"
    if not rebuild and marker.exists() and report_file.exists() and big_db().exists() and small_db().exists():
        try:
            if json.loads(marker.read_text()) == params:
                report = json.loads(report_file.read_text())
                report["reused"] = True
                return report
        except ValueError:
            pass
    if DATA.exists():
        shutil.rmtree(DATA)
    DATA.mkdir(parents=True)
    console.print(f"Building the workbenches in {DATA} (once; reused while params.json matches) ...")
    report = run_child("build", {"pooled": pooled})
    if "error" in report:
        raise SystemExit(f"building the workbenches failed: {report['error']}")
    report_file.write_text(json.dumps(report, indent=2) + "\n")
    marker.write_text(json.dumps(params, indent=2) + "\n")
    report["reused"] = False
    return report


def log_db(judgments: int) -> Path:
    return DATA / f"big-log{judgments}.db"


def ensure_log_workbench(judgments: int, console) -> dict:
    """big.db plus `judgments` imported judgments in its log (built once per size, in a child process)."""
    report_file = DATA / f"big-log{judgments}.json"
    if log_db(judgments).exists() and report_file.exists():
        report = json.loads(report_file.read_text())
        report["reused"] = True
        return report
    console.print(f"Building a copy of the big workbench with {judgments:,} judgments in its log ...")
    report = run_child("build_log", {"judgments": judgments})
    if "error" in report:
        raise SystemExit(f"building the log workbench failed: {report['error']}")
    report_file.write_text(json.dumps(report, indent=2) + "\n")
    report["reused"] = False
    return report


# -- the tasks, each run in a fresh child process ------------------------------------


def task_build(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.corpus import import_corpus
    from labeler.workbench.init import init_workbench
    from labeler.workbench.pools import build_pool
    from labeler.workbench.runs import import_run
    from labeler.workbench.topics import import_topics

    steps: dict[str, dict] = {}

    def timed(name: str, fn, **extra):
        start = time.perf_counter()
        result = fn()
        steps[name] = {"seconds": time.perf_counter() - start, **extra}
        return result

    # big: evaluation-only runs first (no corpus yet, so ids are taken as given), then a small corpus
    generated = timed("generate (not labeler)", lambda: generate_big(args["pooled"], DATA / "big"))
    init_workbench(big_db())
    with Store(big_db()) as store:
        timed("import topics", lambda: import_topics(store, DATA / "big" / "topics.tsv"), items=generated["topics"])
        lines = 0

        def import_runs():
            nonlocal lines
            for path in sorted((DATA / "big").glob("run*.trec")):
                lines += import_run(store, path, path.stem).lines

        timed("import 10 runs (import_run)", import_runs)
        steps["import 10 runs (import_run)"]["items"] = lines
        corpus = timed("import corpus", lambda: import_corpus(store, DATA / "big" / "corpus.jsonl"))
        steps["import corpus"]["items"] = corpus.documents
        pool = timed("build_pool(depth 20)", lambda: build_pool(store, POOL_DEPTH))
        steps["build_pool(depth 20)"]["items"] = pool.pairs
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    big = {
        "steps": steps,
        "generated": generated,
        "pool": pool.pool,
        "pairs": pool.pairs,
        "topics": len(pool.per_topic),
        "workbench_mb": big_db().stat().st_size / 1e6,
        "peak_rss_mb": peak_rss_mb(),
    }

    small_steps: dict[str, dict] = {}
    steps = small_steps
    generated_small = generate_small(DATA / "small")
    init_workbench(small_db())
    with Store(small_db()) as store:
        timed("import corpus", lambda: import_corpus(store, SAMPLE / "corpus.jsonl"))
        timed("import topics", lambda: import_topics(store, SAMPLE / "topics.jsonl"))
        timed(
            "import 2 runs (import_run)",
            lambda: [
                import_run(store, DATA / "small" / name, name.split(".")[0])
                for name in ("title_tf.trec", "shuffle.trec")
            ],
        )
        small_pool = timed("build_pool(depth 10)", lambda: build_pool(store, SMALL_DEPTH))
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    small = {
        "steps": small_steps,
        "generated": generated_small,
        "pool": small_pool.pool,
        "pairs": small_pool.pairs,
        "topics": len(small_pool.per_topic),
        "workbench_mb": small_db().stat().st_size / 1e6,
    }
    return {"date": now_iso(), "big": big, "small": small}


def task_build_log(args: dict) -> dict:
    """Judgments for the pooled pairs of the topics outside the judged window, imported as qrels."""
    from labeler.store import Store
    from labeler.workbench.record_judgments import import_judgments

    build = json.loads((DATA / "build.json").read_text())["big"]["generated"]
    first, last = (int(t) for t in build["corpus_topics"])
    target = log_db(args["judgments"])
    partial = target.with_suffix(".partial")
    shutil.copyfile(big_db(), partial)
    rng = random.Random(SEED)
    qrels = DATA / f"big-log{args['judgments']}.qrels"
    with Store(partial) as store:
        rows = store.db.execute(
            "SELECT topic_id, unit_id FROM pool_entries WHERE pool_id = (SELECT max(pool_id) FROM pools) "
            "AND NOT (CAST(topic_id AS INTEGER) BETWEEN ? AND ?) LIMIT ?",
            [first, last, args["judgments"]],
        )
        with open(qrels, "w", encoding="utf-8") as out:
            written = 0
            for topic_id, unit_id in rows:
                out.write(f"{topic_id} 0 {unit_id} {rng.choices([0, 1, 2, 3], weights=[60, 20, 12, 8])[0]}\n")
                written += 1
        start = time.perf_counter()
        result = import_judgments(store, qrels, assessor="prior", allow_unknown=True)
        seconds = time.perf_counter() - start
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    qrels.unlink()
    partial.rename(target)
    return {
        "date": now_iso(),
        "judgments": result.judgments,
        "topics": result.topics,
        "import_seconds": seconds,
        "workbench_mb": target.stat().st_size / 1e6,
    }


def fresh_copy(db: str, tmp: str) -> str:
    """A copy of the workbench, so every measurement starts from the same unjudged state (not timed)."""
    target = Path(tmp) / Path(db).name
    shutil.copyfile(db, target)
    return str(target)


def grade_sequence(count: int) -> list[int]:
    rng = random.Random(SEED)
    return rng.choices(list(GRADE_WEIGHTS), weights=list(GRADE_WEIGHTS.values()), k=count)


class StampedList(list):
    """The screen's latency list, also noting when each value arrived (so a key's interval is known)."""

    def __init__(self) -> None:
        super().__init__()
        self.ends: list[float] = []

    def append(self, value: float) -> None:
        self.ends.append(time.perf_counter())
        super().append(value)


def task_ui(args: dict) -> dict:
    import asyncio
    import gc

    from labeler.tui import JudgeRequest, make_app
    from labeler.tui.screens.judge import JudgeScreen

    grades = grade_sequence(args["judgments"])
    collections: list[tuple[float, float]] = []  # (start, seconds) of each generation-2 collection
    started_at: list[float] = [0.0]

    def on_gc(phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            started_at[0] = time.perf_counter()
        else:
            collections.append((started_at[0], time.perf_counter() - started_at[0]))

    gc.callbacks.append(on_gc)

    async def drive(db: str) -> dict:
        start = time.perf_counter()
        app = make_app(JudgeRequest(db_path=db, assessor="bench", topic=args["topic"]))
        made = time.perf_counter() - start
        switches = 0
        pressed = 0
        topics = []
        async with app.run_test(size=(140, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, JudgeScreen), screen
            topics.append(app.session.topic_id)
            await pilot.pause()
            collections.clear()  # start-up collections are not the keys' business
            frozen = gc.get_freeze_count()  # what labeler/tui/gc_policy.py took out of the collections
            widgets = [len(screen.query("*"))]
            screen.latencies = StampedList()
            while pressed < len(grades):
                if app.session.current is None:  # the topic ran out: topic done, on to the next one
                    await pilot.press("d")
                    switches += 1
                    if app.session.current is None:
                        break
                    topics.append(app.session.topic_id)
                    continue
                await pilot.press(str(grades[pressed]))
                pressed += 1
            await pilot.pause()
            widgets.append(len(screen.query("*")))
            latencies = list(screen.latencies)
            windows = [(end - latency, end) for latency, end in zip(latencies, screen.latencies.ends, strict=True)]
        # full collections that ran inside a key's measured interval, and the slow keys they explain
        in_keys = [(t, d) for t, d in collections if any(a <= t <= b for a, b in windows)]
        slow_with_gc = sum(
            1
            for (a, b), latency in zip(windows, latencies, strict=True)
            if latency * 1000 > TARGET_P95_MS and any(a <= t <= b for t, _ in in_keys)
        )
        return {
            "latencies_ms": [x * 1000 for x in latencies],
            "presses": pressed,
            "topic_switches": switches,
            "topics": topics,
            "make_app_ms": made * 1000,
            "gen2_collections_ms": [d * 1000 for _, d in in_keys],
            "frozen_objects": frozen,
            "widgets_before_after": widgets,
            "slow_keys": sum(1 for x in latencies if x * 1000 > TARGET_P95_MS),
            "slow_keys_with_gen2": slow_with_gc,
        }

    with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
        db = fresh_copy(args["db"], tmp)
        load = os.getloadavg()[0]
        result = asyncio.run(drive(db))
    result["peak_rss_mb"] = peak_rss_mb()
    result["load_average_1min"] = [load, os.getloadavg()[0]]
    return result


def _judge_loop(session, grades: list[int], timings: dict[str, list[float]] | None) -> tuple[int, int, list[str]]:
    """Judge like the screen does: judge, then the service calls refresh_unit makes; mark done when a topic runs out."""
    from labeler.judgments.log import REVIEWED

    clock = time.perf_counter
    judged = switches = 0
    topics = [session.topic_id]

    def timed(name, fn):
        start = clock()
        result = fn()
        if timings is not None:
            timings[name].append((clock() - start) * 1000)
        return result

    while judged < len(grades):
        if session.current is None:
            timed("mark_topic (topic done, next topic)", lambda: session.mark_topic(REVIEWED))
            switches += 1
            if session.current is None:
                break
            topics.append(session.topic_id)
            continue
        grade = grades[judged]
        timed("judge()", lambda: session.judge(grade))  # noqa: B023 (called at once)
        judged += 1
        timed("store.topic()", lambda: session.store.topic(session.topic_id) if session.topic_id else None)
        timed("topic_status()", session.topic_status)
        timed("pair_status()", session.pair_status)
    return judged, switches, topics


def task_service(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.session import JudgingSession

    grades = grade_sequence(args["judgments"])
    names = ["judge()", "store.topic()", "topic_status()", "pair_status()", "mark_topic (topic done, next topic)"]
    timings: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
        db = fresh_copy(args["db"], tmp)
        with Store(db) as store:
            session = JudgingSession(store, "bench")
            start = time.perf_counter()
            session.start(args["topic"])
            started = (time.perf_counter() - start) * 1000
            judged, switches, topics = _judge_loop(session, grades, timings)
            timings["per key: judge + screen queries"] = [
                sum(values) for values in zip(*(timings[n] for n in names[:4]), strict=True)
            ]
            timings["advance() alone"] = []
            for _ in range(args["judgments"]):
                start = time.perf_counter()
                session.advance()
                timings["advance() alone"].append((time.perf_counter() - start) * 1000)
    return {
        "timings_ms": timings,
        "judged": judged,
        "topic_switches": switches,
        "topics": topics,
        "start_ms": started,
        "peak_rss_mb": peak_rss_mb(),
    }


def task_profile(args: dict) -> dict:
    import cProfile
    import io
    import pstats

    from labeler.store import Store
    from labeler.workbench.session import JudgingSession

    grades = grade_sequence(args["judgments"])
    with tempfile.TemporaryDirectory(prefix="bench-judge-") as tmp:
        db = fresh_copy(args["db"], tmp)
        with Store(db) as store:
            session = JudgingSession(store, "bench")
            session.start(args["topic"])
            profiler = cProfile.Profile()
            profiler.enable()
            judged, _, _ = _judge_loop(session, grades, None)
            profiler.disable()
    out = Path(args["out"])
    profiler.dump_stats(str(out / "judge.prof"))
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text).strip_dirs().sort_stats("cumulative")
    stats.print_stats(30)
    (out / "judge_profile.txt").write_text(text.getvalue())
    return {"judged": judged, "profile": str(out / "judge_profile.txt")}


TASKS = {
    "build": task_build,
    "build_log": task_build_log,
    "ui": task_ui,
    "service": task_service,
    "profile": task_profile,
}


def run_child(task: str, args: dict) -> dict:
    """Run one task in a fresh interpreter; it prints one JSON object on its last stdout line."""
    return _common.run_child(__file__, ["--child", task, json.dumps(args)])


# -- the report -----------------------------------------------------------------------


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p95 = statistics.quantiles(ordered, n=100, method="inclusive")[94] if len(ordered) > 1 else ordered[0]
    return {
        "n": len(values),
        "median": statistics.median(ordered),
        "p95": p95,
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pooled", type=int, default=1_000_000, help="pooled pairs of the big workbench, at least")
    parser.add_argument("--judgments", type=int, default=300, help="grade keys pressed in a row per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="UI runs per workbench (fresh processes), pooled")
    parser.add_argument(
        "--log",
        type=int,
        default=0,
        metavar="N",
        help="also measure a copy of the big workbench with N judgments already in its log",
    )
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where judge.json goes")
    parser.add_argument("--rebuild", action="store_true", help="build the workbenches even if params.json matches")
    parser.add_argument("--profile", action="store_true", help="also profile session.judge on the big workbench")
    parser.add_argument("--child", choices=list(TASKS), help=argparse.SUPPRESS)
    parser.add_argument("child_args", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(TASKS[args.child](json.loads(args.child_args))))
        return

    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 110))
    args.out.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    build = ensure_workbenches(args.pooled, args.rebuild, console)
    big, small = build["big"], build["small"]
    if big["pairs"] < args.pooled:
        raise SystemExit(f"the big pool has {big['pairs']:,} pairs, fewer than --pooled {args.pooled:,}")
    when = f"reused, built {build['date']}" if build["reused"] else "built now"
    console.print(
        f"Big workbench ({when}): {big['topics']:,} topics, pool {big['pool']} of {big['pairs']:,} pairs "
        f"(depth {POOL_DEPTH}, {RUNS} runs x {RESULTS_PER_TOPIC} results), "
        f"{big['generated']['documents']:,} documents with text, {big['workbench_mb']:.0f} MB."
    )
    table = Table(title="Building the big workbench")
    for column in ("step", "seconds", "items", "items/s"):
        table.add_column(column, justify="left" if column == "step" else "right")
    for step, row in big["steps"].items():
        items = row.get("items")
        table.add_row(
            step,
            f"{row['seconds']:.1f}",
            f"{items:,}" if items else "-",
            f"{items / row['seconds']:,.0f}" if items else "-",
        )
    console.print(table)
    console.print(
        f"Small workbench: sample corpus ({small['generated']['documents']} documents, "
        f"{small['topics']} topics), 2 runs at depth {SMALL_DEPTH}: {small['pairs']:,} pairs."
    )

    benches = {
        "small": {
            "db": str(small_db()),
            "topic": small["generated"]["middle_topic"],
            "pairs": small["pairs"],
            "log": 0,
        },
        "big": {"db": str(big_db()), "topic": big["generated"]["middle_topic"], "pairs": big["pairs"], "log": 0},
    }
    log_build = None
    if args.log:
        log_build = ensure_log_workbench(args.log, console)
        console.print(
            f"big+log: the big workbench with {log_build['judgments']:,} imported judgments over "
            f"{log_build['topics']:,} other topics (import_judgments took {log_build['import_seconds']:.1f} s"
            f"{', reused' if log_build['reused'] else ''})."
        )
        benches["big+log"] = {
            "db": str(log_db(args.log)),
            "topic": big["generated"]["middle_topic"],
            "pairs": big["pairs"],
            "log": log_build["judgments"],
        }

    results: dict[str, dict] = {}
    for name, bench in benches.items():
        child_args = {"db": bench["db"], "topic": bench["topic"], "judgments": args.judgments}
        where = f"{bench['pairs']:,} pairs" + (f", {bench['log']:,} judgments in the log" if bench["log"] else "")
        for run in range(args.repeat):
            console.print(
                f"measuring the UI on {name} ({where}, from topic {bench['topic']}), run {run + 1}/{args.repeat} ..."
            )
            results[f"{name}/ui/{run + 1}"] = run_child("ui", child_args)
        console.print(f"measuring the service on {name} ...")
        results[f"{name}/service"] = run_child("service", child_args)
    if args.profile:
        console.print("profiling session.judge on the big workbench ...")
        results["big/profile"] = run_child(
            "profile",
            {
                "db": benches["big"]["db"],
                "topic": benches["big"]["topic"],
                "judgments": args.judgments,
                "out": str(args.out),
            },
        )

    ui_label = "UI: key action to call_after_refresh"
    rows: dict[str, dict] = {}
    table = Table(title=f"Judging latency, ms ({args.judgments} judgments in a row; UI: {args.repeat} runs pooled)")
    for column in ("workbench", "what", "n", "median", "p95", "max"):
        table.add_column(column, justify="left" if column in ("workbench", "what") else "right")
    notes = []
    for name, bench in benches.items():
        label = f"{name} ({bench['pairs']:,} pairs" + (f", log {bench['log']:,})" if bench["log"] else ")")
        ui_runs = [results[f"{name}/ui/{run + 1}"] for run in range(args.repeat)]
        measured = {}
        latencies = [x for ui in ui_runs for x in ui.get("latencies_ms", [])]
        if latencies:
            measured[ui_label] = summary(latencies)
            measured[ui_label]["p95_per_run"] = [
                summary(ui["latencies_ms"])["p95"] for ui in ui_runs if "latencies_ms" in ui
            ]
        service = results[f"{name}/service"]
        for what, values in service.get("timings_ms", {}).items():
            measured[what] = summary(values)
        for what, row in measured.items():
            if row["n"] == 0:
                continue
            table.add_row(label, what, str(row["n"]), f"{row['median']:.1f}", f"{row['p95']:.1f}", f"{row['max']:.1f}")
            label = ""
        for key, result in [(f"ui run {i + 1}", ui) for i, ui in enumerate(ui_runs)] + [("service", service)]:
            if "error" in result:
                table.add_row(label, key, "-", "-", "-", result["error"])
        rows[name] = measured
        table.add_section()
        done = [ui for ui in ui_runs if "presses" in ui]
        if done:
            pauses = [x for ui in done for x in ui["gen2_collections_ms"]]
            pause_median = statistics.median(pauses) if pauses else 0
            slow = sum(ui["slow_keys"] for ui in done)
            notes.append(
                f"{name}: per UI run {done[0]['presses']} grade keys over topics {', '.join(done[0]['topics'])} "
                f"({done[0]['topic_switches']} 'd' to move on); p95 per run "
                f"{', '.join(f'{p:.1f}' for p in measured[ui_label]['p95_per_run'])} ms (1-min load average "
                f"{', '.join('{:.1f}-{:.1f}'.format(*ui['load_average_1min']) for ui in done)}); "
                f"{len(pauses)} full GC collections during keys (median {pause_median:.0f}"
                f" ms, max {max(pauses, default=0):.0f} ms); {slow} keys over {TARGET_P95_MS:g} ms, "
                f"{sum(ui['slow_keys_with_gen2'] for ui in done)} of them with a full GC; "
                f"{statistics.median(ui.get('frozen_objects', 0) for ui in done):,.0f} objects frozen when the keys "
                f"started; widgets on the screen before / after the keys "
                f"{', '.join('{}/{}'.format(*ui.get('widgets_before_after', ('?', '?'))) for ui in done)}; "
                f"make_app {statistics.median(ui['make_app_ms'] for ui in done):.0f} ms."
            )
    console.print(table)
    console.print(
        "UI = JudgeScreen.latencies: from the grade key's action to call_after_refresh firing "
        "(commit, next unit, screen refreshed). judge() = JudgingSession.judge alone (commit + advance); "
        "the next three rows are the other service calls the screen makes per key."
    )
    for note in notes:
        console.print(note)
    big_ui = rows.get("big", {}).get(ui_label)
    small_ui = rows.get("small", {}).get(ui_label)
    if big_ui and small_ui:
        verdict = "meets" if big_ui["p95"] < TARGET_P95_MS else "misses"
        console.print(
            f"UI p95 {big_ui['p95']:.1f} ms with {big['pairs']:,} pooled pairs vs {small_ui['p95']:.1f} ms "
            f"with {small['pairs']:,}: {verdict} the target of p95 < {TARGET_P95_MS:g} ms."
        )
    load_after = os.getloadavg()
    console.print(
        f"Load average (1 min) before / after: {load_before[0]:.2f} / {load_after[0]:.2f} on "
        f"{os.cpu_count()} CPUs (other work on the machine shows up in the UI tail)."
    )
    if "big/profile" in results:
        profile = results["big/profile"]
        if "profile" in profile:
            console.print(f"cProfile of {profile['judged']} judgments: {profile['profile']} (and judge.prof)")
        else:
            console.print(f"profile failed: {profile.get('error')}")

    report = {
        "benchmark": "judge",
        "date": now_iso(),
        "machine": machine(("textual",)),
        "command": "python benchmarks/bench_judge.py " + " ".join(sys.argv[1:]),
        "params": params_for(args.pooled),
        "judgments": args.judgments,
        "repeat": args.repeat,
        "target_p95_ms": TARGET_P95_MS,
        "load_average_1min": {"before": load_before[0], "after": load_after[0]},
        "build": build,
        "log_build": log_build,
        "summary": rows,
        "results": results,
    }
    (args.out / "judge.json").write_text(json.dumps(report, indent=2) + "\n")
    console.print(f"Wrote {args.out / 'judge.json'}.")


if __name__ == "__main__":
    main()

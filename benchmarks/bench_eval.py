"""Benchmark: scoring one run and ten (nDCG@10, R@100, AP, P@10), against trec_eval, ir_measures, ranx, pytrec_eval.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_eval.py [--repeat 3] [--out DIR] [--only TASK ...] [--profile]

It generates one TREC run of 500 topics x 1000 results and qrels of 25,000
judgments (50 per topic, grades 0-3, most of them drawn from the run's top
ranks), seeded, into benchmarks/data/eval/ (reused when params.json matches),
then sets up a workbench from them with the `labeler` command (init,
`judgments import --reviewed`, `runs import` of the run under ten names,
`snapshot create`; timed and printed separately, not part of the comparison).

Then it measures each task in a fresh Python subprocess, `--repeat` times
(the median is reported): labeler's `evaluate_runs` through the workbench API
(time inside the child around the call), the `labeler eval` command end to
end (timed from outside; also with pandas made unimportable, as in an
environment holding only labeler), ir_measures from the files and from parsed dicts,
pytrec_eval from parsed dicts, and ranx: its first-ever call (numba cache
cleared; once), a fresh process with the numba cache on disk, and a warm
second call in the same process. ranx is not a labeler dependency
(`pip install ranx` to measure it); numba's cache for it is kept in
benchmarks/data/eval/numba-cache/ (NUMBA_CACHE_DIR), never in site-packages.

It checks that labeler's four means equal ir_measures' to 4 decimals and
prints every tool's values, noting where ranx differs (it breaks score ties
in its own order, not trec_eval's). The trec_eval binary ($TREC_EVAL, else
`trec_eval` on PATH) is measured when there is one: one call, and ten calls in
a row beside labeler's `evaluate_runs` of the ten runs (copies of one run, so
every tool does the same work ten times) and pytrec_eval evaluating ten runs;
without a binary those rows say so and the reference figure is printed. Results are
written as JSON to DIR/eval.json (default benchmarks/out/); with --profile,
cProfile runs around `evaluate_runs` and the top functions go to
DIR/eval_profile.txt.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import _common
from _common import machine

HERE = Path(__file__).resolve().parent
DATA = _common.DATA / "eval"
RUN_FILE = DATA / "run.trec"
QRELS_FILE = DATA / "qrels.txt"
WORKBENCH = DATA / "eval.db"
NUMBA_CACHE = DATA / "numba-cache"
GENERATOR_VERSION = 1
SEED = 2024
TOPICS, DEPTH = (5, 100) if _common.TINY else (500, 1000)
JUDGED_PER_TOPIC = 50
JUDGED_UNRETRIEVED = 5  # of the 50, judged documents the run does not retrieve (they keep recall below 1)
POOL_SIZE = 1_000_000  # doc ids D0000000 .. D0999999
RUN_NAME = "bench"
MEASURES = "nDCG@10 R@100 AP P@10"
PYTREC_MEASURES = {"nDCG@10": "ndcg_cut_10", "R@100": "recall_100", "AP": "map", "P@10": "P_10"}
RANX_METRICS = {"nDCG@10": "ndcg@10", "R@100": "recall@100", "AP": "map", "P@10": "precision@10"}
TEN_RUNS = [RUN_NAME, *(f"{RUN_NAME}{i:02d}" for i in range(1, 10))]  # the same run file imported ten times
TREC_EVAL_MEASURES = ["-m", "ndcg_cut.10", "-m", "recall.100", "-m", "map", "-m", "P.10"]
TREC_EVAL_NAMES = {"ndcg_cut_10": "nDCG@10", "recall_100": "R@100", "map": "AP", "P_10": "P@10"}
TREC_EVAL_REFERENCE_SECONDS = 0.362  # /work/shared/reference/eval_tools.md §3(b): trec_eval 10.0, median of 5


# -- data -----------------------------------------------------------------------


def params() -> dict:
    return {
        "generator_version": GENERATOR_VERSION,
        "seed": SEED,
        "topics": TOPICS,
        "depth": DEPTH,
        "judged_per_topic": JUDGED_PER_TOPIC,
        "judged_unretrieved": JUDGED_UNRETRIEVED,
        "pool_size": POOL_SIZE,
    }


def ensure_data() -> float | None:
    """Generate the run and qrels unless present with the same parameters; the generation time."""
    marker = DATA / "params.json"
    if marker.exists() and RUN_FILE.exists() and QRELS_FILE.exists():
        try:
            if json.loads(marker.read_text()) == params():
                return None
        except ValueError:
            pass
    DATA.mkdir(parents=True, exist_ok=True)
    if marker.exists():
        marker.unlink()  # invalid until the new files are complete
    start = time.perf_counter()
    generate()
    elapsed = time.perf_counter() - start
    marker.write_text(json.dumps(params(), indent=2) + "\n")
    return elapsed


def generate() -> None:
    """One run and its qrels.

    The run: per topic 1000 distinct doc ids, scores descending with ties
    (about one result in eight ties with the one before, ties in no particular
    id order: only the tie-breaking rule decides them), the rank column in file
    order. The qrels: per topic 45 judged documents taken from the run, at ranks
    drawn from an exponential with mean 40 (so most come from the top 100), and
    5 documents the run does not retrieve. The chance of being relevant falls
    with the rank (0.75 at rank 1, 0.15 deep down), relevant grades are 1-3
    with higher grades likelier near the top; every topic has a relevant label.
    """
    rng = random.Random(SEED)
    run_lines: list[str] = []
    qrels_lines: list[str] = []
    for t in range(TOPICS):
        qid = str(1 + t)
        docs = [f"D{d:07d}" for d in rng.sample(range(POOL_SIZE), DEPTH)]
        score = rng.uniform(20.0, 30.0)
        for rank, doc in enumerate(docs, 1):
            run_lines.append(f"{qid} Q0 {doc} {rank} {score:.4f} bench\n")
            if rng.random() >= 0.125:  # otherwise the next result ties with this one
                score -= rng.uniform(0.0001, 0.02)
        ranks: set[int] = set()
        while len(ranks) < JUDGED_PER_TOPIC - JUDGED_UNRETRIEVED:
            rank = int(rng.expovariate(1 / 40))
            if rank < DEPTH:
                ranks.add(rank)
        retrieved = set(docs)
        judged: dict[str, int] = {}
        for rank in sorted(ranks):
            closeness = math.exp(-rank / 30)
            if rng.random() < 0.15 + 0.6 * closeness:
                judged[docs[rank]] = rng.choices((1, 2, 3), weights=(3 - 2 * closeness, 2, 1 + 2 * closeness))[0]
            else:
                judged[docs[rank]] = 0
        while len(judged) < JUDGED_PER_TOPIC:
            doc = f"D{rng.randrange(POOL_SIZE):07d}"
            if doc not in retrieved and doc not in judged:
                judged[doc] = rng.choice((0, 0, 1, 2))
        if not any(grade >= 1 for grade in judged.values()):
            judged[docs[min(ranks)]] = 1
        qrels_lines.extend(f"{qid} 0 {doc} {grade}\n" for doc, grade in sorted(judged.items()))
    with open(RUN_FILE, "w", encoding="utf-8", newline="\n") as out:
        out.write("".join(run_lines))
    with open(QRELS_FILE, "w", encoding="utf-8", newline="\n") as out:
        out.write("".join(qrels_lines))


def labeler_command(*args: str) -> tuple[float, dict]:
    start = time.perf_counter()
    done = subprocess.run(
        ["labeler", "--db", str(WORKBENCH), *args, "--json"], check=True, capture_output=True, text=True
    )
    return time.perf_counter() - start, json.loads(done.stdout)


def setup_workbench() -> dict[str, float]:
    """A fresh workbench holding the qrels (reviewed), the run and snapshot v1; each step's seconds."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{WORKBENCH}{suffix}").unlink(missing_ok=True)
    steps = {}
    steps["init"], _ = labeler_command("init")
    steps["judgments import --reviewed"], _ = labeler_command(
        "judgments", "import", str(QRELS_FILE), "--assessor", "bench", "--reviewed"
    )
    steps["runs import"], _ = labeler_command("runs", "import", str(RUN_FILE), "--name", RUN_NAME)
    steps["runs import x9 more"] = sum(
        labeler_command("runs", "import", str(RUN_FILE), "--name", name)[0] for name in TEN_RUNS[1:]
    )
    steps["snapshot create"], _ = labeler_command("snapshot", "create", "-m", "bench_eval")
    return steps


# -- parsing for the tools that take dicts (never timed) ------------------------------------


def read_qrels_dict() -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(QRELS_FILE, encoding="utf-8") as handle:
        for line in handle:
            qid, _, doc, grade = line.split()
            qrels.setdefault(qid, {})[doc] = int(grade)
    return qrels


def read_run_dict() -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    with open(RUN_FILE, encoding="utf-8") as handle:
        for line in handle:
            qid, _, doc, _, score, _ = line.split()
            run.setdefault(qid, {})[doc] = float(score)
    return run


# -- the tasks, each run in a fresh child process ------------------------------------


class Clock:
    """Wall and CPU seconds (user + system, all threads of this process) from creation to stop()."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def stop(self) -> dict:
        return {"seconds": time.perf_counter() - self.wall, "cpu_seconds": time.process_time() - self.cpu}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def task_labeler() -> dict:
    """`evaluate_runs` through the workbench API; imports and opening the workbench timed apart."""
    start = time.perf_counter()
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs
    from labeler.workbench.setup import open_workbench

    imported = time.perf_counter() - start
    with open_workbench(WORKBENCH) as store:
        clock = Clock()
        report = evaluate_runs(store, EvalRequest(snapshot="v1", runs=[RUN_NAME], measures=MEASURES))
        timing = clock.stop()
    run = report.to_json()["runs"][0]
    return {**timing, "values": run["aggregate"], "topics": run["topics"]["scored"], "import_seconds": imported}


def task_labeler_ten() -> dict:
    """`evaluate_runs` on ten runs in one report (the labels read once, each run's rankings once)."""
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs
    from labeler.workbench.setup import open_workbench

    with open_workbench(WORKBENCH) as store:
        clock = Clock()
        report = evaluate_runs(store, EvalRequest(snapshot="v1", runs=TEN_RUNS, measures=MEASURES))
        timing = clock.stop()
    runs = report.to_json()["runs"]
    return {**timing, "values": runs[0]["aggregate"], "runs": len(runs)}


def trec_eval_binary() -> str | None:
    """The trec_eval binary: $TREC_EVAL, else `trec_eval` on PATH; None when there is none."""
    return os.environ.get("TREC_EVAL") or shutil.which("trec_eval")


def _trec_eval_calls(count: int) -> dict:
    binary = trec_eval_binary()
    if binary is None:
        return {"skipped": "no trec_eval binary (set TREC_EVAL or put trec_eval on PATH)"}
    cpu = children_cpu()
    start = time.perf_counter()
    for _ in range(count):
        done = subprocess.run(
            [binary, *TREC_EVAL_MEASURES, str(QRELS_FILE), str(RUN_FILE)], check=True, capture_output=True, text=True
        )
    seconds = time.perf_counter() - start
    values = {}
    for line in done.stdout.splitlines():
        name, _, value = line.split()
        values[TREC_EVAL_NAMES[name]] = float(value)
    return {"seconds": seconds, "cpu_seconds": children_cpu() - cpu, "values": values, "binary": binary}


def task_trec_eval() -> dict:
    """The trec_eval binary on the run and qrels files, timed from outside around the process."""
    return _trec_eval_calls(1)


def task_trec_eval_ten() -> dict:
    """Ten trec_eval calls in a row, one per run, as a shell loop over ten run files does."""
    return _trec_eval_calls(10)


def task_cli() -> dict:
    """`labeler eval` as a user types it, timed from outside around the whole process."""
    cpu = children_cpu()
    seconds, report = labeler_command("eval", "--runs", RUN_NAME, "--measures", MEASURES)
    run = report["runs"][0]
    return {
        "seconds": seconds,
        "cpu_seconds": children_cpu() - cpu,
        "values": run["aggregate"],
        "topics": run["topics"]["scored"],
    }


def task_cli_ten() -> dict:
    """`labeler eval` of the ten runs in one command, timed from outside around the whole process."""
    cpu = children_cpu()
    seconds, report = labeler_command("eval", "--runs", ",".join(TEN_RUNS), "--measures", MEASURES)
    return {
        "seconds": seconds,
        "cpu_seconds": children_cpu() - cpu,
        "values": report["runs"][0]["aggregate"],
        "runs": len(report["runs"]),
    }


HIDE_PANDAS = """
import sys
sys.modules["pandas"] = None  # sqlite-utils imports pandas when it can; a labeler-only install has none
from labeler.cli import main
sys.argv = ["labeler", *sys.argv[1:]]
main()
"""


def task_cli_no_pandas() -> dict:
    """The same command with pandas made unimportable, as in an environment where only labeler is installed.

    pandas is here because trectools and ranx need it; sqlite-utils then imports it
    (and so does every labeler command) although labeler never uses it.
    """
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", HIDE_PANDAS, "--db", str(WORKBENCH), "eval", "--runs", RUN_NAME]
        + ["--measures", MEASURES, "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    run = json.loads(done.stdout)["runs"][0]
    return {
        "seconds": seconds,
        "cpu_seconds": children_cpu() - cpu,
        "values": run["aggregate"],
        "topics": run["topics"]["scored"],
    }


def task_ir_measures_files() -> dict:
    import ir_measures

    measures = [ir_measures.parse_measure(name) for name in MEASURES.split()]
    clock = Clock()
    result = ir_measures.calc_aggregate(
        measures, ir_measures.read_trec_qrels(str(QRELS_FILE)), ir_measures.read_trec_run(str(RUN_FILE))
    )
    return {**clock.stop(), "values": {str(m): float(v) for m, v in result.items()}}


def task_ir_measures_dicts() -> dict:
    import ir_measures

    measures = [ir_measures.parse_measure(name) for name in MEASURES.split()]
    start = time.perf_counter()
    qrels, run = read_qrels_dict(), read_run_dict()
    parsed = time.perf_counter() - start
    clock = Clock()
    result = ir_measures.calc_aggregate(measures, qrels, run)
    return {
        **clock.stop(),
        "values": {str(m): float(v) for m, v in result.items()},
        "topics": len(qrels),
        "parse_seconds": parsed,
    }


def task_pytrec_eval() -> dict:
    import pytrec_eval

    start = time.perf_counter()
    qrels, run = read_qrels_dict(), read_run_dict()
    parsed = time.perf_counter() - start
    clock = Clock()
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100", "map", "P.10"})
    per_query = evaluator.evaluate(run)
    values = {name: statistics.fmean(q[key] for q in per_query.values()) for name, key in PYTREC_MEASURES.items()}
    return {**clock.stop(), "values": values, "topics": len(per_query), "parse_seconds": parsed}


def task_pytrec_eval_ten() -> dict:
    """One pytrec_eval evaluator, ten runs evaluated (the run parsed once, not timed)."""
    import pytrec_eval

    start = time.perf_counter()
    qrels, run = read_qrels_dict(), read_run_dict()
    parsed = time.perf_counter() - start
    clock = Clock()
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100", "map", "P.10"})
    for _ in TEN_RUNS:
        per_query = evaluator.evaluate(run)
    values = {name: statistics.fmean(q[key] for q in per_query.values()) for name, key in PYTREC_MEASURES.items()}
    return {**clock.stop(), "values": values, "topics": len(per_query), "parse_seconds": parsed}


def _ranx_once() -> dict:
    """Qrels.from_file + Run.from_file + evaluate, timed as a whole and in two parts."""
    from ranx import Qrels, Run, evaluate

    clock = Clock()
    qrels = Qrels.from_file(str(QRELS_FILE), kind="trec")
    run = Run.from_file(str(RUN_FILE), kind="trec")
    loaded = time.perf_counter()
    result = evaluate(qrels, run, list(RANX_METRICS.values()))
    timing = clock.stop()
    return {
        **timing,
        "load_seconds": loaded - clock.wall,
        "evaluate_seconds": clock.wall + timing["seconds"] - loaded,
        "values": {name: float(result[metric]) for name, metric in RANX_METRICS.items()},
    }


def _ranx_first_call() -> dict:
    start = time.perf_counter()
    import ranx  # noqa: F401

    imported = time.perf_counter() - start
    return {**_ranx_once(), "import_seconds": imported}


def task_ranx_first() -> dict:
    """The first call ever: the parent cleared the numba cache, so everything is compiled here."""
    return _ranx_first_call()


def task_ranx_cold() -> dict:
    """A fresh process with numba's cache on disk: what every new `ranx` process pays."""
    return _ranx_first_call()


def task_ranx_warm() -> dict:
    """The second load + evaluate in one process (the first one is not timed).

    Then, not timed, ranx once more on the same run with its ties broken as
    trec_eval breaks them (doc id descending), turned into tie-free scores: if
    those values equal trec_eval's, the differences come from tie order alone.
    """
    from ranx import Qrels, Run, evaluate

    _ranx_once()
    result = _ranx_once()
    untied = {}
    for qid, scores in read_run_dict().items():
        ordered = sorted(scores, key=lambda doc: (scores[doc], doc), reverse=True)
        untied[qid] = {doc: float(len(ordered) - index) for index, doc in enumerate(ordered)}
    values = evaluate(Qrels(read_qrels_dict()), Run(untied), list(RANX_METRICS.values()))
    result["values_ties_broken_as_trec_eval"] = {name: float(values[metric]) for name, metric in RANX_METRICS.items()}
    return result


TASKS = {
    "labeler": ("labeler evaluate_runs (API, from SQLite)", task_labeler),
    "trec_eval": ("trec_eval binary, one call", task_trec_eval),
    "labeler_ten": ("labeler evaluate_runs, ten runs", task_labeler_ten),
    "trec_eval_ten": ("trec_eval binary, ten calls", task_trec_eval_ten),
    "pytrec_eval_ten": ("pytrec_eval on dicts, ten runs", task_pytrec_eval_ten),
    "cli": ("labeler eval CLI, whole process", task_cli),
    "cli_ten": ("labeler eval CLI, ten runs, whole process", task_cli_ten),
    "cli_no_pandas": ("labeler eval CLI, pandas hidden", task_cli_no_pandas),
    "ir_measures_files": ("ir_measures calc_aggregate from files", task_ir_measures_files),
    "ir_measures_dicts": ("ir_measures calc_aggregate on dicts", task_ir_measures_dicts),
    "pytrec_eval": ("pytrec_eval on dicts", task_pytrec_eval),
    "ranx_first": ("ranx first-ever call (numba cache cleared)", task_ranx_first),
    "ranx_cold": ("ranx fresh process, numba cache on disk", task_ranx_cold),
    "ranx_warm": ("ranx warm (second call in one process)", task_ranx_warm),
}
RANX_TASKS = ("ranx_first", "ranx_cold", "ranx_warm")
TEN_TASKS = (
    "labeler_ten",
    "trec_eval_ten",
    "pytrec_eval_ten",
    "cli_ten",
)  # compared with labeler_ten, the rest with labeler


def _ratio(seconds: float, base: float | None) -> str:
    return f"{seconds / base:.2f}x" if base else "-"


ONCE = ("ranx_first",)  # each measurement costs a full numba compile


def run_child(task: str) -> dict:
    """Run one task in a fresh interpreter; it prints one JSON object on its last stdout line."""
    result = _common.run_child(__file__, ["--child", task], cwd=None)
    if "No module named 'ranx'" in result.get("error", ""):
        return {"skipped": "ranx not importable; pip install ranx to measure it (not a labeler dependency)"}
    return result


def numba_cache_filled() -> bool:
    return NUMBA_CACHE.exists() and any(NUMBA_CACHE.rglob("*.nbi"))


def measure(task: str, repeat: int) -> dict:
    """Median of `repeat` fresh-process runs of a task, with every run's seconds and the last run's values."""
    if task == "ranx_first":
        shutil.rmtree(NUMBA_CACHE, ignore_errors=True)
    elif task in RANX_TASKS and not numba_cache_filled():
        primed = run_child("ranx_cold")  # fills the cache, not measured
        if "seconds" not in primed:
            return primed
    runs = []
    for _ in range(1 if task in ONCE else repeat):
        result = run_child(task)
        if "seconds" not in result:
            return result
        runs.append(result)
    result = dict(runs[-1])
    seconds = [r["seconds"] for r in runs]
    result["seconds"] = statistics.median(seconds)
    result["all_seconds"] = seconds
    for key in ("cpu_seconds", "import_seconds", "load_seconds", "evaluate_seconds", "parse_seconds"):
        if key in result:
            result[key] = statistics.median(r[key] for r in runs)
    return result


def task_profile(out: Path) -> None:
    import cProfile
    import io
    import pstats

    from labeler.workbench.evaluation import EvalRequest, evaluate_runs
    from labeler.workbench.setup import open_workbench

    with open_workbench(WORKBENCH) as store:
        profiler = cProfile.Profile()
        profiler.enable()
        evaluate_runs(store, EvalRequest(snapshot="v1", runs=[RUN_NAME], measures=MEASURES))
        profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("cumulative").print_stats(40)
    stats.sort_stats("tottime").print_stats(25)
    out.mkdir(parents=True, exist_ok=True)
    (out / "eval_profile.txt").write_text(text.getvalue())


# -- the report -----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per task; the median is reported")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where eval.json goes")
    parser.add_argument("--only", nargs="+", choices=list(TASKS), help="measure only these tasks")
    parser.add_argument("--profile", action="store_true", help="also profile evaluate_runs (eval_profile.txt)")
    parser.add_argument("--child", choices=[*TASKS, "profile"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child == "profile":
        task_profile(args.out)
        return
    if args.child:
        if args.child in RANX_TASKS:  # before numba is imported: never write its cache into site-packages
            os.environ["NUMBA_CACHE_DIR"] = str(NUMBA_CACHE)
        print(json.dumps(TASKS[args.child][1]()))
        return

    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 120))
    generated = ensure_data()
    if generated is None:
        console.print(f"Reusing the run and qrels in {DATA} (params.json matches).")
    else:
        console.print(f"Generated the run and qrels in {DATA} in {generated:.1f} s (not measured below).")
    run_lines = sum(1 for _ in open(RUN_FILE, encoding="utf-8"))
    qrels_lines = sum(1 for _ in open(QRELS_FILE, encoding="utf-8"))
    console.print(
        f"Run: {TOPICS} topics x {DEPTH} results = {run_lines:,} lines, "
        f"{RUN_FILE.stat().st_size / 1e6:.1f} MB; qrels: {qrels_lines:,} judgments. Measures: {MEASURES}."
    )

    steps = setup_workbench()
    console.print(
        "Workbench set up with the labeler command (not part of the comparison): "
        + ", ".join(f"{step} {seconds:.2f} s" for step, seconds in steps.items())
        + "."
    )

    load_before = os.getloadavg()[0]
    results: dict[str, dict] = {}
    for key in args.only or list(TASKS):
        console.print(f"measuring {TASKS[key][0]} ...")
        results[key] = measure(key, args.repeat)

    base = results.get("labeler", {}).get("seconds")
    base_ten = results.get("labeler_ten", {}).get("seconds")
    table = Table(title=f"Scoring one run ({run_lines:,} lines, {qrels_lines:,} judgments) for {MEASURES}")
    for column in ("task", "seconds", "CPU s", "runs (min-max s)", "vs labeler", "notes"):
        table.add_column(column, justify="left" if column in ("task", "notes") else "right")
    table.add_row(
        "trec_eval binary (reference figure)",
        f"{TREC_EVAL_REFERENCE_SECONDS:.3f}",
        "-",
        "-",
        f"{TREC_EVAL_REFERENCE_SECONDS / base:.2f}x" if base else "-",
        "eval_tools.md §3(b), end to end; the measured rows below are this machine's",
    )
    for key, result in results.items():
        label = TASKS[key][0]
        if "seconds" not in result:
            table.add_row(label, "-", "-", "-", "-", result.get("skipped") or result.get("error", "?"))
            continue
        notes = []
        if "load_seconds" in result:
            notes.append(f"load {result['load_seconds']:.2f} + evaluate {result['evaluate_seconds']:.2f}")
        if "import_seconds" in result:
            notes.append(f"import {result['import_seconds']:.2f} s not included")
        if "parse_seconds" in result:
            notes.append(f"parsing to dicts {result['parse_seconds']:.2f} s not included")
        spread = result["all_seconds"]
        table.add_row(
            label,
            f"{result['seconds']:.3f}",
            f"{result['cpu_seconds']:.3f}",
            f"{len(spread)} ({min(spread):.3f}-{max(spread):.3f})" if len(spread) > 1 else "1",
            _ratio(result["seconds"], base_ten if key in TEN_TASKS else base),
            "; ".join(notes),
        )
    load_after = os.getloadavg()[0]
    console.print(table)
    console.print(
        f"Load average (1 min) {load_before:.2f} before the measurements, {load_after:.2f} after, on "
        f"{os.cpu_count()} CPUs: wall times stretch when other processes compete, CPU times much less."
    )
    console.print(
        "seconds = median wall time over fresh processes; CPU s = median user + system time of the same "
        "work (all threads); vs labeler = seconds relative to labeler's evaluate_runs "
        "(above 1: slower than labeler)."
    )
    for mine, theirs, target in (
        ("labeler", "trec_eval", 1.0),
        ("labeler_ten", "trec_eval_ten", 0.5),
        ("cli", "trec_eval", 1.0),
        ("cli_ten", "trec_eval_ten", 0.5),
    ):
        ours, binary = results.get(mine, {}), results.get(theirs, {})
        if "seconds" in ours and "seconds" in binary:
            ratio = ours["seconds"] / binary["seconds"]
            cpu_ratio = ours["cpu_seconds"] / binary["cpu_seconds"]
            console.print(
                f"{TASKS[mine][0]}: {ours['seconds']:.3f} s against {TASKS[theirs][0]} {binary['seconds']:.3f} s: "
                f"{ratio:.2f}x wall, {cpu_ratio:.2f}x CPU; target {target}x: "
                + ("met" if ratio <= target else "missed")
            )
    if base:
        verdict = "meets" if base <= TREC_EVAL_REFERENCE_SECONDS else "misses"
        console.print(
            f"labeler evaluate_runs: {base:.3f} s, {verdict} the target of the trec_eval binary's "
            f"{TREC_EVAL_REFERENCE_SECONDS} s (reference figure)."
        )

    # -- the values
    checks: dict[str, object] = {}
    reference = results.get("ir_measures_files", {}).get("values") or results.get("ir_measures_dicts", {}).get("values")
    values_table = Table(title="Means (4 decimals)")
    values_table.add_column("tool")
    for name in MEASURES.split():
        values_table.add_column(name, justify="right")
    for key, result in results.items():
        if "values" in result and key != "ranx_first" and key != "ranx_cold":
            values_table.add_row(TASKS[key][0], *(f"{result['values'][m]:.4f}" for m in MEASURES.split()))
    console.print(values_table)
    labeler_values = results.get("labeler", {}).get("values")
    if labeler_values and reference:
        diffs = {m: abs(labeler_values[m] - reference[m]) for m in MEASURES.split()}
        same = all(d < 5e-5 for d in diffs.values())
        checks["labeler_vs_ir_measures_max_abs_diff"] = max(diffs.values())
        checks["labeler_equals_ir_measures_4dp"] = same
        console.print(
            f"CHECK labeler = ir_measures to 4 decimals: {'OK' if same else 'MISMATCH'} "
            f"(largest difference {max(diffs.values()):.1e}; labeler scored "
            f"{results['labeler'].get('topics')} topics)."
        )
    ranx_values = results.get("ranx_warm", {}).get("values") or results.get("ranx_cold", {}).get("values")
    if ranx_values and reference:
        diffs = {m: ranx_values[m] - reference[m] for m in MEASURES.split()}
        checks["ranx_minus_ir_measures"] = diffs
        differing = {m: d for m, d in diffs.items() if d != 0.0}
        if differing:
            console.print(
                "note: ranx differs from ir_measures/trec_eval on "
                + ", ".join(f"{m} by {d:+.2e}" for m, d in differing.items())
                + ": it breaks score ties in its own order, trec_eval (and labeler) by doc id descending."
            )
        else:
            console.print("ranx agrees with ir_measures exactly on all four measures.")
        untied = results.get("ranx_warm", {}).get("values_ties_broken_as_trec_eval")
        if untied:
            gap = max(abs(untied[m] - reference[m]) for m in MEASURES.split())
            checks["ranx_ties_broken_as_trec_eval_max_abs_diff"] = gap
            console.print(
                f"ranx on the same run with ties broken as trec_eval does: largest difference {gap:.1e} "
                + (
                    "(so the differences above are tie order only)."
                    if gap < 5e-5
                    else "(so tie order is not the only difference)."
                )
            )
    for key, result in results.items():
        if "skipped" in result:
            console.print(f"note: {key} skipped: {result['skipped']}")
        elif "error" in result:
            console.print(f"note: {key} failed: {result['error']}")

    if args.profile:
        subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--child", "profile", "--out", str(args.out)], check=True
        )
        console.print(f"Wrote the profile of evaluate_runs to {args.out / 'eval_profile.txt'}.")

    report = {
        "benchmark": "eval",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(("labeler", "ir_measures", "pytrec-eval-terrier", "ranx", "numba")),
        "params": params(),
        "measures": MEASURES,
        "run_lines": run_lines,
        "qrels_lines": qrels_lines,
        "generation_seconds": generated,
        "setup_seconds": steps,
        "load_average_1min": {"before": load_before, "after": load_after},
        "trec_eval_reference_seconds": TREC_EVAL_REFERENCE_SECONDS,
        "checks": checks,
        "results": {key: {"task": TASKS[key][0], **result} for key, result in results.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "eval.json").write_text(json.dumps(report, indent=2) + "\n")
    console.print(f"Wrote {args.out / 'eval.json'}.")


if __name__ == "__main__":
    main()

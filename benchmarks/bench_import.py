"""Benchmark: importing TREC runs into a workbench, against plain Python and trectools.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_import.py [--topics 500] [--depth 1000] [--runs 10] [--out DIR] [--repeat 3]

It generates `--runs` synthetic TREC run files (seeded, so the same every time)
into benchmarks/data/ (reused when params.json matches), then measures each
task in a fresh Python subprocess, so the peak RSS is that task's alone and
the interpreter start-up is not in the time (except for the CLI task, whose
point is to show the whole command's cost). Results are printed as a table and
written as JSON to DIR/import.json (default benchmarks/out/).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _common
from _common import machine, now_iso, peak_rss_mb

HERE = Path(__file__).resolve().parent
DATA = _common.DATA
GENERATOR_VERSION = 1
SEED = 42
POOL_SIZE = 1_000_000  # doc ids D0000000 .. D0999999
LIKELY_PER_TOPIC = 3_000  # per-topic docs every run draws most of its results from
TARGET_LINES_PER_SECOND = 500_000


# -- data -----------------------------------------------------------------------


def params_for(topics: int, depth: int, runs: int) -> dict:
    return {
        "generator_version": GENERATOR_VERSION,
        "seed": SEED,
        "topics": topics,
        "depth": depth,
        "runs": runs,
        "pool_size": POOL_SIZE,
        "likely_per_topic": LIKELY_PER_TOPIC,
    }


def run_paths(runs: int) -> list[Path]:
    return [DATA / f"run{i:02d}.trec" for i in range(runs)]


def ensure_data(topics: int, depth: int, runs: int) -> tuple[list[Path], float | None]:
    """The run files, generated unless present with the same parameters; and the generation time."""
    params = params_for(topics, depth, runs)
    paths = run_paths(runs)
    marker = DATA / "params.json"
    if marker.exists() and all(p.exists() for p in paths):
        try:
            if json.loads(marker.read_text()) == params:
                return paths, None
        except ValueError:
            pass
    DATA.mkdir(parents=True, exist_ok=True)
    if marker.exists():
        marker.unlink()  # invalid until the new files are complete
    for old in DATA.glob("run*.trec"):
        old.unlink()
    start = time.perf_counter()
    generate(paths, topics, depth)
    elapsed = time.perf_counter() - start
    marker.write_text(json.dumps(params, indent=2) + "\n")
    return paths, elapsed


def generate(paths: list[Path], topics: int, depth: int) -> None:
    """Write overlapping runs: each topic has ~3000 likely docs all runs mostly draw from.

    Within one topic's ranking the doc ids are distinct; scores descend, with
    ties (about one step in eight repeats the previous score); the rank column
    follows the file order, as retrieval systems write it.
    """
    rng = random.Random(SEED)
    likely_size = max(LIKELY_PER_TOPIC, depth)
    topic_ids = [str(401 + t) for t in range(topics)]
    likely = {qid: rng.sample(range(POOL_SIZE), likely_size) for qid in topic_ids}
    for run_index, path in enumerate(paths):
        tag = f"bench{run_index:02d}"
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            for qid in topic_ids:
                share = rng.uniform(0.7, 0.9)  # fraction of the ranking taken from the likely docs
                from_likely = min(int(depth * share), likely_size)
                chosen = rng.sample(likely[qid], from_likely)
                seen = set(chosen)
                while len(chosen) < depth:
                    doc = rng.randrange(POOL_SIZE)
                    if doc not in seen:
                        seen.add(doc)
                        chosen.append(doc)
                # a retriever mixes its sources: keep a loose preference for the likely docs near the top
                keys = [rng.random() + (0.0 if i < from_likely else 0.5) for i in range(depth)]
                chosen = [doc for _, doc in sorted(zip(keys, chosen, strict=True))]
                score = rng.uniform(20.0, 30.0)
                lines = []
                for rank, doc in enumerate(chosen, 1):
                    lines.append(f"{qid} Q0 D{doc:07d} {rank} {score:.4f} {tag}\n")
                    if rng.random() >= 0.125:  # otherwise the next result ties with this one
                        score -= rng.uniform(0.0001, 0.02)
                out.write("".join(lines))


def count_lines(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        with open(path, "rb") as handle:
            total += sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 20), b""))
    return total


# -- the tasks, each run in a fresh child process ------------------------------------


def task_labeler(paths: list[str]) -> dict:
    from labeler.workbench.init import init_workbench
    from labeler.workbench.runs import import_run
    from labeler.workbench.setup import open_workbench

    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        db = Path(tmp) / "bench.db"
        init_workbench(db)
        lines = 0
        with open_workbench(db) as store:
            start, cpu = time.perf_counter(), time.process_time()
            for index, path in enumerate(paths):
                result = import_run(store, path, f"r{index}")
                lines += result.lines
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        size = sum(p.stat().st_size for p in Path(tmp).iterdir() if p.name.startswith("bench.db"))
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "lines": lines,
        "peak_rss_mb": peak_rss_mb(),
        "workbench_mb": size / 1e6,
    }


def task_labeler_python(paths: list[str]) -> dict:
    """The same import with pyarrow turned off: labeler's pure-Python reader (what runs without the extra)."""
    import os

    os.environ["LABELER_NO_PYARROW"] = "1"
    return task_labeler(paths)


def task_cli(paths: list[str]) -> dict:
    """One file through the `labeler` command, timed around the whole process from outside it."""
    path = paths[0]
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        db = str(Path(tmp) / "bench.db")
        subprocess.run(["labeler", "--db", db, "init"], check=True, capture_output=True)  # not timed
        # the init process above was waited for too: RUSAGE_CHILDREN's peak is the larger of the two,
        # and init is far smaller than an import
        start = time.perf_counter()
        done = subprocess.run(
            ["labeler", "--db", db, "runs", "import", path, "--name", "r0", "--json"],
            check=True,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
    result = json.loads(done.stdout)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    peak_mb = peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
    return {
        "seconds": seconds,
        "lines": result["lines"] if "lines" in result else result["entries"],
        "peak_rss_mb": peak_mb,
    }


def _cli_imports(commands: list[list[str]]) -> dict:
    """`labeler runs import` commands into one fresh workbench, timed from outside around all of them."""
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        db = str(Path(tmp) / "bench.db")
        subprocess.run(["labeler", "--db", db, "init"], check=True, capture_output=True)  # not timed
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime
        start = time.perf_counter()
        lines = 0
        for args in commands:
            done = subprocess.run(
                ["labeler", "--db", db, "runs", "import", *args, "--json"], check=True, capture_output=True, text=True
            )
            result = json.loads(done.stdout)
            lines += sum(run["lines"] for run in result.get("runs", [result]))
        seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = usage.ru_maxrss
    return {
        "seconds": seconds,
        "cpu_seconds": usage.ru_utime + usage.ru_stime - cpu,
        "lines": lines,
        "processes": len(commands),
        "peak_rss_mb": peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024,
    }


def task_cli_each(paths: list[str]) -> dict:
    """Every file through its own `labeler runs import PATH --name rN` process."""
    return _cli_imports([[path, "--name", f"r{index}"] for index, path in enumerate(paths)])


def task_cli_one(paths: list[str]) -> dict:
    """Every file through one `labeler runs import PATH... ` process (each run named after its file)."""
    return _cli_imports([list(paths)])


def task_python(paths: list[str]) -> dict:
    """The in-memory baseline: split, float, group by topic, sort by (score, docid) descending."""
    start, cpu = time.perf_counter(), time.process_time()
    runs = []
    lines = 0
    sorting = 0.0
    for path in paths:
        topics: dict[str, list[tuple[str, float]]] = {}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                qid, _, docid, _, score, _ = line.split()
                entry = (docid, float(score))
                found = topics.get(qid)
                if found is None:
                    topics[qid] = [entry]
                else:
                    found.append(entry)
                lines += 1
        sort_start = time.perf_counter()
        for ranking in topics.values():
            ranking.sort(key=lambda e: (e[1], e[0]), reverse=True)
        sorting += time.perf_counter() - sort_start
        runs.append(topics)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "lines": lines,
        "peak_rss_mb": peak_rss_mb(),
        "parse_seconds": seconds - sorting,
        "sort_seconds": sorting,
    }


def task_trectools(paths: list[str]) -> dict:
    try:
        from trectools import TrecRun
    except ImportError as exc:
        return {"skipped": f"trectools not importable ({exc}); pip install trectools to measure it"}
    start = time.perf_counter()
    runs = [TrecRun(path) for path in paths]
    seconds = time.perf_counter() - start
    lines = sum(len(run.run_data) for run in runs)
    return {"seconds": seconds, "lines": lines, "peak_rss_mb": peak_rss_mb()}


# -- qrels: `labeler judgments import` against the plain parse of the same file ----------------------

QRELS_VERSION = 1
QRELS_DOCS = 20_000  # the corpus the qrels' ids are drawn from, so the known-ids check runs


def ensure_qrels(topics: int, units: int) -> tuple[Path, Path]:
    """A qrels file of `topics` x `units` lines (grades 0-3) and a workbench holding its topics and documents.

    Generated unless present with the same parameters; the workbench is a template each task copies.
    """
    folder = DATA / "qrels"
    params = {"version": QRELS_VERSION, "seed": SEED, "topics": topics, "units": units, "docs": QRELS_DOCS}
    qrels, template, marker = folder / "bench.qrels", folder / "template.db", folder / "params.json"
    if marker.exists() and qrels.exists() and template.exists():
        try:
            if json.loads(marker.read_text()) == params:
                return qrels, template
        except ValueError:
            pass
    from labeler.workbench.corpus import import_corpus
    from labeler.workbench.init import init_workbench
    from labeler.workbench.setup import open_workbench
    from labeler.workbench.topics import import_topics

    folder.mkdir(parents=True, exist_ok=True)
    marker.unlink(missing_ok=True)
    for old in folder.glob("template.db*"):
        old.unlink()
    rng = random.Random(SEED)
    topic_ids = [str(401 + t) for t in range(topics)]
    with open(folder / "corpus.jsonl", "w", encoding="utf-8", newline="\n") as out:
        out.write("".join(json.dumps({"id": f"D{d:07d}", "text": f"document {d}"}) + "\n" for d in range(QRELS_DOCS)))
    with open(folder / "topics.tsv", "w", encoding="utf-8", newline="\n") as out:
        out.write("".join(f"{qid}\ttopic {qid}\n" for qid in topic_ids))
    with open(qrels, "w", encoding="utf-8", newline="\n") as out:
        for qid in topic_ids:
            docs = rng.sample(range(QRELS_DOCS), min(units, QRELS_DOCS))
            out.write("".join(f"{qid} 0 D{doc:07d} {rng.randrange(4)}\n" for doc in docs))
    init_workbench(template)
    with open_workbench(template) as store:
        import_topics(store, folder / "topics.tsv")
        import_corpus(store, folder / "corpus.jsonl")
    marker.write_text(json.dumps(params, indent=2) + "\n")
    return qrels, template


def task_qrels_labeler(paths: list[str]) -> dict:
    """`import_judgments` of the qrels into a copy of the template workbench (known-ids check on)."""
    import shutil

    from labeler.workbench.record_judgments import import_judgments
    from labeler.workbench.setup import open_workbench

    qrels, template = paths[0], paths[1] if len(paths) > 1 else None
    with tempfile.TemporaryDirectory(prefix="bench-qrels-") as tmp:
        db = Path(tmp) / "bench.db"
        if template:
            shutil.copyfile(template, db)
        else:
            from labeler.workbench.init import init_workbench

            init_workbench(db)
        with open_workbench(db) as store:
            start, cpu = time.perf_counter(), time.process_time()
            result = import_judgments(store, qrels, assessor="bench", allow_unknown=template is None)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"seconds": seconds, "cpu_seconds": cpu, "lines": result.judgments, "peak_rss_mb": peak_rss_mb()}


def task_qrels_labeler_python(paths: list[str]) -> dict:
    """The same import with pyarrow turned off (LABELER_NO_PYARROW=1)."""
    import os

    os.environ["LABELER_NO_PYARROW"] = "1"
    return task_qrels_labeler(paths)


def task_qrels_read(paths: list[str]) -> dict:
    """labeler's qrels reader alone (`read_qrels_parts`: every format check, no workbench)."""
    from labeler.formats.qrels import read_qrels_parts

    start, cpu = time.perf_counter(), time.process_time()
    lines = sum(len(part.units) for part in read_qrels_parts(paths[0]))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"seconds": seconds, "cpu_seconds": cpu, "lines": lines, "peak_rss_mb": peak_rss_mb()}


def task_qrels_python(paths: list[str]) -> dict:
    """The plain parse: split each line into topic, iteration, unit, grade, into a dict."""
    start, cpu = time.perf_counter(), time.process_time()
    grades: dict[tuple[str, str], int] = {}
    with open(paths[0], encoding="utf-8") as handle:
        for line in handle:
            topic, _, unit, grade = line.split()
            grades[topic, unit] = int(grade)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"seconds": seconds, "cpu_seconds": cpu, "lines": len(grades), "peak_rss_mb": peak_rss_mb()}


QRELS_TASKS = {
    "qrels_labeler": ("labeler import_judgments (qrels, API; pyarrow if installed)", task_qrels_labeler),
    "qrels_labeler_python": ("labeler import_judgments, pyarrow off", task_qrels_labeler_python),
    "qrels_read": ("labeler read_qrels_parts (reader alone)", task_qrels_read),
    "qrels_python": ("plain Python qrels parse into a dict", task_qrels_python),
}


def report_qrels(console: Any, results: dict[str, dict]) -> None:
    """labeler's qrels tasks beside the plain parse: wall, CPU, peak RSS and the ratios."""
    from rich.table import Table

    plain = results.get("qrels_python", {})
    table = Table(title="Importing qrels")
    for column in ("task", "lines", "wall s", "CPU s", "peak RSS MB", "CPU vs plain", "wall vs plain"):
        table.add_column(column, justify="left" if column == "task" else "right")
    for key, result in results.items():
        if key not in QRELS_TASKS or "seconds" not in result:
            continue
        cpu = result["cpu_seconds"] / plain["cpu_seconds"] if "cpu_seconds" in plain else None
        wall = result["seconds"] / plain["seconds"] if "seconds" in plain else None
        if cpu is not None and wall is not None:
            result["vs_plain_python"] = {"wall": wall, "cpu": cpu}
        table.add_row(
            QRELS_TASKS[key][0],
            f"{result['lines']:,}",
            f"{result['seconds']:.2f}",
            f"{result['cpu_seconds']:.2f}",
            f"{result['peak_rss_mb']:.0f}",
            f"{cpu:.2f}x" if cpu is not None else "-",
            f"{wall:.2f}x" if wall is not None else "-",
        )
    console.print(table)


TASKS = {
    "labeler": ("labeler import_run (API, all files; pyarrow if installed)", task_labeler),
    "labeler_python": ("labeler import_run, pyarrow off (LABELER_NO_PYARROW=1)", task_labeler_python),
    "cli": ("labeler CLI, 1 file, whole process", task_cli),
    "cli_each": ("labeler CLI, all files, one process per file", task_cli_each),
    "cli_one": ("labeler CLI, all files in one process", task_cli_one),
    "python": ("plain Python in memory (all files)", task_python),
    "trectools": ("trectools TrecRun (all files)", task_trectools),
    **QRELS_TASKS,
}


def median_result(runs: list[dict]) -> dict:
    """The first round's result with each timing replaced by its median over the rounds (each round kept too)."""
    import statistics

    good = [run for run in runs if "seconds" in run]
    if not good:
        return runs[0]
    result = dict(good[0])
    for name in ("seconds", "cpu_seconds", "parse_seconds", "sort_seconds", "peak_rss_mb"):
        if name in result:
            result[name] = statistics.median(run[name] for run in good)
    if len(runs) > 1:
        result["rounds"] = runs
    return result


def run_child(task: str, paths: list[Path]) -> dict:
    """Run one task in a fresh interpreter; it prints one JSON object on its last stdout line."""
    return _common.run_child(__file__, ["--child", task, *map(str, paths)], cwd=None, stderr_lines=1)


# -- the report -----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=500)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where import.json goes")
    parser.add_argument("--only", nargs="+", choices=list(TASKS), help="measure only these tasks")
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds of every task, interleaved (A, B, A, B, ...); medians reported"
    )
    parser.add_argument("--qrels-topics", type=int, default=500, help="topics of the generated qrels")
    parser.add_argument("--qrels-units", type=int, default=2000, help="judged units per topic of the generated qrels")
    parser.add_argument(
        "--qrels", type=Path, help="measure the qrels tasks on this file instead (no corpus: known-ids check off)"
    )
    parser.add_argument("--child", choices=list(TASKS), help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        print(json.dumps(TASKS[args.child][1](args.files)))
        return

    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 110))
    selected = args.only or list(TASKS)
    qrels_paths: list[Path] = []
    if any(key in QRELS_TASKS for key in selected):
        qrels_paths = [args.qrels] if args.qrels else list(ensure_qrels(args.qrels_topics, args.qrels_units))
        console.print(f"qrels: {qrels_paths[0]}, {count_lines(qrels_paths[:1]):,} lines.")
    if all(key in QRELS_TASKS for key in selected):
        paths, generated = [], None
    else:
        paths, generated = ensure_data(args.topics, args.depth, args.runs)
    if generated is None:
        console.print(f"Reusing {len(paths)} run files in {DATA} (params.json matches).")
    else:
        console.print(f"Generated {len(paths)} run files in {DATA} in {generated:.1f} s (not measured below).")
    total_lines = count_lines(paths)
    data_mb = sum(p.stat().st_size for p in paths) / 1e6
    console.print(
        f"{args.runs} runs x {args.topics} topics x {args.depth} results = {total_lines:,} lines, {data_mb:.1f} MB."
    )

    rounds: dict[str, list[dict]] = {key: [] for key in args.only or list(TASKS)}
    for round_number in range(args.repeat):
        for key in rounds:  # interleaved, so that a change in the machine's load falls on every task alike
            console.print(f"measuring {TASKS[key][0]} (round {round_number + 1} of {args.repeat}) ...")
            rounds[key].append(run_child(key, qrels_paths if key in QRELS_TASKS else paths))
    results: dict[str, dict] = {key: median_result(runs) for key, runs in rounds.items()}
    if qrels_paths:
        report_qrels(console, results)
        if all(key in QRELS_TASKS for key in selected):
            args.out.mkdir(parents=True, exist_ok=True)
            report = {"benchmark": "import-qrels", "date": now_iso(), "machine": machine(), "results": results}
            (args.out / "import-qrels.json").write_text(json.dumps(report, indent=2) + "\n")
            console.print(f"Wrote {args.out / 'import-qrels.json'}.")
            return
    for result in results.values():
        if "seconds" in result:
            result["lines_per_second"] = result["lines"] / result["seconds"]

    base = results.get("labeler", {})
    base_spl = base["seconds"] / base["lines"] if "seconds" in base else None
    table = Table(title=f"Importing {len(paths)} TREC runs ({total_lines:,} lines)")
    for column in ("task", "seconds", "lines/s", "peak RSS MB", "vs labeler"):
        table.add_column(column, justify="left" if column == "task" else "right")
    for key, result in results.items():
        label = TASKS[key][0]
        if "seconds" not in result:
            table.add_row(label, "-", "-", "-", result.get("skipped") or result.get("error", "?"))
            continue
        ratio = result["seconds"] / result["lines"] / base_spl if base_spl else None
        result["time_per_line_vs_labeler"] = ratio
        table.add_row(
            label,
            f"{result['seconds']:.2f}",
            f"{result['lines_per_second']:,.0f}",
            f"{result['peak_rss_mb']:.0f}",
            f"{ratio:.2f}x" if ratio is not None else "-",
        )
    console.print(table)
    console.print("vs labeler = time per line relative to labeler's import_run (below 1: faster than labeler).")
    if "workbench_mb" in base:
        console.print(
            f"Workbench file after importing all runs: {base['workbench_mb']:.1f} MB (run files: {data_mb:.1f} MB)."
        )
    if base_spl:
        speed = base["lines_per_second"]
        verdict = "meets" if speed >= TARGET_LINES_PER_SECOND else "misses"
        console.print(f"labeler: {speed:,.0f} lines/s, {verdict} the target of {TARGET_LINES_PER_SECOND:,} lines/s.")
    if "sort_seconds" in results.get("python", {}):
        python = results["python"]
        console.print(f"plain Python: {python['parse_seconds']:.2f} s parsing, {python['sort_seconds']:.2f} s sorting.")
        for key in ("labeler", "labeler_python"):
            if "cpu_seconds" not in results.get(key, {}):
                continue
            # the figure the target is about: labeler's whole import against the bare parse of the same files
            mine = results[key]
            wall = mine["seconds"] / python["seconds"]
            cpu = mine["cpu_seconds"] / python["cpu_seconds"]
            mine["vs_plain_python"] = {"wall": wall, "cpu": cpu}
            console.print(
                f"{key} vs plain Python (parse and sort, same files, same run): {wall:.2f}x wall, {cpu:.2f}x CPU "
                f"({mine['cpu_seconds']:.2f} s vs {python['cpu_seconds']:.2f} s CPU)."
            )
    each, one = results.get("cli_each", {}), results.get("cli_one", {})
    if "cpu_seconds" in each and "cpu_seconds" in one:
        console.print(
            f"{len(paths)} files through the CLI: one process {one['seconds']:.2f} s ({one['cpu_seconds']:.2f} s CPU), "
            f"one per file {each['seconds']:.2f} s ({each['cpu_seconds']:.2f} s CPU): "
            f"{one['cpu_seconds'] / each['cpu_seconds']:.2f}x CPU."
        )
    for key, result in results.items():
        if "skipped" in result:
            console.print(f"note: {key} skipped: {result['skipped']}")
        elif "error" in result:
            console.print(f"note: {key} failed: {result['error']}")

    report = {
        "benchmark": "import",
        "date": now_iso(),
        "machine": machine(),
        "params": params_for(args.topics, args.depth, args.runs),
        "total_lines": total_lines,
        "data_mb": data_mb,
        "generation_seconds": generated,
        "target_lines_per_second": TARGET_LINES_PER_SECOND,
        "results": {key: {"task": TASKS[key][0], **result} for key, result in results.items()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "import.json").write_text(json.dumps(report, indent=2) + "\n")
    console.print(f"Wrote {args.out / 'import.json'}.")


if __name__ == "__main__":
    main()

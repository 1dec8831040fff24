"""Benchmark: from which run-file size pyarrow's CSV reader pays for its import.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_arrow.py [--lines 25000 50000 ...] [--repeat 3] [--out DIR]

It writes one TREC run per size (1,000 results per topic, seeded) into
benchmarks/data/arrow/, then imports each into a fresh workbench through the
Python API in a fresh process, twice per round, interleaved: once with the
pure-Python reader (`LABELER_NO_PYARROW=1`) and once with pyarrow's reader on
every block whatever the file's size (the size threshold set to 0). Each child
times its whole import, pyarrow's own import included (it happens on the first
block), as CPU and wall seconds, and reports its peak RSS. The table shows the
medians and the ratio arrow / Python: below 1, pyarrow pays at that size. The
crossover it prints (the smallest file from which arrow wins at every larger
size measured) is what `labeler.formats.trec_runs.ARROW_MIN_BYTES` rests on.
Results go to DIR/arrow.json (default benchmarks/out/).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _common
from _common import machine, peak_rss_mb

HERE = Path(__file__).resolve().parent
DATA = _common.DATA / "arrow"
DEPTH = 1000
SIZES = [25_000, 50_000, 100_000, 200_000, 400_000, 800_000]


def run_file(lines: int) -> Path:
    """A TREC run of `lines` lines (topics of DEPTH results, scores descending), made once per size."""
    path = DATA / f"run-{lines}.trec"
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    rng = random.Random(lines)
    out = []
    for topic in range(-(-lines // DEPTH)):
        depth = min(DEPTH, lines - topic * DEPTH)
        for rank, unit in enumerate(rng.sample(range(10**7), depth)):  # distinct ids within a topic
            out.append(f"{topic + 1} Q0 D{unit:07d} {rank + 1} {100 - rank * 0.05:.4f} bench\n")
    partial = path.with_suffix(".part")
    partial.write_text("".join(out))
    partial.replace(path)
    return path


def task_import(path: str, arrow: bool) -> dict:
    """Import `path` into a fresh workbench; the timed part starts before labeler is imported."""
    if not arrow:
        os.environ["LABELER_NO_PYARROW"] = "1"
    wall, cpu = time.perf_counter(), time.process_time()
    from labeler.formats import trec_runs
    from labeler.workbench.init import init_workbench
    from labeler.workbench.runs import import_run
    from labeler.workbench.setup import open_workbench

    trec_runs.ARROW_MIN_BYTES = 0  # arrow on every block, or (with LABELER_NO_PYARROW) on none
    with tempfile.TemporaryDirectory(prefix="bench-arrow-") as tmp:
        db = Path(tmp) / "w.db"
        init_workbench(db)
        with open_workbench(db) as store:
            start_wall, start_cpu = time.perf_counter(), time.process_time()
            import_run(store, path, "r")
            seconds, cpu_seconds = time.perf_counter() - start_wall, time.process_time() - start_cpu
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "process_cpu_seconds": time.process_time() - cpu,
        "process_seconds": time.perf_counter() - wall,
        "pyarrow_loaded": "pyarrow" in sys.modules,
        "peak_rss_mb": peak_rss_mb(),
    }


def measure(lines: int, repeat: int) -> dict:
    path = run_file(lines)
    rounds: dict[str, list[dict]] = {"python": [], "arrow": []}
    for _ in range(repeat):
        for side in rounds:
            result = _common.run_child(__file__, ["--child", side, str(path)])
            if "error" in result:
                return {"error": result["error"]}
            rounds[side].append(result)
    if not all(r["pyarrow_loaded"] for r in rounds["arrow"]):
        return {"skipped": "pyarrow is not importable (the parquet extra)"}
    medians = {
        side: {key: statistics.median(r[key] for r in results) for key in ("cpu_seconds", "seconds", "peak_rss_mb")}
        for side, results in rounds.items()
    }
    return {"lines": lines, "bytes": path.stat().st_size, **medians, "rounds": rounds}


def crossover(results: list[dict]) -> dict | None:
    """The smallest measured file from which arrow's CPU is below Python's at that size and every larger one."""
    found = None
    for result in reversed(results):
        if result["arrow"]["cpu_seconds"] >= result["python"]["cpu_seconds"]:
            break
        found = result
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, nargs="+", default=SIZES, help="run sizes in lines")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per size; medians are printed")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where arrow.json goes")
    parser.add_argument("--child", choices=["python", "arrow"], help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(task_import(args.path, args.child == "arrow")))
        return

    load_before = os.getloadavg()[0]
    results = []
    print(
        f"{'lines':>9} {'MB':>6} | {'python cpu s':>12} {'arrow cpu s':>11} {'arrow/python':>12} | "
        f"{'python wall':>11} {'arrow wall':>10} | {'python MB':>9} {'arrow MB':>8}"
    )
    for lines in args.lines:
        result = measure(lines, args.repeat)
        if "cpu_seconds" not in result.get("python", {}):
            print(f"{lines:>9}: {result.get('skipped') or result.get('error')}")
            return
        results.append(result)
        python, arrow = result["python"], result["arrow"]
        print(
            f"{lines:>9} {result['bytes'] / 1e6:>6.1f} | {python['cpu_seconds']:>12.3f} {arrow['cpu_seconds']:>11.3f} "
            f"{arrow['cpu_seconds'] / python['cpu_seconds']:>11.2f}x | {python['seconds']:>11.3f} "
            f"{arrow['seconds']:>10.3f} | {python['peak_rss_mb']:>9.0f} {arrow['peak_rss_mb']:>8.0f}"
        )
    found = crossover(results)
    print(
        f"Medians of {args.repeat} rounds, fresh processes, interleaved; pyarrow's import counted in its side; "
        f"load (1 min) {load_before:.2f} -> {os.getloadavg()[0]:.2f}."
    )
    print(
        "arrow pays (less CPU) from "
        + (f"{found['lines']:,} lines ({found['bytes'] / 1e6:.1f} MB) on." if found else "no measured size.")
    )
    args.out.mkdir(parents=True, exist_ok=True)
    report = {"machine": machine(["pyarrow"]), "repeat": args.repeat, "results": results, "crossover": found}
    (args.out / "arrow.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"Wrote {args.out / 'arrow.json'}.")


if __name__ == "__main__":
    main()

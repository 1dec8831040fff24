"""Benchmark: how long the `labeler` command takes to start, beside a bare interpreter and `import click`.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_startup.py [--repeat 20] [--before PATH] [--no-bytecode] [--out DIR]

It builds a small workbench (3 documents, 2 topics, one run, a pool of 4 pairs) in a
temporary folder with this checkout's CLI, then runs each task `--repeat` times as a fresh
`python ...` process and takes the median of the wall time (`time.perf_counter` around
`subprocess.run`) and of the child's CPU time (user + system, from `RUSAGE_CHILDREN`):

- `python -c pass` and `python -c "import click"`: the floor any click CLI stands on;
- `labeler --help`, `labeler --version`, `labeler next --json` and `labeler status --json`
  (as `python -m labeler ...`, what the console script runs, without the launcher).

With `--before PATH` (another checkout, e.g. the main branch), every labeler task also runs
with `PYTHONPATH=PATH`, interleaved with this checkout's run (A, B, A, B, ...) so both see
the same machine load, each on its own copy of the workbench; the table gives both medians
and after/before ratios, and says whether both printed the same thing (`next`'s lease time
left out). Each figure's ratio to `python -c pass` is printed too. The 1-minute load average
before and after is printed; results go to DIR/startup.json (default benchmarks/out/).

Bytecode: every child runs with `PYTHONPYCACHEPREFIX` set to a fresh folder of the temporary
workbench (and `PYTHONDONTWRITEBYTECODE` removed), after one untimed warm-up round, so both
sides read compiled bytecode as an installed labeler does, whatever `__pycache__` folders the
checkouts happen to have (an environment with `PYTHONDONTWRITEBYTECODE=1` leaves a new worktree
with none, and each run then compiles every labeler module from source: ~120 ms more for
`next`). `--no-bytecode` measures that instead, on both sides: no bytecode read or written for
any module (the prefix folder stays empty).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common
from _common import machine, now_iso

HERE = Path(__file__).resolve().parent
CORPUS = [
    {"id": "d1", "title": "Maize pests", "text": "Maize pests and their control."},
    {"id": "d2", "title": "Stored grain", "text": "Keeping stored grain dry."},
    {"id": "d3", "title": "Milk fever", "text": "Milk fever in dairy cows."},
]
RUN = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d3 3 7 r\n2 Q0 d3 1 9 r\n"
BASELINES = {"python -c pass": ["-c", "pass"], 'python -c "import click"': ["-c", "import click"]}
TASKS = {
    "labeler --help": ["--help"],
    "labeler --version": ["--version"],
    "labeler next --json": ["next", "--json", "--assessor", "bench"],
    "labeler status --json": ["status", "--json"],
}


def load() -> float:
    return os.getloadavg()[0]


def build_workbench(folder: Path) -> Path:
    """The small workbench, made with this checkout's `labeler` (init, corpus, runs, pool build)."""
    corpus = folder / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(doc) + "\n" for doc in CORPUS))
    run = folder / "bm25.run"
    run.write_text(RUN)
    db = folder / "small.db"
    env = {**os.environ, "PYTHONPATH": str(_common.ROOT)}
    for args in (
        ["init"],
        ["corpus", "import", str(corpus)],
        ["runs", "import", str(run), "--name", "bm25"],
        ["pool", "build", "--depth", "3"],
    ):
        subprocess.run(
            [sys.executable, "-m", "labeler", "--db", str(db), *args], env=env, check=True, capture_output=True
        )
    return db


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Wall seconds, child CPU seconds and stdout of one `python ARGV...` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv}: exit {done.returncode}: {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def comparable(task: str, stdout: str) -> object:
    """What must be the same before and after: the output, less `next`'s lease time."""
    if task == "labeler next --json":
        data = json.loads(stdout)
        data.pop("lease_until", None)
        return data
    if task == "labeler status --json":
        data = json.loads(stdout)
        data.pop("path", None)  # each side has its own copy of the workbench
        return data
    return stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--before", type=Path, default=None, help="another checkout to compare with (e.g. main)")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="compile every module from source in each run (no .pyc)"
    )
    args = parser.parse_args()

    sides = {"after": _common.ROOT.resolve()}
    if args.before is not None:
        sides = {"before": args.before.resolve(), **sides}
    load_before = load()
    work = Path(tempfile.mkdtemp(prefix="bench_startup_"))
    try:
        template = build_workbench(work)
        dbs = {}
        for side in sides:
            dbs[side] = work / f"{side}.db"
            shutil.copyfile(template, dbs[side])
        base = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
        base["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        if args.no_bytecode:
            base["PYTHONDONTWRITEBYTECODE"] = "1"
        envs = {side: {**base, "PYTHONPATH": str(path), "COLUMNS": "80"} for side, path in sides.items()}
        samples: dict[str, dict[str, list[tuple[float, float]]]] = {}
        outputs: dict[str, dict[str, str]] = {}
        for round_ in range(args.repeat + 1):
            for name, argv in BASELINES.items():
                wall, cpu, _out = timed(argv, envs["after"], work)
                if round_ == 0:  # the warm-up: writes the bytecode the timed rounds read
                    continue
                samples.setdefault(name, {}).setdefault("after", []).append((wall, cpu))
            for name, task_args in TASKS.items():
                for side in sides:
                    argv = ["-m", "labeler", "--db", str(dbs[side]), *task_args]
                    wall, cpu, out = timed(argv, envs[side], work)
                    if round_ == 0:
                        continue
                    samples.setdefault(name, {}).setdefault(side, []).append((wall, cpu))
                    outputs.setdefault(name, {})[side] = out
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = load()

    medians = {
        name: {
            side: {
                "wall_s": statistics.median(w for w, _ in runs),
                "cpu_s": statistics.median(c for _, c in runs),
                "min_wall_s": min(w for w, _ in runs),
                "max_wall_s": max(w for w, _ in runs),
            }
            for side, runs in by_side.items()
        }
        for name, by_side in samples.items()
    }
    floor = medians["python -c pass"]["after"]
    same = {
        name: len({json.dumps(comparable(name, out), sort_keys=True) for out in by_side.values()}) == 1
        for name, by_side in outputs.items()
    }

    print(
        f"Start-up, median of {args.repeat} fresh processes each (load {load_before:.2f} -> {load_after:.2f}), "
        + ("compiled from source each run" if args.no_bytecode else "bytecode cached")
    )
    print(f"  after = {sides['after']}" + (f", before = {sides['before']}" if "before" in sides else ""))
    header = f"{'task':28} {'wall ms':>9} {'cpu ms':>8} {'x pass':>7}"
    if "before" in sides:
        header += f" {'before wall':>12} {'before cpu':>11} {'after/before (cpu)':>19} {'same output':>12}"
    print(header)
    for name, by_side in medians.items():
        after = by_side["after"]
        line = f"{name:28} {after['wall_s'] * 1000:9.1f} {after['cpu_s'] * 1000:8.1f}"
        line += f" {after['cpu_s'] / floor['cpu_s']:7.2f}"
        if "before" in by_side:
            before = by_side["before"]
            ratio = f"{after['wall_s'] / before['wall_s']:.2f} ({after['cpu_s'] / before['cpu_s']:.2f})"
            line += f" {before['wall_s'] * 1000:12.1f} {before['cpu_s'] * 1000:11.1f} {ratio:>19} {str(same[name]):>12}"
        print(line)

    args.out.mkdir(parents=True, exist_ok=True)
    result = {
        "when": now_iso(),
        "machine": machine(["click", "rich", "sqlite-utils", "pandas", "numpy"]),
        "repeat": args.repeat,
        "bytecode": not args.no_bytecode,
        "sides": {side: str(path) for side, path in sides.items()},
        "load_1min": {"before": load_before, "after": load_after},
        "medians": medians,
        "same_output": same,
    }
    (args.out / "startup.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"JSON: {args.out / 'startup.json'}")


if __name__ == "__main__":
    main()

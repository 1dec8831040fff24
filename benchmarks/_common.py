"""What every benchmark script shares: running a task in a fresh process, peak memory, the machine's description.

Each script runs its tasks one per child interpreter (so a task's peak RSS is
its own and nothing is warm from the task before), and each child prints one
JSON object on its last stdout line. Imported by the scripts as `_common`
(they are run as `python benchmarks/bench_*.py`, so this folder is on the path).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where the scripts write their generated inputs and workbenches; BENCH_DATA moves it (the smoke test does).
DATA = Path(os.environ.get("BENCH_DATA") or ROOT / "benchmarks" / "data")
# BENCH_TINY=1: the smoke test's size, for a script whose sizes are not options (inherited by its children).
TINY = os.environ.get("BENCH_TINY") == "1"


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB: VmHWM on Linux, else ru_maxrss (bytes on macOS, KiB on Linux).

    Linux's ru_maxrss is carried over an exec: a child that subprocess starts (vfork, then exec)
    reports at least its parent's peak, so a runner that built a big workbench would lend that
    peak to every task it starts. VmHWM belongs to the process's own memory since its exec.
    """
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def run_child(script: str | Path, argv: Sequence[str], *, cwd: Path | None = ROOT, stderr_lines: int = 3) -> dict:
    """Run `python SCRIPT ARGV...` in a fresh interpreter and return the JSON object on its last stdout line.

    A failed child gives {"error": "exit N: [its last stderr lines]"} instead,
    so one failing task is reported in the table rather than ending the run.
    """
    done = subprocess.run(
        [sys.executable, str(Path(script).resolve()), *map(str, argv)], capture_output=True, text=True, cwd=cwd
    )
    if done.returncode != 0:
        return {"error": f"exit {done.returncode}: {done.stderr.strip().splitlines()[-stderr_lines:]}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def machine(packages: Sequence[str] = ()) -> dict:
    """CPUs, CPU model, memory, Python, SQLite, platform, and the versions of `packages` (None when absent)."""
    from importlib.metadata import PackageNotFoundError, version

    memory_gb = cpu = None
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    memory_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), None)
    except OSError:
        pass
    versions = {}
    for name in packages:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = None
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "memory_gb": memory_gb,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "packages": versions,
    }


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    """`size` distinct pronounceable made-up words (2-3 syllables) for generated texts and titles."""
    onsets = ["b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "br", "st", "tr", "pl", "gr"]
    vowels = ["a", "e", "i", "o", "u", "ai", "ou", "ea"]
    codas = ["", "n", "r", "s", "t", "l", "m", "nd", "st"]
    words: dict[str, None] = {}
    while len(words) < size:
        syllables = rng.randint(2, 3)
        words["".join(rng.choice(onsets) + rng.choice(vowels) + rng.choice(codas) for _ in range(syllables))] = None
    return list(words)


def load_1min() -> float:
    """The machine's 1-minute load average (printed beside timings: on a shared machine they stretch with it)."""
    return os.getloadavg()[0]


def clock() -> tuple[float, float]:
    """Wall and CPU time now; `since(clock())` gives the seconds of each spent since."""
    return time.perf_counter(), time.process_time()


def since(start: tuple[float, float]) -> dict:
    return {"seconds": time.perf_counter() - start[0], "cpu_seconds": time.process_time() - start[1]}


def run_task(script: str | Path, task: str, args: dict) -> dict:
    """`python SCRIPT --child TASK ARGS_JSON` in a fresh interpreter, with the 1-minute load once it ended."""
    result = run_child(script, ["--child", task, json.dumps(args)], cwd=None, stderr_lines=2)
    result["load_1min"] = load_1min()
    return result


def median(results: list[dict]) -> dict:
    """The last good round with each timing replaced by its median (all rounds' seconds kept); an error as it came."""
    good = [r for r in results if "seconds" in r]
    if not good:
        return results[-1]
    out = dict(good[-1])
    for key in ("seconds", "cpu_seconds", "peak_rss_mb", "parse_seconds", "load_1min"):
        if key in out:
            out[key] = statistics.median(r[key] for r in good)
    out["all_seconds"] = [r["seconds"] for r in good]
    return out


def add_child_arguments(parser: argparse.ArgumentParser, tasks: Mapping[str, Callable[[dict], dict]]) -> None:
    """The hidden `--child TASK ARGS_JSON` that `run_task` starts the script with."""
    parser.add_argument("--child", choices=list(tasks), help=argparse.SUPPRESS)
    parser.add_argument("child_args", nargs="?", help=argparse.SUPPRESS)


def ran_as_child(args: argparse.Namespace, tasks: Mapping[str, Callable[[dict], dict]]) -> bool:
    """When started as a child: run the task and print its JSON object (the last stdout line run_child reads)."""
    if not args.child:
        return False
    print(json.dumps(tasks[args.child](json.loads(args.child_args))))
    return True


def print_markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A Markdown table, as docs/performance.md shows it, after a blank line."""
    print("\n| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")

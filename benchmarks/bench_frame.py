"""Benchmark: a frame per key, from outside, `labeler judge` in a pseudo-terminal beside a bare Textual app.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_frame.py [--keys 100] [--runs 3] [--data big,dl] [--big PATH]
                                     [--size 160x45] [--quiet-ms 40] [--out DIR] [--profile] [--compare ROOT]

For each workbench (big: the 1M-pair workbench of bench_judge.py, benchmarks/data/judge/big.db
by default; dl: TREC DL 2020 passages from ../shared/data/trec-dl-2020, five of its runs pooled at
depth 20, built once into benchmarks/data/frame/dl2020.db), it runs, interleaved
(labeler, floor, labeler, floor, ...), sessions of each app on one topic each, until
`--runs` x `--keys` keys are pressed (a session presses `--keys`, or as many as its topic's
queue holds less one: the DL 2020 topics pool 30-90 units at depth 20):

- labeler: `python -m labeler --db COPY judge --assessor bench --topic T` (through a thin
  wrapper, `--child-labeler`, that runs the same CLI and writes the screen's own
  `JudgeScreen.latencies` to a file at exit) in a pty (TERM=xterm-256color, `--size`);
- floor: benchmarks/floor_app.py, a bare Textual app with the same layout that replaces the
  same texts (the topic's queue, read from the workbench beforehand) on each key.

Per session: start = spawn to the first unit's id in the pty output (and to the end of that
frame); then `--keys` grade keys, one at a time: the key byte is written, the output is read
until the next unit's id appears (`id`), then until it has been quiet for `--quiet-ms`
(`frame`: the last byte before the quiet), then the next key. ctrl+q ends the app; a child
still alive after 5 s is killed by its pid. In-app: the key's action to `call_after_refresh`.
Also `make_app` alone, in-process (fresh interpreter, imports done first), 3 times.

Printed as a table (p50, p95, max, keys over 50 ms) with the 1-minute load; JSON to
DIR/frame.json (default benchmarks/out/). With --compare ROOT, `labeler judge` from another
checkout (e.g. /work/main) runs as a third app in the same interleaving, on its own copy of
the workbench, and make_app is timed for both. With --profile the labeler child runs under
cProfile and the top functions go to DIR/frame_profile.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import random
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = next(
    (p / "shared" / "data" / "trec-dl-2020" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").exists()),
    ROOT.parent / "shared" / "data" / "trec-dl-2020",
)  # ../shared beside the checkout (a worktree in wt/ looks one level up too)
DL_DB = _common.DATA / "frame" / "dl2020.db"
BIG_DB = _common.DATA / "judge" / "big.db"
BIG_TOPICS = [str(t) for t in range(2780, 2830)]  # the topics of big.db with a corpus (bench_judge.py)


def big_topics(db: Path) -> list[str]:
    """The topics of bench_judge.py's workbench that have a corpus, from its build.json (BIG_TOPICS without one)."""
    build = db.parent / "build.json"
    if not build.exists():
        return BIG_TOPICS
    first, last = (int(t) for t in json.loads(build.read_text())["big"]["generated"]["corpus_topics"])
    return [str(t) for t in range(first, last + 1)]


DL_DEPTH = 20
DL_RUNS = ["bm25", "bm25-rm3", "tasb", "ada2", "splade-pp-ed"]  # repllama returns passages the corpus file lacks
GRADE_WEIGHTS = {0: 60, 1: 20, 2: 12, 3: 8}
SLOW_MS = 50.0
MIN_KEYS = 20  # a topic with a shorter queue is passed over (fewer when --keys asks for fewer)
KEY_TIMEOUT = 5.0
START_TIMEOUT = 30.0


# -- workbenches -----------------------------------------------------------------------


def labeler(db: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "labeler", "--db", str(db), *args], capture_output=True, text=True, env=env, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(f"labeler {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def build_dl(path: Path) -> None:
    """Five real runs (not repllama) pooled at depth 20 over the 54 judged topics; no judgments imported."""
    if path.exists():
        return
    if not SHARED.exists():
        raise SystemExit(f"{SHARED} is missing: the DL 2020 workbench cannot be built")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.db")
    partial.unlink(missing_ok=True)
    labeler(partial, "init", "--scale", "trec-dl-passage")
    labeler(partial, "topics", "import", str(SHARED / "topics.tsv"))
    labeler(partial, "corpus", "import", str(SHARED / "corpus.jsonl.gz"))
    for run in DL_RUNS:
        labeler(partial, "runs", "import", str(SHARED / f"{run}.run.gz"), "--name", run)
    labeler(partial, "pool", "build", "--depth", str(DL_DEPTH))
    partial.rename(path)


def dl_topics() -> list[str]:
    return [line.split("\t", 1)[0] for line in (SHARED / "topics.tsv").read_text().splitlines() if line.strip()]


def queue(db: Path, topic: str, limit: int) -> list[dict]:
    """The topic's next units in pool order, with the texts labeler will show (read in-process)."""
    shape = json.loads(labeler(db, "queue", "--topic", topic, "--assessor", "bench", "--limit", str(limit), "--json"))
    sys.path.insert(0, str(ROOT))
    from labeler.workbench.reading import unit_text
    from labeler.workbench.setup import open_workbench

    store = open_workbench(db)
    try:
        units = []
        for item in shape["next"]:
            view = unit_text(store, "doc", item["unit"])
            units.append({"id": item["unit"], "title": view.title or view.doc_id, "text": view.text})
        return units
    finally:
        store.close()


# -- the pty -----------------------------------------------------------------------------


class Pty:
    """A child on a pseudo-terminal of a fixed size; output read with timestamps."""

    def __init__(self, argv: list[str], size: tuple[int, int], env: dict[str, str]) -> None:
        import fcntl
        import termios

        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.pid, self.fd = pid, fd
        self.buffer = bytearray()
        self.last_byte = self.started
        self.alive = True

    def read(self, timeout: float) -> bool:
        """Read what is there within `timeout` s; False when nothing came."""
        ready, _, _ = select.select([self.fd], [], [], max(timeout, 0.0))
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:  # EIO: the child closed the terminal
            self.alive = False
            return False
        if not chunk:
            self.alive = False
            return False
        self.last_byte = time.perf_counter()
        self.buffer += chunk
        return True

    def wait_for(self, needle: bytes, since: int, timeout: float) -> float | None:
        """Read until `needle` is in the output after offset `since`; the time it arrived, or None."""
        deadline = time.perf_counter() + timeout
        while self.alive and time.perf_counter() < deadline:
            if needle in self.buffer[max(since - len(needle), 0) :]:
                return self.last_byte
            self.read(deadline - time.perf_counter())
        return self.last_byte if needle in self.buffer[since:] else None

    def quiet(self, quiet_s: float, timeout: float = KEY_TIMEOUT) -> float:
        """Read until nothing came for `quiet_s`; the time of the last byte."""
        deadline = time.perf_counter() + timeout
        while self.alive and time.perf_counter() < deadline and self.read(quiet_s):
            pass
        return self.last_byte

    def write(self, data: bytes) -> float:
        os.write(self.fd, data)
        return time.perf_counter()

    def close(self) -> None:
        """ctrl+q, then wait 5 s for the child (draining its output); kill it by its pid if it is still there."""
        try:
            if self.alive:
                self.write(b"\x11")
            deadline = time.perf_counter() + 5.0
            while time.perf_counter() < deadline:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    return
                self.read(0.05)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        finally:
            os.close(self.fd)


def session(argv: list[str], units: list[dict], keys: int, args, latencies_file: Path, root: Path = ROOT) -> dict:
    """One app in a pty: start, then `keys` grade keys; figures in ms. `root`: the labeler checkout imported."""
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(root), "COLORTERM": "truecolor"}
    env.pop("TEXTUAL", None)
    size = tuple(int(n) for n in args.size.split("x"))
    rng = random.Random(len(units))
    grades = rng.choices(list(GRADE_WEIGHTS), weights=list(GRADE_WEIGHTS.values()), k=keys)
    term = Pty(argv, size, env)  # type: ignore[arg-type]
    quiet_s = args.quiet_ms / 1000
    out: dict = {"id_ms": [], "frame_ms": [], "missed": 0}
    try:
        seen = term.wait_for(units[0]["id"].encode(), 0, START_TIMEOUT)
        if seen is None:
            raise RuntimeError(f"no first unit in {START_TIMEOUT} s; output tail: {bytes(term.buffer[-400:])!r}")
        out["start_id_s"] = seen - term.started
        out["start_frame_s"] = term.quiet(quiet_s) - term.started
        term.quiet(0.3)  # let the app settle (gc_policy.settle, timers) before the first key
        for index in range(keys):
            since = len(term.buffer)
            sent = term.write(str(grades[index]).encode())
            seen = term.wait_for(units[index + 1]["id"].encode(), since, KEY_TIMEOUT)
            if seen is None:
                out["missed"] += 1
                term.quiet(quiet_s)
                continue
            out["id_ms"].append((seen - sent) * 1000)
            out["frame_ms"].append((term.quiet(quiet_s) - sent) * 1000)
    finally:
        term.close()
    if latencies_file.exists():
        out["in_app_ms"] = [s * 1000 for s in json.loads(latencies_file.read_text())["latencies"]]
    return out


# -- the apps ------------------------------------------------------------------------------


def child_labeler(latencies: str, profile: str, cli_args: list[str]) -> None:
    """`python -m labeler CLI_ARGS`, writing JudgeScreen.latencies to LATENCIES at exit (and a cProfile)."""
    import atexit

    from labeler.tui.screens import judge  # from the checkout on PYTHONPATH (--compare runs another one)

    screens: list = []
    original = judge.JudgeScreen.__init__

    def init(self, *a, **k) -> None:
        original(self, *a, **k)
        screens.append(self)

    judge.JudgeScreen.__init__ = init  # type: ignore[method-assign]
    atexit.register(
        lambda: Path(latencies).write_text(json.dumps({"latencies": [x for s in screens for x in s.latencies]}))
    )
    from labeler.cli import main

    sys.argv = ["labeler", *cli_args]
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        atexit.register(lambda: profiler.dump_stats(profile))
        profiler.enable()
    main()


def child_make_app(db: str, topic: str) -> None:
    """make_app alone on a workbench: wall and CPU, imports done first (labeler from PYTHONPATH)."""
    import labeler.tui
    import labeler.tui.app  # noqa: F401

    wall, cpu = time.perf_counter(), time.process_time()
    app = labeler.tui.make_app(labeler.tui.JudgeRequest(db_path=db, assessor="bench", topic=topic or None))
    print(json.dumps({"wall_ms": (time.perf_counter() - wall) * 1000, "cpu_ms": (time.process_time() - cpu) * 1000}))
    del app


# -- figures ---------------------------------------------------------------------------------


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max": ordered[-1],
        "over_50ms": sum(v > SLOW_MS for v in ordered),
    }


def measure(name: str, db: Path, topics: list[str], args, tmp: Path) -> dict:
    copy = tmp / f"{name}.db"
    shutil.copyfile(db, copy)
    apps = ["labeler", "floor"]
    if args.compare:  # the other checkout judges its own copy of the workbench, the same topics
        apps.insert(1, "compare")
        shutil.copyfile(db, tmp / f"{name}-compare.db")
    runs: dict[str, list[dict]] = {app: [] for app in apps}
    loads = [os.getloadavg()[0]]
    used: list[str] = []
    pressed = 0
    for topic in topics:
        if pressed >= args.runs * args.keys:
            break
        units = queue(copy, topic, args.keys + 1)
        if len(units) < min(MIN_KEYS, args.keys) + 1:
            continue
        keys = len(units) - 1  # a topic with fewer units than --keys: as many as it has, more sessions
        pressed += keys
        used.append(topic)
        units_file = tmp / f"{name}-{topic}.json"
        units_file.write_text(json.dumps({"topic": topic, "units": units}))
        for app in apps:  # interleaved, labeler first on each topic
            lat = tmp / f"{name}-{topic}-{app}.lat.json"
            root = args.compare if app == "compare" else ROOT
            if app in ("labeler", "compare"):
                profile = str(tmp / f"{name}-{topic}.prof") if args.profile and app == "labeler" else ""
                wb = copy if app == "labeler" else tmp / f"{name}-compare.db"
                argv = [sys.executable, str(Path(__file__).resolve()), "--child-labeler", str(lat), profile, "--"]
                argv += ["--db", str(wb), "judge", "--assessor", "bench", "--topic", topic]
            else:
                argv = [sys.executable, str(HERE / "floor_app.py"), str(units_file), str(lat)]
            result = session(argv, units, keys, args, lat, root)
            result["topic"] = topic
            runs[app].append(result)
            loads.append(os.getloadavg()[0])
            print(
                f"  {name} {topic} {app:8s} start {result['start_id_s']:.2f} s, id p95 "
                f"{summary(result['id_ms']).get('p95', 0):.1f} ms, missed {result['missed']}, load {loads[-1]:.2f}",
                flush=True,
            )
    if not used:
        raise SystemExit(f"{name}: no topic with {min(MIN_KEYS, args.keys) + 1} units in its queue")
    roots = {"labeler": ROOT, **({"compare": args.compare} if args.compare else {})}
    make_app: dict[str, list[dict]] = {app: [] for app in roots}
    for _ in range(3):  # interleaved when comparing; with --topic (used[0]) and without (the first unfinished)
        for app, root in roots.items():
            for topic in (used[0], ""):
                done = subprocess.run(
                    [sys.executable, str(Path(__file__).resolve()), "--child-make-app", str(copy), topic],
                    capture_output=True,
                    text=True,
                    check=True,
                    env={**os.environ, "PYTHONPATH": str(root)},
                )
                make_app[app].append({"topic": topic or None, **json.loads(done.stdout.splitlines()[-1])})
    figures: dict = {"topics": used, "load_1min": loads, "make_app": make_app}
    for app, results in runs.items():
        figures[app] = {
            key: summary([v for r in results for v in r.get(key, [])]) for key in ("id_ms", "frame_ms", "in_app_ms")
        }
        figures[app]["start_id_s"] = [r["start_id_s"] for r in results]
        figures[app]["start_frame_s"] = [r["start_frame_s"] for r in results]
        figures[app]["missed"] = sum(r["missed"] for r in results)
    return figures


def table(name: str, figures: dict) -> None:
    loads = ", ".join(f"{x:.2f}" for x in figures["load_1min"])
    print(f"\n{name}: topics {', '.join(figures['topics'])}; load {loads}")
    for app in [a for a in ("labeler", "compare") if a in figures]:
        print(f"\n{name}: {app} against the floor")
        pair(name, figures, app)
    for app, rows in figures["make_app"].items():
        for topic in sorted({str(r["topic"]) for r in rows}):
            mine = [r for r in rows if str(r["topic"]) == topic]
            walls = ", ".join(f"{r['wall_ms']:.1f}" for r in mine)
            cpus = ", ".join(f"{r['cpu_ms']:.1f}" for r in mine)
            print(f"make_app {app} (topic {topic}): wall {walls} ms; cpu {cpus} ms")


def pair(name: str, figures: dict, app: str) -> None:
    lab, flo = figures[app], figures["floor"]
    print(f"{'ms':22s} {app + ' p50/p95/max (>50)':>30s} {'floor p50/p95/max (>50)':>30s} {'p95 ratio':>10s}")
    for key in ("id_ms", "frame_ms", "in_app_ms"):
        a, b = lab[key], flo[key]
        if not a.get("n") or not b.get("n"):
            continue
        cell = lambda s: f"{s['p50']:.1f}/{s['p95']:.1f}/{s['max']:.1f} ({s['over_50ms']}/{s['n']})"  # noqa: E731
        print(f"{key:22s} {cell(a):>30s} {cell(b):>30s} {a['p95'] / b['p95']:>9.2f}x")
    for key in ("start_id_s", "start_frame_s"):
        a, b = statistics.median(lab[key]), statistics.median(flo[key])
        print(f"{key + ' (median)':22s} {a:>30.3f} {b:>30.3f} {a / b:>9.2f}x")
    print(f"missed keys (next id not seen in {KEY_TIMEOUT} s): {app} {lab['missed']}, floor {flo['missed']}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child-labeler":
        split = sys.argv.index("--")
        return child_labeler(sys.argv[2], sys.argv[3], sys.argv[split + 1 :])
    if len(sys.argv) > 1 and sys.argv[1] == "--child-make-app":
        return child_make_app(sys.argv[2], sys.argv[3])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=100, help="grade keys per session")
    parser.add_argument("--runs", type=int, default=3, help="sessions of each app per workbench (one topic each)")
    parser.add_argument("--data", default="big,dl", help="workbenches: big, dl or both")
    parser.add_argument("--big", type=Path, default=BIG_DB, help="the 1M-pair workbench (bench_judge.py builds it)")
    parser.add_argument("--size", default="160x45", help="terminal COLUMNSxLINES")
    parser.add_argument("--quiet-ms", type=float, default=40.0, help="output quiet this long = the frame is complete")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--compare", type=Path, help="another labeler checkout (e.g. main), run interleaved as well")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report: dict = {"date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "args": {k: str(v) for k, v in vars(args).items()}}
    with tempfile.TemporaryDirectory(prefix="bench_frame-") as name:
        tmp = Path(name)
        for data in args.data.split(","):
            if data == "big":
                if not args.big.exists():
                    print(f"{args.big} is missing: run python benchmarks/bench_judge.py first (or pass --big)")
                    continue
                report["big"] = figures = measure("big", args.big, big_topics(args.big), args, tmp)
            else:
                build_dl(DL_DB)
                report["dl"] = figures = measure("dl", DL_DB, dl_topics(), args, tmp)
            table(data, figures)
        if args.profile:
            import pstats

            with open(args.out / "frame_profile.txt", "w") as handle:
                for prof in sorted(tmp.glob("*.prof")):
                    handle.write(f"== {prof.name}\n")
                    pstats.Stats(str(prof), stream=handle).sort_stats("cumulative").print_stats(40)
    (args.out / "frame.json").write_text(json.dumps(report, indent=1))
    print(f"\nwritten: {args.out / 'frame.json'}")


if __name__ == "__main__":
    main()

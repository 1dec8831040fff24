"""Benchmark: the judgment log at scale, each operation beside SQLite's own append of the same rows.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_log.py --size 100k [--size 300k --size 1M] [--repeat 3] [--out DIR]

For each size it generates (seeded) a qrels file of that many lines and a second
one for another workbench, builds the workbenches once into
benchmarks/data/log/<size>/ (reused while params.json matches), then measures in
fresh child processes, interleaved rounds, medians of `--repeat`: labeler's
`judgments import` (the whole command, and the API call alone), `merge` of the
other workbench (the first time, and again when it adds nothing), `snapshot
create` and `export log`, each beside its floor: SQLite (the sqlite3 module)
appending the same rows with one unique key and one index in one transaction,
and the plain parse of the qrels and ir_measures reading them. Results go to
DIR/log.json (default benchmarks/out/).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common
from _common import (
    add_child_arguments,
    clock,
    load_1min,
    machine,
    median,
    now_iso,
    peak_rss_mb,
    print_markdown,
    ran_as_child,
    run_task,
    since,
)

HERE = Path(__file__).resolve().parent
DATA = _common.DATA / "log"
SIZES = {"tiny": 2_000, "100k": 100_000, "300k": 300_000, "1M": 1_000_000}  # "tiny" is the smoke test's
UNITS_PER_TOPIC = 200  # judged units per topic: 100k lines are 500 topics, 1M are 5,000
CORPUS = 50_000  # the documents the qrels' ids are drawn from, so the known-ids checks run
GRADES = (0, 1, 2, 3)
GRADE_WEIGHTS = (60, 22, 12, 6)  # most judged units are not relevant, few are highly relevant
SEED = 26
VERSION = 1
RATIO_TARGET, RATIO_SIZE = 5.0, "300k"  # within 5x of the floor at 300k
PEAK_TARGET_MB, PEAK_SIZE = 300.0, "1M"  # peak RSS under 300 MB at 1M


# -- data and the workbenches (built once, timed apart from the rows) ---------------------------------


def write_qrels(path: Path, lines: int, seed: int) -> None:
    """`lines` TREC qrels lines: topics of UNITS_PER_TOPIC distinct documents each, grades 0-3 skewed low."""
    rng = random.Random(seed)
    topics = max(1, lines // UNITS_PER_TOPIC)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        written = 0
        for index in range(topics):
            count = min(UNITS_PER_TOPIC, lines - written) if index < topics - 1 else lines - written
            docs = rng.sample(range(CORPUS), count)
            grades = rng.choices(GRADES, GRADE_WEIGHTS, k=count)
            out.write(
                "".join(f"{1001 + index} 0 D{doc:07d} {grade}\n" for doc, grade in zip(docs, grades, strict=True))
            )
            written += count


def paths_of(size: str) -> dict[str, Path]:
    folder = DATA / size
    names = ("qrels", "other_qrels", "template", "imported", "other", "merged")
    files = ("a.qrels", "b.qrels", "template.db", "imported.db", "other.db", "merged.db")
    return {"folder": folder, **{name: folder / file for name, file in zip(names, files, strict=True)}}


def ensure_data(size: str) -> dict[str, float] | None:
    """The size's qrels and workbenches, built unless params.json matches; seconds per step (None: reused).

    template.db holds the topics and a corpus; imported.db is the template with the qrels imported
    (assessor A, reviewed); other.db is the template with the second qrels imported (assessor B).
    """
    lines = SIZES[size]
    paths = paths_of(size)
    folder, marker = paths["folder"], paths["folder"] / "params.json"
    params = {"version": VERSION, "seed": SEED, "lines": lines, "units": UNITS_PER_TOPIC, "corpus": CORPUS}
    built = [paths[name] for name in ("qrels", "other_qrels", "template", "imported", "other")]
    if marker.exists() and all(p.exists() for p in built) and json.loads(marker.read_text()) == params:
        return None
    from labeler.workbench.corpus import import_corpus
    from labeler.workbench.init import init_workbench
    from labeler.workbench.record_judgments import import_judgments
    from labeler.workbench.setup import open_workbench
    from labeler.workbench.topics import import_topics

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    steps: dict[str, float] = {}
    start = time.perf_counter()
    write_qrels(paths["qrels"], lines, SEED)
    write_qrels(paths["other_qrels"], lines, SEED + 1)
    topics = max(1, lines // UNITS_PER_TOPIC)
    (folder / "topics.tsv").write_text("".join(f"{1001 + t}\ttopic {1001 + t}\n" for t in range(topics)))
    with open(folder / "corpus.jsonl", "w", encoding="utf-8", newline="\n") as out:
        out.write("".join(json.dumps({"id": f"D{d:07d}", "text": f"document {d}"}) + "\n" for d in range(CORPUS)))
    steps["generate"] = time.perf_counter() - start
    start = time.perf_counter()
    init_workbench(paths["template"])
    with open_workbench(paths["template"]) as store:
        import_topics(store, folder / "topics.tsv")
        import_corpus(store, folder / "corpus.jsonl")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    steps["template (topics, corpus)"] = time.perf_counter() - start
    for name, qrels, assessor, reviewed in (("imported", "qrels", "A", True), ("other", "other_qrels", "B", False)):
        start = time.perf_counter()
        shutil.copyfile(paths["template"], paths[name])
        with open_workbench(paths[name]) as store:
            import_judgments(store, paths[qrels], assessor=assessor, reviewed=reviewed)
            store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        steps[f"{name}.db"] = time.perf_counter() - start
    marker.write_text(json.dumps(params, indent=2) + "\n")
    return steps


# -- the tasks, each in a fresh child process ------------------------------------------------------


def _fresh_copy(source: str, tmp: str) -> Path:
    db = Path(tmp) / "bench.db"
    shutil.copyfile(source, db)
    return db


def _labeler(db: Path, *argv: str, alternative: tuple[str, ...] = ()) -> dict:
    """`python -m labeler --db DB ARGV...` as a process, timed from outside; CPU and peak RSS are its own.

    This task runs in a fresh child, so RUSAGE_CHILDREN holds that one command (and `alternative`,
    an older spelling of the same command, when the first spelling is not known: exit 2, nothing run).
    Its ru_maxrss is at least this small child's own peak (carried over the exec), never the runner's.
    """
    env = {**os.environ, "PYTHONPATH": str(_common.ROOT)}
    command = [sys.executable, "-m", "labeler", "--db", str(db)]
    start = time.perf_counter()
    done = subprocess.run([*command, *argv], capture_output=True, text=True, env=env)
    if done.returncode == 2 and alternative and "No such command" in done.stderr:
        start = time.perf_counter()
        done = subprocess.run([*command, *alternative], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"labeler {' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()[-500:]}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = usage.ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else usage.ru_maxrss / 1024
    return {"seconds": seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime, "peak_rss_mb": peak}


def task_import_cli(args: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        db = _fresh_copy(args["template"], tmp)  # not timed
        return _labeler(db, "judgments", "import", args["qrels"], "--assessor", "A", "--reviewed", "--json")


def task_import_api(args: dict) -> dict:
    from labeler.workbench.record_judgments import import_judgments
    from labeler.workbench.setup import open_workbench

    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        db = _fresh_copy(args["template"], tmp)  # not timed
        with open_workbench(db) as store:
            start = clock()
            result = import_judgments(store, args["qrels"], assessor="A", reviewed=True)
            timing = since(start)
    return {**timing, "rows": result.judgments, "peak_rss_mb": peak_rss_mb()}


def task_merge_first(args: dict) -> dict:
    """Merge other.db into a copy of imported.db; the result is kept as merged.db for the repeated merge.

    Printed as text: `--json` lists every label the merge changed (all of them here), so its memory
    would be the document's, not the merge's.
    """
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        db = _fresh_copy(args["imported"], tmp)  # not timed
        result = _labeler(db, "merge", args["other"])
        shutil.copyfile(db, args["merged"])
    return result


def task_merge_again(args: dict) -> dict:
    if not Path(args["merged"]).exists():
        return {"error": "no merged.db: the first merge failed"}
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        db = _fresh_copy(args["merged"], tmp)  # not timed
        return _labeler(db, "merge", args["other"], "--json")


def task_snapshot(args: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        db = _fresh_copy(args["imported"], tmp)  # not timed
        return _labeler(db, "snapshot", "create", "-m", "bench", "--json")


def task_export(args: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        db = _fresh_copy(args["imported"], tmp)  # not timed
        out = str(Path(tmp) / "log.jsonl")
        return _labeler(db, "export", "log", "-o", out, alternative=("judgments", "export-log", "-o", out))


def task_parse(args: dict) -> dict:
    """The plain parse: each line split into topic, iteration, unit, grade, into a dict."""
    start = clock()
    grades: dict[tuple[str, str], int] = {}
    with open(args["qrels"], encoding="utf-8") as handle:
        for line in handle:
            topic, _, unit, grade = line.split()
            grades[topic, unit] = int(grade)
    return {**since(start), "rows": len(grades), "peak_rss_mb": peak_rss_mb()}


def task_ir_measures(args: dict) -> dict:
    import ir_measures

    start = clock()
    rows = sum(1 for _ in ir_measures.read_trec_qrels(args["qrels"]))
    return {**since(start), "rows": rows, "peak_rss_mb": peak_rss_mb()}


def event_columns(db: str) -> list[str]:
    """The events table's columns as labeler's schema has them (the floor appends rows of the same width)."""
    with sqlite3.connect(db) as con:
        return [row[1] for row in con.execute("PRAGMA table_info(events)")]


def _bare_log(path: Path, columns: list[str]) -> sqlite3.Connection:
    """A bare append-only table of the events' columns: one unique key (event_id), one index (the pair)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    body = ", ".join(
        "seq INTEGER PRIMARY KEY" if c == "seq" else f"{c} UNIQUE" if c == "event_id" else c for c in columns
    )
    con.execute(f"CREATE TABLE events ({body})")
    con.execute("CREATE INDEX events_by_pair ON events (topic_id, unit_id)")
    return con


def _append(con: sqlite3.Connection, columns: list[str], rows, verb: str = "INSERT") -> None:
    marks = ", ".join("?" * len(columns))
    con.execute("BEGIN")
    con.executemany(f"{verb} INTO events ({', '.join(columns)}) VALUES ({marks})", rows)
    con.execute("COMMIT")


def task_floor_import(args: dict) -> dict:
    """Parse the qrels and append one event-shaped row per line (a random 128-bit id, a time) in one transaction.

    Every column of the events table is bound, the ones a qrels line does not fill as constants or NULL.
    """
    varying = ["event_id", "topic_id", "unit_id", "grade"]
    constant = {"unit": "doc", "kind": "grade", "assessor": "A", "source": "import", "time": now_iso()}
    rest = [c for c in event_columns(args["template"]) if c not in varying and c != "seq"]
    columns, tail = varying + rest, tuple(constant.get(c) for c in rest)

    def rows():
        with open(args["qrels"], encoding="utf-8") as handle:
            for line in handle:
                topic, _, unit, grade = line.split()
                yield (os.urandom(16).hex(), topic, unit, int(grade), *tail)

    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        con = _bare_log(Path(tmp) / "floor.db", columns)
        start = clock()
        _append(con, columns, rows())
        timing = since(start)
        count = con.execute("SELECT count(*) FROM events").fetchone()[0]
        con.close()
    return {**timing, "rows": count, "peak_rss_mb": peak_rss_mb()}


def _floor_merge(args: dict, again: bool) -> dict:
    """Read the other workbench's events and append them to a bare log already holding imported.db's.

    `again`: the bare log already holds the other's events too, so every row meets the unique key
    (INSERT OR IGNORE) and nothing is added, as in a repeated merge.
    """
    columns = [c for c in event_columns(args["imported"]) if c != "seq"]
    listed = ", ".join(columns)
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        con = _bare_log(Path(tmp) / "floor.db", columns)
        con.execute("ATTACH ? AS imported", (args["imported"],))
        con.execute(f"INSERT INTO events ({listed}) SELECT {listed} FROM imported.events")  # not timed
        if again:
            con.execute("ATTACH ? AS other", (args["other"],))
            con.execute(f"INSERT INTO events ({listed}) SELECT {listed} FROM other.events")  # not timed
        other = sqlite3.connect(f"file:{args['other']}?mode=ro", uri=True)
        start = clock()
        _append(con, columns, other.execute(f"SELECT {listed} FROM events ORDER BY seq"), "INSERT OR IGNORE")
        timing = since(start)
        count = con.execute("SELECT count(*) FROM events").fetchone()[0]
        other.close()
        con.close()
    return {**timing, "rows": count, "peak_rss_mb": peak_rss_mb()}


def task_floor_merge_first(args: dict) -> dict:
    return _floor_merge(args, again=False)


def task_floor_merge_again(args: dict) -> dict:
    return _floor_merge(args, again=True)


def task_floor_backup(args: dict) -> dict:
    """sqlite3's online backup of the whole other workbench into a new file: copying a log without reading it."""
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        source = sqlite3.connect(f"file:{args['other']}?mode=ro", uri=True)
        start = clock()
        target = sqlite3.connect(Path(tmp) / "copy.db")
        source.backup(target)
        target.close()
        timing = since(start)
        source.close()
    return {**timing, "peak_rss_mb": peak_rss_mb()}


def task_floor_snapshot(args: dict) -> dict:
    """Read each event's pair and grade and append them as label rows, unique per (snapshot, topic, unit)."""
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        con = sqlite3.connect(Path(tmp) / "floor.db", isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("CREATE TABLE labels (snapshot INTEGER, topic_id TEXT, unit_id TEXT, grade INTEGER, "
                    "UNIQUE (snapshot, topic_id, unit_id))")  # fmt: skip
        con.execute("CREATE INDEX labels_by_unit ON labels (unit_id)")
        source = sqlite3.connect(f"file:{args['imported']}?mode=ro", uri=True)
        start = clock()
        con.execute("BEGIN")
        rows = source.execute("SELECT 1, topic_id, unit_id, grade FROM events WHERE kind = 'grade' ORDER BY seq")
        con.executemany("INSERT OR REPLACE INTO labels VALUES (?, ?, ?, ?)", rows)
        con.execute("COMMIT")
        timing = since(start)
        count = con.execute("SELECT count(*) FROM labels").fetchone()[0]
        source.close()
        con.close()
    return {**timing, "rows": count, "peak_rss_mb": peak_rss_mb()}


def _hex(value: bytes) -> str:
    return value.hex()


def task_floor_export(args: dict) -> dict:
    """Every event as one JSON object a line (json.dumps of the row), written to a file."""
    with tempfile.TemporaryDirectory(prefix="bench-log-", dir=args["folder"]) as tmp:
        source = sqlite3.connect(f"file:{args['imported']}?mode=ro", uri=True)
        start = clock()
        cursor = source.execute("SELECT * FROM events ORDER BY seq")
        names = [d[0] for d in cursor.description]
        count = 0
        with open(Path(tmp) / "log.jsonl", "w", encoding="utf-8") as out:
            for row in cursor:
                out.write(json.dumps(dict(zip(names, row, strict=True)), separators=(",", ":"), default=_hex) + "\n")
                count += 1
        timing = since(start)
        source.close()
    return {**timing, "rows": count, "peak_rss_mb": peak_rss_mb()}


TASKS = {
    "import_cli": task_import_cli,
    "import_api": task_import_api,
    "floor_import": task_floor_import,
    "parse": task_parse,
    "ir_measures": task_ir_measures,
    "merge_first": task_merge_first,
    "floor_merge_first": task_floor_merge_first,
    "floor_backup": task_floor_backup,
    "merge_again": task_merge_again,
    "floor_merge_again": task_floor_merge_again,
    "snapshot": task_snapshot,
    "floor_snapshot": task_floor_snapshot,
    "export": task_export,
    "floor_export": task_floor_export,
}
# (key, operation, labeler task, floor task, the target applies) per row of the table
ROWS = [
    (
        "import_cli",
        "`judgments import QRELS --assessor A --reviewed` (whole process)",
        "import_cli",
        "floor_import",
        True,
    ),
    ("import_api", "`import_judgments` (the API call alone)", "import_api", "floor_import", True),
    ("parse", "plain Python parse of the qrels into a dict", "parse", "floor_import", False),
    ("ir_measures", "`ir_measures.read_trec_qrels` (every line read)", "ir_measures", "floor_import", False),
    ("merge_first", "`merge OTHER.db` the first time (adds every event)", "merge_first", "floor_merge_first", True),
    ("backup", "sqlite3 `.backup` of OTHER.db (copy, nothing read)", "floor_backup", "floor_merge_first", False),
    ("merge_again", "`merge OTHER.db` again (adds nothing)", "merge_again", "floor_merge_again", True),
    ("snapshot", "`snapshot create` of every label", "snapshot", "floor_snapshot", True),
    ("export", "`export log -o FILE` of every event", "export", "floor_export", False),
]
FLOORS = {
    "floor_import": "parse + append event rows",
    "floor_merge_first": "read OTHER's events, append",
    "floor_merge_again": "read OTHER's events, INSERT OR IGNORE (all present)",
    "floor_snapshot": "read pairs, append label rows",
    "floor_export": "SELECT *, json.dumps a line",
}


# -- the table -------------------------------------------------------------------------------------


def _s(result: dict) -> str:
    if "seconds" not in result:
        return result.get("error", "?")
    return f"{result['seconds']:.2f} s (cpu {result['cpu_seconds']:.2f}), {result['peak_rss_mb']:.0f} MB"


def _ratios(mine: dict, floor: dict) -> tuple[float, float] | None:
    if "seconds" not in mine or "seconds" not in floor or not floor["seconds"] or not floor["cpu_seconds"]:
        return None
    return mine["seconds"] / floor["seconds"], mine["cpu_seconds"] / floor["cpu_seconds"]


def _verdict(size: str, ratios: tuple[float, float] | None, mine: dict, targeted: bool) -> str:
    """The issue's targets beside the row: ratio at 300k (CPU, the figure a shared machine keeps), peak at 1M."""
    if not targeted:
        return ""
    parts = []
    if ratios is not None:
        met = "met" if ratios[1] <= RATIO_TARGET else "not met"
        parts.append(f"<= {RATIO_TARGET:.0f}x at {RATIO_SIZE}" + (f": {met}" if size == RATIO_SIZE else ""))
    if "peak_rss_mb" in mine:
        met = "met" if mine["peak_rss_mb"] < PEAK_TARGET_MB else "not met"
        parts.append(f"< {PEAK_TARGET_MB:.0f} MB at {PEAK_SIZE}" + (f": {met}" if size == PEAK_SIZE else ""))
    return "; ".join(parts)


def table_rows(size: str, got: dict[str, dict]) -> list[dict]:
    rows = []
    for key, operation, task, floor_task, targeted in ROWS:
        mine, floor = got[task], got[floor_task]
        ratios = _ratios(mine, floor)
        rows.append(
            {
                "key": key,
                "operation": operation,
                "labeler": _s(mine),
                "floor": f"{FLOORS[floor_task]}: {_s(floor)}",
                "ratio": "-" if ratios is None else f"{ratios[0]:.2f}x (cpu {ratios[1]:.2f}x)",
                "target": _verdict(size, ratios, mine, targeted),
                "load_1min": f"{max(mine.get('load_1min', 0), floor.get('load_1min', 0)):.2f}",
            }
        )
    return rows


def print_table(size: str, rows: list[dict]) -> None:
    header = [f"operation ({size} lines/events)", "measured", "floor (SQLite, same rows)", "ratio", "target"]
    keys = ["operation", "labeler", "floor", "ratio", "target", "load_1min"]
    print_markdown([*header, "load 1 min"], [[r[k] for k in keys] for r in rows])


def measure_size(size: str, repeat: int) -> dict:
    """Build (or reuse) the size's data, run every task `repeat` rounds interleaved, print the table."""
    build = ensure_data(size)
    steps = "(earlier)" if build is None else ", ".join(f"{k} {v:.1f} s" for k, v in build.items())
    print(f"\nbuild {size}: {steps}")
    child = {name: str(path) for name, path in paths_of(size).items()}
    Path(child["merged"]).unlink(missing_ok=True)
    rounds: dict[str, list[dict]] = {task: [] for task in TASKS}
    for number in range(repeat):
        for task in TASKS:  # interleaved: a change in the machine's load falls on both sides alike
            print(f"  {size} round {number + 1}/{repeat}: {task} ...", flush=True)
            rounds[task].append(run_task(__file__, task, child))
    got = {task: median(results) for task, results in rounds.items()}
    rows = table_rows(size, got)
    print_table(size, rows)
    return {"lines": SIZES[size], "build_seconds": build, "rows": rows, "results": got, "rounds": rounds}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--size", action="append", choices=list(SIZES), help="100k, 300k or 1M (repeatable; default 100k)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="rounds of every task, interleaved; medians printed")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where log.json goes")
    add_child_arguments(parser, TASKS)
    args = parser.parse_args(argv)
    if ran_as_child(args, TASKS):
        return

    sizes = args.size or ["100k"]
    packages = ("sqlite-utils", "ir_measures")
    report: dict = {"benchmark": "log", "date": now_iso(), "machine": machine(packages), "repeat": args.repeat}
    report["sizes"] = {}
    print(f"load 1 min at start: {load_1min():.2f}")
    for size in sizes:
        report["sizes"][size] = measure_size(size, args.repeat)
    print(f"\nload 1 min at end: {load_1min():.2f}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "log.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    print(f"wrote {args.out / 'log.json'}")


if __name__ == "__main__":
    main()

"""Benchmark: the performance table in one run, labeler beside the alternative, with ratios, per size.

Not a test: it prints figures and asserts nothing about time. Run it from the
repository root:

    python benchmarks/bench_table.py --size S [--size W --size L] [--repeat 3] [--out DIR] [--no-ui]

S = 10 runs x 50 topics x 1000 results (500k lines), W = 10 x 500 x 1000 (5M),
L = 10 x 1000 x 1000 (10M), generated with bench_import.py's generator into
benchmarks/data/table/<size>/ (reused while params.json matches). Every row's
two sides run in fresh child processes, interleaved (A, B, A, B, ...), and the
median of `--repeat` rounds is printed with the 1-minute load beside it. The
tasks the rows need (data, workbench, small workbench) are timed and printed
apart. Results go to DIR/table.json (default benchmarks/out/).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common
import bench_eval
import bench_frame
import bench_import
import bench_startup
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
DATA = _common.DATA / "table"
SIZES = {  # runs, topics, depth; "tiny" is the smoke test's, not in --help
    "tiny": (10, 4, 50),
    "S": (10, 50, 1000),
    "W": (10, 500, 1000),
    "L": (10, 1000, 1000),
}
CLI_RUNS = {"tiny": 2}  # the CLI row imports ten files of 50k lines (S's files); tiny: two of its own
POOL_DEPTH = 100
MEASURES = bench_eval.MEASURES
PYTREC_MEASURES = bench_eval.PYTREC_MEASURES
COVERAGE_TARGET_S = 3.0
QRELS_SEED = 15
JUDGED_PER_TOPIC = 50


# -- data and the workbench (build tasks, timed apart from the rows) -------------------------


def size_dir(size: str) -> Path:
    return DATA / size


def run_files(size: str) -> list[Path]:
    runs = SIZES[size][0]
    return [size_dir(size) / f"run{i:02d}.trec" for i in range(runs)]


def generate_qrels(run: Path, out: Path, judged: int = JUDGED_PER_TOPIC) -> None:
    """Per topic `judged` labels: 90 % from the run at exponential ranks (mean 40), the rest not retrieved.

    Like bench_eval.py's qrels: the chance of relevance falls with the rank, grades 1-3,
    every topic has at least one relevant label.
    """
    rng = random.Random(QRELS_SEED)
    rankings: dict[str, list[str]] = {}
    with open(run, encoding="utf-8") as handle:
        for line in handle:
            qid, _, doc, _, _, _ = line.split()
            rankings.setdefault(qid, []).append(doc)
    lines = []
    for qid, docs in rankings.items():
        from_run = min(len(docs), judged - judged // 10)
        ranks: set[int] = set()
        while len(ranks) < from_run:
            rank = int(rng.expovariate(1 / 40))
            if rank < len(docs):
                ranks.add(rank)
        labels: dict[str, int] = {}
        for rank in sorted(ranks):
            closeness = math.exp(-rank / 30)
            relevant = rng.random() < 0.15 + 0.6 * closeness
            labels[docs[rank]] = rng.choice((1, 2, 3)) if relevant else 0
        retrieved = set(docs)
        while len(labels) < from_run + judged // 10:
            doc = f"D{rng.randrange(bench_import.POOL_SIZE):07d}"
            if doc not in retrieved:
                labels[doc] = rng.choice((0, 0, 1, 2))
        if not any(labels.values()):
            labels[docs[min(ranks)]] = 1
        lines.extend(f"{qid} 0 {doc} {grade}\n" for doc, grade in sorted(labels.items()))
    out.write_text("".join(lines))


def ensure_data(size: str) -> float | None:
    """The size's run files and qrels, generated unless params.json matches; the seconds it took."""
    runs, topics, depth = SIZES[size]
    params = {**bench_import.params_for(topics, depth, runs), "qrels_seed": QRELS_SEED, "judged": JUDGED_PER_TOPIC}
    folder, marker, paths = size_dir(size), size_dir(size) / "params.json", run_files(size)
    qrels = folder / "qrels.txt"
    if marker.exists() and qrels.exists() and all(p.exists() for p in paths):
        if json.loads(marker.read_text()) == params:
            return None
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    start = time.perf_counter()
    bench_import.generate(paths, topics, depth)
    generate_qrels(paths[0], qrels)
    marker.write_text(json.dumps(params, indent=2) + "\n")
    return time.perf_counter() - start


def build_workbench(size: str) -> dict[str, float]:
    """base.db (runs r00.., qrels reviewed, snapshot v1) and full.db (base + a depth-100 pool); seconds per step."""
    from labeler.store import Store
    from labeler.workbench.init import init_workbench
    from labeler.workbench.pools import build_pool
    from labeler.workbench.record_judgments import import_judgments
    from labeler.workbench.runs import import_run
    from labeler.workbench.snapshots import create_snapshot

    folder = size_dir(size)
    base, full = folder / "base.db", folder / "full.db"
    for db in (base, full):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
    steps: dict[str, float] = {}
    start = time.perf_counter()
    init_workbench(base)
    with Store(base) as store:
        for index, path in enumerate(run_files(size)):
            import_run(store, path, f"r{index:02d}")
        steps["runs import"] = time.perf_counter() - start
        start = time.perf_counter()
        import_judgments(store, folder / "qrels.txt", assessor="prior", reviewed=True)
        create_snapshot(store, "bench_table qrels")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        steps["judgments import + snapshot"] = time.perf_counter() - start
    shutil.copyfile(base, full)
    start = time.perf_counter()
    with Store(full) as store:
        build_pool(store, POOL_DEPTH)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    steps["pool build (for coverage)"] = time.perf_counter() - start
    return steps


# -- the tasks, each in a fresh child process --------------------------------------------------


def task_import_labeler(args: dict) -> dict:
    return bench_import.task_labeler(args["paths"])


def task_import_plain(args: dict) -> dict:
    return bench_import.task_python(args["paths"])


def task_cli_labeler(args: dict) -> dict:
    """`labeler runs import` once per file, each a fresh process, timed from outside around all of them."""
    env = {**os.environ, "PYTHONPATH": str(_common.ROOT)}
    with tempfile.TemporaryDirectory(prefix="bench-table-cli-") as tmp:
        db = str(Path(tmp) / "cli.db")
        command = [sys.executable, "-m", "labeler", "--db", db]
        subprocess.run([*command, "init"], check=True, capture_output=True, env=env)  # not timed
        cpu = bench_eval.children_cpu()
        start = time.perf_counter()
        for index, path in enumerate(args["cli_paths"]):
            subprocess.run(
                [*command, "runs", "import", path, "--name", f"r{index}", "--json"],
                check=True,
                capture_output=True,
                env=env,
            )
        seconds = time.perf_counter() - start
    return {"seconds": seconds, "cpu_seconds": bench_eval.children_cpu() - cpu, "files": len(args["cli_paths"])}


def task_cli_plain(args: dict) -> dict:
    return bench_import.task_python(args["cli_paths"])


def task_pool_labeler(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.pools import build_pool

    with tempfile.TemporaryDirectory(prefix="bench-table-pool-", dir=args["folder"]) as tmp:
        db = Path(tmp) / "pool.db"
        shutil.copyfile(args["base"], db)  # not timed
        with Store(db) as store:
            start = clock()
            result = build_pool(store, POOL_DEPTH).to_json()
            timing = since(start)
    return {**timing, "pairs": result["pairs"], "peak_rss_mb": peak_rss_mb()}


def task_pool_plain(args: dict) -> dict:
    """Parse every file, sort each topic as trec_eval does (score, then doc id, descending), union the top 100."""
    start = clock()
    pool: dict[str, set[str]] = {}
    for path in args["paths"]:
        topics: dict[str, list[tuple[float, str]]] = {}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                qid, _, docid, _, score, _ = line.split()
                topics.setdefault(qid, []).append((float(score), docid))
        for qid, ranking in topics.items():
            ranking.sort(reverse=True)
            pool.setdefault(qid, set()).update(doc for _, doc in ranking[:POOL_DEPTH])
    timing = since(start)
    return {**timing, "pairs": sum(map(len, pool.values())), "peak_rss_mb": peak_rss_mb()}


def _evaluate(args: dict, runs: list[str]) -> dict:
    from labeler.store import Store
    from labeler.workbench.evaluation import EvalRequest, evaluate_runs

    with Store(args["base"]) as store:  # no pool: a pool built after the snapshot reopens its topics
        start = clock()
        report = evaluate_runs(store, EvalRequest(snapshot="v1", runs=runs, measures=MEASURES))
        timing = since(start)
    return {**timing, "values": report.to_json()["runs"][0]["aggregate"]}


def task_eval_labeler(args: dict) -> dict:
    return _evaluate(args, ["r00"])


def task_ten_labeler(args: dict) -> dict:
    return _evaluate(args, [f"r{i:02d}" for i in range(len(args["paths"]))])


def _trec_eval(args: dict, paths: list[str]) -> dict:
    binary = bench_eval.trec_eval_binary()
    if binary is None:
        return {"skipped": "no trec_eval binary (set TREC_EVAL or put trec_eval on PATH)"}
    cpu = bench_eval.children_cpu()
    start = time.perf_counter()
    outputs = [
        subprocess.run(
            [binary, *bench_eval.TREC_EVAL_MEASURES, args["qrels"], path], check=True, capture_output=True, text=True
        ).stdout
        for path in paths
    ]
    seconds = time.perf_counter() - start
    values = {}
    for line in outputs[0].splitlines():  # the first run's means, r00's, as the other tools print
        name, _, value = line.split()
        values[bench_eval.TREC_EVAL_NAMES[name]] = float(value)
    return {"seconds": seconds, "cpu_seconds": bench_eval.children_cpu() - cpu, "values": values, "binary": binary}


def task_eval_trec_eval(args: dict) -> dict:
    return _trec_eval(args, args["paths"][:1])


def task_ten_trec_eval(args: dict) -> dict:
    return _trec_eval(args, args["paths"])


def _read_qrels(path: str) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            qid, _, doc, grade = line.split()
            qrels.setdefault(qid, {})[doc] = int(grade)
    return qrels


def _read_run(path: str) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            qid, _, doc, _, score, _ = line.split()
            run.setdefault(qid, {})[doc] = float(score)
    return run


def _pytrec(args: dict, count: int) -> dict:
    """pytrec_eval: the qrels parsed and one evaluator made once, then `count` run files parsed and evaluated.

    Parsing into dicts is included (as trec_eval's own parse is in its figure) and printed apart.
    """
    import pytrec_eval

    began = clock()
    start = time.perf_counter()
    qrels = _read_qrels(args["qrels"])
    parse = time.perf_counter() - start
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "recall.100", "map", "P.10"})
    values: dict[str, float] = {}
    for path in args["paths"][:count]:
        start = time.perf_counter()
        run = _read_run(path)
        parse += time.perf_counter() - start
        per_query = evaluator.evaluate(run)
        if not values:  # the first run's means, r00's, as the other tools print
            values = {name: statistics.fmean(q[k] for q in per_query.values()) for name, k in PYTREC_MEASURES.items()}
    return {**since(began), "parse_seconds": parse, "values": values}


def task_eval_pytrec(args: dict) -> dict:
    return _pytrec(args, 1)


def task_ten_pytrec(args: dict) -> dict:
    return _pytrec(args, len(args["paths"]))


def task_coverage(args: dict) -> dict:
    from labeler.store import Store
    from labeler.workbench.coverage import CoverageRequest, coverage_report

    with Store(args["full"]) as store:
        start = clock()
        coverage_report(store, CoverageRequest(include_reopened=True))
        timing = since(start)
    return {**timing, "peak_rss_mb": peak_rss_mb()}


TASKS = {
    "import_labeler": task_import_labeler,
    "import_plain": task_import_plain,
    "cli_labeler": task_cli_labeler,
    "cli_plain": task_cli_plain,
    "pool_labeler": task_pool_labeler,
    "pool_plain": task_pool_plain,
    "eval_labeler": task_eval_labeler,
    "eval_trec_eval": task_eval_trec_eval,
    "eval_pytrec": task_eval_pytrec,
    "ten_labeler": task_ten_labeler,
    "ten_trec_eval": task_ten_trec_eval,
    "ten_pytrec": task_ten_pytrec,
    "coverage": task_coverage,
}
STARTUP = {  # measured by bench_startup's timer, on its small workbench (size independent)
    "help": ["-m", "labeler", "--help"],
    "next": ["-m", "labeler", "--db", "{db}", "next", "--json", "--assessor", "bench"],
    "pass": ["-c", "pass"],
}


def measure_startup(repeat: int) -> tuple[dict[str, dict], float]:
    """`labeler --help`, `labeler next --json`, `python -c pass`, interleaved, bytecode cached as installed."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-table-startup-") as name:
        folder = Path(name)
        db = bench_startup.build_workbench(folder)
        build = time.perf_counter() - start
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(_common.ROOT), PYTHONPYCACHEPREFIX=str(folder / "pycache"))
        argvs = {key: [part.replace("{db}", str(db)) for part in argv] for key, argv in STARTUP.items()}
        for argv in argvs.values():
            bench_startup.timed(argv, env, folder)  # warm-up: fills the bytecode cache
        rounds: dict[str, list[dict]] = {key: [] for key in argvs}
        for _ in range(repeat):
            for key, argv in argvs.items():
                wall, cpu, _ = bench_startup.timed(argv, env, folder)
                rounds[key].append({"seconds": wall, "cpu_seconds": cpu, "load_1min": load_1min()})
    return {key: median(values) for key, values in rounds.items()}, build


def measure_ui(args: argparse.Namespace) -> dict:
    """bench_frame.py's harness once (big workbench): in-app, from outside, start, each beside the floor app."""
    if not args.big.exists():
        return {"error": f"{args.big} is missing (python benchmarks/bench_judge.py builds it, or pass --big)"}
    with tempfile.TemporaryDirectory(prefix="bench-table-ui-") as out:
        argv = [sys.executable, str(Path(bench_frame.__file__)), "--data", "big", "--big", str(args.big)]
        argv += ["--runs", str(args.ui_runs), "--keys", str(args.ui_keys), "--out", out]
        done = subprocess.run(argv, capture_output=True, text=True)
        if done.returncode != 0:
            return {"error": f"bench_frame exit {done.returncode}: {done.stderr.strip().splitlines()[-2:]}"}
        return json.loads((Path(out) / "frame.json").read_text())["big"]


# -- the table -------------------------------------------------------------------------------------


def _s(result: dict, memory: bool = False) -> str:
    if "seconds" not in result:
        return result.get("skipped") or result.get("error", "?")
    text = f"{result['seconds']:.3f} s (cpu {result['cpu_seconds']:.3f})" if "cpu_seconds" in result else ""
    if memory and "peak_rss_mb" in result:
        text += f", {result['peak_rss_mb']:.0f} MB"
    return text


def _ratio(mine: dict, other: dict) -> str:
    if "seconds" not in mine or "seconds" not in other or not other["seconds"]:
        return "-"
    text = f"{mine['seconds'] / other['seconds']:.2f}x"
    if mine.get("cpu_seconds") and other.get("cpu_seconds"):
        text += f" (cpu {mine['cpu_seconds'] / other['cpu_seconds']:.2f}x)"
    return text


def _load(*results: dict) -> str:
    loads = [r["load_1min"] for r in results if "load_1min" in r]
    return f"{max(loads):.2f}" if loads else "-"


def table_rows(size: str, got: dict[str, dict], startup: dict[str, dict], ui: dict | None) -> list[dict]:
    """The table's rows: step, labeler, the alternative, ratio, 1-minute load (the larger of the two sides')."""
    runs, topics, depth = SIZES[size]
    lines = runs * topics * depth
    cli_files = CLI_RUNS.get(size, 10)
    rows = []

    def row(step: str, mine: dict, alternative: str, ratio: str, load: str, key: str) -> None:
        rows.append(
            {
                "key": key,
                "step": step,
                "labeler": _s(mine, True),
                "alternative": alternative,
                "ratio": ratio,
                "load_1min": load,
            }
        )

    lab, plain = got["import_labeler"], got["import_plain"]
    row(
        f"import {size} ({lines:,} lines, Python API)",
        lab,
        f"plain Python parse into dicts {_s(plain, True)}",
        _ratio(lab, plain),
        _load(lab, plain),
        "import",
    )
    lab, plain = got["cli_labeler"], got["cli_plain"]
    cli_lines = "50k" if size != "tiny" else f"{topics * depth}"
    row(
        f"import, {cli_files} runs of {cli_lines} lines through the CLI (size independent)",
        lab,
        f"plain {_s(plain)}",
        _ratio(lab, plain),
        _load(lab, plain),
        "cli_import",
    )
    lab, plain = got["pool_labeler"], got["pool_plain"]
    same = "" if lab.get("pairs") == plain.get("pairs") else f" PAIRS DIFFER {lab.get('pairs')} vs {plain.get('pairs')}"
    row(
        f"depth-{POOL_DEPTH} pool {size}, from the store",
        lab,
        f"plain set union incl. parse {_s(plain)}{same}",
        _ratio(lab, plain),
        _load(lab, plain),
        "pool",
    )
    for key, step in (("eval", f"score one run {size} ({MEASURES})"), ("ten", f"ten runs {size}")):
        lab, binary, pytrec = got[f"{key}_labeler"], got[f"{key}_trec_eval"], got[f"{key}_pytrec"]
        parse = f" (parse {pytrec['parse_seconds']:.3f} s of it)" if "parse_seconds" in pytrec else ""
        calls = "trec_eval binary" if key == "eval" else "ten trec_eval calls"
        row(
            step,
            lab,
            f"{calls} {_s(binary)}; pytrec_eval incl. parse {_s(pytrec)}{parse}",
            f"{_ratio(lab, binary)} trec_eval; {_ratio(lab, pytrec)} pytrec_eval",
            _load(lab, binary, pytrec),
            key,
        )
    cov = got["coverage"]
    ratio = f"{cov['seconds'] / COVERAGE_TARGET_S:.2f}x target" if "seconds" in cov else "-"
    row(f"coverage {size}", cov, f"no alternative; target {COVERAGE_TARGET_S:.0f} s", ratio, _load(cov), "coverage")
    floor = startup["pass"]
    for key, step in (
        ("help", "`labeler --help` (size independent)"),
        ("next", "`labeler next --json`, small workbench"),
    ):
        row(
            step,
            startup[key],
            f"`python -c pass` {_s(floor)}",
            _ratio(startup[key], floor),
            _load(startup[key], floor),
            key,
        )
    ui_rows = (
        ("ui_in_app", "next unit after a grade key, 1M pooled pairs, in-app p95 (size independent)", "in_app_ms"),
        ("ui_outside", "the same from outside (pty) p95 (size independent)", "id_ms"),
        ("ui_start", "start to the first unit on screen, from outside (size independent)", "start_id_s"),
    )
    for key, step, name in ui_rows:
        if ui is None:
            rows.append(
                {
                    "key": key,
                    "step": step,
                    "labeler": "not run (--no-ui)",
                    "alternative": "",
                    "ratio": "-",
                    "load_1min": "-",
                }
            )
        elif "error" in ui:
            rows.append(
                {"key": key, "step": step, "labeler": ui["error"], "alternative": "", "ratio": "-", "load_1min": "-"}
            )
        else:
            mine, bare = ui["labeler"][name], ui["floor"][name]
            if name == "start_id_s":
                a, b, unit = statistics.median(mine), statistics.median(bare), "s"
            else:
                a, b, unit = mine["p95"], bare["p95"], "ms"
            rows.append(
                {
                    "key": key,
                    "step": step,
                    "labeler": f"{a:.3f} {unit}",
                    "alternative": f"bare Textual app {b:.3f} {unit}",
                    "ratio": f"{a / b:.2f}x",
                    "load_1min": f"{max(ui['load_1min']):.2f}",
                }
            )
    return rows


def print_table(size: str, rows: list[dict]) -> None:
    keys = ["step", "labeler", "alternative", "ratio", "load_1min"]
    print_markdown(
        [f"step ({size})", "labeler", "the alternative", "ratio", "load 1 min"], [[r[k] for k in keys] for r in rows]
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", action="append", choices=list(SIZES), help="S, W or L (repeatable; default S)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of every row, interleaved; medians printed")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="where table.json goes")
    parser.add_argument("--no-ui", action="store_true", help="leave out the UI rows (bench_frame.py's harness)")
    parser.add_argument("--big", type=Path, default=bench_frame.BIG_DB, help="the 1M-pair workbench for the UI rows")
    parser.add_argument("--ui-keys", type=int, default=100, help="grade keys per UI session")
    parser.add_argument("--ui-runs", type=int, default=1, help="UI sessions per app")
    add_child_arguments(parser, TASKS)
    args = parser.parse_args(argv)
    if ran_as_child(args, TASKS):
        return

    sizes = args.size or ["S"]
    report: dict = {"benchmark": "table", "date": now_iso(), "machine": machine(), "repeat": args.repeat, "sizes": {}}
    print(f"load 1 min at start: {load_1min():.2f}")
    startup, startup_build = measure_startup(args.repeat)
    print(f"build: small workbench for the start-up rows {startup_build:.2f} s")
    ui = None
    if not args.no_ui:
        start = time.perf_counter()
        ui = measure_ui(args)
        print(f"UI rows: bench_frame.py harness once, {time.perf_counter() - start:.1f} s (size independent)")
    for size in sizes:
        build: dict[str, float | None] = {"generate": ensure_data(size)}
        cli_size = "tiny" if size == "tiny" else "S"
        if cli_size != size:
            build["generate S (CLI row's files)"] = ensure_data(cli_size)
        build.update(build_workbench(size))
        print(
            f"\nbuild {size}: "
            + ", ".join(f"{k} {'(earlier)' if v is None else f'{v:.2f} s'}" for k, v in build.items())
        )
        folder = size_dir(size)
        child = {
            "paths": [str(p) for p in run_files(size)],
            "cli_paths": [str(p) for p in run_files(cli_size)[: CLI_RUNS.get(size, 10)]],
            "qrels": str(folder / "qrels.txt"),
            "base": str(folder / "base.db"),
            "full": str(folder / "full.db"),
            "folder": str(folder),
        }
        rounds: dict[str, list[dict]] = {task: [] for task in TASKS}
        for number in range(args.repeat):
            for task in TASKS:  # interleaved, so a change in the machine's load falls on both sides alike
                print(f"  {size} round {number + 1}/{args.repeat}: {task} ...", flush=True)
                rounds[task].append(run_task(__file__, task, child))
        got = {task: median(results) for task, results in rounds.items()}
        rows = table_rows(size, got, startup, ui)
        print_table(size, rows)
        for name in ("eval", "ten"):
            values = {k: got[f"{name}_{k}"].get("values") for k in ("labeler", "trec_eval", "pytrec")}
            print(f"{name} values: " + "; ".join(f"{k} {v}" for k, v in values.items() if v))
        report["sizes"][size] = {"lines": math.prod(SIZES[size]), "build_seconds": build, "rows": rows, "results": got}
    report["startup"], report["ui"] = startup, ui
    print(f"\nload 1 min at end: {load_1min():.2f}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "table.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    print(f"wrote {args.out / 'table.json'}")


if __name__ == "__main__":
    main()

"""The CLI starts at once: `import labeler.cli` and `labeler --help` import no command module, no store,
no TUI and no numerics; a command imports what it uses. Each check runs in a fresh interpreter (what
this process has imported says nothing). No time is asserted: what is imported is what costs.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import labeler
import labeler.cli
from labeler.cli import COMMANDS, cli

ROOT = Path(labeler.__file__).resolve().parent.parent
HEAVY = (
    "textual",
    "rich",
    "numpy",
    "scipy",
    "pandas",
    "ir_measures",
    "pytrec_eval",
    "sqlite_utils",
    "pyarrow",
    "bm25s",
)
"""Never imported by `import labeler.cli` or `labeler --help`."""
NUMERICS_AND_UI = ("textual", "numpy", "scipy", "pandas", "ir_measures", "pytrec_eval", "pyarrow", "bm25s")
"""Never imported by `labeler next --json` or `labeler status --json` either."""
NOT_TO_JUDGE = (
    "sqlite_utils",  # only to create or upgrade a workbench (its migrations) and for `check`
    "pluggy",
    "dateutil",  # sqlite_utils.recipes, loaded lazily by labeler.store.lean_sqlite_utils
    "importlib.metadata",  # sqlite-utils' plug-in scan, which labeler's connections skip
    "labeler.formats.runs",  # the run readers: needed to import runs, not to read the queue
    "labeler.chunking",
    "labeler.retrievers",
    "labeler.tui",
    "labeler.coverage",
    "statistics",  # the pace's median is labeler.pace's own (statistics brings fractions and decimal)
    "fractions",
    "decimal",
    "secrets",  # only a nested write names a savepoint with it (labeler.store.connection)
)
"""Nor these: what `next` and `status` must not pay for (a module or any module under it)."""
NOT_IN_A_JSON_ANSWER = (
    "labeler.models",  # the corpus, topic and snapshot values (each dataclass costs as its module loads)
    "labeler.pace",  # read for the text forms' time left
    "labeler.judgments.model_labels",  # built only where a model's labels are read
)
"""Nor, for `next --json` and `status --json`, these."""

MAIN = """
import sys
from labeler.cli import main
sys.argv = ["labeler", *sys.argv[1:]]
try:
    main()
except SystemExit as exit:
    assert not exit.code, exit.code
"""
"""`labeler ARGS...` as the console script runs it (`python -c MAIN ARGS...`)."""

LOADED = """
import json, sys
def loaded():
    tops = {name.split(".")[0] for name in sys.modules}
    return sorted(tops | {n for n in sys.modules if n.startswith(("labeler", "importlib.", "sqlite_utils."))})
"""


def python(code: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def modules_after(code: str, *args: str, cwd: Path | None = None) -> tuple[list[str], str]:
    """The top-level packages (and every labeler module) imported once `code` has run, and its stdout."""
    done = python(LOADED + code + "\nprint(json.dumps(loaded()), file=sys.stderr)", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


def test_importing_the_cli_loads_no_command_no_store_no_ui_no_numerics():
    loaded, _ = modules_after("import labeler.cli")
    assert [name for name in HEAVY if name in loaded] == []
    assert [name for name in loaded if name.startswith(("labeler.store", "labeler.workbench", "labeler.tui"))] == []
    commands = {path.rsplit(".", 1)[0] for path, _summary in COMMANDS.values()}
    assert sorted(commands & set(loaded)) == []


def test_help_lists_every_command_without_importing_one():
    loaded, out = modules_after(MAIN, "--help")
    assert [name for name in HEAVY if name in loaded] == []
    assert "importlib.metadata" not in loaded  # the version is read by --version, not at every start
    listed = [line.split()[0] for line in out.split("Commands:\n", 1)[1].splitlines() if line.startswith("  ")]
    assert listed == sorted(COMMANDS)


@pytest.mark.parametrize("width", [50, 80, 120, 200])
def test_the_lazy_listing_is_the_one_click_prints_from_the_loaded_commands(width):
    """`labeler --help` before any command is imported, and click's own listing with all of them loaded."""
    code = f"""
import click
from labeler.cli import cli
def commands_section(format_commands):
    ctx = click.Context(cli, info_name="labeler", terminal_width={width}, max_content_width={width})
    formatter = ctx.make_formatter()
    format_commands(ctx, formatter)
    return formatter.getvalue()
lazy = commands_section(cli.format_commands)
for name in cli.list_commands(click.Context(cli)):
    cli.get_command(click.Context(cli), name)  # every command imported
eager = commands_section(lambda ctx, formatter: click.Group.format_commands(cli, ctx, formatter))
print(lazy == eager, repr(lazy), repr(eager), sep="\\n")
"""
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "True", done.stdout


def loaded_commands() -> dict[str, click.Command]:
    """Every top-level command, each imported (in this process)."""
    ctx = click.Context(cli)
    return {name: command for name in cli.list_commands(ctx) if (command := cli.get_command(ctx, name))}


def test_every_command_module_is_listed_with_its_summary():
    """Each module (or package) directly in labeler.cli but `common` is the command of its name, listed in
    `COMMANDS` with the first paragraph of its help (else `labeler --help` would not show it, or would
    show another line)."""
    modules = {info.name for info in pkgutil.iter_modules(labeler.cli.__path__)} - {"common"}
    assert sorted(modules) == sorted(COMMANDS)
    commands = loaded_commands()
    assert sorted(commands) == sorted(COMMANDS)
    for name, (path, summary) in COMMANDS.items():
        module, attribute = path.rsplit(".", 1)
        assert module == f"labeler.cli.{name}", name
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command) and command.name == name, name
        assert commands[name] is command
        stand_in = click.Command(name, help=summary)
        for limit in (20, 45, 80, 300):
            assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit), (name, limit)


def test_the_common_package_defines_no_command():
    common = importlib.import_module("labeler.cli.common")
    for info in pkgutil.iter_modules(common.__path__):
        module = importlib.import_module(f"labeler.cli.common.{info.name}")
        assert not [name for name, value in vars(module).items() if isinstance(value, click.Command)], info.name


def _tree(command: click.Command) -> object:
    if isinstance(command, click.Group):
        return {name: _tree(sub) for name, sub in sorted(command.commands.items())}
    return sorted(param.name or "" for param in command.params)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_command_loaded_alone_has_every_subcommand_and_option(name):
    """Loading one command imports what adds subcommands to it (`judgments export-log` is `export log`)."""
    code = f"""
import json, click
from labeler.cli import cli
def tree(command):
    if isinstance(command, click.Group):
        return {{name: tree(sub) for name, sub in sorted(command.commands.items())}}
    return sorted(param.name or "" for param in command.params)
print(json.dumps(tree(cli.get_command(click.Context(cli), {name!r}))))
"""
    done = python(code)
    assert done.returncode == 0, done.stderr
    commands = loaded_commands()  # this process: every command module imported
    assert json.loads(done.stdout) == json.loads(json.dumps(_tree(commands[name])))


RUN = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d3 3 7 r\n2 Q0 d3 1 9 r\n"


@pytest.fixture
def pooled(run_cli, write):
    titles = {"d1": "Maize pests", "d2": "Stored grain", "d3": "Milk fever"}
    run_cli(
        "corpus",
        "import",
        write("c.jsonl", "".join(json.dumps({"id": k, "title": t, "text": t}) + "\n" for k, t in titles.items())),
    )
    run_cli("runs", "import", write("r.run", RUN), "--name", "bm25")
    run_cli("pool", "build", "--depth", "3")
    return run_cli


def not_to_judge(loaded: list[str]) -> list[str]:
    return [name for name in loaded if name in NOT_TO_JUDGE or name.startswith(tuple(f"{n}." for n in NOT_TO_JUDGE))]


def test_next_json_in_a_fresh_process_claims_and_loads_no_ui_or_numerics(pooled):
    args = ("--db", str(pooled.db), "next", "--json", "--assessor", "ann")
    loaded, out = modules_after(MAIN, *args)
    claimed = json.loads(out)
    assert (claimed["topic"], claimed["unit"], claimed["position"], claimed["remaining"]) == ("1", "d1", 1, 3)
    assert [name for name in NUMERICS_AND_UI if name in loaded] == []
    assert "rich" not in loaded  # JSON needs no tables
    assert not_to_judge(loaded) == []
    assert [name for name in NOT_IN_A_JSON_ANSWER if name in loaded] == []
    # The judgment log's format (and the file reader under it) is for the decisions list, not `next`'s unit text
    assert [name for name in ("labeler.formats.judgment_log", "labeler.formats.lines", "gzip") if name in loaded] == []
    # nor OpenSSL (only a seeded shuffle and an overlap draw hash) nor the calibrator (only `uncertainty` fits one)
    assert [name for name in ("hashlib", "_hashlib", "labeler.agreement.calibration") if name in loaded] == []
    assert sorted({"labeler.ordering", "labeler.store"} - set(loaded)) == []
    # a unit was claimed: why nothing is left, the unit's title (for the text line) and the topic check
    # (no --topic), and the assigning use cases (the plan is read without them) are not loaded
    unread = ("labeler.workbench.nothing_left", "labeler.workbench.reading", "labeler.workbench.topics")
    assert [name for name in (*unread, "labeler.workbench.assignments") if name in loaded] == []
    # nor the pooling strategies, the run values or `queue`'s result types: a claim builds none of them
    assert [n for n in ("labeler.pooling", "labeler.run_models", "labeler.workbench.queue_view") if n in loaded] == []
    assert json.loads(modules_after(MAIN, *args)[1])["unit"] == "d1"  # asking again: the same unit


def test_status_json_in_a_fresh_process_is_the_in_process_one(pooled):
    loaded, out = modules_after(MAIN, "--db", str(pooled.db), "status", "--json")
    assert json.loads(out) == pooled.json("status")
    assert [name for name in NUMERICS_AND_UI if name in loaded] == []
    assert [name for name in loaded if name.startswith("labeler.cli.") and name != "labeler.cli.status"] == [
        name for name in loaded if name.startswith("labeler.cli.common")
    ]  # no other command's module (the assessor table is for the text form)
    assert "labeler.pooling" not in loaded  # status counts a pool's pairs without its strategies
    assert "labeler.workbench.assignments" not in loaded  # the assessors' progress, not the plan's making
    assert not_to_judge(loaded) == []
    assert [name for name in NOT_IN_A_JSON_ANSWER if name in loaded] == []


def test_eval_help_loads_no_scipy(tmp_path):
    """scipy (Wilcoxon of `eval --baseline`/`--compare`) is imported when a test runs, not with the command."""
    loaded, _ = modules_after(MAIN, "eval", "--help", cwd=tmp_path)
    assert "scipy" not in loaded
    loaded, _ = modules_after(MAIN, "compare", "--help", cwd=tmp_path)
    assert "scipy" not in loaded


def test_version_needs_nothing_but_click():
    loaded, out = modules_after(MAIN, "--version")
    assert out.strip() == f"labeler, version {labeler.__version__}"
    assert [name for name in HEAVY if name in loaded] == []


def test_the_store_hides_pandas_from_sqlite_utils_only_while_importing_it():
    pytest.importorskip("pandas")
    code = """
import sys
from labeler.store.lean_sqlite_utils import import_sqlite_utils
import_sqlite_utils()
import sqlite_utils.db
assert "pandas" not in sys.modules and "numpy" not in sys.modules
assert sqlite_utils.db.pd is None and sqlite_utils.db.np is None
import pandas, numpy  # a later import works as usual
assert pandas.DataFrame({"a": [1]}).shape == (1, 1) and numpy.arange(3).sum() == 3
print("ok")
"""
    done = python(code)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_pandas_imported_first_is_left_for_sqlite_utils():
    pytest.importorskip("pandas")
    code = """
import pandas
from labeler.store.lean_sqlite_utils import import_sqlite_utils
import_sqlite_utils()
import sqlite_utils.db
print(sqlite_utils.db.pd is pandas)
"""
    done = python(code)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr


def test_sqlite_utils_recipes_load_on_first_use():
    """`sqlite_utils.recipes` exists once the store imported sqlite_utils; its code (and dateutil) runs when read."""
    code = """
import sys
from labeler.store.lean_sqlite_utils import import_sqlite_utils
import_sqlite_utils()
import sqlite_utils, sqlite_utils.utils
assert "dateutil" not in sys.modules
assert sqlite_utils.utils.recipes is sys.modules["sqlite_utils.recipes"]
assert sqlite_utils.utils.recipes.parsedate("2020-01-02") == "2020-01-02"
assert "dateutil.parser" in sys.modules
from sqlite_utils import recipes
print(recipes.jsonsplit("1,2", type=int))
"""
    done = python(code)
    assert done.returncode == 0 and done.stdout.strip() == "[1, 2]", done.stderr


def test_workbench_connections_skip_sqlite_utils_plugins(tmp_path):
    code = """
import sys
from labeler.store import Store
store = Store(sys.argv[1], create=True)  # the migrations: sqlite_utils imported
assert "importlib.metadata" not in sys.modules
import sqlite_utils.plugins
assert not sqlite_utils.plugins._plugins_loaded
print(store.db.execute("PRAGMA foreign_keys").fetchone()[0])
"""
    done = python(code, str(tmp_path / "w.db"))
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr


def test_the_shared_modules_load_what_they_use_when_they_use_it(tmp_path):
    """hashlib (OpenSSL) when a text is hashed, the file reader when a scale file is read, no `statistics` at all.

    (`labeler.store.digests` and `.connection` import hashlib and secrets in their functions too, but the
    store package imports `labeler.assignment`, which needs hashlib: `next` and `status` still load it.)
    """
    scale = tmp_path / "two.tsv"
    scale.write_text("0\tno\n1\tyes\nthreshold\t1\n")
    code = """
import sys
import labeler.models, labeler.pace, labeler.scales
print(sorted(n for n in ("hashlib", "_hashlib", "statistics", "labeler.formats.lines") if n in sys.modules))
assert labeler.models.content_hash("x") == "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
print(labeler.scales.load_scale(sys.argv[1]).to_dict()["grades"][1]["label"], "hashlib" in sys.modules)
"""
    done = python(code, str(scale))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "yes True"]


def test_eval_json_of_one_run_loads_what_scoring_needs_only(pooled):
    """Scoring a run reads the snapshot and the rankings: no UI, no tables, no numerics, no run reader,
    no status, assignment or stopping use case (a snapshot's status counts are for `snapshot create`)."""
    pooled("judgments", "add", "1", "d1", "2", "--assessor", "ann")
    pooled("snapshot", "create", "-m", "v1")
    args = ("--db", str(pooled.db), "eval", "--runs", "bm25", "--measures", "AP P@10", "--json")
    loaded, out = modules_after(MAIN, *args)
    assert json.loads(out) == pooled.json(*args[2:-1])
    assert [name for name in (*NUMERICS_AND_UI, "rich", "scipy") if name in loaded] == []
    assert not_to_judge(loaded) == []
    unneeded = ("labeler.workbench.status", "labeler.workbench.assignments", "labeler.workbench.stopping")
    assert [name for name in unneeded if name in loaded] == []

"""Helpers shared by the tests (imported as `support`; fixtures live in conftest.py)."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import sqlite3
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from labeler.cli import cli
from labeler.store import Store
from labeler.workbench.init import init_workbench

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpus"
SHARED = ROOT.parent / "shared"
CONFORMANCE = ROOT / "tests" / "conformance" / "trec_eval"  # NIST's files, with their LICENSE.md


class Cli:
    """Runs `labeler --db DB ...` in-process and keeps stdout and stderr apart."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, expect: int | None = 0):
        result = self.runner.invoke(cli, ["--db", str(self.db), *map(str, args)], catch_exceptions=False)
        if expect is not None:
            assert result.exit_code == expect, (
                f"exit {result.exit_code}\nstdout:{result.stdout}\nstderr:{result.stderr}"
            )
        return result

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)


def dump(db: Path) -> list[str]:
    """The whole database as SQL text: equal dumps mean nothing changed."""
    with sqlite3.connect(db) as conn:
        return list(conn.iterdump())


@functools.cache
def _template() -> Path:
    """An empty workbench with the default scale, made once per test process.

    Creating one runs every migration and fsyncs several times (about 71 ms); a copy of a
    settled file is the same workbench for a test's purposes at a fraction of the cost.
    """
    folder = Path(tempfile.mkdtemp(prefix="labeler-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "template.db"
    init_workbench(path)
    Store(path).close()  # the last connection checkpoints the WAL and removes -wal and -shm
    leftovers = sorted(p.name for p in folder.iterdir() if p != path)
    assert not leftovers, f"the template workbench left {leftovers} behind"
    return path


def new_workbench(path: Path) -> Path:
    """A fresh, empty workbench at `path` (default scale), as `init_workbench(path)` would make it.

    It is a copy of a template made once per session, so every test still owns its file. Use
    `init_workbench` itself where the test is about creating a workbench or needs another scale.
    """
    path = Path(path)
    if path.exists() or any(path.parent.glob(path.name + "-*")):
        raise FileExistsError(f"{path} (or its -wal/-shm) exists: new_workbench only makes new files")
    shutil.copyfile(_template(), path)
    return path


def built_once(tmp_path_factory, name: str, build: Callable[[Path], bytes]) -> bytes:
    """`build(folder)`'s bytes (a workbench file, say), built once per test run under this name.

    Tests copy the bytes instead of building the same data again. The first caller builds into a
    fresh folder and leaves the bytes in the run's base folder; under pytest-xdist every worker has
    its own session, so the bytes go to the folder the workers share (the parent of their
    basetemps), under a lock, and the other workers read what the first one wrote. Where there is
    no `fcntl` (Windows), each worker builds its own.
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            return build(tmp_path_factory.mktemp(name))
        root = root.parent
    else:
        fcntl = None
    shared = root / f"{name}.bytes"
    with open(root / f"{name}.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the worker dies
        if shared.exists():
            return shared.read_bytes()
        data = build(tmp_path_factory.mktemp(name))
        partial = root / f"{name}.partial"
        partial.write_bytes(data)
        partial.replace(shared)
        return data


def trec_run(name: str, rankings: dict[str, list[str]]) -> str:
    """A TREC run file's text: per topic, the units in rank order with descending scores."""
    return "".join(f"{t} Q0 {d} {r} {10 - r} {name}\n" for t, docs in rankings.items() for r, d in enumerate(docs, 1))


_HEARD: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def listening(app) -> Callable:
    """A `message_hook` for `app.run_test` that keeps every notification the app makes (read with `notices`).

    Textual's public test hook sees each message as it is handled; a `Notify` carries its notification. Unlike
    the toasts on screen, the list keeps a notification after it times out.
    """
    from textual.notifications import Notify

    heard: list = []
    _HEARD[app] = heard

    def hook(message) -> None:
        if isinstance(message, Notify):
            heard.append(message.notification)

    return hook


def notices(app) -> list:
    """The notifications `app` made so far, oldest first (the app ran with `message_hook=listening(app)`)."""
    assert app in _HEARD, "run the app with message_hook=listening(app) to read its notifications"
    return _HEARD[app]


async def until(pilot, condition, what: str, tries: int = 1000) -> None:
    """Let the app run until `condition()` holds (a state to wait for, not a guessed delay)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.01)
    assert condition(), f"never: {what}"


async def palette(pilot, command: str) -> None:
    """Run a command palette entry by its name, as an annotator does with ctrl+p, the name and Enter.

    The name goes into the palette's input at once (typing it key by key cost ~2 s a command,
    one search per key), and Enter waits until the palette offers that command first; keys
    sent before the palette had the focus would have reached the judging screen (see
    `answer_prompt`).
    """
    from textual.command import CommandInput, CommandList, CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await until(
        pilot,
        lambda: isinstance(app.screen, CommandPalette) and isinstance(app.focused, CommandInput),
        "the command palette opened",
    )
    app.focused.value = command
    commands = app.screen.query_one(CommandList)

    def offered_first() -> bool:
        if commands.highlighted is None or not commands.option_count:
            return False
        return str(commands.get_option_at_index(commands.highlighted).prompt).startswith(command)

    await until(pilot, offered_first, f"the palette offered {command!r} first")
    await pilot.press("enter")
    await pilot.pause()

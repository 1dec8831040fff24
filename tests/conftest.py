"""Shared fixtures: a fresh workbench, a CLI runner bound to it, and the shared data folders."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from full_workbench import build_full_workbench
from support import CONFORMANCE, Cli, built_once, new_workbench

# Keep compiled modules even where PYTHONDONTWRITEBYTECODE is set (it is on the CI machine): otherwise every
# xdist worker compiles labeler and rewrites the tests again, and every `python -m labeler` a test starts
# compiles labeler from source (about 10 s of CPU per worker). Children still read the caches.
sys.dont_write_bytecode = False

RAM_FOLDER = Path("/dev/shm")
RAM_FOLDER_NEEDS = 2 * 1024**3  # the suite's files at their largest, with room: a 64 MB container /dev/shm is not used


@pytest.hookimpl(tryfirst=True)  # before pytest's own tmp_path plugin reads --basetemp
def pytest_configure(config: pytest.Config) -> None:
    """Put every test's tmp_path on a RAM file system when the machine has one (Linux's /dev/shm).

    A workbench commits with `PRAGMA synchronous = FULL`: every write transaction waits for an
    fsync, about 1 ms on this disk and nothing on tmpfs. The product keeps its durability; only
    where the tests' files live changes. An explicit `--basetemp` wins (to keep and inspect a
    failed test's files); the folder is removed when the session ends.
    """
    if config.option.basetemp is not None or not (RAM_FOLDER.is_dir() and os.access(RAM_FOLDER, os.W_OK)):
        return
    if shutil.disk_usage(RAM_FOLDER).free < RAM_FOLDER_NEEDS:
        return
    folder = tempfile.mkdtemp(prefix="labeler-tests-", dir=RAM_FOLDER)
    config.option.basetemp = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: without xdist there is nothing to size
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker per core this process may run on (its CPU affinity, which a container limits).

    More workers finish a little sooner on an idle machine but cost more CPU in all: each pays its own
    start-up and fixtures, and the UI tests poll longer on shared cores (CONTRIBUTING.md has the figures).
    """
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """An initialised, empty workbench with the default scale (a copy of the session's template)."""
    return new_workbench(tmp_path / "wb.db")


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text) -> Path of a file holding the text (bytes are written as given)."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write


@pytest.fixture
def run_cli(db_path: Path) -> Cli:
    return Cli(db_path)


@pytest.fixture
def conformance() -> Path:
    """trec_eval's own test files, kept in tests/conformance/trec_eval (so every clone runs these tests)."""
    return CONFORMANCE


@pytest.fixture(scope="session")
def full_bytes(tmp_path_factory) -> bytes:
    """The demo workbench with a human judgment, a document change and a retired run: every guarded table has rows.

    Built once per run for the guard and check tests (each takes a copy), also under xdist.
    """
    return built_once(tmp_path_factory, "full", build_full_workbench)


@pytest.fixture(autouse=True)
def current_spellings(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """A test that runs an old spelling without meaning to fails: the suite exercises the current CLI.

    Old spellings keep working for a release (`labeler.cli.common.deprecation`); the tests that check
    they do are marked `deprecated_spelling`. Runs in this process only (a subprocess is not watched).
    """
    if request.node.get_closest_marker("deprecated_spelling"):
        yield
        return
    from labeler.cli.common import deprecation

    used: list[str] = []
    original = deprecation.notice

    def noted(old: str, new: str) -> None:
        used.append(f"{old} -> {new}")
        original(old, new)

    monkeypatch.setattr(deprecation, "notice", noted)
    yield
    assert not used, f"the test ran deprecated spellings (use the new ones, or mark it deprecated_spelling): {used}"

"""An interrupted write leaves nothing behind: SIGTERM unwinds it, and what SIGKILL leaves the next write removes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.output_files import remove_leftovers, write_output

# Writes a little of the output, says so, then waits (on stdin) to be killed mid-write.
WRITER = """
import sys
from labeler.output_files import open_output
with open_output(sys.argv[1]) as handle:
    handle.write("half of it")
    handle.flush()
    print("writing", flush=True)
    sys.stdin.read()
"""


def start_writer(target: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(target)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == "writing\n"  # the temporary file is there and written to
    return writer


def others(folder: Path, target: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p != target)


def test_a_writer_ended_by_sigterm_removes_its_temporary_file(tmp_path):
    target = tmp_path / "log.jsonl"
    writer = start_writer(target)
    (temporary,) = others(tmp_path, target)
    assert temporary.startswith(".log.jsonl.labeler-") and temporary.endswith(".tmp")
    writer.send_signal(signal.SIGTERM)
    writer.communicate(timeout=60)
    assert writer.returncode == -signal.SIGTERM  # it still ends as the signal says
    assert list(tmp_path.iterdir()) == []  # no output, no temporary file


def test_what_a_writer_killed_with_sigkill_left_the_next_write_of_that_output_removes(tmp_path):
    target = tmp_path / "log.jsonl"
    writer = start_writer(target)
    writer.kill()
    writer.communicate(timeout=60)
    (left,) = others(tmp_path, target)
    unrelated = tmp_path / ".other.jsonl.labeler-1-x.tmp"  # another output's: not this write's to remove
    unrelated.write_text("")
    write_output(target, "whole\n")
    assert target.read_text() == "whole\n"
    assert others(tmp_path, target) == [unrelated.name]
    assert left not in others(tmp_path, target)


def test_a_write_under_way_in_a_live_process_keeps_its_file(tmp_path):
    target = tmp_path / "log.jsonl"
    live = tmp_path / f".log.jsonl.labeler-{os.getppid()}-abc.tmp"  # the test runner's parent: alive
    live.write_text("")
    gone = tmp_path / f".log.jsonl.labeler-{dead_pid()}-abc.tmp-journal"
    gone.write_text("")
    assert remove_leftovers(target) == [gone]
    assert live.exists()


def dead_pid() -> int:
    """A pid no process has: one that just ended (and was reaped)."""
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(ended.stdout)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return pid
    pytest.skip("the pid was reused at once")

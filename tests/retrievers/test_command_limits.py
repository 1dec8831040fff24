"""A command retriever or judge is read as it writes, under the reading limits, and stopped with one line.

Each program here writes its pid to a file first, so a test can tell that labeler stopped it (the
process is gone, and it never reached the marker it writes when it ends by itself). Programs that
would run on bound their own lifetime, so a broken labeler fails these tests instead of hanging them.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_no_crash, assert_refused, invoke
from support import ROOT

from labeler.errors import RunFormatError
from labeler.formats.runs import RunReader
from labeler.formats.stream_lines import StreamLines
from labeler.retrievers.command import ResultLines, _read_blocks

LIFETIME = 60  # seconds a program that labeler should stop runs at most by itself


def program(folder: Path, body: str, name: str = "prog.py") -> tuple[str, Path, Path]:
    """A Python program that writes its pid, runs `body`, then marks that it ended by itself; (spec, pid, marker)."""
    pid, ended = folder / f"{name}.pid", folder / f"{name}.ended"
    script = folder / name
    script.write_text(
        "import os, sys, time, signal, json\n"
        f"open({str(pid)!r}, 'w').write(str(os.getpid()))\n"
        f"{body}\n"
        f"open({str(ended)!r}, 'w').write('ended')\n"
    )
    return f"{sys.executable} {shlex.quote(str(script))}", pid, ended


def assert_stopped(pid_file: Path, ended: Path) -> None:
    """The program was started, did not end by itself, and no longer runs."""
    pid = int(pid_file.read_text())
    assert not ended.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def child_env(temp: Path) -> dict[str, str]:
    """The environment of a labeler run as a process: this tree's package, `temp` as the temporary folder."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": path}


def retrieve(db: Path, spec: str, *options: str):
    return invoke(db, ["runs", "retrieve", "--retriever", f"command:{spec}", "--name", "r", *options])


@pytest.fixture
def workbench(hand_cli, db_path, tmp_path, monkeypatch):
    """The hand-made workbench, with an empty folder as the temporary folder (to see that nothing is left)."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr("tempfile.tempdir", str(temp))
    return db_path, temp


def test_yes_is_stopped_at_its_first_line_with_one_line_and_nothing_left(workbench, tmp_path):
    db, temp = workbench
    pid_file = tmp_path / "yes.pid"
    spec = f"sh -c 'echo $$ > {pid_file}; exec yes'"
    env = child_env(temp)
    with Unchanged(db):
        done = subprocess.run(
            [sys.executable, "-m", "labeler", "--db", str(db), "runs", "retrieve", "--retriever", f"command:{spec}"]
            + ["--name", "r"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,  # a labeler that read the whole output would never end: fail, do not hang
        )
    assert done.returncode == 1
    assert done.stderr == f"Error: output of {spec!r}:1: expected 6 fields (topic Q0 id rank score tag), found 1\n"
    assert done.stdout == ""
    assert list(temp.iterdir()) == []
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_an_overlong_line_is_refused_before_it_is_held(workbench, tmp_path):
    db, temp = workbench
    spec, pid, ended = program(tmp_path, f"print('1 Q0 ' + 'd' * (2 << 20), flush=True); time.sleep({LIFETIME})")
    with Unchanged(db):
        result = retrieve(db, spec)
    assert_refused(result, f"output of {spec!r}", 1, "line longer than 1 MiB (pass --max-line-bytes")
    assert_stopped(pid, ended)
    assert list(temp.iterdir()) == []


def test_a_raised_line_limit_is_applied_to_the_output(workbench, tmp_path):
    db, _ = workbench
    spec, pid, ended = program(tmp_path, "print('1 Q0 d1 1 1.0 a-long-tag')")
    with Unchanged(db):
        assert_refused(retrieve(db, spec, "--max-line-bytes", "16"), f"output of {spec!r}", 1, "longer than 16 bytes")


def test_a_bad_line_after_good_ones_stops_the_program_there(workbench, tmp_path):
    db, _ = workbench
    good = "".join(f"print('1 Q0 d{i} {i} {1 / i} t'); " for i in range(1, 4))
    spec, pid, ended = program(tmp_path, f"{good}print('1 Q0 d4 x', flush=True); time.sleep({LIFETIME})")
    with Unchanged(db):
        result = retrieve(db, spec)
    assert_refused(result, f"output of {spec!r}", 4, "expected 6 fields")
    assert_stopped(pid, ended)


def test_output_past_the_limit_stops_the_program(workbench, tmp_path):
    db, _ = workbench
    body = (
        f"deadline = time.time() + {LIFETIME}\ni = 0\n"
        "while time.time() < deadline:\n    i += 1; print(f'1 Q0 d{i} 1 1.0 t')"
    )
    spec, pid, ended = program(tmp_path, body)
    with Unchanged(db):
        result = retrieve(db, spec, "--max-output-bytes", "64K")
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: output of {spec!r}:")
    assert "output longer than 64 KiB (pass --max-output-bytes to raise the limit)" in result.stderr
    assert_stopped(pid, ended)


def test_a_failing_command_shows_only_the_last_lines_of_a_huge_stderr(workbench, tmp_path):
    db, _ = workbench
    body = (
        "line = 'noise ' * 100 + '\\n'\n"
        "for _ in range(50_000_000 // len(line)): sys.stderr.write(line)\n"
        "sys.stderr.write('\\x1b]2;pwned\\x07 the last words\\n'); sys.exit(3)"
    )
    spec, pid, ended = program(tmp_path, body)
    with Unchanged(db):
        result = retrieve(db, spec)
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    line = result.stderr
    assert line.startswith(f"Error: retriever command {spec!r} failed with exit code 3; it said: ")
    assert line.endswith("\\x1b]2;pwned\\x07 the last words\n")  # the last line, made inert
    assert "noise" in line and len(line) < 6000  # a few of the lines before it, not 50 MB


def test_a_command_that_ignores_sigterm_is_killed_at_its_time_limit(workbench, tmp_path):
    db, _ = workbench
    body = (
        f"signal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('1 Q0 d1 1 1.0 t', flush=True)\ntime.sleep({LIFETIME})"
    )
    spec, pid, ended = program(tmp_path, body)
    with Unchanged(db):
        result = retrieve(db, spec, "--timeout", "0.5")
    assert_no_crash(result)
    assert result.stderr == (
        f"Error: retriever command {spec!r} did not finish within 0.5 seconds: stopped "
        "(pass --timeout to give it more time)\n"
    )
    assert_stopped(pid, ended)


def test_a_command_that_ignores_sigterm_is_killed_at_a_bad_line(workbench, tmp_path):
    db, _ = workbench
    body = f"signal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint('nonsense', flush=True)\ntime.sleep({LIFETIME})"
    spec, pid, ended = program(tmp_path, body)
    with Unchanged(db):
        assert_refused(retrieve(db, spec), f"output of {spec!r}", 1, "expected 6 fields")
    assert_stopped(pid, ended)


@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        *(("--timeout", v, "must be a number above 0 and at most 604800") for v in ["0", "-1", "nan", "inf", "604801"]),
        ("--max-output-bytes", "65G", "must be a size from 1 byte to 64G"),
        ("--max-line-bytes", "257M", "must be a size from 1 byte to 256M"),
    ],
)
def test_a_limit_out_of_range_is_a_bad_argument(workbench, option, value, reason):
    db, _ = workbench
    with Unchanged(db):
        assert_bad_argument(retrieve(db, "yes", option, value), option, reason)


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGHUP, 128 + signal.SIGHUP), (signal.SIGINT, 1)],
)
def test_a_signal_to_labeler_stops_the_program_and_leaves_nothing(workbench, tmp_path, signum, code):
    db, temp = workbench
    ready = tmp_path / "ready"
    os.mkfifo(ready)  # the program says it runs by writing to it; the test waits on it, without polling
    spec, pid, ended = program(tmp_path, f"open({str(ready)!r}, 'w').write('up')\ntime.sleep({LIFETIME})")
    args = [sys.executable, "-m", "labeler", "--db", str(db), "runs", "retrieve", "--retriever", f"command:{spec}"]
    waiting = os.open(ready, os.O_RDONLY | os.O_NONBLOCK)
    with Unchanged(db):
        labeler = subprocess.Popen([*args, "--name", "r"], env=child_env(temp), stderr=subprocess.PIPE, text=True)
        try:
            readable, _, _ = select.select([waiting], [], [], 120)
            assert readable and labeler.poll() is None
            labeler.send_signal(signum)  # to labeler alone, as `kill` sends it
            _, said = labeler.communicate(timeout=120)
        finally:
            os.close(waiting)
            if labeler.poll() is None:
                labeler.kill()
                labeler.communicate()
    assert labeler.returncode == code
    assert "Traceback" not in said
    assert_stopped(pid, ended)
    assert list(temp.iterdir()) == []


def test_a_duplicate_after_comments_and_blank_lines_names_its_own_line():
    output = b"1 Q0 d1 1 1.0 t\n# a comment\n\n1 Q0 d2 2 0.5 t\n2 Q0 d1 1 1.0 t\n\n1 Q0 d3 3 0.4 t\n1 Q0 d2 4 0.3 t\n"
    read, write = os.pipe()
    os.write(write, output)
    os.close(write)
    with os.fdopen(read, "rb", buffering=0) as stream:
        entries = ResultLines()
        lines = StreamLines(stream, RunFormatError, max_bytes=1 << 20, rewind_once=True, observe=entries.observe)
        with pytest.raises(RunFormatError) as caught:
            _read_blocks(RunReader("output", lines=lines), entries)
    assert (caught.value.line, caught.value.reason) == (8, "duplicate id 'd2' in the ranking of topic '1'")


# -- the same limits for a command judge ---------------------------------------------------------------------


@pytest.fixture
def demo(tmp_path, tmp_path_factory, monkeypatch):
    from full_workbench import copy_to
    from support import built_once

    from labeler.workbench.demo import build_demo

    def _demo(folder: Path) -> bytes:
        return build_demo(folder, lambda *_: None).db.read_bytes()

    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temp))
    return copy_to(built_once(tmp_path_factory, "demo-prelabel", _demo), tmp_path / "wb"), temp


ANSWER = "json.dumps({'topic': p['topic'], 'unit': p['unit'], 'grade': 1})"
JUDGE = "for line in sys.stdin:\n    p = json.loads(line)\n    {each}\n"


def prelabel(db: Path, spec: str, *options: str):
    return invoke(db, ["prelabel", "--judge", f"command:{spec}", "--model", "stub", *options])


def test_a_judge_printing_yes_is_stopped_at_its_first_line(demo, tmp_path):
    db, temp = demo
    spec, pid, ended = program(tmp_path, "os.execvp('yes', ['yes'])")
    with Unchanged(db):
        result = prelabel(db, spec)
    assert_refused(result, f"output of {spec!r} (batch 1)", 1, "invalid JSON")
    assert_stopped(pid, ended)
    assert list(temp.iterdir()) == []


def test_a_judge_answer_after_good_ones_that_is_bad_stops_the_judge(demo, tmp_path):
    db, _ = demo
    each = f"print({ANSWER} if n < 2 else 'not json', flush=True)\n    n += 1\n    n > 2 and time.sleep({LIFETIME})"
    spec, pid, ended = program(tmp_path, "n = 0\n" + JUDGE.format(each=each))
    with Unchanged(db):
        result = prelabel(db, spec, "--batch", "10")
    assert_refused(result, f"output of {spec!r} (batch 1)", 3, "invalid JSON")
    assert_stopped(pid, ended)


def test_a_judge_with_an_overlong_answer_is_refused(demo, tmp_path):
    db, _ = demo
    spec, pid, ended = program(tmp_path, f"print('x' * 4096, flush=True); time.sleep({LIFETIME})")
    with Unchanged(db):
        result = prelabel(db, spec, "--max-line-bytes", "1K")
    assert_refused(result, f"output of {spec!r} (batch 1)", 1, "line longer than 1 KiB (pass --max-line-bytes")
    assert_stopped(pid, ended)


def test_a_failing_judge_shows_only_the_last_lines_of_its_stderr(demo, tmp_path):
    db, _ = demo
    body = "for i in range(100_000): sys.stderr.write(f'noise {i}\\n')\nsys.exit(4)"
    spec, _, _ = program(tmp_path, body)
    with Unchanged(db):
        result = prelabel(db, spec)
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    said = result.stderr.split("; it said: ")[1].rstrip("\n").split(" | ")
    assert said == [f"noise {i}" for i in range(99_980, 100_000)]  # the last 20 lines


def test_a_judge_that_ignores_sigterm_is_killed_at_its_time_limit(demo, tmp_path):
    db, _ = demo
    body = f"signal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep({LIFETIME})"
    spec, pid, ended = program(tmp_path, body)
    with Unchanged(db):
        result = prelabel(db, spec, "--timeout", "0.2")
    assert_no_crash(result)
    assert result.stderr.startswith(f"Error: judge command {spec!r} did not finish within 0.2 seconds: stopped")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert_stopped(pid, ended)


def test_a_judge_within_its_limits_still_labels(demo, tmp_path):
    db, _ = demo
    spec, _, _ = program(tmp_path, JUDGE.format(each=f"print({ANSWER})"))
    result = prelabel(db, spec, "--timeout", "60", "--max-output-bytes", "1M", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["labelled"] > 0

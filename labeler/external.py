"""Running a user's program (`command:'CMD'`), bounded: its words split, its output read as it is written.

Retrievers and judges both take any program as a plug-in. They differ in what goes in and
what comes out, not in how a program is started, watched, stopped or reported, so that part
lives here: one parse (shlex, a missing command refused with an example) and one `Program`.

A program is a trust boundary like a file, and an unbounded one: it may print forever, never
end, or fill its stderr. So a `Program` never spools its output to disk: the caller reads its
stdout through a pipe as the program writes (under the reading limits, see
`labeler.formats.stream_lines`), its stdin is fed by a thread and its stderr drained by
another, which keeps only the last lines (`STDERR_LINES`, `STDERR_BYTES`). The program runs
in its own process group; leaving the `with` block on any path (the end, a bad line, a limit,
an exception, the time limit of `ProgramLimits.timeout`, SIGINT, SIGTERM or SIGHUP sent to
labeler) stops the whole group: SIGTERM, then SIGKILL after `GRACE_SECONDS`. A signal sent to
labeler is acted on once the group is stopped: by default labeler then exits with status 128 + its
number, closing the workbench on the way out. Only SIGKILL,
which no process can catch, leaves the program running; its stdout is then closed, so it
ends at its next write (SIGPIPE) at the latest. Nothing is written to disk, so nothing is left.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import shlex
import signal
import subprocess
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import IO, Any

from labeler.errors import LabelerError, argument_hint
from labeler.inert import visible_line

PREFIX = "command:"
STDERR_LINES = 20  # the last lines of a failing program's stderr that are shown
STDERR_BYTES = 4096  # ... and at most this many bytes of them
GRACE_SECONDS = 2.0  # between SIGTERM and SIGKILL
MAX_TIMEOUT = 7 * 24 * 3600.0  # a week: longer than any retriever needs, short enough to be a typo's bound
DEFAULT_MAX_OUTPUT_BYTES = 1 << 30
HIGHEST_OUTPUT_BYTES = 1 << 36  # 64 GiB: far past any run or batch of answers (held in memory, several times over)
STOP_SIGNALS = ("SIGTERM", "SIGHUP")  # SIGINT already raises KeyboardInterrupt
PIPE_CHUNK = 1 << 16


@dataclass(frozen=True)
class ProgramLimits:
    """How much one run of a program may print (stdout) and how long it may take (None: no limit)."""

    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    timeout: float | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.max_output_bytes <= HIGHEST_OUTPUT_BYTES:
            raise ValueError(f"max_output_bytes must be from 1 to {HIGHEST_OUTPUT_BYTES}")
        if self.timeout is not None and not 0 < self.timeout <= MAX_TIMEOUT:
            raise ValueError(f"timeout must be more than 0 and at most {MAX_TIMEOUT:g} seconds")


_limits: contextvars.ContextVar[ProgramLimits] = contextvars.ContextVar("program_limits", default=ProgramLimits())  # noqa: B039 (frozen)


def current_program_limits() -> ProgramLimits:
    return _limits.get()


@contextlib.contextmanager
def program_limits(limits: ProgramLimits) -> Iterator[ProgramLimits]:
    """Every `Program` started inside the block uses `limits` (the CLI sets them once per command)."""
    token = _limits.set(limits)
    try:
        yield limits
    finally:
        _limits.reset(token)


def command_argv(command: str, what: str, example: str) -> list[str]:
    """`command` split as a shell would, without running a shell; `what` ("judge") and `example` word the refusals."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise LabelerError(f"{what} command {command!r} cannot be parsed: {exc}") from None
    if not argv:
        raise LabelerError(f"{what} '{PREFIX}' needs a command, e.g. {PREFIX}'{example}'")
    return argv


class _Signalled(BaseException):
    """A stop signal sent to labeler while a program ran: unwinds to `Program.__exit__`, which stops the group."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class StderrTail:
    """The last bytes a program wrote to stderr, read by a thread so the program never blocks on a full pipe."""

    def __init__(self, pipe: IO[bytes]):
        self.pipe = pipe
        self.kept = b""
        self.thread = threading.Thread(target=self._drain, name="program-stderr", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := self.pipe.read(PIPE_CHUNK):
                self.kept = (self.kept + chunk)[-STDERR_BYTES * 2 :]  # room to cut at a line start

    def said(self) -> str:
        """The last lines (at most `STDERR_LINES` and `STDERR_BYTES`), each made inert, joined with ` | `."""
        self.thread.join(GRACE_SECONDS)
        text = self.kept[-STDERR_BYTES:].decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(self.kept) > STDERR_BYTES and lines:
            lines = lines[1:] or lines  # the first is probably cut
        return " | ".join(visible_line(line) for line in lines[-STDERR_LINES:])


class Program:
    """A user's program running under `limits`: read `stdout` inside the `with` block, then call `finish`."""

    def __init__(
        self,
        argv: list[str],
        command: str,
        what: str,
        *,
        stdin: bytes,
        env: Mapping[str, str] | None = None,
        limits: ProgramLimits | None = None,
    ):
        self.argv = argv
        self.command = command
        self.what = what
        self.stdin = stdin
        self.env = env
        self.limits = limits or current_program_limits()
        self.expired = False
        self._lock = threading.Lock()
        self._handlers: dict[int, Any] = {}
        self._timer: threading.Timer | None = None

    def __enter__(self) -> Program:
        try:
            # bufsize 0: a read returns what the program has written so far, not a full buffer
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as exc:
            raise LabelerError(f"{self.what} command {self.command!r} could not start: {exc.strerror or exc}") from None
        assert self.process.stdout is not None and self.process.stderr is not None
        self.stdout: IO[bytes] = self.process.stdout
        self.stderr = StderrTail(self.process.stderr)
        self._feeder = threading.Thread(target=self._feed, name="program-stdin", daemon=True)
        self._feeder.start()
        if self.limits.timeout is not None:
            self._timer = threading.Timer(self.limits.timeout, self._expire)
            self._timer.daemon = True
            self._timer.start()
        self._catch_signals()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        handlers = dict(self._handlers)
        try:
            self.stop()
        finally:
            self._release_signals()
        if isinstance(error, _Signalled):
            self._obey(error.signum, handlers.get(error.signum))

    def _obey(self, signum: int, handler: Any) -> None:
        """Act on a signal labeler was sent while the program ran, now that the program is stopped.

        With the default action, labeler exits with status 128 + the signal's number (as a shell reports a
        process the signal ended), unwinding as it goes, so the workbench is closed properly; a handler
        labeler had installed is called.
        """
        if callable(handler):
            handler(signum, None)
        elif handler == signal.SIG_DFL:
            raise SystemExit(128 + signum)
        raise LabelerError(f"{self.what} command {self.command!r} stopped: labeler was sent {_name(signum)}")

    def _feed(self) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        with contextlib.suppress(OSError, ValueError):  # a program that does not read its input, or has ended
            stdin.write(self.stdin)
        with contextlib.suppress(OSError, ValueError):
            stdin.close()

    def _catch_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for name in STOP_SIGNALS:
            signum = getattr(signal, name, None)
            # a signal labeler ignores (SIGHUP under nohup) stays ignored
            if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
                self._handlers[signum] = signal.signal(signum, _raise_signalled)

    def _release_signals(self) -> None:
        for signum, handler in self._handlers.items():
            signal.signal(signum, handler)
        self._handlers.clear()

    def _expire(self) -> None:
        self.expired = True
        self._end_group()

    def stop(self) -> None:
        """End the program's process group if it still runs, and close the pipes (labeler's own thread only)."""
        if self._timer is not None:
            self._timer.cancel()
        self._end_group()
        self.stderr.thread.join(GRACE_SECONDS)  # at its end already, unless a child of the program holds it
        for pipe in (self.process.stdout, self.process.stdin, self.process.stderr):
            with contextlib.suppress(OSError, ValueError):
                if pipe is not None:
                    pipe.close()

    def _end_group(self) -> None:
        """SIGTERM to the group, then SIGKILL after the grace period; the pipes stay open, for the reader."""
        with self._lock:
            if self.process.poll() is None:
                self._signal_group(signal.SIGTERM)
                try:
                    self.process.wait(GRACE_SECONDS)
                except subprocess.TimeoutExpired:
                    self._signal_group(signal.SIGKILL)
                    self.process.wait()

    def _signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signum)

    def finish(self) -> None:
        """After the end of its output: wait for the program to end; a failure or the time limit is a `LabelerError`.

        Without a time limit this waits as long as the program runs; with one, the timer stops it.
        """
        self.process.wait()
        self.check()

    def check(self) -> None:
        """Raise the program's own failure, if it has one: it ran out of time, or it ended with an exit code not 0.

        Called on a bad line too: a program that crashed mid-line is better reported by its exit code and
        stderr than by the half line it left.
        """
        if self.expired:
            raise LabelerError(
                f"{self.what} command {self.command!r} did not finish within {self.limits.timeout:g} seconds: stopped",
                hints=argument_hint("timeout", why="to give it more time"),
            )
        code = self.process.poll()
        if code is None or code == 0:
            return
        said = self.stderr.said()
        said = f"; it said: {said}" if said else ""
        how = f"was stopped by {_name(-code)}" if code < 0 else f"failed with exit code {code}"
        raise LabelerError(f"{self.what} command {self.command!r} {how}{said}")

    def check_ended(self) -> None:
        """`check`, for a program whose output has ended: give it the grace period to end before judging."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(GRACE_SECONDS)
        self.check()


def _raise_signalled(signum: int, frame: FrameType | None) -> None:
    raise _Signalled(signum)


def _name(signum: int) -> str:
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"

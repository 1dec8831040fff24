"""Running a user's program (`command:'CMD'`): its words split, its start and its failure said once.

Retrievers and judges both take any program as a plug-in. They differ in what goes in and
what comes out, not in how a program is started or how its failure is reported, so that
part lives here: one parse (shlex, a missing command refused with an example), one run, and
one error naming the command, its exit code and the last lines it wrote to stderr.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Mapping
from typing import IO

from labeler.errors import LabelerError

PREFIX = "command:"
STDERR_LINES = 5


def command_argv(command: str, what: str, example: str) -> list[str]:
    """`command` split as a shell would, without running a shell; `what` ("judge") and `example` word the refusals."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise LabelerError(f"{what} command {command!r} cannot be parsed: {exc}") from None
    if not argv:
        raise LabelerError(f"{what} '{PREFIX}' needs a command, e.g. {PREFIX}'{example}'")
    return argv


def run_command(
    argv: list[str],
    command: str,
    what: str,
    *,
    stdin: bytes,
    stdout: int | IO[bytes] = subprocess.PIPE,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run the program to its end; a start that fails or an exit code other than 0 is a `LabelerError` naming it."""
    try:
        finished = subprocess.run(argv, input=stdin, stdout=stdout, stderr=subprocess.PIPE, env=env, check=False)
    except OSError as exc:
        raise LabelerError(f"{what} command {command!r} could not start: {exc.strerror or exc}") from None
    if finished.returncode != 0:
        tail = finished.stderr.decode("utf-8", "replace").strip().splitlines()[-STDERR_LINES:]
        said = ("; it said: " + " | ".join(tail)) if tail else ""
        raise LabelerError(f"{what} command {command!r} failed with exit code {finished.returncode}{said}")
    return finished

"""The limits of the commands that run a user's program (`command:'CMD'`): line, output and time.

A program's output is read like a file, so it has a file's line limit (`--max-line-bytes`,
the same option and variable as the importing commands), and, since a stream has no size of
its own, a total (`--max-output-bytes`); `--timeout` bounds how long one run may take. The
limits themselves live in `labeler.formats.lines` and `labeler.external`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from labeler.cli.common.ranges import Real
from labeler.cli.common.reading import ByteSize, add_options, max_line_bytes_option, short_size
from labeler.external import (
    DEFAULT_MAX_OUTPUT_BYTES,
    HIGHEST_OUTPUT_BYTES,
    MAX_TIMEOUT,
    ProgramLimits,
    program_limits,
)
from labeler.formats.lines import ReadLimits, reading_limits


def program_options(command: Callable) -> Callable:
    """Add `--max-line-bytes`, `--max-output-bytes` and `--timeout`, and apply them while the command runs.

    Put it right under the `@group.command(...)` line, so it wraps the other decorators.
    """

    @functools.wraps(command)
    def run_with_limits(
        *args: Any, max_line_bytes: int, max_output_bytes: int, timeout: float | None, **kwargs: Any
    ) -> Any:
        with (
            reading_limits(ReadLimits(max_line_bytes=max_line_bytes)),
            program_limits(ProgramLimits(max_output_bytes, timeout)),
        ):
            return command(*args, **kwargs)

    options = [
        max_line_bytes_option("a line of the program's output"),
        click.option(
            "--max-output-bytes",
            type=ByteSize(HIGHEST_OUTPUT_BYTES),
            default=DEFAULT_MAX_OUTPUT_BYTES,
            envvar="LABELER_MAX_OUTPUT_BYTES",
            show_default=short_size(DEFAULT_MAX_OUTPUT_BYTES),
            help="Stop the program when its output grows past this (or set LABELER_MAX_OUTPUT_BYTES).",
        ),
        click.option(
            "--timeout",
            type=Real(0, MAX_TIMEOUT, low_open=True),
            default=None,
            metavar="SECONDS",
            help="Stop the program when one run of it takes longer than this (default: no limit).",
        ),
    ]
    return add_options(run_with_limits, command, options)

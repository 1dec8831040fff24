"""The reading limits of the commands that read a user's file: `--max-line-bytes` and `--max-gzip-*`.

The limits themselves live in `labeler.formats.lines`; these options set them for
the one command they are given to (or from LABELER_MAX_* in the environment).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, NoReturn

import click

from labeler.cli.common.ranges import Whole
from labeler.errors import BadArgumentError
from labeler.formats.lines import HIGHEST_LIMITS, ReadLimits, reading_limits

UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
SIZE = re.compile(r"(\d+)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE)


class ByteSize(click.ParamType):
    """A size in bytes up to `high`: 1048576, 512K, 4M, 2G (binary units; KiB, MB and the like also read).

    A size that is not one, or out of range, is `Error: --flag: reason` (exit 2), as every number
    the CLI reads (`labeler.cli.common.ranges`).
    """

    name = "size"

    def __init__(self, high: int) -> None:
        self.min = 1
        self.max = high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            size = value
        else:
            match = SIZE.fullmatch(str(value).strip())
            if not match:
                self._refuse(f"{value!r} is not a size: give bytes, or a number with K, M or G (like 4M)", param)
            size = int(match.group(1)) * UNITS[match.group(2).lower()]
        if not self.min <= size <= self.max:
            self._refuse(f"must be a size from 1 byte to {short_size(self.max)}, not {value!r}", param)
        return size

    def _refuse(self, reason: str, param: click.Parameter | None) -> NoReturn:
        flag = max(param.opts, key=len) if isinstance(param, click.Option) else "size"
        raise BadArgumentError(reason, argument=flag)


DEFAULTS = ReadLimits()


def short_size(size: int) -> str:
    """1048576 -> "1M": a default shown as one would type it."""
    for letter in "TGMK":
        if size % UNITS[letter.lower()] == 0:
            return f"{size // UNITS[letter.lower()]}{letter}"
    return str(size)


def reading_options(command: Callable) -> Callable:
    """Add the reading-limit options to an importing command, and apply them while it runs.

    Put it right under the `@group.command(...)` line, so it wraps the other decorators.
    """

    @functools.wraps(command)
    def run_with_limits(
        *args: Any, max_line_bytes: int, max_gzip_ratio: int, max_gzip_bytes: int, **kwargs: Any
    ) -> Any:
        with reading_limits(ReadLimits(max_line_bytes, max_gzip_ratio, max_gzip_bytes)):
            return command(*args, **kwargs)

    options = [
        max_line_bytes_option("a line"),
        click.option(
            "--max-gzip-ratio",
            type=Whole(1, HIGHEST_LIMITS["max_gzip_ratio"]),
            default=DEFAULTS.max_gzip_ratio,
            envvar="LABELER_MAX_GZIP_RATIO",
            show_default=True,
            metavar="N",
            help="Refuse gzip data expanding more than this many times its compressed size.",
        ),
        click.option(
            "--max-gzip-bytes",
            type=ByteSize(HIGHEST_LIMITS["max_gzip_bytes"]),
            default=DEFAULTS.max_gzip_bytes,
            envvar="LABELER_MAX_GZIP_BYTES",
            show_default=short_size(DEFAULTS.max_gzip_bytes),
            help="Refuse gzip data expanding to more than this.",
        ),
    ]
    return add_options(run_with_limits, command, options)


def max_line_bytes_option(what: str) -> Any:
    """`--max-line-bytes`: one option, one variable, for every command that reads a user's lines; `what` says whose."""
    return click.option(
        "--max-line-bytes",
        type=ByteSize(HIGHEST_LIMITS["max_line_bytes"]),
        default=DEFAULTS.max_line_bytes,
        envvar="LABELER_MAX_LINE_BYTES",
        show_default=short_size(DEFAULTS.max_line_bytes),
        help=f"Refuse {what} longer than this (or set LABELER_MAX_LINE_BYTES).",
    )


def add_options(wrapper: Callable, command: Callable, options: list[Any]) -> Callable:
    """`wrapper` (around `command`) taking the command's options, then `options`."""
    # Listed after the command's own options in --help: click shows its parameter list reversed.
    holder: Any = lambda: None  # noqa: E731
    for option in reversed(options):
        option(holder)
    wrapper.__click_params__ = holder.__click_params__ + getattr(command, "__click_params__", [])  # type: ignore[attr-defined]
    return wrapper

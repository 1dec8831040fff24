"""The range of every number the CLI reads: a value outside it is one line, `Error: --flag: reason`, exit 2.

Each numeric option is typed `Whole(low, high)` or `Real(low, high)` (click's `IntRange` and
`FloatRange`, with both ends given): a depth of 10**30, a lease of 1e12 minutes or a seed SQLite
cannot store is refused as the option is read, before anything is opened or written, instead of
failing deep inside (a traceback, or an integer SQLite cannot hold). NaN and infinity are refused
too (click's own `FloatRange` lets NaN through, as no comparison with it is true).
`tests/cli/test_option_ranges.py` walks every command and fails on a numeric option without both
ends, so a new one cannot forget.

The bounds are generous limits of sanity, not policy: the largest value anyone means, with room.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

import click

from labeler.errors import BadArgumentError

MAX_DEPTH = 1_000_000
"""Ranks per topic (a pool's depth, a cutoff, a run's depth): a million results per topic."""
MAX_SEED = 2**63 - 1
"""Seeds are recorded in the workbench: the largest integer SQLite stores."""
MAX_COUNT = 1_000_000_000
"""Rows to list (`--limit`): more than any workbench holds."""
MAX_BOOTSTRAP = 100_000
"""Bootstrap resamples: a hundred times the usual thousand."""
MAX_WINDOW = 1_000_000
"""Words (or sentences) in a chunking window."""
MAX_LEASE_MINUTES = 30 * 24 * 60
"""A claim's lease: thirty days."""


def _name(param: click.Parameter | None) -> str | None:
    """The option's longest flag (`--depth`), which the error line starts with; None for an argument."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return None


def _plain(bound: Any) -> str:
    """A bound as a person writes it: `1000000000`, not `1000000000.0` or `1e9`; `0.5` as it is."""
    if isinstance(bound, float) and bound.is_integer():
        return str(int(bound))
    return str(bound)


class _Bounded:
    """The conversion shared by `Whole` and `Real`: parse, refuse what is not finite, check both ends."""

    min: Any
    max: Any
    min_open: bool
    max_open: bool
    number_words: str

    def _number(self, value: Any) -> Any:
        raise NotImplementedError

    def span(self) -> str:
        """The range in words: `from 1 to 1000000`, `above 0 and at most 43200`."""
        low_end, high_end = _plain(self.min), _plain(self.max)
        if not self.min_open and not self.max_open:
            return f"from {low_end} to {high_end}"
        low = f"above {low_end}" if self.min_open else f"at least {low_end}"
        high = f"below {high_end}" if self.max_open else f"at most {high_end}"
        return f"{low} and {high}"

    def refuse(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> NoReturn:
        shown = repr(value if isinstance(value, str) else str(value))
        if len(shown) > 40:
            shown = shown[:37] + "..."
        reason = f"must be {self.number_words} {self.span()}, not {shown}"
        name = _name(param)
        if name is None:
            raise click.BadParameter(reason, ctx=ctx, param=param)
        raise BadArgumentError(reason, argument=name)

    def within(self, number: Any) -> bool:
        above = number > self.min if self.min_open else number >= self.min
        below = number < self.max if self.max_open else number <= self.max
        return bool(above and below)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            number = self._number(value)
        except (ValueError, OverflowError):
            self.refuse(value, param, ctx)
        if not self.within(number):
            self.refuse(value, param, ctx)
        return number


class Whole(_Bounded, click.IntRange):
    """A whole number in `[low, high]`."""

    number_words = "a whole number"

    def __init__(self, low: int, high: int) -> None:
        click.IntRange.__init__(self, min=low, max=high)

    def _number(self, value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError(value)
        return value if isinstance(value, int) else int(str(value).strip())


class Real(_Bounded, click.FloatRange):
    """A finite number between `low` and `high` (either end open when asked)."""

    number_words = "a number"

    def __init__(self, low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> None:
        click.FloatRange.__init__(self, min=low, max=high, min_open=low_open, max_open=high_open)

    def _number(self, value: Any) -> float:
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(value)
        return number


DEPTH = Whole(1, MAX_DEPTH)
SEED = Whole(0, MAX_SEED)
LIMIT = Whole(1, MAX_COUNT)

"""The judging pace: the median active time per judgment, as judgments per hour.

A rate over a window (judgments / active time) jumps with every quick key press
(200/h to 16,705/h over a few keys); the median of the last `PACE_WINDOW` timed
judgments moves only when the assessor's usual time does, and one outlier (a key
pressed by accident, a coffee break) barely moves it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

PACE_WINDOW = 50
DEFAULT_PER_HOUR = 120.0  # 30 s a judgment: the estimate's pace before anything is timed


@dataclass(frozen=True)
class Pace:
    """A pace and where it comes from: `judgments` timed judgments (0: the default pace)."""

    per_hour: float
    judgments: int

    @property
    def measured(self) -> bool:
        return self.judgments > 0

    def describe(self) -> str:
        """How an estimate names its pace, e.g. `at 240/h, the median of the last 50 timed judgments`."""
        if not self.measured:
            return f"at the default pace of {self.per_hour:g}/h: no judgments timed yet"
        if self.judgments == 1:
            return f"at {self.per_hour:g}/h, the time of the only timed judgment"
        return f"at {self.per_hour:g}/h, the median of the last {self.judgments} timed judgments"


def _median(values: list[int]) -> float:
    """`statistics.median` of positive integers, to the bit (importing `statistics` costs fractions and decimal)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def median_per_hour(active_ms: Iterable[int]) -> float | None:
    """Judgments per hour at the median active time of `active_ms` (None when nothing was timed)."""
    times = [ms for ms in active_ms if ms and ms > 0]
    if not times:
        return None
    return round(3_600_000 / _median(times), 1)


def pace(recent_active_ms: Iterable[int]) -> Pace:
    """The pace over the most recent timed judgments (newest first), else the default pace."""
    times = [ms for ms in recent_active_ms if ms and ms > 0][:PACE_WINDOW]
    per_hour = median_per_hour(times)
    return Pace(per_hour, len(times)) if per_hour else Pace(DEFAULT_PER_HOUR, 0)

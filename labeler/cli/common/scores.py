"""Lines shared by the commands that print scores of runs (`coverage`, `compare`)."""

from __future__ import annotations

from typing import Any

from labeler.cli.common.printing import info, retired_note


def fixed(value, digits: int = 4) -> str:
    """The value with `digits` places, `-` for None."""
    return "-" if value is None else f"{value:.{digits}f}"


def reopened_note(reopened: dict[str, dict[str, Any]]) -> None:
    """Name the reopened topics left out of the scored ones, with what reopened them."""
    if reopened:
        info(
            "Reopened, left out (their latest pool has unjudged units): "
            + ", ".join(f"{t} by {r['pool']} ({r['unjudged']} unjudged)" for t, r in reopened.items())
            + "."
        )


def not_scored_note(unit: str, runs_not_scored: list[str], runs_retired: list[str]) -> None:
    """The runs a default run set left out: retired ones, and those that rank other units."""
    retired_note(runs_retired)
    if runs_not_scored:
        info(
            f"Not scored on {unit} labels (they rank other units): {', '.join(runs_not_scored)}; "
            "see them at document level with --unit doc."
        )

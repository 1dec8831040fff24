"""A model's label of one pair, as the log holds it (read with `labeler.workbench.read_labels`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelLabel:
    """What one model says of one (topic, unit) pair: its grade and, if it gave them, its probability per grade."""

    model: str
    grade: int
    probs: dict[int, float] | None = None

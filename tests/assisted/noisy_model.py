"""A simulated model judge with a known, documented noise, for issue 17's tests.

The model sees the true (human, e.g. NIST) grade and reports it moved by one grade with
probability `moved` (0.3 by default): up or down with equal chance, towards the only neighbour
at either end of the scale. So the true confusion P(model = m | human = h) is known exactly
(`true_confusion`). The probabilities it states are a fixed, deliberately miscalibrated belief
per reported grade (`STATED`: 0.8 on the grade it reports, the rest on its neighbours), so a
calibrator has something to correct: the stated 0.8 is right only 70% of the time.

Deterministic for a seed: each pair's draw comes from its own hash, so the model's label of a
pair does not depend on which other pairs were asked.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path

MOVED = 0.3


def stated_probs(grade: int, grades: Sequence[int], confidence: float = 0.8) -> dict[int, float]:
    """The model's stated probabilities when it reports `grade`: `confidence` on it, the rest on its neighbours."""
    neighbours = [g for g in grades if abs(g - grade) == 1]
    probs = {g: 0.0 for g in grades}
    probs[grade] = confidence if neighbours else 1.0
    for g in neighbours:
        probs[g] = (1 - confidence) / len(neighbours)
    return probs


def _uniform(seed: int, key: Hashable, salt: str) -> float:
    digest = hashlib.sha256(f"{seed}\0{salt}\0{key!r}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def model_grade(true: int, grades: Sequence[int], *, seed: int, key: Hashable, moved: float = MOVED) -> int:
    """The simulated model's grade for a pair whose true grade is `true`."""
    if _uniform(seed, key, "move") >= moved:
        return true
    neighbours = [g for g in grades if abs(g - true) == 1]
    if not neighbours:
        return true
    return neighbours[0] if len(neighbours) == 1 or _uniform(seed, key, "side") < 0.5 else neighbours[1]


def noisy_model(
    labels: Mapping[Hashable, int], grades: Sequence[int], *, seed: int = 0, moved: float = MOVED
) -> dict[Hashable, tuple[int, dict[int, float]]]:
    """{pair: (model grade, stated probabilities)} for every labelled pair (negative grades are left out)."""
    out = {}
    for key, true in labels.items():
        if true < 0:
            continue
        grade = model_grade(true, grades, seed=seed, key=key, moved=moved)
        out[key] = (grade, stated_probs(grade, grades))
    return out


def true_confusion(grades: Sequence[int], moved: float = MOVED) -> dict[int, dict[int, float]]:
    """P(model = m | human = h) of the noise above: {h: {m: p}}."""
    matrix = {}
    for h in grades:
        neighbours = [g for g in grades if abs(g - h) == 1]
        row = {m: 0.0 for m in grades}
        row[h] = 1.0 - moved if neighbours else 1.0
        for g in neighbours:
            row[g] += moved / len(neighbours)
        matrix[h] = row
    return matrix


def write_jsonl(path: Path, model: Mapping[tuple[str, str], tuple[int, Mapping[int, float]]]) -> Path:
    """The model's labels as `judgments import --source model` JSONL: {"topic", "unit", "grade", "probs"}."""
    with path.open("w", encoding="utf-8") as out:
        for (topic, unit), (grade, probs) in sorted(model.items()):
            line = {"topic": topic, "unit": unit, "grade": grade, "probs": {str(g): p for g, p in probs.items()}}
            out.write(json.dumps(line) + "\n")
    return path

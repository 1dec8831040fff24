"""A model's labels as JSONL: `{"topic", "unit", "grade", "probs": {"0": p, ...}}` one a line (`probs` optional).

What `labeler judgments import --source model` reads and what a command judge answers
(`labeler.judges`). Each line is checked like a qrels line: ids by the id rule, the grade on
the scale (a model has no "pooled, not judged"), the probabilities one per grade of the
scale, each in [0, 1], summing to 1 within 1e-6; a pair given twice is an error at its
second line. Errors are `file:line: reason`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from labeler.errors import QrelsFormatError
from labeler.formats.fields import json_object, json_type
from labeler.formats.lines import TextLines, data_lines
from labeler.formats.qrels import QrelsPart
from labeler.ids import check_id
from labeler.judgments.log import GRADE, MODEL, probs_from_json, probs_problem
from labeler.validation import label_grade_problem, shown

MODEL_FIELDS = ("topic", "unit", "grade", "probs")
PART_LINES = 2048


class ModelPart(NamedTuple):
    """Consecutive model labels as columns (the qrels columns, and each line's probabilities or None)."""

    qrels: QrelsPart
    probs: list[dict[int, float] | None]


class ModelAnswer(NamedTuple):
    topic: str
    unit: str
    grade: int
    probs: dict[int, float] | None


def looks_like_jsonl(path: str | Path) -> bool:
    """True when the file's first non-blank line starts with `{` (JSONL), False for qrels."""
    for _, text in data_lines(TextLines(path, QrelsFormatError), comments=False):
        return text.lstrip().startswith("{")
    return False


def model_answer(row: Mapping[str, Any], grades: Sequence[int], scale: str) -> ModelAnswer:
    """One label, checked against the scale; `ValueError` with the reason (the caller says where)."""
    unknown = sorted(str(key) for key in row if key not in MODEL_FIELDS)
    if unknown:
        raise ValueError(
            f"unknown field(s) {', '.join(map(repr, unknown))} (a model label has {', '.join(MODEL_FIELDS)})"
        )
    missing = [name for name in ("topic", "unit", "grade") if row.get(name) is None]
    if missing:
        raise ValueError(f"a model label needs {', '.join(missing)}")
    topic = check_id(row["topic"], "topic id", error=QrelsFormatError)
    unit = check_id(row["unit"], "unit id", error=QrelsFormatError)
    grade = row["grade"]
    if isinstance(grade, bool) or not isinstance(grade, int):
        raise ValueError(f"grade must be an integer, found {json_type(grade)} {shown(grade)}")
    problem = label_grade_problem(grade, grades, scale, kind=GRADE, source=MODEL)
    if problem is not None:
        raise ValueError(problem)
    probs = None
    if row.get("probs") is not None:
        probs = probs_from_json(row["probs"])
        problem = probs_problem(probs, grades)
        if problem is not None:
            raise ValueError(problem)
    return ModelAnswer(topic, unit, grade, probs)


def read_model_parts(path: str | Path, grades: Sequence[int], scale: str) -> Iterator[ModelPart]:
    """The labels of a model JSONL file, `PART_LINES` at a time; `file:line: reason` at the first bad one."""
    seen: dict[tuple[str, str], int] = {}
    part = _empty()
    found = False
    for number, text in data_lines(TextLines(path, QrelsFormatError), comments=False):
        row = json_object(text, path=path, line=number, error=QrelsFormatError)
        try:
            answer = model_answer(row, grades, scale)
        except QrelsFormatError as exc:
            raise QrelsFormatError(exc.reason, path=path, line=number) from None
        except ValueError as exc:
            raise QrelsFormatError(str(exc), path=path, line=number) from None
        pair = (answer.topic, answer.unit)
        if pair in seen:
            raise QrelsFormatError(
                f"topic {answer.topic} unit {answer.unit} is labelled twice (first at line {seen[pair]})",
                path=path,
                line=number,
            )
        seen[pair] = number
        found = True
        lines = part.qrels.lines
        assert isinstance(lines, list)
        lines.append(number)
        part.qrels.topics.append(answer.topic)
        part.qrels.units.append(answer.unit)
        part.qrels.grades.append(answer.grade)
        part.probs.append(answer.probs)
        if len(part.probs) >= PART_LINES:
            yield part
            part = _empty()
    if part.probs:
        yield part
    if not found:
        raise QrelsFormatError("no model labels found (empty file)", path=path)


def _empty() -> ModelPart:
    return ModelPart(QrelsPart([], [], [], []), [])

"""Grade scales: the grades assessors give, what each means, and what counts as relevant.

A scale travels with every snapshot, so that a qrels file never loses the
meaning of its numbers. Presets cover the common cases; a custom scale comes
from a small JSON or TSV file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labeler.errors import ScaleFormatError
from labeler.formats.fields import INT64_MAX, decode_json, integer_field, json_type


@dataclass(frozen=True)
class Grade:
    value: int
    label: str
    definition: str


@dataclass(frozen=True)
class GradeScale:
    """Ordered grades and the lowest one that counts as relevant for binary measures."""

    name: str
    grades: tuple[Grade, ...]
    threshold: int

    def __post_init__(self) -> None:
        values = [g.value for g in self.grades]
        if not values:
            raise ScaleFormatError(f"scale {self.name!r} has no grades")
        if len(set(values)) != len(values):
            raise ScaleFormatError(f"scale {self.name!r} repeats a grade")
        if any(v < 0 for v in values):
            raise ScaleFormatError(
                f"scale {self.name!r}: grades must be 0 or more (negative means 'pooled, not judged')"
            )
        if max(values) > INT64_MAX:
            raise ScaleFormatError(f"scale {self.name!r}: grade {max(values)} is out of range (a 64-bit integer)")
        if self.threshold not in values:
            raise ScaleFormatError(f"scale {self.name!r}: threshold {self.threshold} is not one of its grades")

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(g.value for g in self.grades)

    def label(self, grade: int) -> str:
        for g in self.grades:
            if g.value == grade:
                return g.label
        raise KeyError(grade)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "threshold": self.threshold,
            "grades": [{"grade": g.value, "label": g.label, "definition": g.definition} for g in self.grades],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GradeScale:
        grades = tuple(Grade(int(g["grade"]), str(g["label"]), str(g.get("definition", ""))) for g in data["grades"])
        return cls(str(data["name"]), tuple(sorted(grades, key=lambda g: g.value)), int(data["threshold"]))


PRESETS: dict[str, GradeScale] = {
    "default": GradeScale(
        "default",
        (
            Grade(0, "not relevant", "Says nothing useful about the topic."),
            Grade(1, "related", "On the topic's subject, but answers only a small part of it."),
            Grade(2, "highly relevant", "Answers a substantial part of the topic."),
            Grade(3, "perfectly relevant", "Answers the topic fully; an assessor would cite it."),
        ),
        threshold=1,
    ),
    "binary": GradeScale(
        "binary",
        (
            Grade(0, "not relevant", "Does not help answer the topic."),
            Grade(1, "relevant", "Helps answer the topic."),
        ),
        threshold=1,
    ),
    "trec-dl-passage": GradeScale(
        "trec-dl-passage",
        (
            Grade(0, "irrelevant", "Has nothing to do with the query."),
            Grade(1, "related", "Seems related to the query but does not answer it."),
            Grade(
                2,
                "highly relevant",
                "Has some answer for the query, but it may be unclear or hidden among extraneous information.",
            ),
            Grade(3, "perfectly relevant", "Is dedicated to the query and contains the exact answer."),
        ),
        threshold=2,
    ),
}


def load_scale(name_or_path: str) -> GradeScale:
    """A preset by name, or a custom scale from a JSON or TSV file."""
    if name_or_path in PRESETS:
        return PRESETS[name_or_path]
    path = Path(name_or_path)
    if not path.exists() and (path.suffix or len(path.parts) > 1):  # meant as a file, not a preset
        raise ScaleFormatError(f"no such file (and not a preset: {', '.join(PRESETS)})", path=path)
    if not path.exists():
        raise ScaleFormatError(
            f"unknown scale {name_or_path!r}: use one of {', '.join(PRESETS)} or the path of a scale file"
        )
    if path.suffix.lower() == ".json":
        return _read_json_scale(path)
    return _read_tsv_scale(path)


def _read_json_scale(path: Path) -> GradeScale:
    from labeler.formats.lines import TextLines  # only to read a scale file: gzip and hashlib stay unloaded

    # Read like every other file (UTF-8, BOM, gzip, NUL bytes, folders); line numbers stay right.
    text = "\n".join(line for _, line in TextLines(path, ScaleFormatError))
    try:
        data = decode_json(text, path=path, line=1, error=ScaleFormatError)
    except ScaleFormatError as exc:
        reason = exc.reason.removeprefix("invalid JSON: ")
        raise ScaleFormatError(f"not a valid JSON scale: {reason}", path=path, line=exc.line) from None
    if not isinstance(data, dict) or not isinstance(data.get("grades"), list) or "threshold" not in data:
        raise ScaleFormatError('a JSON scale needs "grades" (a list) and "threshold"', path=path)
    for index, grade in enumerate(data["grades"], 1):
        if not isinstance(grade, dict):
            raise ScaleFormatError(f"grade {index} must be an object, found {json_type(grade)}", path=path)
        if not _is_integer(grade.get("grade")):
            raise ScaleFormatError(
                f"grade {index}: 'grade' must be an integer, found {json_type(grade.get('grade'))}", path=path
            )
        if not isinstance(grade.get("label"), str):
            raise ScaleFormatError(
                f"grade {index}: 'label' must be a string, found {json_type(grade.get('label'))}", path=path
            )
    if not _is_integer(data["threshold"]):
        raise ScaleFormatError(f'"threshold" must be an integer, found {json_type(data["threshold"])}', path=path)
    data.setdefault("name", path.stem)
    try:
        return GradeScale.from_dict(data)
    except ScaleFormatError as exc:
        raise ScaleFormatError(exc.reason, path=path) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ScaleFormatError(f"each grade needs an integer 'grade' and a 'label' ({exc})", path=path) from None


def _is_integer(value: object) -> bool:
    """A JSON integer: 1.5 is not (int() would make it 1), nor is true."""
    return isinstance(value, int) and not isinstance(value, bool)


def _read_tsv_scale(path: Path) -> GradeScale:
    """Lines `grade<TAB>label<TAB>definition`, and one line `threshold<TAB>N`."""
    from labeler.formats.lines import TextLines, data_lines

    grades: list[Grade] = []
    threshold: int | None = None
    last_line = 0
    for number, line in data_lines(TextLines(path, ScaleFormatError)):
        last_line = number
        fields = line.split("\t")
        if fields[0].strip().lower() == "threshold":
            if len(fields) < 2:
                raise ScaleFormatError("threshold needs an integer: threshold<TAB>N", path=path, line=number)
            threshold = integer_field(fields[1].strip(), "threshold", path=path, line=number, error=ScaleFormatError)
            continue
        if len(fields) < 2:
            raise ScaleFormatError("expected grade<TAB>label<TAB>definition", path=path, line=number)
        value = integer_field(fields[0].strip(), "grade", path=path, line=number, error=ScaleFormatError)
        definition = fields[2].strip() if len(fields) > 2 else ""
        grades.append(Grade(value, fields[1].strip(), definition))
    if not grades:
        raise ScaleFormatError("no grades in the file", path=path)
    if threshold is None:
        raise ScaleFormatError("no threshold line (threshold<TAB>N)", path=path, line=last_line)
    try:
        return GradeScale(path.stem, tuple(sorted(grades, key=lambda g: g.value)), threshold)
    except ScaleFormatError as exc:
        raise ScaleFormatError(exc.reason, path=path) from None

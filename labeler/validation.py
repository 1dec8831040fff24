"""Validation of incoming values: one rule per value, whichever way it comes in.

A grade, a unit space, an event kind or a source reaches the workbench by four roads: an imported
qrels file (`judgments import`), one judgment (`record_judgment`, from the CLI or the TUI), a merged
log (`labeler.formats.judgment_log`) and the command line. If each road spelled its own rule, a
rule changed on one road and not the others would let a value in by the back door (a grade off the
scale merged from a laptop, a model judgment without its model's name). Here each rule is written
once, and every road calls it.

Each rule returns why the value is refused, one sentence in the domain's words (no flag, no key,
no command), or None when it is sound, like `labeler.ids.id_problem`. The caller raises its own
error with the location it knows (a file's line, an argument, an event of a log). Ids themselves
obey the one id rule of `labeler.ids`; the names of the ids validated here are in `ID_NAMES`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from labeler.ids import id_problem, shown_id
from labeler.judgments.log import ADJUDICATE, FLAG, GRADE, NOTE, REVIEW_MARKS, SKIP, SOURCES, UNSURE

if TYPE_CHECKING:
    from labeler.run_models import Unit

# What `record_judgment` records (a retract is an undo, a review a topic's mark): the choices of `judgments add`.
RECORDABLE_KINDS = (GRADE, SKIP, UNSURE, FLAG, NOTE)
# Who makes one judgment by hand or by program (`judgments add`): an "import" source is a qrels file's.
RECORD_SOURCES = ("human", "model")
# Where imported qrels come from: a file of earlier labels, or a model's output.
IMPORT_SOURCES = ("import", "model")
# The words each id is named by in messages, the same on every road.
ID_NAMES = {"topic": "topic id", "unit": "unit id", "assessor": "assessor name", "run": "run name"}
__all__ = [
    "ID_NAMES",
    "IMPORT_SOURCES",
    "MAX_CLOCK_TOLERANCE",
    "RECORDABLE_KINDS",
    "RECORD_SOURCES",
    "REVIEW_MARKS",
    "SOURCES",
    "choice_problem",
    "decision_problem",
    "grade_problem",
    "label_grade_problem",
    "tolerance_problem",
    "unit_problem",
    "window_problem",
]


def shown(value: object) -> str:
    """A value quoted for a message: ids escaped (`shown_id`), anything else its repr, cut at 60 characters."""
    if isinstance(value, str):
        return shown_id(value)
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def choice_problem(value: object, choices: Sequence[str], what: str) -> str | None:
    """`value` must be one of `choices` (a kind, a source, a stage, a review mark, a policy)."""
    if isinstance(value, str) and value in choices:
        return None
    return f"unknown {what} {shown(value)} (one of {', '.join(choices)})"


def scale_words(values: Collection[int], scale_name: str) -> str:
    """`the scale 'default' (0, 1, 2, 3)`: how every grade message names the scale."""
    return f"the scale {scale_name!r} ({', '.join(map(str, sorted(values)))})"


def grade_problem(grade: int | None, values: Collection[int], scale_name: str, *, pooled: bool = False) -> str | None:
    """A grade must be on the workbench's scale; with `pooled`, a negative grade is "pooled, not judged".

    Only imported qrels (and the events they made) may carry a negative grade, as trec_eval
    reads it: a human or an adjudicator gives a grade of the scale.
    """
    if grade is None:
        return f"a grade is needed (an integer on {scale_words(values, scale_name)})"
    if grade in values or (pooled and grade < 0):
        return None
    on_scale = scale_words(values, scale_name)
    if pooled:
        on_scale = on_scale[:-1] + "; a negative grade means pooled, not judged)"
    return f"grade {grade} is not on {on_scale}"


def label_grade_problem(
    grade: int | None, values: Collection[int], scale_name: str, *, kind: str, source: str
) -> str | None:
    """The grade rule of a label on every road: a qrels import, a model's JSONL, one judgment, a merged event.

    A negative grade ("pooled, not judged", as trec_eval reads it) only on a `grade` from imported
    qrels (source `import`): a person, an adjudicator and a model each give a grade of the scale,
    whether the model's labels come as JSONL or as qrels.
    """
    return grade_problem(grade, values, scale_name, pooled=kind == GRADE and source == "import")


def decision_problem(
    kind: str, *, source: str, model: str | None, reason: str | None, note: str | None
) -> tuple[str, str] | None:
    """What a decision carries besides its grade: an unsure its reason, a note its text, a model's its model.

    Returns the field that is missing (`reason`, `note`, `model`: the name of the argument and of
    the log's field alike) and why, or None.
    """
    if kind == UNSURE and not (reason or "").strip():
        return "reason", "an unsure judgment needs a reason"
    if kind == NOTE and not (note or "").strip():
        return "note", "a note needs its text"
    if source == "model" and not (model or "").strip():
        return "model", "a model judgment needs the model's name"
    return None


def grades_kind(kind: str) -> bool:
    """True for the kinds that carry a grade (a grade, an adjudication); the others carry none."""
    return kind in (GRADE, ADJUDICATE)


def unit_problem(value: object, chunkings: Collection[str] | None = None) -> str | None:
    """A unit space is `doc` or `chunk:NAME`; with `chunkings` (the workbench's), NAME must be one of them."""
    from labeler.run_models import UNIT_DOC  # here: `next` and `status` check no unit space

    unit = parsed_unit(value)
    if unit is None:
        return f"unit must be 'doc' or 'chunk:NAME', not {shown(value)}"
    if unit.kind == UNIT_DOC or chunkings is None or unit.chunking in chunkings:
        return None
    return f"no chunking named {shown(unit.chunking)}"


def parsed_unit(value: object) -> Unit | None:
    """The unit space `value` names, or None when it names none (a chunking name obeys the id rule)."""
    from labeler.run_models import Unit

    if not isinstance(value, str):
        return None
    try:
        unit = Unit.parse(value)
    except ValueError:
        return None
    if unit.chunking is not None and id_problem(unit.chunking) is not None:
        return None
    return unit


def window_problem(size: int, overlap: int) -> tuple[str, str] | None:
    """A chunking window that advances: its size (in words or sentences) and overlap, and why not.

    Returns the argument at fault (`size` or `chunk_overlap`, told apart from an assignment's overlap share) and
    why, or None.
    """
    if size < 1:
        return "size", f"must be at least 1, not {size}"
    if overlap < 0:
        return "chunk_overlap", f"must be 0 or more, not {overlap}"
    if overlap >= size:
        return "chunk_overlap", f"must be smaller than the window's size ({size}), not {overlap}"
    return None


MAX_CLOCK_TOLERANCE = 366 * 86_400
"""The largest clock tolerance, in seconds: a year covers any wrong clock; an event further ahead is not one."""


def tolerance_problem(seconds: float) -> str | None:
    """A clock tolerance is a number of seconds from 0 to `MAX_CLOCK_TOLERANCE` (not NaN, not infinite)."""
    if 0 <= seconds <= MAX_CLOCK_TOLERANCE:  # False for NaN
        return None
    return f"must be a number of seconds from 0 to {MAX_CLOCK_TOLERANCE} (366 days), not {seconds}"

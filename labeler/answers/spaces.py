"""The log's unit spaces for answers, and the labels judged in them.

Relevance judgments live in the spaces `doc` and `chunk:NAME`. Answers add three:

- `nuggets`: a topic's nuggets. Each version of a nugget (created, edited,
  merged, re-ranked, deleted) is a `note` event on the pair (topic, nugget id)
  whose note is the version's canonical JSON (`labeler.answers.nuggets`); the
  latest version in log order is the nugget.
- `nugget:RUN`: nugget assignments of the answers of run RUN. The pair is
  (topic, nugget id); its grade is 2 support, 1 partial support, 0 not supported.
- `support:RUN`: citation support of run RUN's answers. The pair is (topic,
  sentence number counted from 1); its grade says how far the sentence's first
  cited unit supports it: 2 full, 1 partial, 0 none.

Judgments in the last two are grade events like any relevance label: the same
derivation (latest grade per assessor, conflicts, adjudication), blind overlap,
leases and agreement apply. A run name obeys the id rule, so the space names
cannot be confused with `doc` or `chunk:NAME`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from labeler.scales import GradeScale

NUGGETS = "nuggets"
ASSIGNMENT_PREFIX = "nugget:"
SUPPORT_PREFIX = "support:"

ASSIGNMENT_LABELS: dict[int, str] = {2: "support", 1: "partial_support", 0: "not_support"}
"""A nugget assignment's grade -> nuggetizer's name for it."""
ASSIGNMENT_GRADES: dict[str, int] = {name: grade for grade, name in ASSIGNMENT_LABELS.items()}

SUPPORT_LABELS: dict[int, str] = {2: "full", 1: "partial", 0: "none"}
"""A citation-support grade -> its name."""
SUPPORT_GRADES: dict[str, int] = {name: grade for grade, name in SUPPORT_LABELS.items()}

NUGGET_TASK, SUPPORT_TASK = "nuggets", "support"
TASK_KINDS: dict[str, str] = {NUGGET_TASK: "nugget", SUPPORT_TASK: "support"}
"""What is judged of answers (the `--answers` choices) -> the kind of space it is judged in."""

CREDIT: dict[int, float] = {2: 1.0, 1: 0.5, 0: 0.0}
"""The credit a grade of either kind earns: full 1, partial 0.5, none 0."""


class AnswerSpace(NamedTuple):
    """An answer judging space: `kind` is `nugget` (assignments) or `support`, `run` the answer run.

    A pair of names, so a named tuple: the store reads it on every command's path (which spaces are
    answer spaces), where a dataclass would be built at each start for nothing.
    """

    kind: str
    run: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.run}"

    @property
    def labels(self) -> dict[int, str]:
        return ASSIGNMENT_LABELS if self.kind == "nugget" else SUPPORT_LABELS

    @property
    def scale(self) -> GradeScale:
        """The grades judged in the space, as a scale: 0, 1, 2, with only the full grade (2) counting as supported.

        Full support is the threshold because the strict scores (`strict_vital_score`) count it alone;
        binary overlap and binary kappa on answer judgments are about that line.
        """
        from labeler.scales import Grade, GradeScale

        kind = "assignment" if self.kind == "nugget" else "support"
        grades = tuple(Grade(grade, name, name.replace("_", " ")) for grade, name in sorted(self.labels.items()))
        return GradeScale(kind, grades, threshold=2)


def assignment_space(run: str) -> str:
    """The space holding the nugget assignments of `run`'s answers."""
    return f"{ASSIGNMENT_PREFIX}{run}"


def support_space(run: str) -> str:
    """The space holding the citation-support judgments of `run`'s answers."""
    return f"{SUPPORT_PREFIX}{run}"


def answer_space(unit: str) -> AnswerSpace | None:
    """The answer space `unit` names, or None (a relevance space, `nuggets`, or nothing known)."""
    for prefix in (ASSIGNMENT_PREFIX, SUPPORT_PREFIX):
        if unit.startswith(prefix) and len(unit) > len(prefix):
            return AnswerSpace(prefix[:-1], unit[len(prefix) :])
    return None


def is_answer_unit(unit: str) -> bool:
    """Whether `unit` is one of the answer spaces (`nuggets`, `nugget:RUN`, `support:RUN`), not a relevance space."""
    return unit == NUGGETS or answer_space(unit) is not None


def sentence_id(number: int) -> str:
    """The unit id of an answer's sentence in a `support:RUN` space: its number, counted from 1."""
    return str(number)

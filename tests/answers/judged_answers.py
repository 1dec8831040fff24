"""Answers and nuggets on the small judging workbench of tests/tui (topics 1-3, documents d1-d6)."""

from __future__ import annotations

from answers.answer_support import add_answers, add_nuggets

from labeler.store import Store

ANSWERS = {
    "1": [
        ("Fall armyworm caterpillars eat maize leaves.", ["d1"]),
        ("Hermetic bags stop weevils in stored grain.", ["d2", "d1"]),
        ("Scouting fields weekly helps.", []),
    ],
    "2": [("Milk fever is low blood calcium after calving.", ["d3"])],
}
NUGGETS = {
    "1": [("armyworm eats maize leaves", "vital"), ("hermetic bags stop weevils", "okay")],
    "2": [("milk fever is low calcium", "vital")],
}


def add_judged_answers(store: Store, runs: tuple[str, ...] = ("rag1",)) -> dict[str, list[str]]:
    """Each run's answers to topics 1 and 2, and those topics' nuggets; `topic -> nugget ids` (vital first)."""
    for run in runs:
        add_answers(store, run, ANSWERS)
    return {topic: add_nuggets(store, topic, nuggets) for topic, nuggets in NUGGETS.items()}

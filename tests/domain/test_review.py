"""The review-state rule: a mark holds only while the space's latest pool is judged and nothing came after it."""

from __future__ import annotations

import pytest

from labeler.judgments.log import Event
from labeler.review import ReviewState, judged_after, latest_mark, review_state, shown_status


def marks(*reasons: str) -> list[Event]:
    return [
        Event(f"r{i}", i, "1", None, "review", "ann", "t", reason=r, clock=10 * (i + 1)) for i, r in enumerate(reasons)
    ]


@pytest.mark.parametrize(
    ("reasons", "judged", "relevant", "after", "unjudged", "status"),
    [
        ([], False, False, False, 0, "unreviewed"),
        ([], True, False, False, 3, "in_progress"),  # judging started; unjudged units reopen only a mark
        (["reviewed"], True, True, False, 0, "reviewed"),
        (["no_answer"], True, False, False, 0, "no_answer"),
        (["no_answer"], True, True, False, 0, "in_progress"),  # a relevant label after no_answer needs a new review
        (["reviewed", "unreviewed"], True, True, False, 0, "in_progress"),  # the latest mark wins
        (["reviewed"], True, True, True, 0, "in_progress"),  # judged after the mark
        (["reviewed"], True, True, True, 4, "reopened"),  # unjudged pool units come first
        (["no_answer"], False, False, False, 2, "reopened"),
    ],
)
def test_review_state(reasons, judged, relevant, after, unjudged, status):
    state = review_state(
        latest_mark(marks(*reasons)),
        has_judgments=judged,
        has_relevant=relevant,
        judged_after_mark=after,
        pool="P2",
        unjudged=unjudged,
    )
    assert state.status == status
    assert state.reopened == ({"pool": "P2", "unjudged": unjudged} if status == "reopened" else None)


def test_reopened_says_by_which_pool_and_how_many():
    state = ReviewState("reopened", "P2", 12)
    assert str(state) == "reopened by P2 (12 unjudged)"
    assert shown_status("reopened", {"pool": "P2", "unjudged": 12}) == str(state)
    assert shown_status("reviewed", None) == "reviewed"


def test_judged_after_counts_real_grades_after_the_mark_and_not_retracted_ones():
    mark = marks("reviewed")[0]  # clock 10

    def grade(event_id, clock, grade=1, kind="grade", assessor="ann"):
        return Event(event_id, 0, "1", "d1", kind, assessor, "t", grade=grade, clock=clock)

    assert not judged_after(mark, [grade("g1", 5)])
    assert judged_after(mark, [grade("g1", 5), grade("g2", 15, grade=2)])  # the label changed after the mark
    assert judged_after(mark, [grade("g2", 15)])  # a pair that had no label at the mark
    # the second judge of an overlap pair agreeing with the label does not reopen the review; disagreeing does
    assert not judged_after(mark, [grade("g1", 5), grade("b1", 15, assessor="bob")])
    assert judged_after(mark, [grade("g1", 5), grade("b1", 15, grade=0, assessor="bob")])
    assert not judged_after(mark, [grade("g2", 15, grade=-1)])  # pooled, not judged
    undo = Event("x", 0, "1", "d1", "retract", "ann", "t", target="g2", clock=16)
    assert not judged_after(mark, [grade("g2", 15), undo])
    assert judged_after(mark, [grade("a1", 20, kind="adjudicate")])
    assert not judged_after(None, [grade("g2", 15)])

"""The plan's pure rules: dealing topics, the overlap's keyed hash, who must judge a pair, when it is done."""

from __future__ import annotations

import pytest

from labeler.assignment import Plan, TopicAssignment, deal, overlap_draw, waiting_for
from labeler.judgments.log import PairState


def entry(topic: str, assessor: str, order=("ann", "bob", "carol"), overlap=0.2, seed=7) -> TopicAssignment:
    return TopicAssignment(topic, assessor, tuple(order), overlap, seed, "2026-01-01T00:00:00+00:00", "lead")


def test_topics_are_dealt_round_robin_in_the_order_given():
    assert deal(["1", "2", "3", "10", "11"], ["ann", "bob"]) == {
        "1": "ann",
        "2": "bob",
        "3": "ann",
        "10": "bob",
        "11": "ann",
    }
    assert deal(["4", "9"], ["ann"]) == {"4": "ann", "9": "ann"}


def test_the_overlap_share_is_close_to_the_one_asked_and_a_pure_function_of_seed_topic_and_unit():
    plan = Plan({t: entry(t, "ann") for t in ("1", "2", "3", "4", "5")})
    pairs = [(t, f"d{t}-{i}") for t in plan.topics for i in range(100)]
    chosen = {pair for pair in pairs if plan.is_overlap(*pair)}
    assert abs(len(chosen) / len(pairs) - 0.2) <= 0.05
    assert chosen == {pair for pair in pairs if Plan(dict(plan.topics)).is_overlap(*pair)}  # same inputs, same pairs
    reseeded = Plan({t: entry(t, "ann", seed=8) for t in plan.topics})
    assert chosen != {pair for pair in pairs if reseeded.is_overlap(*pair)}


def test_the_hash_keeps_its_parts_apart():
    assert overlap_draw(1, "1", "23") != overlap_draw(1, "12", "3")
    assert 0 <= overlap_draw(0, "t", "u") < 1


def test_judges_of_a_pair():
    plan = Plan({"1": entry("1", "carol"), "2": entry("2", "ann", overlap=0.0)})
    overlap = next(f"u{i}" for i in range(100) if plan.is_overlap("1", f"u{i}"))
    single = next(f"u{i}" for i in range(100) if not plan.is_overlap("1", f"u{i}"))
    assert plan.judges("1", overlap) == ("carol", "ann")  # the next one in the order, wrapping
    assert plan.judges("1", single) == ("carol",)
    assert plan.judges("2", overlap) == ("ann",) and not plan.is_overlap("2", overlap)  # no overlap planned
    assert plan.judges("3", overlap) == () and plan.assigned("3") == ()  # unassigned: anyone
    assert plan.assigned("1") == ("carol", "ann") and plan.assigned("2") == ("ann",)
    assert plan.topics_for("ann") == ["1", "2"] and plan.topics_for("bob") == []
    assert bool(plan) and not Plan()


def test_order_for_puts_the_assessors_topics_first_and_leaves_out_others():
    plan = Plan({"2": entry("2", "bob", overlap=0.0), "10": entry("10", "ann", overlap=0.0)})
    assert plan.order_for("ann", ["1", "2", "3", "10"]) == ["10", "1", "3"]
    assert Plan().order_for("ann", ["1", "2"]) == ["1", "2"]


@pytest.mark.parametrize(
    ("grades", "conflict", "overlap", "expected"),
    [
        ({}, False, False, True),  # nobody graded it
        ({"bob": 2}, False, False, False),  # an ordinary pair is done once anyone judged it
        ({"bob": 2}, False, True, True),  # an overlap pair waits for ann's own grade
        ({"ann": 2}, False, True, False),  # ... and is done for her once she gave it
        ({"ann": -1}, False, True, True),  # "pooled, not judged" is not a grade
        ({"ann": 2, "bob": 0}, True, True, False),  # a conflict waits for adjudication, not for a judge
    ],
)
def test_waiting_for(grades, conflict, overlap, expected):
    label = next(iter(grades.values())) if grades and not conflict else None
    state = PairState("1", "u", label=label, conflict=conflict, grades=grades)
    assert waiting_for(state, "ann", overlap=overlap) is expected


def test_an_assessor_meets_their_own_topics_before_those_they_are_second_judge_on():
    from labeler.assignment import Plan, TopicAssignment

    order = ("ann", "bob")
    plan = Plan(
        {t: TopicAssignment(t, a, order, 0.3, 1, "t", "lead") for t, a in (("1", "ann"), ("2", "bob"), ("3", "ann"))}
    )
    assert plan.own_topics("bob") == ["2"] and plan.second_on("bob") == ["1", "3"]
    assert plan.order_for("bob", ["1", "2", "3", "4"]) == ["2", "1", "3", "4"]  # own, second judge, unassigned
    assert plan.order_for("ann", ["1", "2", "3", "4"]) == ["1", "3", "2", "4"]

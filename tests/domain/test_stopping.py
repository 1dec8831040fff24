"""Stopping rules, by hand-worked sequences (True = the judged unit was relevant)."""

from __future__ import annotations

import pytest

from labeler.stopping import StoppingRule, knee_point, parse_rule, slope_ratio

F, T = False, True


def test_window_says_stop_after_n_misses_in_a_row():
    rule = parse_rule("window:3")
    assert rule == StoppingRule("window", 3)
    found = [T, F, F, T, F, F, F, T]
    # misses in a row reach 3 at the 7th judgment, not before (the 4th was relevant)
    assert rule.first_stop(found) == 7
    assert not rule.decide(found[:6]).stop
    decision = rule.decide(found[:7])
    assert decision.stop and decision.judgments == 7 and decision.relevant == 2
    assert "last 3 judgments" in decision.reason
    assert not rule.decide(found).stop  # the 8th was relevant again


def test_window_needs_n_judgments_and_counts_a_topic_with_nothing_relevant():
    rule = parse_rule("window:4")
    assert not rule.decide([F, F, F]).stop
    assert rule.decide([F, F, F, F]).stop
    assert rule.first_stop([F] * 10) == 4
    assert rule.first_stop([T] * 10) is None
    assert parse_rule("window").parameter == 10


def test_knee_point_is_the_point_farthest_above_the_diagonal():
    # 4 relevant in the first 4, then 6 misses: the curve bends at 4
    found = [T] * 4 + [F] * 6
    assert knee_point(found) == 4
    # rho = (4/4) / ((0 + 1) / 6) = 6
    assert slope_ratio(found, 4) == pytest.approx(6.0)
    assert knee_point([T]) == 0


def test_knee_says_stop_when_the_slope_ratio_reaches_156_minus_relevant():
    # 10 relevant, then misses: at n judgments the knee is 10 and rho = n - 10; the target is 156 - 10 = 146
    found = [T] * 10 + [F] * 200
    rule = parse_rule("knee")
    assert rule == StoppingRule("knee", 150)
    assert rule.first_stop(found) == 156
    assert not rule.decide(found[:155]).stop
    decision = rule.decide(found[:156])
    assert decision.stop and "judgment 10" in decision.reason


def test_knee_waits_for_its_minimum_and_never_stops_without_a_relevant_unit():
    found = [T] * 10 + [F] * 200
    assert parse_rule("knee:200").first_stop(found) == 200
    assert parse_rule("knee:5").first_stop([F] * 300) is None
    assert "judgments the rule needs" in parse_rule("knee").decide(found[:20]).reason


@pytest.mark.parametrize(
    "text", ["windw", "window:0", "window:x", "knee:-1", "window:", "", "window:\u00b2", "knee:\u0663"]
)
def test_a_bad_rule_is_refused_in_words(text):
    with pytest.raises(ValueError, match="stopping rule"):
        parse_rule(text)


def test_the_window_says_how_far_it_is_from_stopping():
    rule = parse_rule("window:4")
    assert rule.decide([F, F, F, F, T]).reason == "the last judgment found a relevant unit"
    assert rule.decide([T, F, F, F, T, F, F]).reason == "2 of 4 judgments since the last relevant unit"

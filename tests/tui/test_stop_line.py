"""The judging screen's stop line (issue 16 item 3): what the stopping rule says about the open topic, per key."""

from __future__ import annotations

import pytest

from labeler.errors import BadArgumentError
from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.widgets.topic_card import StopLine, stop_text
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.stopping import stopping

SIZE = (140, 40)
SMALL = (80, 24)


def line(app) -> str:
    return str(app.screen.query_one(StopLine).render())


def says_stop(app) -> bool:
    return app.screen.query_one(StopLine).has_class("stop")


@pytest.mark.parametrize("size", [SIZE, SMALL])
async def test_the_stop_line_after_n_non_relevant_grades_and_gone_after_a_relevant_one(judging_db, size):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann", stop="window:2"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.session.topic_id == "1"
        assert "Stopping rule window:2" in line(app) and not says_stop(app)
        assert "0 judged" in line(app)
        await pilot.press("0")
        assert not says_stop(app) and "1 judged, 0 relevant" in line(app)
        await pilot.press("0")
        assert says_stop(app)
        assert line(app) == (
            "Stopping rule window:2: this topic has found no relevant unit in its last 2 judgments; "
            "the rule says stop (2 judged, 0 relevant)"
        )
        region = app.screen.query_one(StopLine).region
        assert region.height >= 1 and region.bottom <= size[1]  # in view, on a small terminal too
        await pilot.press("2")
        assert not says_stop(app) and "3 judged, 1 relevant" in line(app)
        await pilot.press("backspace")  # undo the relevant one: the rule says stop again
        assert says_stop(app) and "2 judged, 0 relevant" in line(app)
    with Store(judging_db) as store:  # what the screen said is what `status` says
        assert stopping(store, "window:2")["1"].decision.stop


async def test_another_assessors_judgments_count_and_the_default_rule_is_window_10(judging_db):
    with Store(judging_db) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="bob", grade=2))
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Stopping rule window:10" in line(app)
        assert "1 judged, 1 relevant" in line(app)
        with Store(judging_db) as other:  # another process judges meanwhile: seen at the next key
            record_judgment(other, Judgment(topic_id="1", unit_id="d4", assessor="bob", grade=0))
        await pilot.press("0")
        assert "3 judged, 1 relevant" in line(app)


def test_a_bad_rule_is_refused_before_the_screen(judging_db):
    with pytest.raises(BadArgumentError) as caught:
        make_app(JudgeRequest(db_path=judging_db, assessor="ann", stop="window:zero"))
    assert caught.value.argument == "stop"


def test_the_words_of_the_knee_rule():
    from labeler.stopping import parse_rule

    rule = parse_rule("knee:3")
    going = rule.decide([True, False])
    assert stop_text("knee:3", going) == (
        "Stopping rule knee:3: go on (2 judged, 1 relevant; 2 of the 3 judgments the rule needs first)"
    )
    stop = rule.decide([True] * 3 + [False] * 200)
    assert stop.stop
    assert stop_text("knee:3", stop).startswith("Stopping rule knee:3: the gain curve bent at judgment 3")

"""The answer judging screens by keys: nugget assignments and citation support land in the log as grade events of
the run's answer space; undo retracts; two annotators on a planned overlap judge blind, then conflict."""

from __future__ import annotations

from judging_support import answer_prompt, until
from svg_text import screen_text

from labeler.judgments.log import GRADE, NOTE, RETRACT
from labeler.store import Store
from labeler.tui import make_answers_app
from labeler.tui.screens.answer_judging import NuggetScreen, SupportScreen
from labeler.tui.screens.help import HelpScreen
from labeler.workbench.answer_labels import answer_labels
from labeler.workbench.assignments import assign

SIZE = (160, 45)


def shown(app):
    item = app.session.current
    return None if item is None else (item.topic_id, item.item_id)


def space_events(db, space):
    with Store(db) as store:
        return list(store.unit_events(space))


async def test_nuggets_are_assigned_by_keys_and_undo_retracts_the_last(answers_db):
    db, nuggets = answers_db
    (n1, n2), (n3,) = nuggets["1"], nuggets["2"]
    app = make_answers_app(db, "ann", "nuggets")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, NuggetScreen)
        assert shown(app) == ("1", n1)
        text = screen_text(app.export_screenshot())
        assert "Fall armyworm caterpillars eat maize leaves. [1] Hermetic bags" in text
        assert "grain. [2] [1] Scouting fields weekly helps." in text  # a sentence without a citation: no marker
        assert "▶ vital armyworm eats maize leaves  (unjudged)" in text and "okay  hermetic bags stop weevils" in text
        assert "topic 1" in text and "run rag1" in text and f"nugget {n1}" in text and "left 3" in text
        await pilot.press("c")
        await until(pilot, lambda: "[1] d1  Maize pests" in screen_text(app.export_screenshot()), "d1 shown")
        await pilot.press("2")
        await until(pilot, lambda: shown(app) == ("1", n2), "moved to the second nugget")
        assert "armyworm eats maize leaves  (yours: support)" in screen_text(app.export_screenshot())
        await pilot.press("1")
        await until(pilot, lambda: shown(app) == ("2", n3), "moved to topic 2")
        await pilot.press("0")
        await until(pilot, lambda: shown(app) is None, "nothing left")
        assert "Nothing left for ann to judge" in screen_text(app.export_screenshot())
        await pilot.press("u")
        await until(pilot, lambda: shown(app) == ("2", n3), "the undone item is shown again")
        assert "left 1" in screen_text(app.export_screenshot())
    events = space_events(db, "nugget:rag1")
    grades = [(e.topic_id, e.unit_id, e.grade) for e in events if e.kind == GRADE]
    assert grades == [("1", n1, 2), ("1", n2, 1), ("2", n3, 0)]
    (retract,) = [e for e in events if e.kind == RETRACT]
    assert retract.target == events[2].event_id and retract.assessor == "ann"
    assert all(e.shown_others is None for e in events)  # no plan: no overlap item
    with Store(db) as store:
        assert answer_labels(store, "nugget:rag1", "2")[n3].grades == {}
        assert store.live_claims("nugget:rag1", 0) == {}  # quitting let the item shown go


async def test_support_is_judged_beside_the_first_cited_unit(answers_db):
    db, _ = answers_db
    app = make_answers_app(db, "ann", "support", runs=("rag1",), topic="1")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SupportScreen)
        assert shown(app) == ("1", "1")
        await pilot.press("2")
        await until(pilot, lambda: shown(app) == ("1", "2"), "moved to sentence 2")
        text = screen_text(app.export_screenshot())
        assert "Sentence 2's first cited unit" in text and "[2] d2  Stored grain" in text
        assert "Weevils damage stored maize grain." in text
        assert "leaves. [1] ▶ Hermetic bags stop weevils" in text  # the sentence judged, marked in its answer
        await pilot.press("n")
        await answer_prompt(pilot, "bags, not weevils")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help opened")
        keys = screen_text(app.export_screenshot())
        assert all(words in keys for words in ("Full", "Partial", "None", "Undo", "Skip", "Note"))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SupportScreen), "back on the support screen")
        await pilot.press("0")
        await until(pilot, lambda: shown(app) is None, "topic 1 done (sentence 3 cites nothing)")
    events = space_events(db, "support:rag1")
    assert [(e.unit_id, e.kind, e.grade, e.note) for e in events] == [
        ("1", GRADE, 2, None),
        ("2", NOTE, None, "bags, not weevils"),
        ("2", GRADE, 0, None),
    ]


async def test_a_second_judgment_on_an_overlap_item_is_blind_until_both_graded_then_a_conflict(answers_db):
    db, nuggets = answers_db
    n1 = nuggets["1"][0]
    with Store(db) as store:
        assign(store, ["ann", "bob"], topics=["1", "2"], overlap=0.99, seed=1)  # topic 1 ann's, bob second
    ann = make_answers_app(db, "ann", "nuggets", topic="1")
    async with ann.run_test(size=SIZE) as pilot:
        assert shown(ann) == ("1", n1)
        await pilot.press("2")
        await until(pilot, lambda: shown(ann) != ("1", n1), "ann moved on")
    bob = make_answers_app(db, "bob", "nuggets", topic="1")
    async with bob.run_test(size=SIZE) as pilot:
        assert shown(bob) == ("1", n1)  # still bob's to judge, whoever graded it
        text = screen_text(bob.export_screenshot())
        assert "armyworm eats maize leaves  (unjudged)" in text and "support" not in text.replace("Support", "")
        assert "unjudged (overlap)" in text
        await pilot.press("0")
        await until(pilot, lambda: shown(bob) != ("1", n1), "bob moved on")
        assert "armyworm eats maize leaves  (conflict)" in screen_text(bob.export_screenshot())
    events = [e for e in space_events(db, "nugget:rag1") if e.kind == GRADE]
    assert [(e.assessor, e.grade, e.shown_others) for e in events] == [("ann", 2, ()), ("bob", 0, ())]
    with Store(db) as store:
        state = answer_labels(store, "nugget:rag1", "1")[n1]
        assert state.conflict and state.grades == {"ann": 2, "bob": 0}

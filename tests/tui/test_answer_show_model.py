"""A model's answer judgments on the answer judging screens: shown only when the campaign's model setting names
the model, and then every decision records it as `shown_model`; blind (nothing shown, None recorded) otherwise."""

from __future__ import annotations

import pytest
from judging_support import until
from svg_text import screen_text

from labeler.judgments.log import GRADE, MODEL
from labeler.store import Store
from labeler.tui import make_answers_app
from labeler.workbench.assignments import set_show_model
from labeler.workbench.record_judgments import Judgment, record_judgment

SIZE = (160, 45)


@pytest.fixture
def modelled_db(answers_db):
    """The judged answers, with model `lex`'s assignments of topic 1's nuggets (support, not) and its support
    grade of topic 1's first sentence (partial), as a model's events."""
    db, nuggets = answers_db
    n1, n2 = nuggets["1"]
    with Store(db) as store:
        for space, item, grade in (("nugget:rag1", n1, 2), ("nugget:rag1", n2, 0), ("support:rag1", "1", 1)):
            record_judgment(store, Judgment("1", item, "lex", grade=grade, unit=space, source=MODEL, model="lex"))
    return db, nuggets


def people_grades(db, space):
    with Store(db) as store:
        events = list(store.unit_events(space))
    return [(e.topic_id, e.unit_id, e.grade, e.shown_model) for e in events if e.kind == GRADE and e.source != MODEL]


def shown(app):
    item = app.session.current
    return None if item is None else (item.topic_id, item.item_id)


async def judge_topic_1_nuggets(db, nuggets):
    n1, n2 = nuggets["1"]
    app = make_answers_app(db, "ann", "nuggets", topic="1")
    async with app.run_test(size=SIZE) as pilot:
        assert shown(app) == ("1", n1)
        first = screen_text(app.export_screenshot())
        await pilot.press("1")
        await until(pilot, lambda: shown(app) == ("1", n2), "moved to the second nugget")
        await pilot.press("0")
        await until(pilot, lambda: shown(app) is None, "topic 1 done")
    return first


async def test_the_models_assignments_are_shown_beside_the_nuggets_and_recorded_when_the_campaign_names_it(
    modelled_db,
):
    db, nuggets = modelled_db
    n1, n2 = nuggets["1"]
    with Store(db) as store:
        set_show_model(store, "lex", by="lead")
    text = await judge_topic_1_nuggets(db, nuggets)
    assert "armyworm eats maize leaves  (unjudged)  model lex: support" in text
    assert "hermetic bags stop weevils  (unjudged)  model lex: not_support" in text
    assert "Model lex: 2 (support)" in text and "a model's guess, not a judgment" in text
    assert people_grades(db, "nugget:rag1") == [("1", n1, 1, "lex"), ("1", n2, 0, "lex")]


async def test_without_the_setting_no_models_assignment_is_shown_or_recorded(modelled_db):
    db, nuggets = modelled_db
    n1, n2 = nuggets["1"]
    text = await judge_topic_1_nuggets(db, nuggets)
    assert "armyworm eats maize leaves  (unjudged)" in text  # the list is there, without the model's words
    assert "model lex" not in text.lower() and "not_support" not in text and "a model's guess" not in text
    assert people_grades(db, "nugget:rag1") == [("1", n1, 1, None), ("1", n2, 0, None)]


async def test_another_models_setting_shows_nothing_of_this_model(modelled_db):
    db, nuggets = modelled_db
    with Store(db) as store:
        set_show_model(store, "gpt", by="lead")  # a model with no labels here: nothing of it on screen
    text = await judge_topic_1_nuggets(db, nuggets)
    assert "model lex" not in text.lower() and "model gpt" not in text.lower()
    assert [g[3] for g in people_grades(db, "nugget:rag1")] == [None, None]


async def test_the_support_screen_shows_the_models_grade_of_the_sentence_it_graded(modelled_db):
    db, _ = modelled_db
    with Store(db) as store:
        set_show_model(store, "lex", by="lead")
    app = make_answers_app(db, "ann", "support", runs=("rag1",), topic="1")
    async with app.run_test(size=SIZE) as pilot:
        assert shown(app) == ("1", "1")
        assert "Model lex: 1 (partial)" in screen_text(app.export_screenshot())
        await pilot.press("2")
        await until(pilot, lambda: shown(app) == ("1", "2"), "moved to sentence 2")
        assert "Model lex" not in screen_text(app.export_screenshot())  # the model did not grade sentence 2
        await pilot.press("0")
        await until(pilot, lambda: shown(app) is None, "topic 1 done")
    assert people_grades(db, "support:rag1") == [("1", "1", 2, "lex"), ("1", "2", 0, None)]

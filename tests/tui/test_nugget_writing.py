"""The nugget writing screen: nuggets made from a selected span or typed, edited, merged, deleted, post-edited.

Each key's change is read back from the log (`nuggets_now`, the nugget events), not from the screen.
"""

from __future__ import annotations

import json

from judging_support import open_screen, until
from textual.widgets import DataTable, Input, TextArea

from labeler.answers.nuggets import CREATE, DRAFTED, EDITED, OKAY, VITAL, WRITTEN, NuggetVersion
from labeler.answers.spaces import NUGGETS
from labeler.store import Store
from labeler.tui import JudgeRequest, make_app, make_nugget_writing_app
from labeler.tui.screens.nugget_writing import ImportancePrompt, NuggetWritingScreen
from labeler.tui.screens.prompt import ChoicePrompt, TextPrompt
from labeler.workbench.answer_labels import NuggetChange, nuggets_now, record_nugget_changes
from labeler.workbench.record_judgments import Judgment, record_judgment

SIZE = (160, 45)


def _judged(db, *, draft: bool = False) -> None:
    """d1 and d2 relevant to topic 1, d4 not; with `draft`, a model's draft nugget for the topic."""
    with Store(db) as store:
        for unit_id, grade in (("d1", 2), ("d2", 1), ("d4", 0)):
            record_judgment(store, Judgment(topic_id="1", unit_id=unit_id, assessor="ann", grade=grade))
        if draft:
            version = NuggetVersion(CREATE, "armyworm is a pest", VITAL, 1, DRAFTED, ("d1",))
            record_nugget_changes(store, [NuggetChange("1", "ndraft", version, "ann", source="model", model="gpt")])


def _nuggets(db, **more):
    with Store(db) as store:
        return nuggets_now(store, "1", **more)


def _versions(db) -> list[tuple[str, str, dict]]:
    """(nugget id, assessor, version) of every person's nugget event, in log order."""
    with Store(db) as store:
        events = list(store.unit_events(NUGGETS))
    return [(e.unit_id, e.assessor, json.loads(e.note)) for e in events if e.source != "model"]


async def _type_into_prompt(pilot, text: str) -> None:
    """Replace what the open text prompt holds with `text`, Enter, and wait until it closed."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, TextPrompt) and isinstance(app.focused, Input), "a prompt")
    prompt, field = app.screen, app.focused
    field.value = text
    await pilot.press("enter")
    await until(pilot, lambda: prompt not in app.screen_stack, "the prompt closed")


async def _modal_key(pilot, modal: type, key: str) -> None:
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, modal) and app.screen.is_mounted, f"{modal.__name__} opened")
    shown = app.screen
    await pilot.press(key)
    await until(pilot, lambda: shown not in app.screen_stack, f"{modal.__name__} closed")


async def _select(pilot, nugget_id: str) -> None:
    screen = pilot.app.screen
    table = screen.query_one(DataTable)
    ids = [n.nugget_id for n in screen.rows]
    table.focus()
    table.move_cursor(row=ids.index(nugget_id))
    await pilot.pause()


async def test_nuggets_are_written_edited_merged_deleted_and_a_draft_post_edited(judging_db):
    _judged(judging_db, draft=True)
    app = make_nugget_writing_app(judging_db, "ann", "1", drafts_from="gpt")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetWritingScreen), "the screen opened")
        screen = app.screen
        assert [u.unit_id for u in screen.desk.units] == ["d1", "d2"]  # d4 is not relevant
        assert isinstance(app.focused, TextArea)
        await pilot.press(*["shift+right"] * len("Fall armyworm"))
        assert app.focused.selected_text == "Fall armyworm"
        await pilot.press("enter")
        await _type_into_prompt(pilot, "Fall armyworm eats maize leaves")
        await _modal_key(pilot, ImportancePrompt, "v")
        await pilot.press("right_square_bracket")  # the next relevant unit: d2
        await pilot.press("a")
        await _type_into_prompt(pilot, "Weevils damage stored grain")
        await _modal_key(pilot, ImportancePrompt, "o")
        await pilot.press("a")
        await _type_into_prompt(pilot, "Caterpillars eat maize")
        await _modal_key(pilot, ImportancePrompt, "v")
        written = _nuggets(judging_db)
        assert [(n.text, n.importance, n.origin, n.sources) for n in written] == [
            ("Fall armyworm eats maize leaves", VITAL, WRITTEN, ("d1",)),
            ("Caterpillars eat maize", VITAL, WRITTEN, ("d2",)),
            ("Weevils damage stored grain", OKAY, WRITTEN, ("d2",)),
        ]
        first, third, second = (n.nugget_id for n in written)

        await _select(pilot, second)  # edit the text, then make it vital
        await pilot.press("e")
        await _type_into_prompt(pilot, "Weevils damage maize grain in store")
        await pilot.press("v")
        await until(pilot, lambda: _nuggets(judging_db)[-1].importance == VITAL, "made vital")

        await _select(pilot, third)  # mark it, then merge it into the first
        await pilot.press("space")
        await _select(pilot, first)
        await pilot.press("m")
        await _modal_key(pilot, ChoicePrompt, "enter")
        await until(pilot, lambda: len(_nuggets(judging_db)) == 2, "merged")

        await _select(pilot, second)
        await pilot.press("d")
        await _modal_key(pilot, ChoicePrompt, "enter")
        await until(pilot, lambda: len(_nuggets(judging_db)) == 1, "deleted")

        await _select(pilot, "ndraft")
        await pilot.press("p")  # the draft's text, edited in place: typing adds at its end
        await until(pilot, lambda: isinstance(app.focused, Input) and app.focused.value == "armyworm is a pest", "p")
        await pilot.press(*" of maize", "enter")
        await until(pilot, lambda: len(_nuggets(judging_db)) == 2, "post-edited")

    now = _nuggets(judging_db)
    assert [(n.text, n.origin, n.draft, n.sources, n.assessor) for n in now] == [
        ("Fall armyworm eats maize leaves", WRITTEN, None, ("d1", "d2"), "ann"),
        ("armyworm is a pest of maize", EDITED, "ndraft", ("d1",), "ann"),
    ]
    assert [(n.nugget_id, n.text, n.origin) for n in _nuggets(judging_db, model="gpt")] == [
        ("ndraft", "armyworm is a pest", DRAFTED)
    ]
    edited = now[1].nugget_id
    assert [(nugget, version["action"]) for nugget, _, version in _versions(judging_db)] == [
        (first, "create"),
        (second, "create"),
        (third, "create"),
        (second, "edit"),
        (second, "rank"),
        (third, "merge"),
        (first, "merge"),
        (second, "delete"),
        (edited, "create"),
    ]
    versions = _versions(judging_db)
    assert versions[5][2]["merged_into"] == first and versions[6][2]["merged_from"] == [third]
    assert {assessor for _, assessor, _ in versions} == {"ann"}


async def test_n_on_the_judging_screen_opens_the_topics_nuggets(judging_db):
    _judged(judging_db)
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_screen(pilot, "N", NuggetWritingScreen)
        screen = app.screen
        assert screen.topic_id == app.session.topic_id == "1"
        assert [u.unit_id for u in screen.desk.units] == ["d1", "d2"]
        assert screen.has_class("compact")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, NuggetWritingScreen), "back to judging")


async def test_nugget_text_is_shown_as_data(judging_db):
    _judged(judging_db)
    text = "crop [b]rotation[/b] [@click=app.quit]x[/] \x1b[2J"
    with Store(judging_db) as store:
        version = NuggetVersion(CREATE, text, OKAY, 1, DRAFTED)
        record_nugget_changes(store, [NuggetChange("1", "nd", version, "ann", source="model", model="gpt")])
    app = make_nugget_writing_app(judging_db, "ann", "1", drafts_from="gpt")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetWritingScreen), "the screen opened")
        row = app.screen.query_one(DataTable).get_row_at(0)
        assert row[2].plain == "crop [b]rotation[/b] [@click=app.quit]x[/] \\x1b[2J"
        assert row[4].plain == "gpt"


async def test_a_draft_post_edited_again_edits_your_nugget_and_a_text_held_already_is_refused(judging_db, monkeypatch):
    _judged(judging_db, draft=True)
    app = make_nugget_writing_app(judging_db, "ann", "1", drafts_from="gpt")
    notices: list[tuple[str, str]] = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetWritingScreen), "the screen opened")
        screen = app.screen
        monkeypatch.setattr(screen, "notify", lambda message, **kw: notices.append((message, kw.get("severity", ""))))
        await _select(pilot, "ndraft")
        await pilot.press("p")
        await _type_into_prompt(pilot, "armyworm is a maize pest")
        await until(pilot, lambda: len(_nuggets(judging_db)) == 1, "post-edited")
        mine = _nuggets(judging_db)[0]
        await _select(pilot, "ndraft")
        await pilot.press("p")  # again: the prompt holds the nugget made from the draft
        await until(pilot, lambda: isinstance(app.focused, Input) and app.focused.value == mine.text, "p again")
        await pilot.press(*" in Africa", "enter")
        await until(pilot, lambda: _nuggets(judging_db)[0].versions == 2, "edited again")
        before = _versions(judging_db)
        await pilot.press("a")
        await _type_into_prompt(pilot, "armyworm is a maize pest in  Africa")
        await _modal_key(pilot, ImportancePrompt, "o")
        await until(pilot, lambda: any(severity == "error" for _, severity in notices), "the refusal shown")
    assert _versions(judging_db) == before  # the text held already: nothing logged
    assert "has this text already" in notices[-1][0]
    now = _nuggets(judging_db)
    assert [(n.nugget_id, n.text, n.origin, n.draft, n.versions) for n in now] == [
        (mine.nugget_id, "armyworm is a maize pest in Africa", EDITED, "ndraft", 2)
    ]
    assert [version["action"] for _, _, version in before] == ["create", "edit"]
    assert [(n.text, n.origin) for n in _nuggets(judging_db, model="gpt")] == [("armyworm is a pest", DRAFTED)]

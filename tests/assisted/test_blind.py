"""Blind by default (issue 17 item 2): the judging UI shows a model label only when the campaign says so.

A small workbench holds a model's labels with probabilities no other text on any screen has
(0.137, 0.863: shown as 0.14 and 0.86) and a model name nothing else carries. A blind session
judges several units, opens every screen its keys reach, and no rendered screen holds the model's
name, probabilities or the model-label box; every event it records has `shown_model` None. With
`assign --show-model NAME` the label is shown for the pairs the model labelled, and each event
records the model (or None for a pair the model did not label).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support import Cli, new_workbench

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))

from judging_support import answer_prompt, back_to, open_screen, palette, until  # noqa: E402
from svg_text import screen_text  # noqa: E402

from labeler.store import Store  # noqa: E402
from labeler.tui import JudgeRequest, make_app  # noqa: E402

MODEL = "zetajudge7"
SIZE = (140, 40)
DOCS = {
    "d1": ("Maize pests", "Fall armyworm caterpillars eat maize leaves."),
    "d2": ("Stored grain", "Weevils damage stored maize grain."),
    "d3": ("Milk fever", "Milk fever is low blood calcium in dairy cows."),
    "d4": ("Cheese", "Cheese is made from milk with starter cultures."),
    "d5": ("Pulsars", "Pulsars are rotating neutron stars."),
}
TOPICS = (
    "1\tmaize pests\tHow to control maize pests?\tNames a pest.\n2\tmilk fever\tWhat is milk fever?\tExplains it.\n"
)
RUN = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d4 3 7 r\n2 Q0 d3 1 9 r\n2 Q0 d4 2 8 r\n2 Q0 d5 3 7 r\n"
# the model labelled every pair but (1, d4); each probability is one no screen shows for anything else
PROBS = {"0": 0.137, "1": 0.863, "2": 0.0, "3": 0.0}
MODEL_LABELS = [("1", "d1", 1), ("1", "d2", 1), ("2", "d3", 1), ("2", "d4", 1), ("2", "d5", 1)]
LEAKS = (MODEL, "0.14", "0.86", "0.137", "0.863", "a model's guess")


@pytest.fixture
def workbench(tmp_path):
    db = new_workbench(tmp_path / "blind.db")
    corpus = "".join(json.dumps({"id": k, "title": t, "text": x}) + "\n" for k, (t, x) in DOCS.items())
    (tmp_path / "corpus.jsonl").write_text(corpus)
    (tmp_path / "topics.tsv").write_text(TOPICS)
    (tmp_path / "run.txt").write_text(RUN)
    model = "".join(json.dumps({"topic": t, "unit": u, "grade": g, "probs": PROBS}) + "\n" for t, u, g in MODEL_LABELS)
    (tmp_path / "model.jsonl").write_text(model)
    cli = Cli(db)
    cli("corpus", "import", tmp_path / "corpus.jsonl")
    cli("topics", "import", tmp_path / "topics.tsv")
    cli("runs", "import", tmp_path / "run.txt", "--name", "bm25")
    cli("pool", "build", "--depth", "3")
    # imported under the judging assessor's own name: the history screen must still not list them
    cli("judgments", "import", tmp_path / "model.jsonl", "--source", "model", "--model", MODEL, "--assessor", "ann")
    return cli


def human_events(db):
    with Store(db) as store:
        return [e for e in reversed(list(store.recent_events(limit=1000))) if e.source != "model"]


def rendered(app) -> str:
    """What the screen on top shows, as text (the SVG screenshot Textual exports, read back line by line)."""
    return screen_text(app.export_screenshot())


def assert_blind(text: str, where: str) -> None:
    for leak in LEAKS:
        assert leak not in text, f"{where} shows {leak!r}:\n{text}"


async def visit_every_screen(pilot, seen: dict[str, str]) -> None:
    """Open each screen the judging screen's keys (and the palette) reach; keep what each rendered."""
    from labeler.tui.screens.adjudicate import AdjudicationScreen
    from labeler.tui.screens.coverage import CoverageScreen
    from labeler.tui.screens.flagged import FlaggedScreen
    from labeler.tui.screens.help import HelpScreen
    from labeler.tui.screens.history import HistoryScreen
    from labeler.tui.screens.judge import JudgeScreen
    from labeler.tui.screens.snapshots import SnapshotsScreen
    from labeler.tui.screens.topics import TopicsScreen

    app = pilot.app
    for key, screen in (
        ("h", HistoryScreen),
        ("F", FlaggedScreen),
        ("t", TopicsScreen),
        ("a", AdjudicationScreen),
        ("c", CoverageScreen),
        ("question_mark", HelpScreen),
    ):
        await open_screen(pilot, key, screen)
        await pilot.pause()
        seen[screen.__name__] = rendered(app)
        if screen is HistoryScreen:
            seen["history events"] = "\n".join(d.event_id for d in app.screen.decisions)
        await back_to(pilot, "escape", JudgeScreen)
    await pilot.press("r")  # the runs that brought the pair (provenance)
    await pilot.pause()
    seen["provenance"] = rendered(app)
    await palette(pilot, "Snapshots")
    await until(pilot, lambda: isinstance(app.screen, SnapshotsScreen), "the snapshots screen")
    await pilot.pause()
    seen["SnapshotsScreen"] = rendered(app)
    await back_to(pilot, "escape", JudgeScreen)


async def test_a_blind_campaign_never_renders_a_model_label(workbench):
    db = workbench.db
    workbench("assign", "--list")  # listing the plan turns nothing on
    app = make_app(JudgeRequest(db_path=db, assessor="ann"))
    seen: dict[str, str] = {}
    async with app.run_test(size=SIZE) as pilot:
        for step in range(3):  # d1, d2 (labelled by the model), d4 (not)
            assert app.session.model_label is None
            seen[f"judging {step}"] = rendered(app)
            await pilot.press("2")
        await pilot.press("right")  # topic 1 is done: on to topic 2
        await until(pilot, lambda: app.session.topic_id == "2", "topic 2 opened")
        await pilot.press("f")  # a flag and a note on the next topic's first pair are decisions too
        await answer_prompt(pilot, "")
        await pilot.press("n")
        await answer_prompt(pilot, "looked")
        seen["judging flagged"] = rendered(app)
        await visit_every_screen(pilot, seen)
        await pilot.press("s", "0")
        seen["judging last"] = rendered(app)
    for where, text in seen.items():
        if where != "history events":
            assert_blind(text, where)
    # the model's labels make no label of their own: no pair looks judged, nothing is in conflict
    assert "unjudged" in seen["judging 0"] and "judged by others" not in seen["judging 0"]
    assert "No conflicts" in seen["AdjudicationScreen"]
    events = human_events(db)
    # the history lists ann's own decisions only, not the model's labels imported under her name
    listed = seen.pop("history events").split("\n")
    assert listed and set(listed) <= {e.event_id for e in events}
    assert [e.kind for e in events] == ["grade", "grade", "grade", "flag", "note", "skip", "grade"]
    assert all(e.shown_model is None for e in events)


@pytest.mark.parametrize("served", [False, True])  # `labeler serve`'s browser sessions run the same app
async def test_shown_model_is_rendered_and_recorded(workbench, served):
    db = workbench.db
    workbench("assign", "--show-model", MODEL, "--assigned-by", "lead")
    app = make_app(JudgeRequest(db_path=db, assessor="ann", served=served))
    async with app.run_test(size=SIZE) as pilot:
        label = app.session.model_label
        assert (label.model, label.grade) == (MODEL, 1) and app.session.current.unit_id == "d1"
        text = rendered(app)
        assert f"Model {MODEL}: 1" in text and "0=0.14" in text and "1=0.86" in text
        await pilot.press("2", "3")  # d1, d2: the model's label was on screen
        assert app.session.current.unit_id == "d4" and app.session.model_label is None  # the model left d4 alone
        assert_blind(rendered(app), "a pair the model did not label")
        await pilot.press("0")
    events = human_events(db)
    assert [(e.unit_id, e.grade, e.shown_model) for e in events] == [
        ("d1", 2, MODEL),
        ("d2", 3, MODEL),
        ("d4", 0, None),
    ]


async def test_turning_it_off_is_blind_again_and_the_history_is_kept(workbench):
    workbench("assign", "--show-model", MODEL, "--assigned-by", "lead")
    workbench("assign", "--show-model", "none", "--assigned-by", "chair")
    app = make_app(JudgeRequest(db_path=workbench.db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.model_label is None
        assert_blind(rendered(app), "judging after --show-model none")
        await pilot.press("1")
    assert [e.shown_model for e in human_events(workbench.db)] == [None]
    from labeler.workbench.assignments import show_model_history

    with Store(workbench.db) as store:
        history = show_model_history(store)
    assert [(s.model, s.by) for s in history] == [(MODEL, "lead"), (None, "chair")]


@pytest.mark.parametrize("show", [False, True])
def test_next_json_never_carries_a_model_label(workbench, show):
    """`next` hands a unit to a script, and `judgments add` records no model shown: so `next` shows none."""
    if show:
        workbench("assign", "--show-model", MODEL)
    claimed = workbench.json("next", "--assessor", "ann")
    assert claimed["unit"] == "d1"  # a pair the model labelled
    text = json.dumps(claimed)
    for leak in (MODEL, "0.137", "0.863", "probs", "model"):
        assert leak not in text


async def test_undo_on_a_blind_campaign_neither_shows_nor_undoes_a_model_label(workbench):
    """The model's labels carry ann's name (imported by her): undo is for her decisions, not the model's."""
    db = workbench.db
    app = make_app(JudgeRequest(db_path=db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("backspace")  # nothing of ann's to undo yet
        await pilot.pause()
        assert_blind(rendered(app), "undo with nothing to undo")
        await pilot.press("3", "backspace")  # her grade of d1 is undone, the model's stays
        await pilot.pause()
        assert app.session.current.unit_id == "d1"
        assert_blind(rendered(app), "after an undo")
    with Store(db) as store:
        events = list(reversed(store.recent_events(limit=100)))
    assert [(e.kind, e.source) for e in events if e.source != "model"] == [("grade", "human"), ("retract", "human")]
    assert sum(e.source == "model" for e in events) == len(MODEL_LABELS)


def test_a_change_of_setting_reaches_a_running_session_by_the_next_pair(workbench):
    from labeler.workbench.session import JudgingSession

    with Store(workbench.db) as store:
        session = JudgingSession(store, "ann")
        session.start()
        assert session.current.unit_id == "d1" and session.model_label is None
        workbench("assign", "--show-model", MODEL)  # another connection, as a campaign lead's shell is
        session.judge(2)  # d1 was judged blind
        assert session.current.unit_id == "d2" and session.model_label.probs == {0: 0.137, 1: 0.863, 2: 0.0, 3: 0.0}
        session.skip()  # d2 skipped with the label on screen
        workbench("assign", "--show-model", "none")
        assert session.current.unit_id == "d4"
        session.next_pair()  # back to d2, blind again
        assert session.current.unit_id == "d2" and session.model_label is None
        session.judge(1)
    assert [(e.unit_id, e.kind, e.shown_model) for e in human_events(workbench.db)] == [
        ("d1", "grade", None),
        ("d2", "skip", MODEL),
        ("d2", "grade", None),
    ]

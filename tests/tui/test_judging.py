"""Driving the real judging app headless and checking what the workbench holds afterwards."""

from __future__ import annotations

from judging_support import answer_prompt, events, grades, until

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.judge import JudgeScreen
from labeler.tui.screens.prompt import TextPrompt
from labeler.tui.widgets.status_bar import StatusBar
from labeler.tui.widgets.unit_view import UnitView

SIZE = (140, 40)


def current(app):
    return app.session.current.unit_id if app.session.current else None


async def test_grade_keys_judge_commit_and_advance(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        assert (app.session.topic_id, current(app)) == ("1", "d1")  # first unjudged unit, first topic
        await pilot.press("2", "0", "3")
        assert current(app) == "d4"
        status = str(app.screen.query_one(StatusBar).render())
        assert "d4" in status and "4/4" in status and "left 1" in status
    assert grades(judging_db) == {("1", "d1"): 2, ("1", "d2"): 0, ("1", "d6"): 3}
    assert all(e.active_ms is not None and e.order == "pool" for e in events(judging_db, "grade"))


async def test_a_key_off_the_scale_does_nothing(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("7")
        assert current(app) == "d1"
    assert events(judging_db) == []


async def test_skip_puts_the_pair_last(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        assert current(app) == "d2"
        await pilot.press("1", "1", "1")
        assert current(app) == "d1"  # the skipped pair comes back at the end
    assert [e.kind for e in events(judging_db)] == ["skip", "grade", "grade", "grade"]


async def test_unsure_asks_for_a_reason(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        await answer_prompt(pilot, "jargon", typed=True)
        assert current(app) == "d2"
    (unsure,) = events(judging_db, "unsure")
    assert (unsure.unit_id, unsure.reason) == ("d1", "jargon")


async def test_unsure_cancelled_records_nothing(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u", "escape")
        assert current(app) == "d1"
    assert events(judging_db) == []


async def test_flag_and_note_keep_the_pair_open(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        await answer_prompt(pilot, "")  # Enter on an empty reason: a flag without one
        await pilot.press("n", *"check date", "enter")
        assert current(app) == "d1"
    assert [(e.kind, e.reason, e.note) for e in events(judging_db)] == [
        ("flag", None, None),
        ("note", None, "check date"),
    ]


async def test_flag_asks_why_and_escape_flags_nothing(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, TextPrompt) and app.screen.is_mounted, "the reason asked")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, JudgeScreen), "the prompt closed")
        assert events(judging_db) == []
        await pilot.press("f")
        await answer_prompt(pilot, "date looks wrong", typed=True)
        assert current(app) == "d1"
    assert [(e.kind, e.unit_id, e.reason) for e in events(judging_db, "flag")] == [("flag", "d1", "date looks wrong")]


async def test_undo_reopens_the_last_judgment(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "0")
        assert current(app) == "d6"
        await pilot.press("backspace")
        assert current(app) == "d2"
        await pilot.press("3")
    assert grades(judging_db) == {("1", "d1"): 2, ("1", "d2"): 3}
    assert [e.kind for e in events(judging_db)] == ["grade", "grade", "retract", "grade"]


async def test_history_reopens_an_earlier_decision(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "0", "h")
        await pilot.press("down", "enter")  # newest first: row 2 is d1
        assert current(app) == "d1"
        await pilot.press("1")  # a correction is a new event
    assert grades(judging_db)[("1", "d1")] == 1


async def test_previous_shows_the_pair_before(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "left")
        assert current(app) == "d1"
        assert "judged by you (2)" in str(app.screen.query_one(StatusBar).render())
        await pilot.press("right")
        assert current(app) in ("d2", "d6", "d4")


async def test_topic_done_and_no_answer(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "d")
        assert app.session.topic_id == "2"
        await pilot.press("0", "0", "x")  # nothing relevant in topic 2: no answer
        assert app.session.topic_id == "3"
    with Store(judging_db) as store:
        marks = [(e.topic_id, e.reason) for e in store.review_events()]
    assert marks == [("1", "reviewed"), ("2", "no_answer")]


async def test_no_answer_is_refused_with_a_relevant_label(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "x")
        assert app.session.topic_id == "1"
    with Store(judging_db) as store:
        assert store.review_events() == []


async def test_switching_topic(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.press("down", "down", "enter")
        assert (app.session.topic_id, current(app)) == ("3", "d5")
        await pilot.press("1")
    assert grades(judging_db) == {("3", "d5"): 1}


async def test_start_topic_and_order_from_the_factory(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann", topic="2", order="random", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.topic_id == "2"
        await pilot.press("1")
    (event,) = events(judging_db)
    assert (event.order, event.seed) == ("random", 3)


async def test_creating_a_snapshot(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "0")
        app.action_create_snapshot()
        await answer_prompt(pilot, "round one")
        await app.workers.wait_for_complete()
        await pilot.pause()
    with Store(judging_db) as store:
        (snapshot,) = store.snapshots()
        assert snapshot.message == "round one" and store.snapshot_labels("v1")[0][:3] == ("1", "d1", 2)


async def test_resolving_a_conflict(judging_db):
    from labeler.workbench.record_judgments import Judgment, record_judgment

    with Store(judging_db) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="bob", grade=3))
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="cat", grade=0))
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("2")
        await pilot.press("escape")
        assert isinstance(app.screen, JudgeScreen)
    (adjudication,) = events(judging_db, "adjudicate")
    assert (adjudication.unit_id, adjudication.grade, adjudication.assessor) == ("d1", 2, "ann")
    from labeler.workbench.read_labels import pair_state

    with Store(judging_db) as store:
        state = pair_state(store, "doc", "1", "d1")
    assert state.label == 2 and not state.conflict


async def test_run_names_are_hidden_until_asked(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        provenance = app.screen.query_one("#provenance")
        assert not provenance.display
        await pilot.press("r")
        assert provenance.display and "bm25 #1" in str(provenance.render())


async def test_a_chunk_is_shown_inside_its_parent_document(chunk_db):
    app = make_app(JudgeRequest(db_path=chunk_db, assessor="ann"))  # the latest pool is the chunk pool
    async with app.run_test(size=SIZE) as pilot:
        assert current(app) == "d6#2"
        view = app.screen.query_one(UnitView)
        shown = "".join(p.text for p in view.parts)
        assert "Maize was domesticated in Mexico" in shown  # the parent's text, not only the chunk
        words = view.view.text.split()
        chunk_text = " ".join(words[20:30])  # the third 10-word window
        assert view.view.text[view.view.span[0] : view.view.span[1]] == chunk_text
        status = str(app.screen.query_one(StatusBar).render())
        assert "chunk" in status and "chunking w10" in status and "parent d6" in status
        await pilot.press("minus", "minus", "minus")
        assert "".join(p.text for p in view.parts) == chunk_text  # the chunk alone
        await pilot.press("2")
    assert grades(chunk_db, unit="chunk:w10") == {("1", "d6#2"): 2}


async def test_highlight_terms_and_jump_between_hits(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(UnitView)
        assert {h.term for h in view.hits} == {"maize"}  # "pests" is in the title, not in d1's text
        await pilot.press("slash", *"scou weekly", "enter")
        assert view.counts() == {"maize": 1, "pests": 0, "scou": 0, "weekly": 1}  # whole words only
        await pilot.press("right_square_bracket")
        assert view.hit_index == 0


async def test_an_empty_queue_says_what_to_do(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann", topic="3"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "1")
        assert app.session.current is None
        text = str(app.screen.query_one(UnitView).query("Static").first().render())
        assert "Nothing for ann to judge in topic 3: every pair of topic 3 is judged (2 pairs)" in text
        assert "press d to mark the topic done" in text and "labeler pool build" in text


async def test_next_on_an_empty_queue_goes_to_the_next_topic(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann", topic="2"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("0", "0")
        assert app.session.current is None and app.session.topic_id == "2"
        await pilot.press("right")
        assert (app.session.topic_id, current(app)) == ("3", "d5")
    with Store(judging_db) as store:
        assert store.review_events() == []  # moving on marks nothing


async def open_coverage(app, pilot):
    """Press c, wait for the coverage worker, and return the screen with its result."""
    from labeler.tui.screens.coverage import CoverageScreen

    await pilot.press("c")
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, CoverageScreen) and screen.result is not None
    return screen


async def test_coverage_screen_matches_the_cli(judging_db):
    import json

    from click.testing import CliRunner

    from labeler.cli import cli

    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "0", "3", "0", "d")  # topic 1 judged and marked done
        screen = await open_coverage(app, pilot)
        table = screen.query_one("#runs")
        shown = {str(table.get_row_at(i)[0]): table.get_row_at(i)[1:] for i in range(table.row_count)}
        header = [str(column.label) for column in table.columns.values()]
        summary = str(screen.query_one("#summary").render())
    expected = json.loads(
        CliRunner()
        .invoke(
            cli, ["--db", str(judging_db), "coverage", "--snapshot", "current", "--depth", "4", "--no-loro", "--json"]
        )
        .stdout
    )
    row = expected["runs"]["bm25"]
    # Judged@k over every topic and over the scored ones, each labelled with its count (1 scored: topic 1)
    assert header[1:3] == ["Judged@4 (all 3)", "Judged@4 (1 scored)"]
    assert shown["bm25"] == [
        f"{row['judged']:.3f}",
        f"{row['judged_scored']:.3f}",
        row["unjudged"],
        row["unique"],
        row["unique_relevant"],
    ]
    effort = expected["effort"]
    assert (
        f"Judging the {effort['unjudged']} unjudged units of the top 4 takes about {effort['hours']} h "
        f"{effort['pace']['description']}." in summary
    )
    assert expected["pool"]["pace"]["description"] in summary and "timed" in effort["pace"]["description"]
    assert screen.result.runs["bm25"].recall_curve == row["recall_curve"]


async def test_coverage_screen_on_a_chunk_pool_scores_the_chunk_runs_and_names_the_others(chunk_db):
    """Chunk labels can score only runs of that chunking: the screen covers those and says which it left out."""
    from labeler.store import Store
    from labeler.workbench.coverage import CoverageRequest, coverage_report

    app = make_app(JudgeRequest(db_path=chunk_db, assessor="ann"))  # the latest pool is the chunk pool
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")  # d6#2 relevant
        screen = await open_coverage(app, pilot)
        table = screen.query_one("#runs")
        shown = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        summary = str(screen.query_one("#summary").render())
    assert shown == ["chunks"] and screen.result.unit == "chunk:w10"
    assert screen.result.runs_not_scored == ["bm25"]
    assert "Not scored here (they rank other units): bm25;" in summary
    with Store(chunk_db) as store:  # what the screen shows is the workbench's own report on those runs
        expected = coverage_report(
            store,
            CoverageRequest(
                snapshot="current", depth=screen.result.depth, loro=False, runs=["chunks"], space="chunk:w10"
            ),
        )
    assert screen.result.runs == expected.runs and screen.result.topics == expected.topics


async def test_a_served_session_asks_for_the_assessor_first(judging_db):
    app = make_app(JudgeRequest(db_path=judging_db, assessor="unknown", ask_assessor=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, JudgeScreen)
        await answer_prompt(pilot, "carol")
        await until(pilot, lambda: isinstance(app.screen, JudgeScreen), "the judging screen")
        assert app.session.assessor == "carol"
        await pilot.press("2")
    assert grades(judging_db, assessor="carol") == {("1", "d1"): 2}


async def test_a_read_only_workbench_is_a_notice_and_the_annotator_stays(judging_db, monkeypatch):
    """The machine refuses the write (a read-only file): the UI says so, stays open, and records nothing."""
    import labeler.store as store_package
    from labeler.store.connection import connect as original

    monkeypatch.setattr(store_package, "connect", lambda path, readonly=False: original(path, readonly=True))
    app = make_app(JudgeRequest(db_path=judging_db, assessor="ann"))
    notices = []
    async with app.run_test(size=SIZE) as pilot:
        monkeypatch.setattr(app, "notify", lambda message, **kw: notices.append(message))
        await pilot.press("2")
        assert app.is_running and current(app) == "d1"  # still on the unit it could not record
    monkeypatch.undo()
    assert any("read-only: nothing was written" in notice for notice in notices), notices
    assert grades(judging_db) == {}

"""User data that looks like markup is shown as it is, on every screen, and recorded with the exact ids.

Textual and Rich read a `str` given to a widget, a table cell or a notification as markup:
`[x]` vanished, `[/b]` raised MarkupError (the app crashed), `[@click=app.quit]q[/]` made
a clickable `q` that quit, `:cat:` became an emoji in table cells. Here every name in the
workbench is such text, and the tests read what the widgets draw.
"""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from judging_support import answer_prompt, back_to, events, grades, open_screen, palette, settle_table, until
from support import listening, notices
from textual.content import Content
from textual.geometry import Region
from textual.widgets import DataTable, Static
from textual.worker import WorkerFailed

from labeler.errors import LabelerError
from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.screens.coverage import CoverageScreen
from labeler.tui.screens.flagged import FlaggedScreen
from labeler.tui.screens.help import HelpScreen
from labeler.tui.screens.history import HistoryScreen
from labeler.tui.screens.judge import JudgeScreen
from labeler.tui.screens.prompt import TextPrompt
from labeler.tui.screens.snapshots import SnapshotsScreen
from labeler.tui.screens.topics import TopicsScreen
from labeler.tui.widgets.status_bar import StatusBar
from labeler.tui.widgets.topic_card import Provenance, Rubric, TopicCard
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.init import init_workbench
from labeler.workbench.pools import build_pool
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import import_run
from labeler.workbench.snapshots import create_snapshot
from labeler.workbench.topics import import_topics

SIZE = (200, 50)
CLICK = "[@click=app.quit]q[/]"
LINK = "[link=http://x]l[/link]"

T1 = "q[/b]"  # sorts first
T2 = "r" + CLICK
TITLE1 = "maize [bold]x[/bold] pests [x] :cat:"
DESCRIPTION1 = "How to control [/b] pests? " + CLICK
NARRATIVE1 = "Names a pest " + LINK + "."
TITLE2 = "cheese [x]"
D1, D2, D3, D4, D5 = "d[x]", "[/b]", "[bold]x[/bold]", LINK, "d" + CLICK
DOC_TITLE1 = "Maize [/b] pests [x]"
RUN = "bm25[/b]"
CHUNKING = "w10[x]"
CHUNK_RUN = "chunks" + CLICK
ASSESSOR = "ann[/b]"
NOTE = "see [/b] and " + CLICK
REASON = "[bold]x[/bold] " + LINK
FLAG_REASON = "odd [x] date [/]"
MESSAGE = "round [/b] [x] " + CLICK
LABELS = ("not [x] relevant", "related [/b]", "highly " + CLICK)
DEFINITIONS = ("[/b] says nothing", "on the subject " + LINK, "answers [x]")
LONG = " ".join(f"maize{i}" for i in range(40))


@pytest.fixture(scope="module")
def markup_template(tmp_path_factory) -> Path:
    """The markup workbench, built once for this module and settled (no -wal or -shm) for copying."""
    folder = tmp_path_factory.mktemp("markup-template")
    db = make_workbench(folder)
    Store(db).close()  # the last connection checkpoints the WAL and removes its files
    assert sorted(p.name for p in folder.glob("markup.db*")) == ["markup.db"]
    return db


@pytest.fixture
def markup_db(tmp_path, markup_template):
    """Topic q[/b] pools d[x], [/b], [bold]x[/bold], d[@click…]; r[@click…] pools [link…], [bold]x[/bold].

    Each test gets its own copy of the module's template.
    """
    db = tmp_path / "markup.db"
    shutil.copyfile(markup_template, db)
    return db


def make_workbench(tmp_path, *, doc_run: bool = True):
    scale = tmp_path / "grades[x].tsv"
    scale.write_text(
        "".join(
            f"{g}\t{label}\t{definition}\n"
            for g, (label, definition) in enumerate(zip(LABELS, DEFINITIONS, strict=True))
        )
        + "threshold\t1\n"
    )
    db = tmp_path / "markup.db"
    init_workbench(db, scale=str(scale))
    docs = {
        D1: (DOC_TITLE1, "Fall armyworm [bold]x[/bold] eats maize leaves.\n\nScout " + CLICK + " weekly."),
        D2: ("Stored " + LINK + " grain", "Weevils [/b] damage stored maize."),
        D3: ("Cheese", "Cheese is made from milk."),
        D4: ("Pulsars", "Pulsars spin."),
        D5: ("Long maize", LONG),
    }
    (tmp_path / "corpus.jsonl").write_text(
        "".join(json.dumps({"id": k, "title": t, "text": x}) + "\n" for k, (t, x) in docs.items())
    )
    (tmp_path / "topics.jsonl").write_text(
        json.dumps({"id": T1, "title": TITLE1, "description": DESCRIPTION1, "narrative": NARRATIVE1})
        + "\n"
        + json.dumps({"id": T2, "title": TITLE2, "description": "What [/b]?", "narrative": ""})
        + "\n"
    )
    ranking = [(T1, D1), (T1, D2), (T1, D3), (T1, D5), (T2, D4), (T2, D3)]
    (tmp_path / "run.txt").write_text("".join(f"{t} Q0 {d} {i} {9 - i} r\n" for i, (t, d) in enumerate(ranking, 1)))
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.jsonl")
        if doc_run:
            import_run(store, tmp_path / "run.txt", RUN)
            build_pool(store, 4)
    return db


def add_chunk_pool(db, tmp_path) -> None:
    """Chunking w10[x] and a chunk pool of one chunk of d[@click…] (the latest pool)."""
    with Store(db) as store:
        chunk_corpus(store, CHUNKING, size=10, overlap=0)
        (tmp_path / "chunks.txt").write_text(f"{T1} Q0 {D5}#2 1 9 c\n")
        import_run(store, tmp_path / "chunks.txt", CHUNK_RUN, unit=f"chunk:{CHUNKING}")
        build_pool(store, 1, runs=[CHUNK_RUN])


# -- reading what the app shows --------------------------------------------------------------


def drawn(widget) -> str:
    """The lines the widget draws, padding and border included, as on the screen."""
    return "\n".join(strip.text for strip in widget.render_lines(Region(0, 0, *widget.outer_size)))


def squeezed(text: str) -> str:
    return "".join(text.split())


def assert_shows(widget, *texts: str) -> None:
    """Each text is drawn verbatim (line wrapping aside); a Static's content holds it and no action."""
    visual = widget.render() if isinstance(widget, Static) else None
    if isinstance(visual, Content):
        for text in texts:
            assert text in visual.plain, (text, visual.plain)
        assert not any("@click" in str(span.style) for span in visual.spans)
    lines = squeezed(drawn(widget))
    for text in texts:
        assert squeezed(text) in lines, (text, drawn(widget))


async def table_cells(pilot, table: DataTable) -> list[list[str]]:
    """The cells as the table draws them (a str cell was read as markup), header first, spaces removed.

    Column widths follow new rows only when the table is next idle, and lines drawn before
    that stay in the table's line cache (keyed without the widths): under load a refresh
    came in between, and the header and older rows were read at the old widths (a message
    cut to `round [`, the width of "message"). So: wait until the widths are settled, then
    draw from empty caches.
    """
    await settle_table(pilot, table)
    table.notify_style_update()  # empties the render caches
    lines = drawn(table).splitlines()
    return [[squeezed(cell) for cell in line.split("  ") if cell.strip()] for line in lines if line.strip()]


def toasts(app) -> list[str]:
    return [toast.render().plain for toast in app.screen.query("Toast")]


async def assert_notified(pilot, message: str) -> None:
    """The notification holds the message, as plain text, and its toast draws it verbatim.

    Waits for both: the toast is mounted after the notification is made.
    """
    app = pilot.app
    await until(pilot, lambda: any(n.message == message for n in notices(app)), f"notified {message!r}")
    assert any(n.message == message and not n.markup for n in notices(app)), [n.message for n in notices(app)]
    await until(pilot, lambda: any(message in toast for toast in toasts(app)), f"a toast draws {message!r}")


async def until_shows(pilot, widget, *texts: str) -> None:
    """`assert_shows` once the widget has drawn the texts: it is laid out again after a key changed it."""
    await until(pilot, lambda: all(squeezed(t) in squeezed(drawn(widget)) for t in texts), f"{texts} drawn")
    assert_shows(widget, *texts)


async def click_on(pilot, widget, text: str) -> None:
    """Click in the middle of `text` where the widget draws it."""
    await pilot.app.workers.wait_for_complete()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    for y, line in enumerate(drawn(widget).splitlines()):
        x = line.find(text)
        if x >= 0:
            await pilot.click(widget, offset=(x + len(text) // 2, y))
            await pilot.pause()
            return
    raise AssertionError(f"{text!r} not drawn in {drawn(widget)!r}")


def current(app):
    return app.session.current.unit_id if app.session.current else None


# -- the judging screen ----------------------------------------------------------------------


async def test_the_judging_screen_shows_every_name_as_it_is(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        screen = app.screen
        assert (app.session.topic_id, current(app)) == (T1, D1)
        assert_shows(screen.query_one(TopicCard), f"Topic {T1}", TITLE1, DESCRIPTION1, NARRATIVE1)
        assert_shows(screen.query_one(Rubric), "grades[x]", *LABELS, *DEFINITIONS)
        assert_shows(
            screen.query_one("#unit-body", Static),
            DOC_TITLE1,
            "Fall armyworm [bold]x[/bold] eats",
            f"Scout {CLICK} weekly.",
        )
        assert_shows(screen.query_one(StatusBar), f"│ {D1} │", ASSESSOR)
        footer = " ".join(str(key.render()) for key in screen.query("FooterKey"))
        assert all(label in footer for label in LABELS)

        await pilot.press("r")
        await until_shows(pilot, screen.query_one(Provenance), f"Runs: {RUN} #1")

        await pilot.press("f")
        await answer_prompt(pilot, FLAG_REASON)
        await assert_notified(pilot, f"Flagged {D1} for review.")
        await pilot.press("n")
        await answer_prompt(pilot, NOTE)
        await assert_notified(pilot, "Note saved.")
        await pilot.press("slash")
        await answer_prompt(pilot, "[/b] [x] maize")
        await until(pilot, lambda: any("[/b]: 0" in t and "[x]: 0" in t for t in toasts(app)), "the term counts shown")

        await pilot.press("u")
        await answer_prompt(pilot, REASON)
        assert current(app) == D2
        await until_shows(pilot, screen.query_one("#unit-body", Static), f"Stored {LINK} grain", "Weevils [/b] damage")
        await pilot.press("1", "backspace")
        await assert_notified(pilot, f"Undid grade 1 on {D2}: reopened.")
        assert current(app) == D2
        await pilot.press("2")
        assert current(app) == D3
        assert app.is_running and app.screen is screen
    assert [(e.kind, e.topic_id, e.unit_id, e.grade, e.reason, e.note) for e in events(markup_db)] == [
        ("flag", T1, D1, None, FLAG_REASON, None),
        ("note", T1, D1, None, None, NOTE),
        ("unsure", T1, D1, None, REASON, None),
        ("grade", T1, D2, 1, None, None),
        ("retract", T1, D2, None, None, None),
        ("grade", T1, D2, 2, None, None),
    ]
    assert all(e.assessor == ASSESSOR for e in events(markup_db))
    assert grades(markup_db, assessor=ASSESSOR) == {(T1, D2): 2}


async def test_a_chunk_names_its_chunking_and_parent_as_they_are(tmp_path):
    db = make_workbench(tmp_path, doc_run=False)  # chunk runs only: coverage of chunk labels needs that
    add_chunk_pool(db, tmp_path)
    app = make_app(JudgeRequest(db_path=db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        assert current(app) == f"{D5}#2"
        assert_shows(app.screen.query_one(StatusBar), f"chunk │ {D5}#2 │", f"chunking {CHUNKING}", f"parent {D5}")
        await pilot.press("r")
        await until_shows(pilot, app.screen.query_one(Provenance), f"Runs: {CHUNK_RUN} #1")
        await pilot.press("minus")
        await assert_notified(pilot, "Context: ±3 chunks")
        await pilot.press("2", "d", "c")
        await until(pilot, lambda: isinstance(app.screen, CoverageScreen) and app.screen.result is not None, "coverage")
        assert_shows(app.screen.query_one("#summary", Static), f"Current labels (chunk:{CHUNKING})")
        assert (await table_cells(pilot, app.screen.query_one("#runs", DataTable)))[1][0] == squeezed(CHUNK_RUN)
    assert grades(db, assessor=ASSESSOR, unit=f"chunk:{CHUNKING}") == {(T1, f"{D5}#2"): 2}


async def test_an_empty_topic_is_named_as_it_is_and_clicking_its_name_does_nothing(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR, topic=T2))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        assert_shows(app.screen.query_one(TopicCard), f"Topic {T2}", TITLE2, "What [/b]?")
        await pilot.press("0", "1")
        assert app.session.current is None
        body = app.screen.query_one("#unit-body", Static)
        assert_shows(body, f"Nothing for {ASSESSOR} to judge in topic {T2}: every pair of topic {T2} is judged")
        await click_on(pilot, body, CLICK)  # parsed, its `q` was a link to app.quit
        assert app.is_running
        await pilot.press("d")
        await assert_notified(pilot, f"Topic {T2} marked reviewed.")
        assert app.session.topic_id == T1
        (toast,) = [t for t in app.screen.query("Toast") if T2 in t.render().plain]
        await click_on(pilot, toast, CLICK)
        assert app.is_running
        await pilot.press("1")
    assert grades(markup_db, assessor=ASSESSOR) == {(T2, D4): 0, (T2, D3): 1, (T1, D1): 1}
    with Store(markup_db) as store:
        assert [(e.topic_id, e.reason) for e in store.review_events()] == [(T2, "reviewed")]


async def test_coverage_on_chunk_labels_names_the_document_run_left_out_as_it_is(markup_db, tmp_path):
    add_chunk_pool(markup_db, tmp_path)  # the document run bm25[/b] cannot be scored on chunk labels
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CoverageScreen) and app.screen.result is not None, "coverage")
        screen = app.screen
        assert isinstance(screen, CoverageScreen) and screen.result is not None
        assert RUN not in screen.result.runs and screen.result.runs_not_scored == [RUN]
        assert_shows(screen.query_one("#summary", Static), f"Not scored here (they rank other units): {RUN};")


async def test_a_coverage_failure_names_the_run_as_it_is_and_judging_goes_on(markup_db, tmp_path, monkeypatch):
    import labeler.workbench.coverage as coverage_service
    from labeler.errors import LabelerError

    add_chunk_pool(markup_db, tmp_path)

    def broken(*args, **kwargs):
        raise LabelerError(f"run '{RUN}' ranks [bold]nothing[/bold] here [/b]")

    monkeypatch.setattr(coverage_service, "coverage_report", broken)
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await pilot.press("c")
        screen = app.screen
        assert isinstance(screen, CoverageScreen)
        # the worker fails in its thread
        await until(pilot, lambda: any(n.title == "That did not work" for n in notices(app)), "the failure")
        (failure,) = [n for n in notices(app) if n.title == "That did not work"]
        assert failure.message == f"run '{RUN}' ranks [bold]nothing[/bold] here [/b]"
        await assert_notified(pilot, failure.message)
        await until_shows(
            pilot, screen.query_one("#summary", Static), f"Coverage could not be computed: {failure.message}"
        )
        await back_to(pilot, "escape", JudgeScreen)
        await pilot.press("2")
        assert isinstance(app.screen, JudgeScreen) and app.is_running
    assert grades(markup_db, assessor=ASSESSOR, unit=f"chunk:{CHUNKING}") == {(T1, f"{D5}#2"): 2}


# -- the other screens -----------------------------------------------------------------------


async def test_the_topics_screen_lists_ids_and_titles_as_they_are(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await open_screen(pilot, "t", TopicsScreen)
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert [row[:2] for row in cells[1:]] == [[squeezed(T1), squeezed(TITLE1)], [squeezed(T2), squeezed(TITLE2)]]
        await pilot.press("down")
        await back_to(pilot, "enter", JudgeScreen)
        assert (app.session.topic_id, current(app)) == (T2, D4)
        await pilot.press("1")
    assert grades(markup_db, assessor=ASSESSOR) == {(T2, D4): 1}


async def test_history_shows_ids_reasons_and_notes_and_reopens_the_exact_pair(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await answer_prompt(pilot, NOTE)
        await pilot.press("2")
        await pilot.press("f")
        await answer_prompt(pilot, FLAG_REASON)
        await pilot.press("u")
        await answer_prompt(pilot, REASON)
        await open_screen(pilot, "h", HistoryScreen)
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert [row[1:] for row in cells[1:]] == [
            [squeezed(T1), squeezed(D2), "unsure", squeezed(REASON)],
            [squeezed(T1), squeezed(D2), "flag", squeezed(FLAG_REASON)],
            [squeezed(T1), squeezed(D1), "grade2"],
            [squeezed(T1), squeezed(D1), "note", squeezed(NOTE)],
        ]
        await pilot.press("down", "down")
        await back_to(pilot, "enter", JudgeScreen)
        assert (app.session.topic_id, current(app)) == (T1, D1)
        await pilot.press("0")
    assert grades(markup_db, assessor=ASSESSOR)[(T1, D1)] == 0


async def test_the_flagged_pairs_show_the_reason_typed_with_f_as_it_is(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        await answer_prompt(pilot, FLAG_REASON, typed=True)
        await open_screen(pilot, "F", FlaggedScreen)
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert [row[:3] + row[-3:] for row in cells[1:]] == [
            [squeezed(T1), squeezed(D1), squeezed(ASSESSOR), squeezed(FLAG_REASON), "-", "unjudged"]
        ]
    assert [(e.kind, e.unit_id, e.reason) for e in events(markup_db)] == [("flag", D1, FLAG_REASON)]


async def test_snapshots_keep_their_message_and_diff_the_exact_ids(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await pilot.press("2")
        await palette(pilot, "Create snapshot")
        await answer_prompt(pilot, MESSAGE)
        await app.workers.wait_for_complete()
        await assert_notified(pilot, "Snapshot v1 (doc): 1 label, 0 conflicts left out.")
        await pilot.press("1")
        await palette(pilot, "Snapshots")
        await until(pilot, lambda: isinstance(app.screen, SnapshotsScreen) and app.screen.focused is not None, "snaps")
        await pilot.press("c")
        await answer_prompt(pilot, f"{MESSAGE} two")
        await app.workers.wait_for_complete()
        await pilot.pause()
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert [(row[0], row[-2]) for row in cells[1:]] == [
            ("v1", squeezed(MESSAGE)),
            ("v2", squeezed(f"{MESSAGE} two")),
        ]
        await pilot.press("space", "down", "d")
        diff = app.screen.query_one("#diff-text", Static)
        # The new text is laid out (its height) on a later refresh: wait for it rather than read a half-drawn line.
        await until(pilot, lambda: squeezed(f"topic {T1}: + {D2} = 1") in squeezed(drawn(diff)), "the diff drawn")
        assert_shows(diff, f"topic {T1}: + {D2} = 1")
        assert app.is_running
    with Store(markup_db) as store:
        assert [s.message for s in store.snapshots()] == [MESSAGE, f"{MESSAGE} two"]
        assert sorted(row[:3] for row in store.snapshot_labels("v2")) == [(T1, D2, 1), (T1, D1, 2)]


async def test_adjudication_shows_assessors_and_notes_and_settles_the_exact_pair(markup_db):
    bob, cat = "bob[x]", CLICK
    with Store(markup_db) as store:
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor=bob, grade=2, note=NOTE))
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor=cat, grade=0))
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor=cat, kind="note", note=REASON))
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await open_screen(pilot, "a", AdjudicationScreen)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        cells = await table_cells(pilot, screen.query_one(DataTable))
        assert cells[1] == [squeezed(T1), squeezed(D1), squeezed(f"{cat}=0, {bob}=2")]
        detail = screen.query_one("#detail-text", Static)
        assert_shows(
            detail,
            f"Topic {T1}, {D1}",
            bob,
            cat,
            f"2 ({LABELS[2]})",
            f"0 ({LABELS[0]})",
            NOTE,
            f"Notes: {cat}: {REASON}",
        )
        footer = " ".join(str(key.render()) for key in screen.query("FooterKey"))
        assert f"Settle as {LABELS[1]}" in footer
        await pilot.press("1")
        await assert_notified(pilot, f"Settled topic {T1}, {D1} as 1.")
        await until_shows(pilot, detail, "No conflicts")
        await back_to(pilot, "escape", JudgeScreen)
    (adjudication,) = events(markup_db, "adjudicate")
    assert (adjudication.topic_id, adjudication.unit_id, adjudication.grade, adjudication.assessor) == (
        T1,
        D1,
        1,
        ASSESSOR,
    )


async def test_the_coverage_screen_names_runs_and_units_as_they_are(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "0", "1", "0", "d", "c")
        await until(pilot, lambda: isinstance(app.screen, CoverageScreen) and app.screen.result is not None, "coverage")
        screen = app.screen
        assert isinstance(screen, CoverageScreen) and screen.result is not None
        assert [str(row) for row in screen.query_one("#runs", DataTable).get_column_at(0)] == [RUN]
        assert (await table_cells(pilot, screen.query_one("#runs", DataTable)))[1][0] == squeezed(RUN)
        assert (await table_cells(pilot, screen.query_one("#repool", DataTable)))[1][0] == squeezed(RUN)
        assert_shows(screen.query_one("#curve", Static), RUN)
        assert_shows(screen.query_one("#summary", Static), "Current labels (doc)")
        assert app.is_running


async def test_help_and_the_palettes_keys_show_the_scales_labels_as_they_are(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await open_screen(pilot, "question_mark", HelpScreen)
        await until_shows(pilot, app.screen.query(Static).first(), "Judging keys", *LABELS)
        await back_to(pilot, "escape", JudgeScreen)
        await palette(pilot, "Keys")  # Textual's key panel read these labels as markup, and crashed
        await until(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.is_mounted, "the help opened")
        await until_shows(pilot, app.screen.query(Static).first(), "Keys", *LABELS)
        await back_to(pilot, "escape", JudgeScreen)
        assert app.is_running


async def test_a_served_session_takes_a_bracketed_name_but_not_a_space(markup_db):
    app = make_app(JudgeRequest(db_path=markup_db, assessor="unknown", ask_assessor=True))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TextPrompt) and app.screen.is_mounted, "the name prompt")
        assert_shows(app.screen.query_one("Label"), "Your name (it is recorded with every judgment):")
        await answer_prompt(pilot, "a [x]", closes=False, typed=True)
        await assert_notified(
            pilot,
            "assessor name 'a [x]' contains white space (U+0020) at character 2, "
            "which an id may not hold. Type another name.",
        )
        assert not isinstance(app.screen, JudgeScreen)
        await answer_prompt(pilot, CLICK, typed=True)  # the refused name is selected: typing replaces it
        await until(pilot, lambda: isinstance(app.screen, JudgeScreen) and app.screen.is_mounted, "the judging screen")
        assert app.session.assessor == CLICK
        await until_shows(pilot, app.screen.query_one(StatusBar), f"│ {CLICK} │")
        await pilot.press("1")
    assert grades(markup_db, assessor=CLICK) == {(T1, D1): 1}


# -- errors ----------------------------------------------------------------------------------


async def test_an_error_whose_message_looks_like_markup_is_shown_as_it_is(markup_db):
    def refuse(*args, **kwargs):
        raise LabelerError("bad [/b] grade [x]", path="runs/a[1].run", line=3)

    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        app.session.judge = refuse
        await pilot.press("2")
        await assert_notified(pilot, "runs/a[1].run:3: bad [/b] grade [x]")
        assert current(app) == D1 and app.is_running
        app.session.open_topic = refuse
        await open_screen(pilot, "t", TopicsScreen)
        await back_to(pilot, "enter", JudgeScreen)
        await until(pilot, lambda: len(notices(app)) == 2, "the second refusal")
        assert app.is_running
        assert sum(n.message == "runs/a[1].run:3: bad [/b] grade [x]" for n in notices(app)) == 2
    assert events(markup_db) == []


async def test_a_failed_export_names_its_path_as_it_is(markup_db, tmp_path):
    with Store(markup_db) as store:
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor=ASSESSOR, grade=2))
        create_snapshot(store, MESSAGE)
    target = tmp_path / "no[/b]dir" / "q[x].txt"
    app = make_app(JudgeRequest(db_path=markup_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        with pytest.raises(WorkerFailed):
            await app.export_qrels(str(target)).wait()
        await until(pilot, lambda: any(n.title == "That did not work" for n in notices(app)), "the failure")
        (failure,) = [n for n in notices(app) if n.title == "That did not work"]
        assert failure.message == f"{target}: no such folder: {target.parent}"  # a LabelerError, not an OSError
        await assert_notified(pilot, failure.message)
        assert app.is_running


def test_every_notification_is_plain_text():
    """A new `notify` passes markup=False too: its message holds ids, names or paths sooner or later."""
    import labeler.tui

    def plain(call: ast.Call) -> bool:
        return any(
            k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False for k in call.keywords
        )

    root = Path(labeler.tui.__file__).parent
    calls, missing = 0, []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            direct = node.func.attr == "notify"
            via_thread = (
                node.func.attr == "call_from_thread"
                and node.args
                and isinstance(node.args[0], ast.Attribute)
                and node.args[0].attr == "notify"
            )
            if direct or via_thread:
                calls += 1
                if not plain(node):
                    missing.append(f"{path.relative_to(root)}:{node.lineno}")
    assert calls > 20 and missing == []

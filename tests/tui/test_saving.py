"""Export and screenshot in the judging UI: locally a new file or a confirmed replacement; served, a download.

A browser user of `labeler serve` chose "Export qrels", typed a path, and overwrote a file of the
server account, then the served workbench itself. Locally the UI did the same without asking.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from judging_support import palette, until
from support import listening, notices

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.app import LabelerApp
from labeler.tui.saving import SERVED_NO_DOWNLOAD
from labeler.tui.screens.prompt import ChoicePrompt, TextPrompt
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.snapshots import create_snapshot

SIZE = (120, 40)


@pytest.fixture
def snapshot_db(judging_db):
    with Store(judging_db) as store:
        record_judgment(store, Judgment(topic_id="1", unit_id="d1", assessor="ann", grade=2))
        create_snapshot(store, "first")
    return judging_db


def labels(db) -> list[tuple]:
    with closing(sqlite3.connect(db)) as conn:
        return (
            conn.execute("SELECT * FROM events ORDER BY rowid").fetchall()
            + conn.execute("SELECT * FROM snapshot_labels").fetchall()
        )


def files_under(*folders: Path) -> set[str]:
    """Every file below the folders, but the workbench's own (open while the app runs)."""
    return {
        str(p) for folder in folders for p in folder.rglob("*") if p.is_file() and not p.name.startswith("judge.db")
    }


async def answer(pilot, text: str) -> None:
    """Once the text prompt is open and focused, replace its proposed value with `text`, Enter; wait until it closed."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, TextPrompt) and app.screen.focused is not None, "a text prompt")
    prompt = app.screen
    prompt.query_one("#answer").value = text
    await pilot.press("enter")
    await until(pilot, lambda: prompt not in app.screen_stack, "the text prompt closed")


async def choose(pilot, label: str) -> None:
    """Once the choice prompt is open and focused, pick `label` with the arrow keys and Enter."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, ChoicePrompt) and app.screen.focused is not None, "a choice")
    screen = app.screen
    assert isinstance(screen, ChoicePrompt), screen
    index = [lab for _, lab in screen.choices].index(label)
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")
    await until(pilot, lambda: screen not in app.screen_stack, "the choice prompt closed")


def errors(app) -> list[str]:
    return [n.message for n in notices(app) if n.severity == "error"]


# -- locally ------------------------------------------------------------------------------------


async def test_the_local_export_refuses_the_workbench(snapshot_db):
    before = labels(snapshot_db)
    app = make_app(JudgeRequest(db_path=snapshot_db, assessor="ann"))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        for path in (str(snapshot_db), f"{snapshot_db}-wal"):
            await palette(pilot, "Export qrels")
            await answer(pilot, path)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert not isinstance(app.screen, ChoicePrompt)  # no "replace it?" for the workbench
            assert any(m.startswith(f"{path}: is the workbench") for m in errors(app)), errors(app)
    assert labels(snapshot_db) == before


async def test_the_local_export_asks_before_replacing_a_file(snapshot_db, tmp_path):
    target = tmp_path / "qrels.txt"
    target.write_text("an older export\n")
    app = make_app(JudgeRequest(db_path=snapshot_db, assessor="ann"))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await palette(pilot, "Export qrels")
        await answer(pilot, str(target))
        await until(pilot, lambda: isinstance(app.screen, ChoicePrompt) and app.screen.focused is not None, "asked")
        assert isinstance(app.screen, ChoicePrompt) and "exists already" in app.screen.question
        await pilot.press("escape")  # cancel: nothing written
        await until(pilot, lambda: not isinstance(app.screen, ChoicePrompt), "the question closed")
        await app.workers.wait_for_complete()
        assert target.read_text() == "an older export\n"

        await palette(pilot, "Export qrels")
        await answer(pilot, str(target))
        await choose(pilot, "Choose another name")
        await answer(pilot, str(tmp_path / "new.txt"))  # a new name: written without a question
        await app.workers.wait_for_complete()
        assert (tmp_path / "new.txt").read_text() == "1 0 d1 2\n"
        assert target.read_text() == "an older export\n"

        await palette(pilot, "Export qrels")
        await answer(pilot, str(target))
        await choose(pilot, "Replace it")
        await app.workers.wait_for_complete()
        await pilot.pause()
    assert target.read_text() == "1 0 d1 2\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".tmp") == []


async def test_the_local_screenshot_is_a_new_file_never_the_workbench(snapshot_db, tmp_path):
    app = make_app(JudgeRequest(db_path=snapshot_db, assessor="ann"))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await palette(pilot, "Screenshot")  # Textual's command starts the screenshot on a timer: answer waits
        await answer(pilot, str(snapshot_db))
        await until(pilot, lambda: any("is the workbench" in m for m in errors(app)), "the workbench refused")
        await palette(pilot, "Screenshot")
        await answer(pilot, str(tmp_path / "screen.svg"))
        await until(pilot, lambda: (tmp_path / "screen.svg").exists(), "the screenshot written")
    assert (tmp_path / "screen.svg").read_text().startswith("<svg")


# -- served (labeler serve) ------------------------------------------------------------------------


@pytest.fixture
def served_app(snapshot_db, monkeypatch, tmp_path):
    """The app as serve builds it, under Textual's web driver (is_web), with every delivery recorded.

    run_test drives a headless driver, whose delivery would write into the Downloads folder: the
    recording stands in for the web driver, which streams the bytes to the browser instead.
    """
    monkeypatch.setattr(LabelerApp, "is_web", property(lambda self: True))
    monkeypatch.chdir(tmp_path)
    app = make_app(JudgeRequest(db_path=snapshot_db, assessor="ann", ask_assessor=True, served=True))
    delivered = []

    def deliver_text(file, **options):
        delivered.append((file.read(), options))
        return "key"

    monkeypatch.setattr(app, "deliver_text", deliver_text)
    app.delivered = delivered
    return app


def downloads_folder() -> Path:
    """Where Textual's delivery saves a file when the driver is not a browser's."""
    from platformdirs import user_downloads_path

    return user_downloads_path()


async def test_the_served_export_is_a_download_and_writes_no_file(served_app, snapshot_db, tmp_path):
    app = served_app
    before = files_under(tmp_path, snapshot_db.parent), files_under(downloads_folder())
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await answer(pilot, "bob")  # the served session asks who is judging
        await palette(pilot, "Export qrels")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, TextPrompt)  # no path is asked for
        await palette(pilot, "Screenshot")
        await until(pilot, lambda: len(app.delivered) == 2, "the screenshot delivered")  # Textual's timer
        assert not isinstance(app.screen, TextPrompt)
    (qrels, options), (svg, shot) = app.delivered
    assert qrels == "1 0 d1 2\n"
    assert options["save_filename"] == "qrels-v1.txt" and options["mime_type"] == "text/plain"
    assert svg.startswith("<svg") and shot["mime_type"] == "image/svg+xml"
    assert app.deliveries == [("qrels-v1.txt", "text/plain"), (shot["save_filename"], "image/svg+xml")]
    assert (files_under(tmp_path, snapshot_db.parent), files_under(downloads_folder())) == before


async def test_a_served_session_cannot_write_a_path_even_by_calling_the_export(served_app, snapshot_db, tmp_path):
    from textual.worker import WorkerFailed

    app = served_app
    target = tmp_path / "victim.txt"
    target.write_text("the server's file\n")
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await answer(pilot, "bob")
        with pytest.raises(WorkerFailed):
            await app.export_qrels(str(target), True).wait()
        with pytest.raises(WorkerFailed):
            await app.export_qrels(str(snapshot_db), True).wait()
        await pilot.pause()
    assert target.read_text() == "the server's file\n"
    assert app.delivered == []


async def test_served_without_a_browser_offers_nothing_and_writes_nothing(snapshot_db, tmp_path, monkeypatch):
    """--served but no web driver: Textual would save the download into ~/Downloads, so it is refused."""
    monkeypatch.chdir(tmp_path)
    app = make_app(JudgeRequest(db_path=snapshot_db, assessor="ann", served=True))
    called = []
    monkeypatch.setattr(app, "deliver_text", lambda *a, **k: called.append(a))
    before = files_under(tmp_path, snapshot_db.parent), files_under(downloads_folder())
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        await palette(pilot, "Export qrels")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert SERVED_NO_DOWNLOAD in errors(app)
    assert called == []
    assert (files_under(tmp_path, snapshot_db.parent), files_under(downloads_folder())) == before

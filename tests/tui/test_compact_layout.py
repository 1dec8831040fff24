"""The judging screen on a real terminal's 80x24: rubric, assessor, order and a chunk's title stay in view.

Checked on the screen's SVG export as text (svg_text), line by line, at 80x24 and at 160x45.
"""

from __future__ import annotations

import json

import pytest
from judging_support import answer_prompt
from support import new_workbench
from svg_text import screen_lines

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

NARRATIVE = " ".join(["A relevant document names a pest of maize and a way to control it in the field."] * 8)
LONG_TEXT = "\n\n".join(
    f"Paragraph {i} about maize farming, seasons, soils and the pests that follow the crop "
    f"from one field to the next over the years."
    for i in range(40)
)
GRADES = ["0", "not relevant", "1*", "related", "2*", "highly relevant", "3*", "perfectly relevant"]


@pytest.fixture
def long_db(tmp_path):
    """A topic with a long narrative, a long document and a chunk pool on a chunk deep inside it."""
    db = tmp_path / "long.db"
    new_workbench(db)
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        json.dumps({"id": "d7", "title": "Long maize history", "text": LONG_TEXT})
        + "\n"
        + json.dumps({"id": "d8", "title": "Short", "text": "Maize."})
        + "\n"
    )
    (tmp_path / "topics.tsv").write_text(f"1\tmaize pests\tHow to control pests of maize?\t{NARRATIVE}\n")
    (tmp_path / "run.txt").write_text("1 Q0 d7 1 9 r\n1 Q0 d8 2 8 r\n")
    with Store(db) as store:
        import_corpus(store, corpus)
        import_topics(store, tmp_path / "topics.tsv")
        import_run(store, tmp_path / "run.txt", "bm25")
        build_pool(store, 2)
    return db


@pytest.fixture
def long_chunk_db(tmp_path, long_db):
    with Store(long_db) as store:
        chunk_corpus(store, "w10", size=10, overlap=0)
        (tmp_path / "chunks.txt").write_text("1 Q0 d7#40 1 9 c\n")
        import_run(store, tmp_path / "chunks.txt", "chunks", unit="chunk:w10")
        build_pool(store, 1, runs=["chunks"])
    return long_db


def line_with(lines: list[str], *fragments: str) -> str | None:
    """The first line holding every fragment, in order."""
    for line in lines:
        position = 0
        for fragment in fragments:
            position = line.find(fragment, position)
            if position < 0:
                break
            position += len(fragment)
        else:
            return line
    return None


async def screen(db, size, *keys, flag: bool = False):
    """The screen's lines after the keys (and, with `flag`, an `f` whose reason is left empty)."""
    app = make_app(JudgeRequest(db_path=db, assessor="ann"))
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.press(*keys)
        if flag:
            await pilot.press("f")
            await answer_prompt(pilot, "")
        await pilot.pause()
        return screen_lines(app.export_screenshot())


async def test_80x24_keeps_the_rubric_assessor_and_order_in_view(long_db):
    lines = await screen(long_db, (80, 24))
    assert len(lines) == 24
    assert line_with(lines, *GRADES), "\n".join(lines)  # the rubric, on one line
    status = line_with(lines, "document", "d7", "ann", "order pool")
    assert status is not None, "\n".join(lines)
    assert line_with(lines, "? Help"), "\n".join(lines)  # the footer has room for the keys beyond the grades


async def test_80x24_keeps_a_chunks_document_title_and_the_whole_status_in_view(long_chunk_db):
    lines = await screen(long_chunk_db, (80, 24))
    text = "\n".join(lines)
    assert "d7#40" in text and "Paragraph 0 " not in text  # scrolled to the chunk, far from the top
    assert line_with(lines, "d7: Long maize history"), text
    assert "ann" in text and line_with(lines, "order pool"), text  # the status bar wraps instead of cutting
    assert line_with(lines, *GRADES), text


async def test_a_message_does_not_cover_the_status_bar(long_db):
    lines = await screen(long_db, (80, 24), flag=True)
    text = "\n".join(lines)
    message = next(index for index, line in enumerate(lines) if "Flagged d7 for review." in line)
    status = next(index for index, line in enumerate(lines) if line_with([line], "flagged", "ann", "order pool"))
    rubric = next(index for index, line in enumerate(lines) if line_with([line], *GRADES))
    assert message < rubric < status, text


async def test_160x45_shows_the_full_rubric_and_status(long_chunk_db):
    lines = await screen(long_chunk_db, (160, 45))
    text = "\n".join(lines)
    assert line_with(lines, "Grades (default; relevant from 1)"), text  # the full rubric, with its definitions
    assert line_with(lines, "chunk", "d7#40", "chunking w10", "parent d7", "ann", "order pool"), text
    assert "d7: Long maize history" not in text  # the compact title line is for small terminals only

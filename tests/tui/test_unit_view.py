"""The unit view: a constant set of widgets whatever the unit, hits and chunks brought into view."""

from __future__ import annotations

import json

import pytest
from support import new_workbench
from textual.content import Content
from textual.geometry import Region

from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.text import CHUNK_STYLE
from labeler.tui.widgets.unit_view import UnitView, line_of_offset
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

SIZE = (140, 40)
FILLER = "Rain fell on the fields again and the farmers waited for the soil to dry before they went out."


def long_text() -> str:
    """40 paragraphs; 'maize' after alpha (near the top), bravo (far down) and charlie (at the end of a long one)."""
    paragraphs = [f"Paragraph {i}. {FILLER}" for i in range(40)]
    paragraphs[2] += " Then alpha maize was planted."
    paragraphs[25] += " Later bravo maize was harvested."
    paragraphs[38] = " ".join(["Long"] + [f"w{i}" for i in range(1500)] + ["charlie maize", "ends", "it."])
    return "\n\n".join(paragraphs)


@pytest.fixture
def many_db(tmp_path):
    """Topic 1 (maize pests) pools 24 documents of 1 to 8 paragraphs, then 'long' (long_text())."""
    db = tmp_path / "many.db"
    new_workbench(db)
    docs = {f"m{i:02d}": "\n\n".join(f"Part {j} of m{i:02d}. {FILLER}" for j in range(1 + i % 8)) for i in range(24)}
    docs["long"] = long_text()
    (tmp_path / "corpus.jsonl").write_text(
        "".join(json.dumps({"id": k, "title": f"Doc {k}", "text": x}) + "\n" for k, x in docs.items())
    )
    (tmp_path / "topics.tsv").write_text("1\tmaize pests\tHow to control pests of maize?\tNames a pest.\n")
    (tmp_path / "run.txt").write_text("".join(f"1 Q0 {k} {r} {100 - r} r\n" for r, k in enumerate(docs, 1)))
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.tsv")
        import_run(store, tmp_path / "run.txt", "bm25")
        build_pool(store, 100)
    return db


def viewport(view: UnitView) -> list:
    """The strips of the unit's text that the scroll view shows now."""
    body = view.body
    top = round(view.scroll_y) - body.virtual_region.y
    height = view.scrollable_content_region.height
    return body.render_lines(Region(0, max(top, 0), body.size.width, height))


def shown(view: UnitView) -> str:
    return "\n".join(strip.text for strip in viewport(view))


def current_hit_after(view: UnitView, marker: str) -> bool:
    """Whether the viewport shows `marker` followed by 'maize' drawn as the current hit (on red)."""
    for strip in viewport(view):
        segments = list(strip)
        for before, segment in zip(segments, segments[1:], strict=False):
            if before.text.endswith(f"{marker} ") and segment.text == "maize":
                red, green, _ = segment.style.bgcolor.get_truecolor()
                return red > 2 * green and bool(segment.style.underline)  # underlined: told apart without colour
    return False


async def test_the_unit_view_keeps_the_same_widgets_for_every_unit(many_db):
    app = make_app(JudgeRequest(db_path=many_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(UnitView)
        widgets = len(app.screen.query("*"))
        seen = set()
        for _ in range(20):
            seen.add(app.session.current.unit_id)
            assert list(view.children) == [view.body]
            assert len(app.screen.query("*")) == widgets
            assert len(view.parts) == 1 + int(app.session.current.unit_id[1:]) % 8
            await pilot.press("1")
            await pilot.pause()
        assert len(seen) == 20
        assert list(view.children) == [view.body] and len(app.screen.query("*")) == widgets


async def test_hit_keys_move_between_hits_and_scroll_each_into_view(many_db):
    app = make_app(JudgeRequest(db_path=many_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["1"] * 24)  # on to 'long'
        await pilot.pause()
        view = app.screen.query_one(UnitView)
        assert app.session.current.unit_id == "long"
        assert [h.paragraph for h in view.hits] == [2, 25, 38]
        assert view.scroll_y == 0 and "Paragraph 0." in shown(view)
        for key, index, marker in [
            ("right_square_bracket", 0, "alpha"),
            ("right_square_bracket", 1, "bravo"),
            ("right_square_bracket", 2, "charlie"),
            ("right_square_bracket", 0, "alpha"),
            ("left_square_bracket", 2, "charlie"),
            ("left_square_bracket", 1, "bravo"),
        ]:
            await pilot.press(key)
            await pilot.pause()
            assert view.hit_index == index
            assert current_hit_after(view, marker), (key, marker, shown(view))
        # the bravo hit's paragraph starts the view; the charlie hit ends a paragraph longer than the view
        assert shown(view).lstrip().startswith("Paragraph 25.")
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert "Long w0" not in shown(view) and view.scroll_y > 0


async def test_the_chunk_is_highlighted_inside_its_parent(chunk_db):
    app = make_app(JudgeRequest(db_path=chunk_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        view = app.screen.query_one(UnitView)
        chunk = view.view.text[view.view.span[0] : view.view.span[1]]
        chunk_background = Content.from_rich_text(f"[{CHUNK_STYLE}]x", app.console).spans[0].style.background

        def on_chunk() -> str:
            return " ".join(
                segment.text
                for strip in viewport(view)
                for segment in strip
                if segment.style
                and segment.style.bgcolor
                and segment.style.bgcolor.get_truecolor() == chunk_background.rgb
            )

        text = shown(view)
        assert "Maize was domesticated in Mexico" in text  # the parent, before the chunk
        assert on_chunk().split() == chunk.split()
        await pilot.press("minus", "minus", "minus")  # the chunk alone: notes say what is left out
        await pilot.pause()
        text = shown(view)
        assert "characters before (+ to widen)" in text and "characters after (+ to widen)" in text
        assert "Maize was domesticated" not in text and on_chunk().split() == chunk.split()
        await pilot.press("plus", "plus", "plus")
        await pilot.pause()
        assert "Maize was domesticated in Mexico" in shown(view) and on_chunk().split() == chunk.split()


async def test_a_chunk_deep_in_a_long_parent_is_scrolled_into_view(many_db, tmp_path):
    with Store(many_db) as store:
        chunk_corpus(store, "w10", size=10, overlap=0)
        deep = long_text().split().index("charlie") // 10  # the 10-word window holding it
        (tmp_path / "chunks.txt").write_text(f"1 Q0 long#{deep} 1 9 c\n")
        import_run(store, tmp_path / "chunks.txt", "chunks", unit="chunk:w10")
        build_pool(store, 1, runs=["chunks"])
    app = make_app(JudgeRequest(db_path=many_db, assessor="ann"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = app.screen.query_one(UnitView)
        assert view.view.is_chunk and view.scroll_y > 0
        assert "charlie" in shown(view)  # the end of the long paragraph: the chunk is in view
        assert "Paragraph 0." not in shown(view)


def test_line_of_offset_follows_textual_wrapping():
    words = [f"w{i}" + "x" * (i % 7) for i in range(60)]
    text = " ".join(words[:25]) + "\n\n" + "  ".join(words[25:40]) + "\n"
    text += "supercalifragilistic " + " ".join(words[40:])
    for width in (5, 12, 20, 33):
        lines = [line.plain for line in Content(text).wrap(width)]
        position = 0
        for word in words:
            position = text.index(word, position)
            assert word[:width] in lines[line_of_offset(text, position, width)], (width, word)

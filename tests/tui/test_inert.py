"""Control characters in user text are shown as escapes on every screen, never sent to the terminal.

A document holding `ESC ] 2 ; title BEL` retitled the annotator's terminal and one holding
`ESC [ 2 J` wiped the screen: the judging UI drew the bytes as they were. Here documents,
titles, notes and messages hold OSC, CSI, an 8-bit CSI (C1) and a bidi override, and the
tests read what the app draws: the visible escapes, and no raw control character.
"""

from __future__ import annotations

import json

import pytest
from judging_support import answer_prompt, back_to, open_screen, until
from rich.text import Text
from support import listening, new_workbench
from test_markup import assert_notified, drawn, squeezed, table_cells
from textual.content import Content
from textual.widgets import DataTable, Static

from labeler.errors import LabelerError
from labeler.inert import visible, visible_line
from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.screens.history import HistoryScreen
from labeler.tui.screens.judge import JudgeScreen
from labeler.tui.screens.snapshots import SnapshotsScreen
from labeler.tui.screens.topics import TopicsScreen
from labeler.tui.text import CURRENT_HIT_STYLE, QUERY_STYLE, Paragraph, find_hits, render
from labeler.tui.widgets.status_bar import StatusBar
from labeler.tui.widgets.topic_card import TopicCard
from labeler.workbench.corpus import import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import import_run
from labeler.workbench.snapshots import create_snapshot
from labeler.workbench.topics import import_topics

SIZE = (200, 50)
OSC, CSI, C1, BIDI = "\x1b]2;pwned\x07", "\x1b[2J", "\x9b1m", "\u202e"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")
SHOWN_OSC, SHOWN_CSI = visible(OSC), visible(CSI)  # \x1b]2;pwned\x07, \x1b[2J
T1 = "t[/b]"
TITLE = f"maize [link=file:///etc/passwd]pests[/link] {OSC}"
DESCRIPTION = f"How {CSI} to [/b] control pests?\n{C1} {BIDI}end"
D1, D2 = "d1", "d2"
DOC_TITLE = f"Maize {OSC} [/b]"
DOC_TEXT = f"Fall armyworm {OSC} eats maize leaves.\n\n{CSI}Scout {C1} maize {BIDI}weekly {OSC}maize."
RUN, ASSESSOR = "bm25[/b]", "ann[/b]"
NOTE = f"see {OSC} and {CSI}"
MESSAGE = f"round {OSC} {CSI}"


@pytest.fixture
def escapes_db(tmp_path):
    db = tmp_path / "escapes.db"
    new_workbench(db)
    (tmp_path / "corpus.jsonl").write_text(
        json.dumps({"id": D1, "title": DOC_TITLE, "text": DOC_TEXT})
        + "\n"
        + json.dumps({"id": D2, "title": "Plain", "text": f"Weevils {CSI} damage stored maize."})
        + "\n"
    )
    (tmp_path / "topics.jsonl").write_text(
        json.dumps({"id": T1, "title": TITLE, "description": DESCRIPTION, "narrative": f"{BIDI}{OSC}"}) + "\n"
    )
    (tmp_path / "run.txt").write_text(f"{T1} Q0 {D1} 1 9 r\n{T1} Q0 {D2} 2 8 r\n")
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.jsonl")
        import_run(store, tmp_path / "run.txt", RUN)
        build_pool(store, 2)
    return db


def assert_no_raw_controls(app) -> str:
    """The whole screen as drawn (toasts included) holds no raw control character; returns its text."""
    svg = app.export_screenshot()
    for char in RAW:
        assert char not in svg, repr(char)
    return svg.replace("&#160;", " ")


def assert_drawn(widget, *texts: str) -> None:
    lines = drawn(widget)
    assert not any(char in lines for char in RAW), lines
    for text in texts:
        assert squeezed(text) in squeezed(lines), (text, lines)


def styled(content, style: str) -> list[str]:
    """The text under each span of the rich `style` in a Textual Content."""
    sample = Text("x")
    sample.stylize(style, 0, 1)
    (wanted,) = Content.from_rich_text(sample).spans
    return [content.plain[span.start : span.end] for span in content.spans if span.style == wanted.style]


# -- the highlighting, without a screen -------------------------------------------------------


def test_highlights_land_on_the_terms_when_escapes_lengthen_the_text():
    part = Paragraph(0, DOC_TEXT)
    hits = find_hits([part], ["maize", "weekly"])
    assert [h.term for h in hits] == ["maize", "maize", "weekly", "maize"]
    text = render(part, 0, hits, {"weekly"}, (DOC_TEXT.index("Scout"), len(DOC_TEXT)), hits[3])
    assert text.plain == visible(DOC_TEXT) and "\x1b" not in text.plain
    under = {str(span.style): [] for span in text.spans}
    for span in text.spans:
        under[str(span.style)].append(text.plain[span.start : span.end])
    assert under[QUERY_STYLE] == ["maize", "maize", "maize"]
    assert under[CURRENT_HIT_STYLE] == ["maize"]
    assert under["bold black on magenta"] == ["weekly"]
    (chunk,) = [t for style, texts in under.items() if "#1f3a5f" in style for t in texts]
    assert chunk.startswith("Scout \\x9b1m maize") and chunk.endswith(f"{SHOWN_OSC}maize.")


def test_a_paragraph_without_control_characters_is_drawn_as_it_is():
    part = Paragraph(5, "tabs\tand\nnewlines stay")
    assert part.shown == part.text and part.shown_offset(7) == 7


def test_a_crlf_line_end_is_a_newline_and_a_lone_cr_is_spelled_out():
    part = Paragraph(0, "one\r\ntwo maize\rthree")
    assert part.shown == "one\ntwo maize\\x0dthree"
    (hit,) = find_hits([part], ["maize"])
    assert part.shown[part.shown_offset(hit.start) : part.shown_offset(hit.end)] == "maize"


# -- the judging screen ------------------------------------------------------------------------


async def test_the_judging_screen_shows_escapes_instead_of_acting_on_the_terminal(escapes_db):
    app = make_app(JudgeRequest(db_path=escapes_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE, notifications=True, message_hook=listening(app)) as pilot:
        screen = app.screen
        body = screen.query_one("#unit-body", Static)
        # repaired for reading, the 8-bit CSI is read as the Windows-1252 character it stands for; the
        # escapes stay escapes, and the stored form is a key away
        assert_drawn(body, f"{SHOWN_CSI}Scout ›1m maize \\u202eweekly {SHOWN_OSC}maize.", "(o: text as stored)")
        await pilot.press("o")
        await until(pilot, lambda: "\\x9b" in body.render().plain, "the text as stored")
        content = body.render()
        assert visible_line(DOC_TITLE) in content.plain and visible(DOC_TEXT.split("\n\n")[1]) in content.plain
        assert not any(char in content.plain for char in RAW)
        # the title's words, found in the text and drawn over exactly those words of the escaped text
        assert styled(content, QUERY_STYLE) == ["pwned", "maize", "maize", "pwned", "maize"]
        assert_drawn(body, SHOWN_OSC, f"{SHOWN_CSI}Scout \\x9b1m maize \\u202eweekly {SHOWN_OSC}maize.")
        assert_drawn(
            screen.query_one(TopicCard),
            f"Topic {T1}",
            visible_line(TITLE),
            "[link=file:///etc/passwd]pests[/link]",
            visible(DESCRIPTION).split("\n")[0],
        )
        assert_drawn(screen.query_one(StatusBar), ASSESSOR, D1)

        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket")
        assert styled(body.render(), CURRENT_HIT_STYLE) == ["maize"]  # the third hit, past two escapes
        await pilot.press("n")
        await answer_prompt(pilot, "a note")
        svg = assert_no_raw_controls(app)
        assert SHOWN_OSC in svg and "[link=file:///etc/passwd]pests[/link]" in svg

        def refuse(*args, **kwargs):
            raise LabelerError(f"grade refused {OSC}{CSI}", path=f"a{C1}.run", line=2)

        app.session.judge = refuse
        await pilot.press("1")
        await assert_notified(pilot, f"a\\x9b1m.run:2: grade refused {SHOWN_OSC}{SHOWN_CSI}")
        assert_no_raw_controls(app)
        assert app.is_running


# -- the other screens -------------------------------------------------------------------------


async def test_topics_history_adjudication_and_snapshots_show_escapes(escapes_db):
    with Store(escapes_db) as store:
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor=ASSESSOR, grade=2, note=NOTE))
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor="bob", grade=0))
        record_judgment(store, Judgment(topic_id=T1, unit_id=D1, assessor="bob", kind="note", note=NOTE))
        create_snapshot(store, MESSAGE)
    app = make_app(JudgeRequest(db_path=escapes_db, assessor=ASSESSOR))
    async with app.run_test(size=SIZE) as pilot:
        await open_screen(pilot, "t", TopicsScreen)
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert cells[1][:2] == [squeezed(T1), squeezed(visible_line(TITLE)[:40])]
        assert_no_raw_controls(app)
        await back_to(pilot, "escape", JudgeScreen)
        await open_screen(pilot, "h", HistoryScreen)
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert squeezed(visible_line(NOTE)) in cells[1]
        assert_no_raw_controls(app)
        await back_to(pilot, "escape", JudgeScreen)
        await open_screen(pilot, "a", AdjudicationScreen)
        assert_drawn(app.screen.query_one("#detail-text", Static), f"bob: {visible(NOTE)}")
        assert_no_raw_controls(app)
        await back_to(pilot, "escape", JudgeScreen)
        app.action_snapshots()
        await until(pilot, lambda: isinstance(app.screen, SnapshotsScreen) and app.screen.is_mounted, "snapshots")
        cells = await table_cells(pilot, app.screen.query_one(DataTable))
        assert cells[1][-2] == squeezed(visible_line(MESSAGE))
        assert_no_raw_controls(app)
        assert app.is_running

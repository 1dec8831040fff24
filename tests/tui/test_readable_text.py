"""Real MS MARCO passages read on the judging screen: mojibake repaired, stems highlighted, stored text untouched.

tests/tui/msmarco/corpus.jsonl holds passages 3562319 and 7747318 of the MS MARCO passage corpus
byte for byte as TREC DL 2020 ships them, mojibake included (`theyâ\\x80\\x99re`, `â\\x80\\x8bair`).
The topic is made for the test: its title's `pump` must catch the passage's `pumps`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from judging_support import open_screen, until
from support import Cli, new_workbench
from test_inert import styled
from test_markup import drawn, squeezed
from textual.widgets import Static

from labeler.inert import visible
from labeler.models import Topic
from labeler.store import Store
from labeler.tui import JudgeRequest, make_app
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.text import QUERY_STEM_STYLE, QUERY_STYLE, Paragraph, find_hits, readable_view, topic_terms
from labeler.tui.widgets.unit_view import REPAIRED_NOTE, STORED_NOTE, UnitView
from labeler.workbench.corpus import chunk_corpus, import_corpus
from labeler.workbench.pools import build_pool
from labeler.workbench.reading import UnitText, unit_text
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

CORPUS = Path(__file__).parent / "msmarco" / "corpus.jsonl"
PASSAGES = {record["id"]: record["text"] for record in map(json.loads, CORPUS.read_text().splitlines())}
PUMPS, AIR = "3562319", "7747318"
TOPIC = "pump-1"
SIZE = (160, 45)


@pytest.fixture
def msmarco_db(tmp_path):
    """Topic pump-1 ("muscle pump reps") pools passage 3562319, then 7747318; a 10-word chunking of both."""
    db = tmp_path / "msmarco.db"
    new_workbench(db)
    (tmp_path / "topics.jsonl").write_text(json.dumps({"id": TOPIC, "title": "muscle pump reps"}) + "\n")
    (tmp_path / "run.txt").write_text(f"{TOPIC} Q0 {PUMPS} 1 9 r\n{TOPIC} Q0 {AIR} 2 8 r\n")
    with Store(db) as store:
        import_corpus(store, CORPUS)
        import_topics(store, tmp_path / "topics.jsonl")
        import_run(store, tmp_path / "run.txt", "bm25")
        chunk_corpus(store, "w10", size=10, overlap=0)
        build_pool(store, 2)
    return db


def test_the_fixture_holds_the_corpus_mojibake():
    assert "they\u00e2\u0080\u0099re getting big fast" in PASSAGES[PUMPS]
    assert "little \u00e2\u0080\u008bair \u00e2\u0080\u008bbags" in PASSAGES[AIR]


def test_a_chunk_marks_the_same_words_in_the_repaired_document():
    stored = PASSAGES[AIR]
    cuts = [0, stored.index("one of"), stored.index("(Definition"), len(stored)]
    spans = tuple(zip(cuts, cuts[1:], strict=False))
    view = UnitText("chunk:x", "d#1", AIR, "", stored, spans[1], spans)
    shown = readable_view(view)
    start, end = shown.span
    assert shown.text[start:end] == (
        "one of the very small tubes that branch out from the bronchi and connect to the alveoli (= little air bags). "
    )
    assert [shown.text[a:b][:6] for a, b in shown.neighbours] == ["bronch", "one of", "(Defin"]
    assert view.text == stored  # the view given is not changed


def test_the_topics_language_reaches_the_highlighting():
    part = Paragraph(0, "Das Haus und die Häuser")
    german = topic_terms(Topic("1", "Häuser kaufen", extra={"language": "de"}))
    assert german == (["häuser", "kaufen"], "german")
    assert [(h.start, h.exact) for h in find_hits([part], *german)] == [(4, False), (17, True)]
    english = topic_terms(Topic("1", "Häuser kaufen"))
    assert [(h.start, h.exact) for h in find_hits([part], *english)] == [(17, True)]


async def test_msmarco_mojibake_is_repaired_on_screen_and_stored_as_imported(msmarco_db, tmp_path):
    with Store(msmarco_db) as store:
        stored_hash = store.db.execute("SELECT hash FROM documents WHERE doc_id = ?", [PUMPS]).fetchone()[0]
    app = make_app(JudgeRequest(db_path=msmarco_db, assessor="ann"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        body = app.screen.query_one("#unit-body", Static)
        await until(pilot, lambda: REPAIRED_NOTE in body.render().plain, "the repaired passage")
        content = body.render()
        assert "13 – 25 reps per set" in content.plain and "they’re getting big fast" in content.plain
        assert "\\x80" not in content.plain and "â" not in content.plain
        assert squeezed("so are convinced they’re getting big fast") in squeezed(drawn(body))
        # `pump` marks the word itself and, underlined, `pumps`; `reps` is in the title as it is
        assert styled(content, QUERY_STYLE) == ["reps", "reps", "pump", "muscle"]
        assert styled(content, QUERY_STEM_STYLE) == ["pumps"]

        await pilot.press("o")  # the text as stored, its C1 characters shown as escapes
        await until(pilot, lambda: STORED_NOTE in body.render().plain, "the stored passage")
        content = body.render()
        assert visible(PASSAGES[PUMPS]) in content.plain and "they\u00e2\\x80\\x99re" in content.plain
        assert "\x80" not in app.export_screenshot()
        assert styled(content, QUERY_STEM_STYLE) == ["pumps"]
        await pilot.press("o")
        await until(pilot, lambda: REPAIRED_NOTE in body.render().plain, "repaired again")

        await pilot.press("2")  # judged on the repaired text: the next passage, repaired too
        await until(pilot, lambda: "little air bags" in body.render().plain, "the second passage")
        assert "\\u200b" not in body.render().plain and "Learner’s Dictionary & Thesaurus © Cambridge" in (
            body.render().plain
        )

    with Store(msmarco_db) as store:
        assert {d: store.document(d).text for d in PASSAGES} == PASSAGES
        assert store.db.execute("SELECT hash FROM documents WHERE doc_id = ?", [PUMPS]).fetchone()[0] == stored_hash
        assert unit_text(store, "doc", PUMPS).text == PASSAGES[PUMPS]
    assert stored_hash == hashlib.sha256(f"\n{PASSAGES[PUMPS]}".encode()).hexdigest()

    cli = Cli(msmarco_db)
    (event,) = [json.loads(line) for line in cli("export", "log").stdout.splitlines()]
    assert (event["unit_id"], event["grade"], event["content_hash"]) == (PUMPS, 2, stored_hash)
    chunks = [json.loads(line) for line in cli("corpus", "chunks", "--chunking", "w10", "--json").stdout.splitlines()]
    assert "".join(c["text"] for c in chunks if c["doc_id"] == PUMPS).replace(" ", "") == PASSAGES[PUMPS].replace(
        " ", ""
    )
    cli("snapshot", "create", "-m", "one grade")
    qrels = tmp_path / "qrels.txt"
    cli("export", "qrels", "-o", qrels)
    assert qrels.read_text() == f"{TOPIC} 0 {PUMPS} 2\n"


async def test_the_adjudication_screen_reads_the_same_repaired_text(msmarco_db):
    with Store(msmarco_db) as store:
        record_judgment(store, Judgment(topic_id=TOPIC, unit_id=PUMPS, assessor="ann", grade=2))
        record_judgment(store, Judgment(topic_id=TOPIC, unit_id=PUMPS, assessor="bob", grade=0))
    app = make_app(JudgeRequest(db_path=msmarco_db, assessor="cat"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_screen(pilot, "a", AdjudicationScreen)
        body = app.screen.query_one(UnitView).body
        await until(pilot, lambda: "they’re getting big fast" in body.render().plain, "the repaired passage")
        assert styled(body.render(), QUERY_STEM_STYLE) == ["pumps"]
        await pilot.press("o")
        await until(pilot, lambda: "they\u00e2\\x80\\x99re" in body.render().plain, "the stored passage")

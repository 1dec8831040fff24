"""User text is printed as text: no markup read, no control character reaching the terminal.

One workbench where every name the id rule allows is markup (`[/b]` made rich raise
MarkupError, `[red]x[/red]` vanished, `[link=...]` became a hyperlink) and every free text
(titles, notes, snapshot messages, file names) also holds terminal escapes: OSC (retitles
the terminal), CSI (clears it), an 8-bit CSI (C1) and a bidi override. Every command that
prints a table or a message runs on it, as text and as JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from labeler.cli import cli
from labeler.inert import visible_line

MARKUP = "[/b] [red]x[/red] [link=file:///etc/passwd]x[/link] [@click=app.quit]q"
ESCAPES = "\x1b]2;pwned\x07 \x1b[2J \x9b1m \u202eevil"
HOSTILE = f"{MARKUP} {ESCAPES}"
SHOWN = visible_line(HOSTILE)  # what a person reads: the markup verbatim, the escapes spelled out
RAW = ("\x1b", "\x07", "\x9b", "\u202e")

# names: no spaces or control characters (the id rule), anything else
T1, T2 = "t[/b]", "[red]x[/red]"
RUN1, RUN2 = "bm25[/b][red]x[/red]", "[link=file:///etc/passwd]x[/link]"
ANN1, ANN2 = "ann[/b]", "[@click=app.quit]q"
CHUNKING = "w5[red]x[/red]"
DOCS = ["d[/b]1", "[red]d2[/red]", "d3", "d4"]
MESSAGE1 = f"round one {HOSTILE}"
MESSAGE2 = f"round two\nforged line {HOSTILE}"


def run(db: Path, *args) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=True)


def assert_inert(result: Result, *shown: str) -> None:
    """Exit 0, no traceback, no raw control character, and each text printed as it is."""
    output = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 0, output
    assert "Traceback" not in output
    for char in RAW:
        assert char not in output, (char, output)
    for text in shown:
        assert text in output, (text, output)


def assert_json(result: Result, *values: str) -> None:
    """Still JSON, holding the exact user text, and its bytes hold no raw control character."""
    assert_inert(result)
    data = json.loads(result.stdout)
    flat = json.dumps(data, ensure_ascii=False)
    for value in values:
        assert json.dumps(value, ensure_ascii=False)[1:-1] in flat, value


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile")
    db = tmp / "wb.db"
    corpus = tmp / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"id": d, "title": f"{d} {HOSTILE}", "text": f"maize pests {HOSTILE} " * 3}) + "\n" for d in DOCS
        )
    )
    topics = tmp / f"topics{ESCAPES}.jsonl"  # the file name is user text too
    topics.write_text(
        json.dumps({"id": T1, "title": f"maize {HOSTILE}", "description": HOSTILE, "narrative": HOSTILE})
        + "\n"
        + json.dumps({"id": T2, "title": HOSTILE, "description": "", "narrative": ""})
        + "\n"
    )
    (tmp / "a.run").write_text("".join(f"{t} Q0 {d} {r} {9 - r} a\n" for t in (T1, T2) for r, d in enumerate(DOCS, 1)))
    (tmp / "b.run").write_text(
        "".join(f"{t} Q0 {d} {r} {9 - r} b\n" for t in (T1, T2) for r, d in enumerate(reversed(DOCS), 1))
    )
    steps = [
        (["init"], ()),
        (["corpus", "import", corpus], ()),
        (["topics", "import", topics], (visible_line(str(topics)),)),
        (["runs", "import", tmp / "a.run", "--name", RUN1], (RUN1,)),
        (["runs", "import", tmp / "b.run", "--name", RUN2], (RUN2,)),
        (["corpus", "chunk", "--name", CHUNKING, "--size", "5"], (CHUNKING,)),
        (["pool", "build", "--depth", "3"], (RUN1, RUN2, T1, T2)),
        (["judgments", "add", T1, DOCS[0], "2", "--assessor", ANN1, "--note", HOSTILE], (T1, ANN1)),
        (["judgments", "add", T1, DOCS[0], "1", "--assessor", ANN2], ()),
        (["judgments", "add", T1, DOCS[1], "0", "--assessor", ANN1], ()),
        (["judgments", "add", T1, DOCS[1], "0", "--assessor", ANN2], ()),
        (["judgments", "adjudicate", T1, DOCS[0], "2", "--assessor", ANN1], ()),
        (["judgments", "add", T1, DOCS[2], "0", "--assessor", ANN1], ()),  # T1's whole pool: not reopened
        (["judgments", "add", T1, DOCS[3], "0", "--assessor", ANN1], ()),
        (["topics", "mark", T1, "reviewed"], (T1,)),
        (["snapshot", "create", "-m", MESSAGE1], ()),
        (["judgments", "add", T2, DOCS[3], "1", "--assessor", ANN1], ()),
        (["topics", "mark", T2, "reviewed"], (T2,)),
        (["snapshot", "create", "-m", MESSAGE2], ()),
    ]
    for args, shown in steps:
        assert_inert(run(db, *args), *shown)
    return db


TEXT_COMMANDS = {
    "snapshot list": (["snapshot", "list"], [visible_line(MESSAGE1), visible_line(MESSAGE2)]),
    "snapshot show": (["snapshot", "show", "v1"], [f"Message: {visible_line(MESSAGE1)};", T1]),
    "snapshot diff": (["snapshot", "diff", "v1", "v2"], [T2, DOCS[3]]),
    "snapshot verify": (["snapshot", "verify"], ["v2"]),
    "runs list": (["runs", "list"], [RUN1, RUN2]),
    "judgments log": (["judgments", "log", "--limit", "50"], [ANN1, ANN2, T1, DOCS[0], SHOWN]),
    "eval": (["eval", "--per-query"], [RUN1, RUN2, f"{RUN1} per topic", T1]),
    "eval compare": (["eval", "--compare", RUN1, RUN2], [RUN1, RUN2]),
    "coverage": (["coverage", "--depth", "3"], [RUN1, RUN2, T1]),
    "compare": (["compare", "v1", "v2", "--depth", "3"], [RUN1, RUN2, T2]),
    "pool list": (["pool", "list"], [RUN1, RUN2]),
    "status": (["status"], [T1, T2]),
    "queue": (["queue", "--topic", T2, "--assessor", ANN2], [T2, DOCS[0]]),
    "topics list": (["topics", "list"], [T1, T2, visible_line(f"maize {HOSTILE}"), SHOWN]),
    "corpus chunkings": (["corpus", "chunkings"], [CHUNKING]),
    "agreement": (["agreement"], [ANN1, ANN2, T1]),
}

JSON_VALUES = {
    "snapshot list": [MESSAGE1, MESSAGE2],
    "snapshot show": [MESSAGE1, T1],
    "snapshot diff": [T2],
    "snapshot verify": [],
    "runs list": [RUN1, RUN2],
    "judgments log": [ANN1, ANN2, HOSTILE],
    "eval": [RUN1, T1],
    "eval compare": [RUN1, RUN2],
    "coverage": [RUN1, T1],
    "compare": [RUN1, T2],
    "pool list": [RUN1],
    "status": [T1, T2],
    "queue": [T2],
    "topics list": [T1, HOSTILE],
    "corpus chunkings": [CHUNKING],
    "agreement": [ANN1, ANN2],
}


# `snapshot diff` is an old spelling (of `compare --changes`) that keeps working, and keeps its output inert.
COMMAND_NAMES = [
    pytest.param(name, marks=pytest.mark.deprecated_spelling) if name == "snapshot diff" else name
    for name in TEXT_COMMANDS
]


@pytest.mark.parametrize("name", COMMAND_NAMES)
def test_every_table_and_message_prints_user_text_as_it_is(hostile, name):
    args, shown = TEXT_COMMANDS[name]
    assert_inert(run(hostile, *args), *shown)


@pytest.mark.parametrize("name", COMMAND_NAMES)
def test_json_output_stays_json_and_holds_the_exact_text(hostile, name):
    args, _ = TEXT_COMMANDS[name]
    assert_json(run(hostile, *args, "--json"), *JSON_VALUES[name])


def test_markup_in_a_cell_is_neither_read_nor_dropped(hostile):
    result = run(hostile, "topics", "list")
    assert_inert(result, "[red]x[/red]", "[link=file:///etc/passwd]x[/link]", "[@click=app.quit]q", "[/b]")
    assert "\x1b]8;" not in result.stdout  # no hyperlink (OSC 8), on any terminal


def test_a_new_pool_over_a_hostile_run_name_is_reported_after_it_is_committed(hostile, tmp_path):
    db = tmp_path / "copy.db"
    db.write_bytes(hostile.read_bytes())
    before = json.loads(run(db, "pool", "list", "--json").stdout)
    assert_inert(run(db, "pool", "build", "--depth", "4", "--runs", RUN1), RUN1, T1)
    after = json.loads(run(db, "pool", "list", "--json").stdout)
    assert len(after) == len(before) + 1  # one pool: the report no longer fails after the commit


def test_an_error_line_shows_the_escapes_of_a_file_name(hostile, tmp_path):
    bad = tmp_path / f"bad{ESCAPES}.run"
    bad.write_text("only three columns\n")
    result = run(hostile, "runs", "import", bad, "--name", "new")
    assert result.exit_code == 1 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"Error: {visible_line(str(bad))}:1: ")
    assert not any(char in result.stderr for char in RAW)


def test_the_html_report_escapes_user_text(hostile, tmp_path):
    db = tmp_path / "copy.db"
    db.write_bytes(hostile.read_bytes())
    script = '"><script>alert(1)</script><x'
    (tmp_path / "c.run").write_text(
        "".join(f"{t} Q0 {d} {r} {9 - r} c\n" for t in (T1, T2) for r, d in enumerate(DOCS, 1))
    )
    assert_inert(run(db, "runs", "import", tmp_path / "c.run", "--name", script))
    assert_inert(run(db, "snapshot", "create", "-m", f"{HOSTILE} {script}"))
    page = tmp_path / "report.html"
    assert_inert(run(db, "report", "--html", page, "--depth", "3"))
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html and 'aria-label=""' not in html
    assert "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;x" in html
    assert not any(char in html for char in RAW)


def test_a_progress_bar_label_is_plain_text(monkeypatch):
    """`runs import` labels its bar with the run name; rich read it as markup (on a terminal only)."""
    import io
    import sys

    from labeler.cli.common.printing import progress_bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress_bar(f"importing {RUN1} {ESCAPES}") as update:
        assert update is not None
        update(1, 2)
    # the bar itself draws with ESC (cursor and colours); the label's own escapes are spelled out
    assert RUN1 in terminal.getvalue() and visible_line(ESCAPES) in terminal.getvalue()
    assert "pwned\x07" not in terminal.getvalue() and "\x9b" not in terminal.getvalue()


def test_the_exported_log_holds_no_raw_control_character_and_merges_back_the_same(hostile, tmp_path):
    """A note holding OSC, CSI, C1 and bidi text: the log is safe to `cat` and still the same events."""
    result = run(hostile, "export", "log")
    assert_inert(result)
    notes = [json.loads(line)["note"] for line in result.stdout.splitlines()]
    assert HOSTILE in notes
    log = tmp_path / "log.jsonl"
    log.write_text(result.stdout, encoding="utf-8")
    merged = run(hostile, "merge", log, "--json")
    assert_inert(merged)
    assert json.loads(merged.stdout)["added"] == 0  # every event already here, byte for byte


def test_a_table_title_is_a_line_of_its_own(capsys):
    """A title used to end without a line break, so it ran into the header row ('scores run ┃ ...')."""
    from labeler.cli.common.printing import table

    table("scores", ["run", "P@10"], [["bm25", 0.5]])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].strip() == "scores"
    assert lines[1].split()[0] == "run"

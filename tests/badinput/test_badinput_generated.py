"""Inputs too big, or not files at all, made by the tests: 5 MB lines, folders, missing paths.

The 5 MB lines are written at test time (a hand-made file that size would bloat the repository).
With the line limit raised past them (LABELER_MAX_LINE_BYTES), every importer either reads a 5 MB
line as trec_eval would or refuses it with a short message (it does not echo the line back); with
the default limit of 1 MiB, they are refused (tests/badinput/test_badinput_reading.py). A folder or
a missing path is always refused with its path.
"""

from __future__ import annotations

import json

import pytest
from badinput_support import (
    Unchanged,
    assert_no_crash,
    assert_refused,
    command,
    invoke,
    stored,
)

HUGE = "x" * (5 * 1024 * 1024)
H = "{H}"  # stands for HUGE in the tables below, expanded when a test runs (keeps memory low)
SCALE_TSV = "0\tno\tNot useful.\n1\tyes\tUseful.\nthreshold\t1\n"
NO_YES = [(0, "no"), (1, "yes")]
FIELDS_6 = "expected 6 fields (topic Q0 id rank score tag)"
FIELDS_4 = "expected 4 fields (topic iteration id grade)"


def expand(value):
    """The value with every H replaced by the 5 MB string."""
    if isinstance(value, str):
        return value.replace(H, HUGE)
    if isinstance(value, tuple):
        return tuple(expand(v) for v in value)
    if isinstance(value, list):
        return [expand(v) for v in value]
    if isinstance(value, dict):
        return {expand(k): expand(v) for k, v in value.items()}
    return value


def scale_json(definition: str) -> str:
    return json.dumps(
        {
            "name": "big",
            "threshold": 1,
            "grades": [{"grade": 0, "label": "no"}, {"grade": 1, "label": "yes", "definition": definition}],
        }
    )


# (importer, file name, text, what is stored afterwards) -- a 5 MB line trec_eval would read too
HUGE_ACCEPTED = [
    ("corpus", "huge_text.tsv", f"d1\t{H}\n", {"d1": ("", H)}),
    ("corpus", "huge_text.jsonl", json.dumps({"id": "d1", "text": H}) + "\n", {"d1": ("", H)}),
    ("topics", "huge_title.tsv", f"301\t{H}\n", {"301": H}),
    ("scale", "huge_definition.tsv", SCALE_TSV.replace("Useful.", H), ("huge_definition", NO_YES, 1)),
    ("scale", "huge_definition.json", scale_json(H), ("big", NO_YES, 1)),
]

# (importer, file name, text, line, fragment) -- a 5 MB line that is malformed
HUGE_REFUSED = [
    ("run", "huge_token.run", f"301 Q0 d1 1 2.0 t\n{H}\n", 2, f"{FIELDS_6}, found 1"),
    ("qrels", "huge_token.qrels", f"301 0 d1 1\n{H} 1\n", 2, f"{FIELDS_4}, found 2"),
    ("corpus", "huge_no_tab.tsv", f"d1\tone\n{H}\n", 2, "expected 2 or 3 tab-separated fields"),
    ("corpus", "huge_unterminated.jsonl", '{"id": "d1", "text": "' + H + "\n", 1, "Unterminated string"),
    ("topics", "huge_no_tab.tsv", f"301\tone\n{H}\n", 2, "found no tab"),
    ("mapping", "huge_token.tsv", f"d1#0 d1\n{H}\n", 2, "found 1"),
    ("derive", "huge_three_fields.txt", f"{H} b#1 c\n", 1, "found 3 fields"),
    ("scale", "huge_grade.tsv", f"{H}\tno\n" + SCALE_TSV, 1, "grade 'xxxxxxxx"),
    ("scale", "huge_unterminated.json", scale_json("x")[:-2] + H + "\n", 1, "not a valid JSON scale"),
    # an id longer than the id rule's 512 characters (labeler.ids)
    ("run", "huge_id.run", f"301 Q0 d1 1 2.0 t\n301 Q0 {H} 2 1.0 t\n", 2, "unit id 'xxxxxxxx"),
    ("qrels", "huge_id.qrels", f"301 0 {H} 1\n", 1, "characters long (at most 512)"),
    ("mapping", "huge_chunk_id.tsv", f"d1#{H} d1\n", 1, "chunk id 'd1#xxxxx"),
    ("derive", "huge_chunk_id.txt", f"d1#{H}\n", 1, "characters long (at most 512)"),
]


@pytest.fixture
def raised_line_limit(monkeypatch):
    """Lines up to 8 MiB, through the environment variable every importing command reads."""
    monkeypatch.setenv("LABELER_MAX_LINE_BYTES", "8M")


@pytest.mark.usefixtures("raised_line_limit")
@pytest.mark.parametrize(
    ("importer", "name", "text", "expected"), HUGE_ACCEPTED, ids=[row[1] + "-" + row[0] for row in HUGE_ACCEPTED]
)
def test_a_5mb_line_is_read_whole(workbench, tmp_path, importer, name, text, expected):
    path = tmp_path / name
    path.write_text(expand(text), encoding="utf-8")
    result = invoke(workbench, command(importer, path))
    assert_no_crash(result)
    assert result.exit_code == 0, result.stderr[:500]
    assert stored(importer, workbench) == expand(expected)


@pytest.mark.usefixtures("raised_line_limit")
@pytest.mark.parametrize(
    ("importer", "name", "text", "line", "fragment"), HUGE_REFUSED, ids=[row[1] + "-" + row[0] for row in HUGE_REFUSED]
)
def test_a_malformed_5mb_line_is_refused_without_echoing_it(workbench, tmp_path, importer, name, text, line, fragment):
    path = tmp_path / name
    path.write_text(expand(text), encoding="utf-8")
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, path))
    assert_refused(result, path, line, fragment)
    assert len(result.stderr) < 1000


IMPORTERS = ["run", "qrels", "corpus", "topics", "mapping", "derive", "scale"]
# A folder is a BEIR folder to `corpus import` and `topics import`; a file to everything else.
FOLDER_REASON = {
    "corpus": "expected a BEIR folder with corpus.jsonl, found none",
    "topics": "expected a BEIR folder with queries.jsonl, found none",
}


@pytest.mark.parametrize("importer", IMPORTERS)
@pytest.mark.parametrize("suffix", [".json", ".tsv"])
def test_a_folder_is_refused(workbench, tmp_path, importer, suffix):
    folder = tmp_path / f"input{suffix}"  # the suffix picks the scale reader; others ignore it
    folder.mkdir()
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, folder))
    assert_refused(result, folder, None, FOLDER_REASON.get(importer, "is a folder, not a regular file"))


@pytest.mark.parametrize("importer", IMPORTERS)
def test_a_missing_file_is_refused(workbench, tmp_path, importer):
    path = tmp_path / "nothing.here"
    with Unchanged(workbench):
        result = invoke(workbench, command(importer, path))
    assert_refused(result, path, None, "no such file")


SCALE_FILES = [
    "scale_bad_json.json",
    "scale_float_grade.json",
    "scale_nul_byte.json",
    "scale_utf16_bom.tsv",
    "scale_no_threshold.tsv",
    "scale_truncated.tsv.gz",
    "missing.json",
]


@pytest.mark.parametrize("name", SCALE_FILES)
def test_init_with_a_bad_scale_creates_no_workbench(tmp_path, name):
    from badinput_support import FILES

    db = tmp_path / "new.db"
    result = invoke(db, ["init", "--scale", FILES / name])
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stderr.startswith(f"Error: {FILES / name}")
    assert list(tmp_path.iterdir()) == []  # before the fix, an empty workbench was left behind

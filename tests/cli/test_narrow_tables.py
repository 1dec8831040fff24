"""At 80 columns the status table leaves out its least useful columns and wraps, never cutting a status."""

from __future__ import annotations

import pytest

from labeler.columns import Column, column_of, fit_columns

# topic 1: 30 units (a reopened topic with many unjudged), topic 2: 12, topic 10: 3
RUN = "".join(
    f"{t} Q0 {t}u{r} {r} {100 - r} A\n" for t, n in (("1", 30), ("2", 12), ("10", 3)) for r in range(1, n + 1)
)
PRIOR = "1 0 1u1 2\n1 0 1u2 0\n2 0 2u1 1\n10 0 10u1 1\n10 0 10u2 0\n10 0 10u3 0\n10 0 elsewhere 2\n"


@pytest.fixture
def campaign(run_cli, write):
    run_cli("runs", "import", write("a.run", RUN), "--name", "A", "--allow-unknown")
    run_cli("judgments", "import", write("prior.qrels", PRIOR), "--assessor", "nist", "--reviewed", "--allow-unknown")
    run_cli("pool", "build", "--depth", "30", "--runs", "A")
    run_cli("judgments", "add", "2", "2u2", "--kind", "unsure", "--reason", "cut off", "--assessor", "ann")
    return run_cli


def cells_by_column(stdout: str, first_header: str) -> dict[str, dict[str, str]]:
    """{column: {topic: cell}} of the table whose header starts with `first_header`, wrapped lines joined."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split("┃")[0].strip() == first_header)
    headers = [h.strip() for h in lines[start].split("┃")]
    table: dict[str, dict[str, str]] = {h: {} for h in headers}
    topic = None
    for line in lines[start + 2 :]:
        parts = [p.strip() for p in line.split("│")]
        if len(parts) != len(headers):
            break
        topic = parts[0] or topic
        for header, part in zip(headers, parts, strict=True):
            if part:
                table[header][topic] = f"{table[header].get(topic, '')} {part}".strip()
    return table


def test_status_at_80_columns_keeps_every_status_whole_and_says_what_it_left_out(campaign, monkeypatch):
    statuses = {t: row["review_status"] for t, row in campaign.json("status")["topics"].items()}
    assert statuses == {"1": "reopened", "2": "reopened", "10": "reviewed"}
    monkeypatch.setattr("labeler.cli.common.printing.on_terminal", lambda: True)  # as on an 80-column terminal
    monkeypatch.setenv("COLUMNS", "80")
    shown = campaign("status")
    assert max(len(line) for line in shown.stdout.splitlines()) <= 80, shown.stdout
    columns = cells_by_column(shown.stdout, "topic")
    assert columns["review status"] == {
        "1": "reopened by P1 (28 unjudged)",
        "2": "reopened by P1 (11 unjudged)",
        "10": "reviewed",
    }
    assert columns["window:10"] == {"1": "-", "2": "-", "10": "-", "total": "0"}
    assert columns["conflicts"]["total"] == "0" and columns["unjudged"]["1"] == "28"
    assert "relevant outside" not in columns and "skipped" not in columns
    assert "Left out to fit 80 columns: pool, skipped, unsure, outside pool, relevant outside" in shown.stderr


def test_status_piped_keeps_every_column_on_one_line_whatever_columns_says(campaign, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    shown = campaign("status")
    columns = cells_by_column(shown.stdout, "topic")
    assert columns["relevant outside"]["10"] == "1" and columns["unsure"]["2"] == "1"
    assert columns["review status"]["1"] == "reopened by P1 (28 unjudged)"
    assert "Left out" not in shown.stderr
    assert len([line for line in shown.stdout.splitlines() if "│" in line]) == 1 + 4  # workbench row, 3 topics, total


def test_fit_leaves_a_table_that_fits_alone_and_drops_in_rank_order():
    columns = [
        column_of("id", ["t1"]),
        column_of("count", ["12"], whole=True, drop=1),
        column_of("note", ["a long note here"], drop=0),
        column_of("status", ["reopened by P1"]),
    ]
    assert fit_columns(100, columns, gap=3) is None
    # 40 columns: every column fits once wrapped between words; the room left goes in table order,
    # or to the columns named in `grow` first
    assert fit_columns(40, columns, gap=3) == {"id": 2, "count": 5, "note": 13, "status": 8}
    assert fit_columns(40, columns, gap=3, grow=["status"]) == {"id": 2, "count": 5, "note": 7, "status": 14}
    # 25: the words no longer fit: the note (ranked 0) is left out first
    assert fit_columns(25, columns, gap=3) == {"id": 2, "count": 5, "status": 9}
    # 20: the count goes too; the status gets its longest word, then the room left
    assert fit_columns(20, columns, gap=3) == {"id": 2, "status": 12}
    # too narrow even for the kept columns' words: the widest is narrowed (its long word folds)
    assert fit_columns(14, columns, gap=3) == {"id": 2, "status": 6}
    assert fit_columns(20, [Column("path", 30, 30), Column("unit", 4, 4)], gap=3) == {"path": 10, "unit": 4}

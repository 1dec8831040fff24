"""A run format is one module plus one registration: `RunReader`, its errors and the docs table then know it.

The toy format below ("csv": `topic,unit,score`) is registered by the test
itself; a file whose first result line has commas is read in it, a TREC file
still as TREC, and the generated docs table gains its row.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from labeler.errors import RunFormatError
from labeler.formats.run_formats import (
    RUN_FORMATS,
    RunBlock,
    RunFormat,
    RunSource,
    detect_run_format,
)
from labeler.formats.runs import RunReader


def csv_blocks(source: RunSource) -> Iterator[RunBlock]:
    block: RunBlock | None = None
    for number, line in source.lines:
        if line.startswith("#"):
            continue
        fields = line.strip().split(",")
        if len(fields) != 3:
            raise RunFormatError(f"expected topic,unit,score, found {len(fields)}", path=source.path, line=number)
        topic_id, unit_id, score = fields
        if block is None or block.topic_id != topic_id:
            if block is not None:
                yield block
            block = RunBlock(topic_id, number)
        block.units.append(unit_id)
        block.scores.append(float(score))
        block.ranks.append(len(block.units))
        source.line_count += 1
    if block is not None:
        yield block


def csv_ids(line: str, path: Path, number: int) -> tuple[str, str | None]:
    topic_id, unit_id, _ = line.strip().split(",")
    return topic_id, unit_id


@pytest.fixture
def csv_format():
    RUN_FORMATS.register(
        "csv",
        RunFormat(
            "csv",
            description="topic,unit,score",
            example="301,FBIS3-10082,12.52",
            detected_by="the first result line has a comma",
            detects=lambda line: "," in line,
            read_blocks=csv_blocks,
            line_ids=csv_ids,
        ),
    )
    yield "csv"
    RUN_FORMATS.unregister("csv")


def test_the_built_in_formats_are_registered_with_trec_the_fallback():
    assert [(f.name, f.fallback) for f in RUN_FORMATS.values()] == [("jsonl", False), ("trec", True)]
    assert detect_run_format('{"qid": "1"}').name == "jsonl"
    assert detect_run_format("1 Q0 d1 1 1.0 t").name == "trec"
    assert detect_run_format("anything else").name == "trec"


def test_a_name_or_a_second_fallback_is_refused():
    trec = next(f for f in RUN_FORMATS.values() if f.name == "trec")
    with pytest.raises(ValueError, match="run format 'trec' is already registered"):
        RUN_FORMATS.register("trec", trec)
    with pytest.raises(ValueError, match="there is a fallback format already"):
        RUN_FORMATS.register(
            "other", RunFormat("other", "", "", "", lambda line: True, trec.read_blocks, trec.line_ids, True)
        )


def test_a_registered_format_is_read_and_explains_its_errors(tmp_path, csv_format):
    path = tmp_path / "run.csv"
    path.write_text("# made by hand\n1,d1,2.5\n1,d2,1.5\n2,d1,3\n1,d2,0.5\n")
    reader = RunReader(path)
    assert reader.format == "csv"
    assert [(b.topic_id, b.units, b.scores, b.first_line) for b in reader.blocks()] == [
        ("1", ["d1", "d2"], [2.5, 1.5], 2),
        ("2", ["d1"], [3.0], 4),
        ("1", ["d2"], [0.5], 5),
    ]
    assert reader.line_count == 4
    assert reader.find_line("1", "d2", occurrence=2) == 5
    assert reader.first_line_with_unit({"d2"}) == (3, "d2")
    trec = tmp_path / "run.txt"
    trec.write_text("1 Q0 d1 1 2.5 t\n")
    assert RunReader(trec).format == "trec"


def test_a_registered_formats_errors_name_the_file_and_line(tmp_path, csv_format):
    path = tmp_path / "bad.csv"
    path.write_text("1,d1,2.5\n1,d2\n")
    with pytest.raises(RunFormatError, match=r"bad.csv:2: expected topic,unit,score, found 2$"):
        list(RunReader(path).blocks())


def test_a_registered_format_joins_the_generated_docs_table(csv_format):
    from labeler.cli.common.doc_tables import formats_table, stale_tables

    rows = formats_table().splitlines()
    assert "| `csv` | the first result line has a comma | topic,unit,score | `301,FBIS3-10082,12.52` |" in rows
    assert rows[-1].startswith("| `trec` |")  # the fallback last: the order formats are tried in
    assert stale_tables() == ["formats.md: formats"]

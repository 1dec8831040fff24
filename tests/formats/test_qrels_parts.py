"""The qrels reader's two paths agree: C calls over the columns of plain parts, and line by line.

Every file is read with the reader as it was before the column path (kept here as the reference), as
is and with tiny parts and blocks (so comments, repeats and errors fall across part boundaries). The
lines and the error (message and line) must be the same. The import streams those parts inside one
transaction: its errors keep the precedence of checking the whole file first, and a failure writes nothing.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import new_workbench

from labeler.errors import LabelerError, QrelsFormatError
from labeler.formats import lines as lines_module
from labeler.formats import qrels as qrels_module
from labeler.formats.fields import OTHER_SPACE, column_id, integer_field, split_fields
from labeler.formats.lines import TextLines
from labeler.formats.qrels import BEIR_HEADER, QrelsLine, read_qrels
from labeler.ids import MAX_ID_LENGTH
from labeler.store import Store
from labeler.workbench.record_judgments import import_judgments


def reference_read_qrels(path):
    """Qrels lines in file order; a repeated (topic, unit) is an error at its second line.

    Read a block of lines at a time: the white-space rule is one search over a block's text, and a line
    is checked on its own only in a block where that search finds something (the error names its line).
    """
    lines = TextLines(path, QrelsFormatError)
    seen: dict[tuple[str, str], int] = {}
    found = False
    beir = None
    for first, block in lines.batches():
        clean = OTHER_SPACE.search("\n".join(block)) is None
        for number, text in enumerate(block, first):
            if not text.strip() or text.startswith("#"):  # as `data_lines` skips them
                continue
            fields = text.split() if clean else split_fields(text, path=path, line=number, error=QrelsFormatError)
            if beir is None:
                beir = tuple(f.lower() for f in fields) == BEIR_HEADER
                if beir:
                    continue
            if beir:
                if len(fields) != 3:
                    raise QrelsFormatError(
                        f"expected 3 fields (query-id corpus-id score), found {len(fields)}", path=path, line=number
                    )
                topic_id, unit_id, grade_text = fields
            else:
                if len(fields) != 4:
                    raise QrelsFormatError(
                        f"expected 4 fields (topic iteration id grade), found {len(fields)}", path=path, line=number
                    )
                topic_id, _, unit_id, grade_text = fields
            # `column_id`'s fast path, inlined (split() left no white space, so printable is the whole rule)
            if len(topic_id) > MAX_ID_LENGTH or not topic_id.isprintable():
                topic_id = column_id(topic_id, "topic id", path=path, line=number, error=QrelsFormatError)
            if len(unit_id) > MAX_ID_LENGTH or not unit_id.isprintable():
                unit_id = column_id(unit_id, "unit id", path=path, line=number, error=QrelsFormatError)
            if grade_text.isascii() and grade_text.isdigit() and len(grade_text) < 19:  # fits INT64: no range check
                grade = int(grade_text)
            else:
                grade = integer_field(grade_text, "grade", path=path, line=number, error=QrelsFormatError)
            key = (topic_id, unit_id)
            if key in seen:
                raise QrelsFormatError(
                    f"topic {topic_id!r} judges {unit_id!r} twice (first at line {seen[key]})", path=path, line=number
                )
            seen[key] = number
            found = True
            yield QrelsLine(number, topic_id, unit_id, grade)
    if not found:
        raise QrelsFormatError("no judgments found (empty qrels)", path=path)


def read(path, reader):
    got = []
    try:
        for line in reader(path):
            got.append(tuple(line))
    except QrelsFormatError as exc:
        return got, (str(exc), exc.line)
    return got, None


def three_ways(path, monkeypatch):
    """The reference's lines and error, read as is, in tiny parts and blocks, and with every pair's hash alike."""
    expected = read(path, reference_read_qrels)
    assert read(path, read_qrels) == expected
    with monkeypatch.context() as patch:
        patch.setattr(qrels_module, "PART_LINES", 3)
        assert read(path, read_qrels) == expected
        patch.setattr(lines_module, "BLOCK_SIZE", 64)
        assert read(path, read_qrels) == expected
    with monkeypatch.context() as patch:  # every pair's hash the same: each one confirmed against the file
        patch.setattr(qrels_module, "hash", lambda pair: 7, raising=False)
        assert read(path, read_qrels) == expected
    return expected


ODD_LINES = [
    "# a comment",
    "",
    "   ",
    "1\t0\td1\t1",
    "1  0 d9 2",
    " 2 0 d1 1",
    "2 0 d2 1 ",
    "1 0 d1 3",  # a repeat
    "3 0 d1 -1",
    "3 0 d2 1.5",
    "3 0 d3 99999999999999999999",
    "3 0 d4 ٣",
    "#4 0 d1 1",
    "4 0 #d1 1",
    "4 0 d\u00e9 1",
    "4 0 d\u00a0x 1",
    "4 0 d\x1fx 1",
    "4 0 " + "x" * (MAX_ID_LENGTH + 1) + " 1",
    "5 0 d1",
    "5 0 d1 1 extra",
    "query-id corpus-id score",
]


def plain_line(rng, topic):
    return f"{topic} 0 d{rng.randrange(40)} {rng.randrange(4)}"


@pytest.mark.parametrize("seed", range(60))
def test_generated_files_read_alike_every_way(seed, tmp_path, monkeypatch):
    rng = random.Random(seed)
    rows = []
    for topic in range(1, rng.randrange(2, 6)):
        rows += sorted({plain_line(rng, topic) for _ in range(rng.randrange(1, 30))}, key=lambda r: r.split()[2])
    # keep one line per pair, so a file is good unless an odd line makes it bad
    unique, pairs = [], set()
    for row in rows:
        fields = row.split()
        if (fields[0], fields[2]) not in pairs:
            pairs.add((fields[0], fields[2]))
            unique.append(row)
    for _ in range(rng.randrange(0, 3)):
        unique.insert(rng.randrange(len(unique) + 1), rng.choice(ODD_LINES))
    path = tmp_path / "q.txt"
    path.write_text("\n".join(unique) + ("\n" if rng.random() < 0.8 else ""), encoding="utf-8")
    three_ways(path, monkeypatch)


def test_beir_files_read_alike(tmp_path, monkeypatch):
    path = tmp_path / "q.tsv"
    path.write_text("query-id\tcorpus-id\tscore\n" + "".join(f"q{i}\td{i}\t1\n" for i in range(20)))
    lines, error = three_ways(path, monkeypatch)
    assert error is None and len(lines) == 20


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["1 0 a 1", "1 0 b 2", "2 0 a 0", "2 0 c 3", *ODD_LINES]), max_size=12))
def test_any_mix_of_lines_reads_alike(tmp_path, monkeypatch, rows):
    path = tmp_path / "q.txt"
    path.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    three_ways(path, monkeypatch)


@pytest.fixture
def store(tmp_path):
    db = new_workbench(tmp_path / "wb.db")
    with Store(db) as opened:
        yield opened


def import_error(store, path, monkeypatch, **options):
    with monkeypatch.context() as patch:
        patch.setattr(qrels_module, "PART_LINES", 2)
        with pytest.raises(LabelerError) as caught:
            import_judgments(store, path, assessor="ann", **options)
    assert store.event_count() == 0  # all or nothing: the parts appended before are rolled back
    return caught.value


def test_a_format_error_late_in_the_file_comes_before_an_early_bad_grade(store, tmp_path, monkeypatch):
    path = tmp_path / "q.txt"
    path.write_text("1 0 d1 7\n" + "".join(f"1 0 e{i} 1\n" for i in range(8)) + "1 0 d1 1 x\n")
    error = import_error(store, path, monkeypatch, allow_unknown=True)
    assert error.line == 10 and "expected 4 fields" in error.reason


def test_a_late_bad_grade_comes_before_an_early_unknown_id(store, tmp_path, monkeypatch):
    path = tmp_path / "q.txt"
    path.write_text("".join(f"1 0 e{i} 1\n" for i in range(7)) + "1 0 d1 7\n")
    error = import_error(store, path, monkeypatch)
    assert error.line == 8 and "not on the scale" in error.reason


def test_unknown_units_are_all_counted_and_the_first_line_named(store, tmp_path, monkeypatch):
    path = tmp_path / "q.txt"
    path.write_text("1 0 z0 1\n" + "".join(f"1 0 z{9 - i} 1\n" for i in range(9)))
    from labeler.workbench.corpus import import_corpus

    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "z0", "text": "t"}\n')
    import_corpus(store, corpus)
    events = store.event_count()
    with monkeypatch.context() as patch:
        patch.setattr(qrels_module, "PART_LINES", 2)
        with pytest.raises(LabelerError) as caught:
            import_judgments(store, path, assessor="ann")
    assert store.event_count() == events
    assert caught.value.line == 2 and caught.value.reason.startswith("9 ids not in the corpus, e.g. z1, z2, z3, z4, z5")


def test_a_streamed_import_counts_as_one_read_did(store, tmp_path, monkeypatch):
    path = tmp_path / "q.txt"
    path.write_text("# c\n" + "".join(f"{t} 0 d{i} {(t + i) % 4 - (i == 3)}\n" for t in (2, 10, 1) for i in range(5)))
    with monkeypatch.context() as patch:
        patch.setattr(qrels_module, "PART_LINES", 2)
        first = import_judgments(store, path, assessor="ann", reviewed=True, allow_unknown=True)
        again = import_judgments(store, path, assessor="ann", allow_unknown=True)
    assert (first.judgments, first.unchanged, first.topics, first.relevant, first.pooled_unjudged) == (15, 0, 3, 10, 1)
    assert list(first.marked) == ["1", "2", "10"]
    assert (again.judgments, again.unchanged) == (0, 15)


def test_append_grades_writes_the_rows_append_events_writes(tmp_path):
    from labeler.judgments.log import GRADE, Event

    grades = [("1", "d1", 2), ("1", "d2", 0), ("10", "d1", -1)]
    logs = []
    for way in ("events", "grades"):
        with Store(new_workbench(tmp_path / f"{way}.db")) as store:
            with store.transaction():
                store.append_events([Event("", 0, "1", "d0", GRADE, "bob", "2026-01-01T00:00:00+00:00", grade=1)])
                if way == "events":
                    events = [
                        Event("", 0, t, u, GRADE, "ann", "2020-01-01T00:00:00+00:00", grade=g, source="model")
                        for t, u, g in grades
                    ]
                    events = [Event(**{**e.__dict__, "model": "m", "unit": "doc"}) for e in events]
                    assert store.append_events(events) == 3
                else:
                    written = store.append_grades(
                        grades, assessor="ann", time="2020-01-01T00:00:00+00:00", source="model", model="m", unit="doc"
                    )
                    assert written == 3
            assert list(store.log_chain_problems()) == []
            rows = store.db.execute("SELECT * FROM events ORDER BY seq").fetchall()
            columns = [d[0] for d in store.db.execute("SELECT * FROM events").description]
            kept = [k not in ("event_id", "link") for k in columns]
            logs.append([[v for v, keep in zip(row, kept, strict=True) if keep] for row in rows])
    assert logs[0] == logs[1]

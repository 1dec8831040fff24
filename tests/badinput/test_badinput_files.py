"""Every importer against the hand-made files in tests/badinput/files/.

A file's name says which importer reads it (`run_`, `qrels_`, `corpus_`/`beir_`, `topics_`,
`mapping_`, `derive_`, `scale_`) and what is wrong with it. A refused file must give exit code 1,
one `Error: file:line: reason` line, no traceback, and leave the workbench byte-for-byte as it was;
an accepted one must be stored as trec_eval would read it.
"""

from __future__ import annotations

import pytest
from badinput_support import (
    FILES,
    Unchanged,
    assert_no_crash,
    assert_refused,
    command,
    importer_of,
    invoke,
    stored,
)

NAN = "is not a finite number"
NOT_UTF8 = "not valid UTF-8"
NUL = "contains a NUL byte"
LONE_CR = "ends with a lone CR"
GZIP = "truncated or corrupt gzip file"
NBSP = "contains the white space U+00A0"
DEEP = "invalid JSON: nested too deeply"
SURROGATE = "half of a surrogate pair"

# (file, line or None, fragment of the reason)
REFUSED = [
    # -- labeler runs import (TREC, JSONL) --
    ("run_nan_score.trec", 3, "score 'nan' " + NAN),  # nan score
    ("run_inf_score.trec", 3, "score '-inf' " + NAN),  # -inf score
    ("run_huge_exponent_score.trec", 3, "score '1e999' " + NAN),  # overflows to inf
    ("run_text_score.trec", 3, "score 'high' is not a number"),  # a word as score
    ("run_underscore_score.trec", 3, "score '1_000' " + NAN),  # Python-only spelling (atof reads 1)
    ("run_arabic_indic_score.trec", 3, "score '\u0663' is not a number"),  # float() reads 3.0, atof 0
    ("run_fullwidth_rank.trec", 3, "rank '\uff13' is not an integer"),  # int() reads 3
    ("run_rank_score_swapped.trec", 3, "rank '1.75' is not an integer (are the columns in order"),
    ("run_rank_out_of_range.trec", 3, "rank '99999999999999999999' is out of range"),  # beyond 64 bits
    ("run_five_fields.trec", 3, "expected 6 fields (topic Q0 id rank score tag), found 5"),
    ("run_nbsp_in_id.trec", 3, NBSP),  # Python splits at U+00A0, trec_eval does not
    ("run_duplicate_doc.trec", 4, "duplicate id 'd1' in the ranking of topic '301'"),  # split topic
    ("run_nul_byte.trec", 3, NUL),
    ("run_latin1.trec", 3, NOT_UTF8),  # caf\xe9
    ("run_utf16_bom.trec", 1, NOT_UTF8),  # UTF-16 with its BOM
    ("run_empty.trec", None, "empty run"),
    ("run_whitespace_only.trec", None, "empty run"),
    ("run_comments_only.trec", None, "empty run"),
    ("run_lone_cr.trec", 1, LONE_CR),  # old Mac endings: trec_eval would read one line
    ("run_truncated.trec.gz", 96, GZIP + ": Compressed file ended"),  # cut after 600 bytes
    ("run_corrupt.trec.gz", 1, GZIP + ": Error -3 while decompressing"),  # bytes overwritten
    ("run_nan_score.jsonl", 2, "score nan " + NAN),  # NaN in JSON
    ("run_infinity_score.jsonl", 1, "score inf " + NAN),  # Infinity in JSON
    ("run_huge_integer_score.jsonl", 1, NAN),  # a 401-digit integer does not fit a float
    ("run_deep_nesting.jsonl", 1, DEEP),  # 5000 nested arrays
    ("run_lone_surrogate_id.jsonl", 1, SURROGATE),  # "d\udc80"
    ("run_float_rank.jsonl", 1, "rank must be an integer, found a number"),
    # -- labeler judgments import (TREC qrels, BEIR qrels TSV) --
    ("qrels_float_grade.qrels", 3, "grade '1.0' is not an integer"),
    ("qrels_text_grade.qrels", 3, "grade 'rel' is not an integer"),
    ("qrels_grade_above_scale.qrels", 3, "grade 4 is not on the scale 'default'"),
    ("qrels_arabic_indic_grade.qrels", 3, "grade '\u0663' is not an integer"),  # int() reads 3, atol 0
    ("qrels_grade_out_of_range.qrels", 3, "grade '-99999999999999999999' is out of range"),
    ("qrels_three_fields.qrels", 3, "expected 4 fields (topic iteration id grade), found 3"),
    ("qrels_five_fields.qrels", 3, "expected 4 fields (topic iteration id grade), found 5"),
    ("qrels_duplicate_pair.qrels", 3, "topic '301' judges 'd1' twice (first at line 1)"),
    ("qrels_nbsp_in_id.qrels", 3, NBSP),
    ("qrels_nul_byte.qrels", 3, NUL),
    ("qrels_latin1.qrels", 3, NOT_UTF8),
    ("qrels_utf16_bom.qrels", 1, NOT_UTF8),
    ("qrels_empty.qrels", None, "no judgments found"),
    ("qrels_whitespace_only.qrels", None, "no judgments found"),
    ("qrels_comments_only.qrels", None, "no judgments found"),
    ("qrels_lone_cr.qrels", 1, LONE_CR),
    ("qrels_truncated.qrels.gz", 232, GZIP + ": Compressed file ended"),
    ("qrels_corrupt.qrels.gz", 1, GZIP + ": Error -3 while decompressing"),  # was a zlib.error traceback
    ("qrels_beir_float_score.tsv", 3, "grade '0.5' is not an integer"),
    ("qrels_beir_four_fields.tsv", 3, "expected 3 fields (query-id corpus-id score), found 4"),
    # -- labeler corpus import (TSV, JSONL, BEIR folder) --
    ("corpus_one_field.tsv", 3, "expected 2 or 3 tab-separated fields (id, [title,] text), found 1"),
    ("corpus_four_fields.tsv", 3, "expected 2 or 3 tab-separated fields (id, [title,] text), found 4"),
    ("corpus_empty_id.tsv", 3, "document id '' is empty"),
    ("corpus_id_with_space.tsv", 3, "document id 'd 3' contains white space"),
    ("corpus_duplicate_id.tsv", 3, "document 'd1' appears twice in this file (first at line 1)"),
    ("corpus_nul_byte.tsv", 3, NUL),
    ("corpus_latin1.tsv", 3, NOT_UTF8),
    ("corpus_utf16_bom.tsv", 1, NOT_UTF8),
    ("corpus_empty.tsv", None, "no documents found"),
    ("corpus_whitespace_only.tsv", None, "no documents found"),
    ("corpus_header_only.tsv", None, "no documents found"),
    ("corpus_lone_cr.tsv", 1, LONE_CR),
    ("corpus_truncated.tsv.gz", 146, GZIP),
    ("corpus_bad_json.jsonl", 2, "invalid JSON: Expecting ',' delimiter"),
    ("corpus_no_text.jsonl", 1, 'document d1 has no "text" key'),
    ("corpus_text_not_string.jsonl", 1, '"text" must be a string, found an array'),
    ("corpus_lone_surrogate.jsonl", 1, SURROGATE),  # was a UnicodeEncodeError traceback
    ("corpus_huge_integer_id.jsonl", 1, "invalid JSON: a number with too many digits"),  # 5000 digits
    ("corpus_deep_nesting.jsonl", 1, DEEP),  # was a RecursionError traceback
    ("beir_without_corpus", None, "expected a BEIR folder with corpus.jsonl, found none"),
    ("beir_bad_corpus", 2, '"text" must be a string, found a number'),  # reported in corpus.jsonl
    # -- labeler topics import (TSV, JSONL, TREC) --
    ("topics_no_tab.tsv", 3, "found no tab"),
    ("topics_empty_title.tsv", 3, "topic 303 has an empty title"),
    ("topics_five_fields.tsv", 3, "found 5 fields"),
    ("topics_duplicate_id.tsv", 3, "topic 301 appears twice (first at line 1)"),
    ("topics_nul_byte.tsv", 3, NUL),
    ("topics_latin1.tsv", 3, NOT_UTF8),
    ("topics_utf16_bom.tsv", 1, NOT_UTF8),
    ("topics_empty.tsv", None, "no topics found"),
    ("topics_whitespace_only.tsv", None, "no topics found"),
    ("topics_lone_cr.tsv", 1, LONE_CR),
    ("topics_truncated.tsv.gz", 135, GZIP),
    ("topics_no_id.jsonl", 2, "expected a topic id key"),
    ("topics_bad_json.jsonl", 2, "invalid JSON: Expecting value"),
    ("topics_lone_surrogate.jsonl", 1, SURROGATE),
    ("topics_deep_nesting.jsonl", 1, DEEP),  # 5000 nested objects
    ("topics_unclosed_top.trec", 5, "expected </top> to close the topic at line 1, found <top>"),
    ("topics_no_num.trec", 6, "topic has no <num>"),  # the second topic, at its <top>
    ("topics_text_outside.trec", 5, "expected <top>, found text outside a topic: 'stray text'"),
    ("topics_num_with_space.trec", 1, "topic number '301 302' contains white space"),
    ("topics_duplicate_tag.trec", 4, "<title> appears twice in the topic at line 1"),
    ("topics_unknown_language.jsonl", 2, "topic 2: \"language\" must name a language Snowball stems (arabic, "),
    ("topics_unknown_language.trec", 6, "topic 302: \"lang\" must name a language Snowball stems"),
    ("topics_language_not_string.jsonl", 1, "or give its two-letter ISO 639-1 code, found a number"),
    # -- labeler corpus mapping import --
    ("mapping_three_fields.tsv", 4, "expected 2 or 4 fields (chunk_id doc_id [start end]), found 3"),
    ("mapping_float_offset.tsv", 4, "end offset must be an integer, found '1.5'"),
    ("mapping_arabic_indic_offset.tsv", 4, "start offset must be an integer, found '\u0660'"),
    ("mapping_offset_out_of_range.tsv", 4, "end offset '99999999999999999999' is out of range"),  # was OverflowError
    ("mapping_offset_out_of_range.jsonl", 1, "end offset 99999999999999999999 is out of range"),
    ("mapping_negative_offset.tsv", 4, "offsets must not be negative, found -1..3"),
    ("mapping_end_before_start.tsv", 4, "end 3 is before start 9"),
    ("mapping_start_without_end.jsonl", 1, "has a start offset but no end"),
    ("mapping_duplicate_chunk.tsv", 4, "chunk d1#0 appears twice (first at line 2)"),
    ("mapping_nbsp_in_id.tsv", 4, NBSP),
    ("mapping_nul_byte.tsv", 4, NUL),
    ("mapping_latin1.tsv", 4, NOT_UTF8),
    ("mapping_utf16_bom.tsv", 1, NOT_UTF8),
    ("mapping_empty.tsv", None, "no chunks found"),
    ("mapping_whitespace_only.tsv", None, "no chunks found"),
    ("mapping_comments_only.tsv", None, "no chunks found"),
    ("mapping_lone_cr.tsv", 1, LONE_CR),
    ("mapping_truncated.tsv.gz", 110, GZIP),
    # -- labeler corpus mapping derive --
    ("derive_no_separator.txt", 3, "chunk id d2 does not name its parent (no '#')"),
    ("derive_nothing_before_separator.txt", 2, "chunk id #1 does not name its parent"),  # ' #1': not a comment
    ("derive_mixed_kinds.txt", 2, "expected 1 field like line 1 (a list of ids), found 4"),
    ("derive_three_fields.txt", 1, "found 3 fields"),
    ("derive_nbsp_in_id.txt", 2, NBSP),
    ("derive_nul_byte.txt", 2, NUL),
    ("derive_latin1.txt", 2, NOT_UTF8),
    ("derive_utf16_bom.txt", 1, NOT_UTF8),
    ("derive_empty.txt", None, "no chunk ids found"),
    ("derive_whitespace_only.txt", None, "no chunk ids found"),
    ("derive_comments_only.txt", None, "no chunk ids found"),
    ("derive_lone_cr.txt", 1, LONE_CR),
    ("derive_truncated.txt.gz", 238, GZIP),
    # -- labeler init --scale (JSON, TSV) --
    ("scale_bad_json.json", 3, "not a valid JSON scale: Expecting value"),  # unfinished list
    ("scale_empty.json", 1, "not a valid JSON scale"),
    ("scale_whitespace_only.json", 2, "not a valid JSON scale"),
    ("scale_not_object.json", None, 'a JSON scale needs "grades" (a list) and "threshold"'),
    ("scale_no_threshold.json", None, 'a JSON scale needs "grades" (a list) and "threshold"'),
    ("scale_float_grade.json", None, "grade 3: 'grade' must be an integer, found a number"),  # was read as 1
    ("scale_bool_grade.json", None, "grade 3: 'grade' must be an integer, found true"),  # was read as 1
    ("scale_string_grade.json", None, "grade 3: 'grade' must be an integer, found a string"),
    ("scale_float_threshold.json", None, '"threshold" must be an integer, found a number'),  # was read as 1
    ("scale_infinite_threshold.json", None, '"threshold" must be an integer'),  # was an OverflowError
    ("scale_negative_grade.json", None, "grades must be 0 or more"),
    ("scale_threshold_not_a_grade.json", None, "threshold 3 is not one of its grades"),
    ("scale_huge_grade.json", None, "is out of range"),  # 10**40 cannot be stored with a judgment
    ("scale_label_not_string.json", None, "grade 1: 'label' must be a string, found null"),
    ("scale_deep_nesting.json", 1, "not a valid JSON scale: nested too deeply"),  # was a RecursionError
    ("scale_nul_byte.json", 12, NUL),
    ("scale_latin1.json", 2, NOT_UTF8),
    ("scale_utf16_bom.json", 1, NOT_UTF8),
    ("scale_float_grade.tsv", 3, "grade '2.5' is not an integer"),
    ("scale_arabic_indic_grade.tsv", 3, "grade '\u0662' is not an integer"),  # was read as 2
    ("scale_superscript_threshold.tsv", 4, "threshold '\u00b9' is not an integer"),  # was a ValueError
    ("scale_no_threshold.tsv", 3, "no threshold line"),
    ("scale_negative_grade.tsv", None, "grades must be 0 or more"),
    ("scale_repeated_grade.tsv", None, "repeats a grade"),
    ("scale_no_tab.tsv", 2, "grade '1 partly' is not an integer"),
    ("scale_empty.tsv", None, "no grades in the file"),
    ("scale_whitespace_only.tsv", None, "no grades in the file"),
    ("scale_nul_byte.tsv", 2, NUL),
    ("scale_latin1.tsv", 2, NOT_UTF8),
    ("scale_utf16_bom.tsv", 1, NOT_UTF8),
    ("scale_lone_cr.tsv", 1, LONE_CR),
    ("scale_truncated.tsv.gz", 87, GZIP),
]

# Where the error is reported when it is not the path given on the command line.
REPORTED_IN = {"beir_bad_corpus": "beir_bad_corpus/corpus.jsonl"}

SEGMENT = "msmarco_v2.1_doc_50_2286987788"
THREE_POINT = [(0, "no"), (1, "partly"), (2, "yes")]

# (file, what the workbench holds afterwards: see badinput_support.stored)
ACCEPTED = [
    # runs: {topic: units in canonical order (score desc, id desc)}
    ("run_crlf.trec", {"301": ("d1", "d2")}),  # no '\r' left on the tag or ids
    ("run_utf8_bom.trec", {"301": ("d1", "d2")}),  # the BOM is not part of the first topic id
    (
        "run_hash_in_ids.trec",
        {"2024-145979": (f"{SEGMENT}#2_3081452011", f"{SEGMENT}#13_3087841662", "#not-a-comment")},
    ),  # '#' inside and at the start of column 3
    ("run_hash_comments.trec", {"301": ("d1", "d2")}),  # '#' lines skipped, '#301 ...' too
    ("run_extra_fields.trec", {"301": ("d1", "d2")}),  # text after field 6 ignored; tabs separate
    ("run_ties_and_notation.trec", {"301": ("c", "b", "a", "z")}),  # 1e-3 = +0.001 = 0.0010: id desc
    ("run_gzip_without_gz_suffix.trec", {"301": ("d1", "d2")}),  # gzip known by its magic bytes
    ("run_ok.jsonl", {"301": ("d2", "d#1")}),  # integer topic id, '#' in an id
    # qrels: {(topic, unit): grade}; a negative grade is "pooled, not judged", as in trec_eval
    ("qrels_negative_grades.qrels", {("301", "d1"): 2, ("301", "d2"): -1, ("301", "d3"): 0, ("301", "d4"): -2}),
    ("qrels_crlf.qrels", {("301", "d1"): 1, ("301", "d2"): 0}),
    ("qrels_utf8_bom.qrels", {("301", "d1"): 1, ("301", "d2"): 0}),
    ("qrels_hash_in_ids.qrels", {("2024-145979", f"{SEGMENT}#13_3087841662"): 3, ("2024-145979", "#not-a-comment"): 0}),
    ("qrels_hash_comments.qrels", {("301", "d1"): 1, ("301", "d2"): 0}),
    ("qrels_beir.tsv", {("301", "d1"): 1, ("301", "d2"): 0}),
    ("qrels_signed_grade.qrels", {("301", "d1"): 1, ("301", "d2"): 0}),  # '+1' and '00', as atol reads them
    # corpus: {id: (title, text)}
    ("corpus_crlf.tsv", {"d1": ("", "First document"), "d2": ("Title two", "Second document")}),
    ("corpus_utf8_bom.tsv", {"d1": ("", "First document"), "d2": ("Title two", "Second document")}),
    (
        "corpus_hash_lines.tsv",
        {"#d1": ("", "A line starting with # is a document here"), "d#2": ("", "Hash inside an id")},
    ),  # no comments in corpus files
    ("corpus_header.tsv", {"d1": ("", "one")}),
    ("corpus_crlf_bom.jsonl", {"d1": ("T", "one"), "2": ("", "two")}),
    ("beir_ok", {"d1": ("One", "first"), "d2": ("Two", "second")}),
    # topics: {id: title}
    ("topics_crlf.tsv", {"301": "international organized crime", "302": "poliomyelitis and post-polio"}),
    ("topics_utf8_bom.tsv", {"301": "international organized crime", "302": "poliomyelitis and post-polio"}),
    ("topics_hash_in_ids.tsv", {"q#1": "topic with a hash in its id"}),  # '#q2 ...' is a comment line
    ("topics_crlf.trec", {"301": "international organized crime"}),  # old prefixes removed, lines joined
    # chunkings: {chunk: parent}
    ("mapping_crlf.tsv", {"d1#0": "d1", "d1#1": "d1"}),
    ("mapping_utf8_bom.tsv", {"d1#0": "d1", "d1#1": "d1"}),  # the header is still recognised
    ("mapping_hash_comments.tsv", {f"{SEGMENT}#13_3087841662": SEGMENT, "d1#0": "d1"}),
    (
        "derive_segments.trec",
        {
            f"{SEGMENT}#13_3087841662": SEGMENT,
            f"{SEGMENT}#2_3081452011": SEGMENT,
            "msmarco_v2.1_doc_07_1155374853#5_1982391017": "msmarco_v2.1_doc_07_1155374853",
        },
    ),
    ("derive_qrels_crlf.qrels", {"d1#0": "d1", "d1#1": "d1", "d2#0": "d2"}),
    ("derive_ids_bom.txt", {"d1#0": "d1", "d1#1": "d1"}),
    # scales: (name, grades, threshold)
    ("scale_crlf.tsv", ("scale_crlf", THREE_POINT, 1)),
    ("scale_utf8_bom.tsv", ("scale_utf8_bom", THREE_POINT, 1)),
    ("scale_hash_comments.tsv", ("scale_hash_comments", THREE_POINT, 1)),
    ("scale_crlf.json", ("three-point", THREE_POINT, 1)),
    ("scale_utf8_bom.json", ("three-point", THREE_POINT, 1)),
]


def test_every_file_is_in_exactly_one_table():
    listed = [name for name, *_ in REFUSED] + [name for name, _ in ACCEPTED]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(p.name for p in FILES.iterdir())


@pytest.mark.parametrize(("name", "line", "fragment"), REFUSED, ids=[row[0] for row in REFUSED])
def test_malformed_file_is_refused_and_changes_nothing(workbench, name, line, fragment):
    with Unchanged(workbench):
        result = invoke(workbench, command(importer_of(name), FILES / name))
    assert_refused(result, FILES / REPORTED_IN.get(name, name), line, fragment)


@pytest.mark.parametrize(("name", "expected"), ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_acceptable_file_is_read_as_trec_eval_would(workbench, name, expected):
    importer = importer_of(name)
    result = invoke(workbench, command(importer, FILES / name))
    assert_no_crash(result)
    assert result.exit_code == 0, result.stderr
    assert stored(importer, workbench) == expected


def test_beir_folder_gives_its_queries_to_topics_import(workbench):
    result = invoke(workbench, command("topics", FILES / "beir_ok"))
    assert result.exit_code == 0, result.stderr
    assert stored("topics", workbench) == {"q1": "first query", "q2": "second query"}

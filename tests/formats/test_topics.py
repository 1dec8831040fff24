"""Reading topics from TSV, JSONL, BEIR folders and TREC topic files."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from labeler.errors import TopicFormatError
from labeler.formats.topics import read_topics
from labeler.models import Topic


def write(folder: Path, name: str, text: str, *, encoding: str = "utf-8", newline: str = "\n") -> Path:
    path = folder / name
    data = text.replace("\n", newline).encode(encoding)
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return path


# -- TSV -------------------------------------------------------------------


def test_tsv_with_header_comments_and_optional_columns(tmp_path):
    path = write(
        tmp_path,
        "topics.tsv",
        "qid\ttitle\tdescription\tnarrative\n"
        "# a comment line\n"
        "\n"
        "1\tcafé au lait\n"
        "2\tblack holes\tWhat is a black hole?\n"
        " 3 \t  übung  \tdesc\tnarr\n",
    )
    assert read_topics(path) == [
        (4, Topic("1", "café au lait")),
        (5, Topic("2", "black holes", "What is a black hole?")),
        (6, Topic("3", "übung", "desc", "narr")),
    ]


def test_tsv_without_header_keeps_first_line(tmp_path):
    path = write(tmp_path, "topics.tsv", "101\tfirst\n102\tsecond\n")
    assert [topic.topic_id for _, topic in read_topics(path)] == ["101", "102"]


def test_tsv_with_bom_and_crlf(tmp_path):
    path = write(tmp_path, "topics.tsv", "id\ttitle\n1\tnaïve\n2\tzürich\n", encoding="utf-8-sig", newline="\r\n")
    assert read_topics(path) == [(2, Topic("1", "naïve")), (3, Topic("2", "zürich"))]


# -- JSONL -----------------------------------------------------------------


@pytest.mark.parametrize(
    "line, expected",
    [
        # BEIR: _id + text, metadata kept as extra
        (
            '{"_id": "q1", "text": "what is rust", "metadata": {"lang": "en"}}',
            Topic("q1", "what is rust", extra={"metadata": {"lang": "en"}}),
        ),
        # integer id under "qid", "query" as the title
        ('{"qid": 7, "query": "hello"}', Topic("7", "hello")),
        ('{"query_id": " 8 ", "title": "t"}', Topic("8", "t")),
        ('{"topic_id": "9", "title": "t", "desc": "d", "narr": "n"}', Topic("9", "t", "d", "n")),
        ('{"num": 10, "title": "t", "description": "d", "narrative": "n"}', Topic("10", "t", "d", "n")),
        # "id" wins over "_id", the unused id and the unused title key go to extra
        (
            '{"_id": "x", "id": "11", "title": "t", "text": "longer text"}',
            Topic("11", "t", extra={"_id": "x", "text": "longer text"}),
        ),
    ],
)
def test_jsonl_keys(tmp_path, line, expected):
    path = write(tmp_path, "topics.jsonl", line + "\n")
    assert read_topics(path) == [(1, expected)]


def test_jsonl_line_numbers_skip_blanks_and_comments(tmp_path):
    path = write(tmp_path, "topics.jsonl", '\n{"id": "a", "title": "ä"}\n# note\n\n{"id": "b", "title": "β"}\n')
    assert read_topics(path) == [(2, Topic("a", "ä")), (5, Topic("b", "β"))]


def test_beir_folder(tmp_path):
    write(tmp_path, "queries.jsonl", '{"_id": "1", "text": "q one"}\n{"_id": "2", "text": "q two"}\n')
    assert read_topics(tmp_path) == [(1, Topic("1", "q one")), (2, Topic("2", "q two"))]


def test_gzipped_jsonl_detected_by_content(tmp_path):
    path = write(tmp_path, "topics.jsonl.gz", '{"id": "1", "title": "zipped"}\n')
    assert read_topics(path) == [(1, Topic("1", "zipped"))]


# -- TREC ------------------------------------------------------------------

OLD_TREC = """\
<top>

<num> Number: 301
<title> International Organized
  Crime

<desc> Description:
Identify organizations that participate in
international criminal activity.

<narr> Narrative:
A relevant document must  identify
the organization.

</top>

<top>
<num> Number: 302 </num>
<title> Topic: Poliomyelitis and Post-Polio </title>
<desc> Description: Is the disease
still a problem? </desc>
</top>
"""


def test_trec_old_prefixes_and_multiline_fields(tmp_path):
    path = write(tmp_path, "topics.301-302.txt", OLD_TREC)
    assert read_topics(path) == [
        (
            1,
            Topic(
                "301",
                "International Organized Crime",
                "Identify organizations that participate in international criminal activity.",
                "A relevant document must identify the organization.",
            ),
        ),
        (17, Topic("302", "Poliomyelitis and Post-Polio", "Is the disease still a problem?")),
    ]


def test_trec_closed_tags_on_one_line_gz_crlf_non_ascii(tmp_path):
    text = "<top><num>1</num><title>café crème</title><desc>Où?</desc><narr>Tout.</narr></top>\n"
    path = write(tmp_path, "topics.gz", text, newline="\r\n")
    assert read_topics(path) == [(1, Topic("1", "café crème", "Où?", "Tout."))]


def test_trec_other_tags_go_to_extra(tmp_path):
    text = (
        "<top>\n<head> Tipster Topic Description\n<num> Number: 051\n<dom> Domain: International\n"
        "<title> Topic: Airbus\n</top>\n"
    )
    path = write(tmp_path, "topics.trec", text)
    assert read_topics(path) == [
        (1, Topic("051", "Airbus", extra={"head": "Tipster Topic Description", "dom": "Domain: International"}))
    ]


# -- errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    "name, text, match",
    [
        # JSONL: a line that is not JSON
        ("t.jsonl", '{"id": "1", "title": "a"}\n{"id": "2", "title": }\n', r"t\.jsonl:2: invalid JSON"),
        # JSONL: JSON but not an object
        ("t.jsonl", '{"id": "1", "title": "a"}\n["2", "b"]\n', r"t\.jsonl:2: expected a JSON object, found an array"),
        # JSONL: no id key at all
        ("t.jsonl", '{"title": "a"}\n', r"t\.jsonl:1: expected a topic id key \(id, _id, qid"),
        # JSONL: empty id
        ("t.jsonl", '{"id": " ", "title": "a"}\n', r"t\.jsonl:1: topic id '' is empty"),
        # JSONL: id with a space cannot be written in a TREC run
        ("t.jsonl", '{"id": "a b", "title": "a"}\n', r"t\.jsonl:1: topic id 'a b' contains white space"),
        # JSONL: id is neither a string nor an integer
        ("t.jsonl", '{"id": null, "title": "a"}\n', r"t\.jsonl:1: topic id must be a string or an integer, found null"),
        # JSONL: no title, text or query
        (
            "t.jsonl",
            '{"id": "1", "desc": "d"}\n',
            r"t\.jsonl:1: topic 1 has no title \(expected a title, text or query",
        ),
        # JSONL: empty title
        ("t.jsonl", '{"id": "1", "text": "  "}\n', r"t\.jsonl:1: topic 1 has an empty text"),
        # JSONL: title of the wrong type
        ("t.jsonl", '{"id": "1", "title": 5}\n', r't\.jsonl:1: topic 1: "title" must be a string, found a number'),
        # JSONL: the same id twice, once as an integer
        (
            "t.jsonl",
            '{"id": 7, "title": "a"}\n\n{"id": "7", "title": "b"}\n',
            r"t\.jsonl:3: topic 7 appears twice \(first at line 1\)",
        ),
        # TSV: a line without a tab
        ("t.tsv", "1\ta\n2 b\n", r"t\.tsv:2: expected id<TAB>title.*found no tab"),
        # TSV: too many columns
        ("t.tsv", "1\ta\tb\tc\td\n", r"t\.tsv:1: expected id<TAB>title.*found 5 fields"),
        # TSV: empty id
        ("t.tsv", "1\ta\n\tb\n", r"t\.tsv:2: topic id '' is empty"),
        # TSV: empty title
        ("t.tsv", "1\t \n", r"t\.tsv:1: topic 1 has an empty title"),
        # TSV: id with a space
        ("t.tsv", "1 2\ta\n", r"t\.tsv:1: topic id '1 2' contains white space"),
        # TSV: duplicate id
        ("t.tsv", "id\ttitle\n7\ta\n8\tb\n7\tc\n", r"t\.tsv:4: topic 7 appears twice \(first at line 2\)"),
        # TREC: a topic without <num>, reported at its <top>
        ("t.trec", "<top>\n<num> 1\n<title> a\n</top>\n\n<top>\n<title> b\n</top>\n", r"t\.trec:6: topic has no <num>"),
        # TREC: an empty <num>
        ("t.trec", "<top>\n<num> Number: </num>\n<title> a\n</top>\n", r"t\.trec:1: topic has no <num>"),
        # TREC: a topic without a title
        ("t.trec", "<top>\n<num> 1\n<desc> d\n</top>\n", r"t\.trec:1: topic 1 has no title"),
        # TREC: an empty title
        ("t.trec", "<top>\n<num> 1\n<title> Topic:\n</top>\n", r"t\.trec:1: topic 1 has no title"),
        # TREC: a number with a space
        (
            "t.trec",
            "<top>\n<num> Number: 1 2\n<title> a\n</top>\n",
            r"t\.trec:1: topic number '1 2' contains white space",
        ),
        # TREC: the last <top> is never closed
        (
            "t.trec",
            "<top>\n<num> 1\n<title> a\n</top>\n<top>\n<num> 2\n<title> b\n",
            r"t\.trec:5: <top> is never closed",
        ),
        # TREC: a new <top> before </top>
        ("t.trec", "<top>\n<num> 1\n<title> a\n<top>\n", r"t\.trec:4: expected </top> to close the topic at line 1"),
        # TREC: text between topics
        ("t.trec", "<top>\n<num> 1\n<title> a\n</top>\nstray\n", r"t\.trec:5: expected <top>, found text"),
        # TREC: a field tag outside any topic
        ("t.trec", "<num> 1\n<top>\n", r"t\.trec:1: expected <top>, found <num> outside a topic"),
        # TREC: a closing tag that does not match the open field
        (
            "t.trec",
            "<top>\n<num> 1\n<title> a </desc>\n</top>\n",
            r"t\.trec:3: expected </title> or a new tag, found </desc>",
        ),
        # TREC: the same field twice in one topic
        (
            "t.trec",
            "<top>\n<num> 1\n<title> a\n<title> b\n</top>\n",
            r"t\.trec:4: <title> appears twice in the topic at line 1",
        ),
        # TREC: duplicate number, reported at the second <top>
        (
            "t.trec",
            "<top>\n<num> 7\n<title> a\n</top>\n<top>\n<num> 7\n<title> b\n</top>\n",
            r"t\.trec:5: topic 7 appears twice \(first at line 1\)",
        ),
    ],
)
def test_errors(tmp_path, name, text, match):
    with pytest.raises(TopicFormatError, match=match):
        read_topics(write(tmp_path, name, text))


@pytest.mark.parametrize(
    "text",
    [
        "",  # empty file
        "\n# only a comment\n\n",  # nothing but blanks and comments
        "id\ttitle\n",  # a TSV header and no topics
    ],
)
def test_no_topics(tmp_path, text):
    with pytest.raises(TopicFormatError, match=r"topics\.tsv: no topics found$"):
        read_topics(write(tmp_path, "topics.tsv", text))


def test_beir_folder_without_queries(tmp_path):
    write(tmp_path, "corpus.jsonl", '{"_id": "d1", "text": "x"}\n')
    with pytest.raises(TopicFormatError, match=r": expected a BEIR folder with queries\.jsonl, found none"):
        read_topics(tmp_path)


def test_invalid_utf8_names_the_line(tmp_path):
    path = tmp_path / "topics.tsv"
    path.write_bytes(b"1\tok\n2\t\xff\n")
    with pytest.raises(TopicFormatError, match=r"topics\.tsv:2: not valid UTF-8"):
        read_topics(path)


# -- a topic's language ----------------------------------------------------------------------


def test_a_language_field_names_the_topics_stemming_language(tmp_path):
    jsonl = write(
        tmp_path,
        "topics.jsonl",
        '{"id": "1", "title": "Wärmepumpen", "language": "de"}\n{"id": "2", "title": "bombas", "lang": "Spanish"}\n',
    )
    trec = write(tmp_path, "topics.trec", "<top>\n<num> 3\n<title> pompes à chaleur\n<lang> FR\n</top>\n")
    assert [topic.extra for _, topic in read_topics(jsonl)] == [{"language": "de"}, {"lang": "Spanish"}]
    assert [topic.extra for _, topic in read_topics(trec)] == [{"lang": "FR"}]  # kept as written


def test_a_language_no_stemmer_covers_is_refused_with_the_choices(tmp_path):
    path = write(
        tmp_path, "topics.jsonl", '{"id": "1", "title": "heat pumps"}\n{"id": "2", "title": "x", "lang": "zh"}\n'
    )
    with pytest.raises(TopicFormatError) as refused:
        read_topics(path)
    assert refused.value.line == 2
    assert "topic 2: \"lang\" must name a language Snowball stems (arabic, " in str(refused.value)
    assert "found 'zh'" in str(refused.value)

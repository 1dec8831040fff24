"""Reading TREC RAG 2024 and 2025 answer files: shapes, resolved citations, the line kept whole, and refusals."""

from __future__ import annotations

import gzip
import json

import pytest
from support import SAMPLE

from labeler.formats.answers import TREC_RAG_2024, TREC_RAG_2025, AnswerFormatError, AnswerReader, canonical_json


def rag24(topic="1", answer=None, **more):
    row = {
        "run_id": "r",
        "topic_id": topic,
        "topic": "a topic",
        "references": ["d1", "d2"],
        "response_length": 5,
        "answer": answer if answer is not None else [{"text": "One.", "citations": [1, 0]}, {"text": "Two."}],
    }
    row.update(more)
    return json.dumps(row)


def rag25(topic="1", answer=None, references=("d1", "d2"), **meta):
    head = {"team_id": "t", "run_id": "r", "type": "automatic", "narrative_id": topic, "narrative": "what?"}
    head.update(meta)
    said = answer if answer is not None else [{"text": "One.", "citations": ["d2", 0]}]
    return json.dumps({"metadata": head, "references": list(references), "answer": said})


def read(write, *lines: str, name="a.jsonl"):
    reader = AnswerReader(write(name, "".join(line + "\n" for line in lines)), "run")
    return reader, list(reader)


def test_a_2024_answer_resolves_its_indices_to_unit_ids(write):
    reader, (answer,) = read(write, rag24())
    assert reader.format == TREC_RAG_2024 and reader.sha256 is not None
    assert [(s.text, s.citations) for s in answer.sentences] == [("One.", ("d2", "d1")), ("Two.", ())]
    assert (answer.run, answer.topic_id, answer.topic_text, answer.response_length) == ("run", "1", "a topic", 5)
    assert answer.references == ("d1", "d2") and answer.line == 1


def test_a_2025_answer_takes_ids_and_indices(write):
    reader, (answer,) = read(write, rag25())
    assert reader.format == TREC_RAG_2025
    assert answer.sentences[0].citations == ("d2", "d1")
    assert (answer.topic_id, answer.topic_text, answer.response_length) == ("1", "what?", None)


def test_the_line_is_kept_as_canonical_json_with_every_field(write):
    line = rag24(extra={"b": 1, "a": [2.5, None]}, sample_id="x")
    _, (answer,) = read(write, line)
    assert answer.original == canonical_json(json.loads(line))
    assert json.loads(answer.original) == json.loads(line)
    assert list(json.loads(answer.original)) == sorted(json.loads(line))


def test_the_sample_answers_read_in_both_shapes():
    old = list(AnswerReader(SAMPLE / "answers_rag24.jsonl", "rag-a"))
    new_reader = AnswerReader(SAMPLE / "answers_rag25.jsonl", "rag-b")
    new = list(new_reader)
    assert [a.topic_id for a in old] == ["3", "6", "10", "13"] and [a.topic_id for a in new] == ["3", "6", "13"]
    assert new_reader.format == TREC_RAG_2025
    for answer in old + new:
        assert 2 <= len(answer.sentences) <= 4 and set(answer.cited_units()) <= set(answer.references)
    assert any(not s.citations for a in old for s in a.sentences)


def test_a_gzipped_file_reads_the_same(write, tmp_path):
    plain = write("a.jsonl", rag24() + "\n")
    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert list(AnswerReader(packed, "run")) == list(AnswerReader(plain, "run"))


@pytest.mark.parametrize(
    ("lines", "line", "fragment"),
    [
        ([rag24(), "[1, 2]"], 2, "expected a JSON object, found an array"),
        ([rag24(), "{not json"], 2, "invalid JSON"),
        ([rag24(), rag25(topic="2")], 2, "a TREC RAG 2025 answer in a file of TREC RAG 2024 answers"),
        ([rag25(), rag24(topic="2")], 2, "a TREC RAG 2024 answer in a file of TREC RAG 2025 answers"),
        ([json.dumps({"answer": []})], 1, "neither answer shape"),
        ([rag24(), rag24()], 2, "topic 1 has two answers (first at line 1)"),
        ([rag24(), "", rag24(topic="2"), rag24(topic="2")], 4, "topic 2 has two answers (first at line 3)"),
        ([rag24(answer=[])], 1, "empty answer"),
        ([rag24(answer=[{"text": "x", "citations": [2]}])], 1, "sentence 1 cites reference 2, out of range"),
        ([rag24(answer=[{"text": "x", "citations": [-1]}])], 1, "out of range"),
        ([rag24(answer=[{"text": "x", "citations": ["d1"]}])], 1, "a citation is an index into references"),
        ([rag25(answer=[{"text": "x", "citations": ["d9"]}])], 1, "cites d9, which is not one of the answer's refer"),
        ([rag25(answer=[{"text": "x", "citations": [True]}])], 1, "sentence 1 cites true"),
        ([rag24(answer=[{"text": 3}])], 1, "sentence 1's text must be a string"),
        ([rag24(answer=["x"])], 1, "sentence 1 must be an object"),
        ([rag24(answer=[{"text": "x", "citations": 0}])], 1, "citations must be an array"),
        ([rag24(topic="a b")], 1, "topic id 'a b' contains white space"),
        ([rag24(topic=None)], 1, "no topic id (topic_id)"),
        ([rag25(narrative_id=None)], 1, "no topic id (metadata.narrative_id)"),
        ([rag24(references=["d 1"])], 1, "reference id 'd 1' contains white space"),
        ([rag24(references="d1")], 1, "references must be an array, found a string"),
        ([rag24(response_length=-1)], 1, "response_length must be a count"),
        ([rag24(topic=["1"])], 1, "topic id must be a string or an integer"),
        ([rag24(), rag24(topic="2", run_id="other")], 2, "run id other differs from r (line 1)"),
        ([json.dumps({"metadata": [], "answer": []})], 1, "metadata must be an object, found an array"),
        ([rag24(answer={"a": 1})], 1, "answer must be an array, found an object"),
    ],
)
def test_a_bad_line_is_refused_at_its_line(write, lines, line, fragment):
    with pytest.raises(AnswerFormatError) as caught:
        read(write, *lines)
    assert caught.value.line == line and caught.value.path is not None
    assert fragment in caught.value.reason


def test_an_empty_file_is_refused(write):
    with pytest.raises(AnswerFormatError, match="no answers"):
        read(write, "")


def test_a_line_longer_than_the_limit_is_refused_at_its_line(write):
    from labeler.formats.lines import ReadLimits, reading_limits

    with reading_limits(ReadLimits(max_line_bytes=300)), pytest.raises(AnswerFormatError) as caught:
        read(write, rag24(), rag24(topic="2", topic_text="x" * 400))
    assert caught.value.line == 2 and "line longer than" in caught.value.reason


def test_bytes_that_are_not_utf8_are_refused_at_their_line(write):
    path = write("a.jsonl", (rag24() + "\n").encode() + b'{"topic_id": "\xff"}\n')
    with pytest.raises(AnswerFormatError) as caught:
        list(AnswerReader(path, "run"))
    assert caught.value.line == 2 and "UTF-8" in caught.value.reason


def test_the_sample_nuggets_are_for_the_sample_answers_topics():
    """nuggetizer's format, 3 to 6 nuggets a topic, vital and okay, for the topics the sample answers answer."""
    rows = [json.loads(line) for line in (SAMPLE / "nuggets.jsonl").read_text(encoding="utf-8").splitlines()]
    titles = {t["id"]: t["title"] for t in map(json.loads, (SAMPLE / "topics.jsonl").read_text().splitlines())}
    answered = {
        a.topic_id for name in ("answers_rag24.jsonl", "answers_rag25.jsonl") for a in AnswerReader(SAMPLE / name, "r")
    }
    assert {row["qid"] for row in rows} == answered
    for row in rows:
        assert set(row) == {"qid", "query", "nuggets"} and row["query"] == titles[row["qid"]]
        assert 3 <= len(row["nuggets"]) <= 6
        assert {n["importance"] for n in row["nuggets"]} == {"vital", "okay"}
        assert all(set(n) == {"text", "importance"} and n["text"].strip() for n in row["nuggets"])

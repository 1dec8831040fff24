"""Reading RAG answer files: TREC RAG 2024 and 2025 answer JSONL, one answer per line.

The 2024 shape names its run and topic at the top of the line
(`{"run_id", "topic_id", "topic", "references", "response_length", "answer"}`), the 2025
shape in a `metadata` object (`{"metadata": {"run_id", "narrative_id", "narrative", ...},
"references", "answer"}`). A file is in one shape, set by its first answer: a line of the
other shape is refused at its line. Each sentence of `answer` is `{"text", "citations"}`;
a citation is an index into `references` (counted from 0), or in the 2025 shape the
reference's id itself. Citations are resolved to unit ids here, once.

The file is read by `TextLines` (UTF-8, line length and gzip limits, the SHA-256 of the bytes
read) and every refusal names the file and line. Each answer keeps its line as canonical JSON
(`canonical_json`: sorted keys), so an export gives back every field, read or not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labeler.answers.model import Answer, Sentence
from labeler.errors import FormatError
from labeler.formats.fields import INT64_MAX, clean_id, json_object, json_type
from labeler.formats.lines import TextLines, data_lines
from labeler.inert import inert_json

TREC_RAG_2024 = "trec-rag-2024"
TREC_RAG_2025 = "trec-rag-2025"
ANSWER_FORMATS = (TREC_RAG_2024, TREC_RAG_2025)
_REQUIRED = object()
_SHAPE_NAMES = {TREC_RAG_2024: "TREC RAG 2024", TREC_RAG_2025: "TREC RAG 2025"}


class AnswerFormatError(FormatError):
    """An answer file that is malformed."""


def canonical_json(value: Any) -> str:
    """A line's JSON with sorted keys: what an answer keeps of its line, and what an export writes back."""
    return inert_json(json.dumps(value, ensure_ascii=False, sort_keys=True))


class AnswerReader:
    """The answers of one file, a line at a time, in file order, each checked and resolved.

    `format` is known once the first answer is read; `sha256` once the last one is.
    """

    def __init__(self, path: str | Path, run: str):
        self.path = Path(path)
        self.run = run
        self.lines = TextLines(self.path, AnswerFormatError)
        self.format: str | None = None
        self.run_id: tuple[str, int] | None = None  # the file's run id and the line that first gave it
        self.line_count = 0

    @property
    def sha256(self) -> str | None:
        return self.lines.sha256

    def __iter__(self) -> Iterator[Answer]:
        first_lines: dict[str, int] = {}
        for number, line in data_lines(self.lines, comments=False):
            answer = self._answer(number, line)
            if answer.topic_id in first_lines:
                raise self._error(
                    f"topic {answer.topic_id} has two answers (first at line {first_lines[answer.topic_id]})", number
                )
            first_lines[answer.topic_id] = number
            self.line_count += 1
            yield answer
        if not first_lines:
            raise AnswerFormatError("no answers: the file holds no lines", path=self.path)

    def _error(self, reason: str, line: int) -> AnswerFormatError:
        return AnswerFormatError(reason, path=self.path, line=line)

    def _field(self, row: dict[str, Any], key: str, kind: type, number: int, default: Any = _REQUIRED) -> Any:
        """`row[key]`, which must be of JSON type `kind`; absent, `default` when one is given."""
        if key not in row and default is not _REQUIRED:
            return default
        value = row.get(key)
        if not isinstance(value, kind):
            found = "nothing" if key not in row else json_type(value)
            raise self._error(f"{key} must be {json_type(kind())}, found {found}", number)
        return value

    def _answer(self, number: int, line: str) -> Answer:
        row = json_object(line, path=self.path, line=number, error=AnswerFormatError)
        shape = self._shape(row, number)
        if shape == TREC_RAG_2025:
            head = self._field(row, "metadata", dict, number)
            run_id, topic_id, topic_text = head.get("run_id"), head.get("narrative_id"), head.get("narrative")
            topic_key = "metadata.narrative_id"
        else:
            run_id, topic_id, topic_text = row.get("run_id"), row.get("topic_id"), row.get("topic")
            topic_key = "topic_id"
        if topic_id is None:
            raise self._error(f"no topic id ({topic_key})", number)
        topic_id = clean_id(topic_id, "topic id", path=self.path, line=number, error=AnswerFormatError)
        self._same_run(run_id, number)
        if topic_text is not None and not isinstance(topic_text, str):
            raise self._error(f"the topic's text must be a string, found {json_type(topic_text)}", number)
        references = self._references(row, number)
        return Answer(
            run=self.run,
            topic_id=topic_id,
            sentences=self._sentences(row, references, shape, number),
            references=references,
            topic_text=topic_text,
            response_length=self._response_length(row, number),
            line=number,
            original=canonical_json(row),
        )

    def _shape(self, row: dict[str, Any], number: int) -> str:
        """The line's shape; every line of a file has the first one's."""
        if "metadata" in row:
            shape = TREC_RAG_2025
        elif "topic_id" in row or "run_id" in row:
            shape = TREC_RAG_2024
        else:
            raise self._error(
                "neither answer shape: a TREC RAG 2024 answer has topic_id and run_id, a 2025 answer a metadata object",
                number,
            )
        if self.format is None:
            self.format = shape
        elif shape != self.format:
            raise self._error(
                f"a {_SHAPE_NAMES[shape]} answer in a file of {_SHAPE_NAMES[self.format]} answers "
                "(a file holds answers of one shape)",
                number,
            )
        return shape

    def _same_run(self, run_id: object, number: int) -> None:
        """A file holds one run's answers: every line names the run the first one did."""
        if run_id is None:
            raise self._error("no run id (run_id)", number)
        run_id = clean_id(run_id, "run id", path=self.path, line=number, error=AnswerFormatError)
        if self.run_id is None:
            self.run_id = (run_id, number)
        elif run_id != self.run_id[0]:
            first, at = self.run_id
            raise self._error(
                f"run id {run_id} differs from {first} (line {at}): a file holds one run's answers", number
            )

    def _references(self, row: dict[str, Any], number: int) -> tuple[str, ...]:
        references = self._field(row, "references", list, number, default=[])
        return tuple(
            clean_id(ref, "reference id", path=self.path, line=number, error=AnswerFormatError) for ref in references
        )

    def _response_length(self, row: dict[str, Any], number: int) -> int | None:
        length = row.get("response_length")
        if length is None:
            return None
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= INT64_MAX:
            raise self._error(f"response_length must be a count (0 or more), found {_shown(length)}", number)
        return length

    def _sentences(
        self, row: dict[str, Any], references: tuple[str, ...], shape: str, number: int
    ) -> tuple[Sentence, ...]:
        said = self._field(row, "answer", list, number)
        if not said:
            raise self._error("empty answer: answer holds no sentences", number)
        sentences = []
        for position, item in enumerate(said, start=1):
            if not isinstance(item, dict):
                raise self._error(f"sentence {position} must be an object, found {json_type(item)}", number)
            text = item.get("text")
            if not isinstance(text, str):
                raise self._error(f"sentence {position}'s text must be a string, found {json_type(text)}", number)
            citations = item.get("citations", [])
            if not isinstance(citations, list):
                raise self._error(
                    f"sentence {position}'s citations must be an array, found {json_type(citations)}", number
                )
            cited = tuple(self._cited(c, references, shape, position, number) for c in citations)
            sentences.append(Sentence(text, cited))
        return tuple(sentences)

    def _cited(self, citation: object, references: tuple[str, ...], shape: str, position: int, number: int) -> str:
        """The unit a citation names: `references[index]`, or (2025) the reference id itself."""
        where = f"sentence {position} cites"
        if isinstance(citation, int) and not isinstance(citation, bool):
            if 0 <= citation < len(references):
                return references[citation]
            raise self._error(
                f"{where} reference {citation}, out of range (the answer has {len(references)} references, "
                "counted from 0)",
                number,
            )
        if shape == TREC_RAG_2025 and isinstance(citation, str):
            unit_id = clean_id(citation, "cited id", path=self.path, line=number, error=AnswerFormatError)
            if unit_id not in references:
                raise self._error(f"{where} {unit_id}, which is not one of the answer's references", number)
            return unit_id
        wanted = "an index into references or a reference id" if shape == TREC_RAG_2025 else "an index into references"
        raise self._error(f"{where} {_shown(citation)}: a citation is {wanted}", number)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:40] + "..."

"""Answer runs and their answers: written once at import, read whole or a topic at a time."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from labeler.errors import Hint, NotFoundError
from labeler.store.rows import Rows

if TYPE_CHECKING:  # built where a row is read: the store's import stays light for commands that read no answers
    from labeler.answers.model import Answer, AnswerRunInfo

_RUN_COLUMNS = (
    "r.name, r.file, r.sha256, r.format, r.unit, r.imported, "
    "(SELECT count(*) FROM answers a WHERE a.answer_run_id = r.answer_run_id), "
    "(SELECT count(DISTINCT topic_id) FROM answers a WHERE a.answer_run_id = r.answer_run_id), "
    "t.retired, t.reason"
)
_RUN_FROM = "answer_runs r LEFT JOIN answer_retirements t ON t.answer_run_id = r.answer_run_id"
_ANSWER_COLUMNS = "topic_id, line, topic_text, response_length, refs, sentences, original"


def _run_info(row: Any) -> AnswerRunInfo:
    from labeler.answers.model import AnswerRunInfo

    return AnswerRunInfo(*row)


def _answer(run: str, row: Any) -> Answer:
    from labeler.answers.model import Answer, Sentence

    topic_id, line, topic_text, response_length, refs, sentences, original = row
    return Answer(
        run=run,
        topic_id=topic_id,
        sentences=tuple(Sentence(text, tuple(citations)) for text, citations in json.loads(sentences)),
        references=tuple(json.loads(refs)),
        topic_text=topic_text,
        response_length=response_length,
        line=line,
        original=original,
    )


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class AnswerRows(Rows):
    def answer_runs(self) -> list[AnswerRunInfo]:
        """Every answer run, in import order, retired ones included (`retired` says which)."""
        rows = self.db.execute(f"SELECT {_RUN_COLUMNS} FROM {_RUN_FROM} ORDER BY r.answer_run_id")
        return [_run_info(row) for row in rows]

    def answer_run(self, name: str) -> AnswerRunInfo:
        row = self.db.execute(f"SELECT {_RUN_COLUMNS} FROM {_RUN_FROM} WHERE r.name = ?", [name]).fetchone()
        if row is None:
            raise NotFoundError(f"no answer run named {name!r}", hints=Hint("list_answer_runs"))
        return _run_info(row)

    def has_answer_run(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM answer_runs WHERE name = ?", [name]).fetchone() is not None

    def _answer_run_id(self, name: str) -> int:
        row = self.db.execute("SELECT answer_run_id FROM answer_runs WHERE name = ?", [name]).fetchone()
        if row is None:
            raise NotFoundError(f"no answer run named {name!r}", hints=Hint("list_answer_runs"))
        answer_run_id: int = row[0]
        return answer_run_id

    def insert_answer_run(self, info: AnswerRunInfo, answers: Iterable[Answer]) -> int:
        """Write an answer run and its answers (inside the caller's transaction); returns how many answers."""
        cursor = self.db.execute(
            "INSERT INTO answer_runs (name, file, sha256, format, unit, imported) VALUES (?, ?, ?, ?, ?, ?)",
            [info.name, info.file, info.sha256, info.format, info.unit, info.imported],
        )
        run_id = cursor.lastrowid
        rows = (
            [
                run_id,
                a.topic_id,
                a.line,
                a.topic_text,
                a.response_length,
                _compact(list(a.references)),
                _compact([[s.text, list(s.citations)] for s in a.sentences]),
                a.original,
            ]
            for a in answers
        )
        return self.db.conn.executemany(
            "INSERT INTO answers (answer_run_id, topic_id, line, topic_text, response_length, refs, sentences, "
            "original) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        ).rowcount

    def answers(self, run: str, topics: Iterable[str] | None = None) -> Iterator[Answer]:
        """A run's answers in topic order (only `topics`' when given), read a row at a time."""
        run_id = self._answer_run_id(run)
        if topics is None:
            rows = self.db.execute(
                f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE answer_run_id = ? ORDER BY topic_id", [run_id]
            )
            for row in rows:
                yield _answer(run, row)
            return
        for topic_id in sorted(set(topics)):
            row = self.db.execute(
                f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE answer_run_id = ? AND topic_id = ?", [run_id, topic_id]
            ).fetchone()
            if row is not None:
                yield _answer(run, row)

    def answer(self, run: str, topic_id: str) -> Answer | None:
        return next(self.answers(run, [topic_id]), None)

    def answers_in_file_order(self, run: str) -> Iterator[Answer]:
        """A run's answers in the order of the file they came from (an export gives the file back)."""
        run_id = self._answer_run_id(run)
        rows = self.db.execute(f"SELECT {_ANSWER_COLUMNS} FROM answers WHERE answer_run_id = ? ORDER BY line", [run_id])
        for row in rows:
            yield _answer(run, row)

    def answer_topics(self, run: str | None = None) -> dict[str, list[str]]:
        """`topic -> answer runs with an answer to it` (one run's topics when `run` is given), sorted."""
        sql = "SELECT a.topic_id, r.name FROM answers a JOIN answer_runs r ON r.answer_run_id = a.answer_run_id"
        params: list[Any] = []
        if run is not None:
            sql += " WHERE r.name = ?"
            params.append(run)
        topics: dict[str, list[str]] = {}
        for topic_id, name in self.db.execute(sql + " ORDER BY a.topic_id, r.answer_run_id", params):
            topics.setdefault(topic_id, []).append(name)
        return topics

    def retire_answer_run(self, name: str, *, retired: str, reason: str) -> bool:
        """Record that the answer run leaves the default sets; False when it was retired already."""
        run_id = self._answer_run_id(name)
        if self.db.execute("SELECT 1 FROM answer_retirements WHERE answer_run_id = ?", [run_id]).fetchone():
            return False
        self.db.execute(
            "INSERT INTO answer_retirements (answer_run_id, retired, reason) VALUES (?, ?, ?)",
            [run_id, retired, reason],
        )
        return True

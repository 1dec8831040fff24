"""Runs and their per-topic rankings, packed one row per (run, topic)."""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from labeler.store.digests import rankings_sha256
from labeler.store.rows import Rows

if TYPE_CHECKING:  # imported where a ranking is read: the run formats are not needed to judge
    from labeler.formats.runs import Ranking
    from labeler.run_models import RunInfo

_RUN_COLUMNS = (
    "r.name, r.unit_kind, c.name, r.stage, r.source, r.source_sha256, r.tags, r.topics, r.entries, "
    "r.max_depth, r.policies, r.imported, r.rankings_sha256"
)


class RunRows(Rows):
    def run_names(self) -> list[str]:
        return [row[0] for row in self.db.execute("SELECT name FROM runs ORDER BY run_id")]

    def runs(self) -> list[RunInfo]:
        rows = self.db.execute(
            f"SELECT {_RUN_COLUMNS} FROM runs r LEFT JOIN chunkings c ON c.chunking_id = r.chunking_id"
            " ORDER BY r.run_id"
        ).fetchall()
        return [_run_info(row) for row in rows]

    def run(self, name: str) -> RunInfo:
        sql = (
            f"SELECT {_RUN_COLUMNS} FROM runs r LEFT JOIN chunkings c ON c.chunking_id = r.chunking_id WHERE r.name = ?"
        )
        return _run_info(self._named(sql, name, "run"))

    def _run_id(self, name: str) -> int:
        run_id: int = self._named("SELECT run_id FROM runs WHERE name = ?", name, "run")[0]
        return run_id

    def insert_run(self, info: RunInfo) -> int:
        chunking_id = None
        if info.unit.chunking is not None:  # a chunk unit always names its chunking
            chunking_id = self._chunking_id(info.unit.chunking)
        # Never an id a retirement names: a run imported again with --replace is a new run, not retired.
        run_id = self.db.execute(
            "SELECT max(coalesce((SELECT max(run_id) FROM runs), 0), "
            "coalesce((SELECT max(run_id) FROM run_retirements), 0)) + 1"
        ).fetchone()[0]
        self.db.execute(
            "INSERT INTO runs (run_id, name, unit_kind, chunking_id, stage, source, source_sha256, tags, topics, "
            "entries, max_depth, policies, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                run_id,
                info.name,
                info.unit.kind,
                chunking_id,
                info.stage,
                info.source,
                info.source_sha256,
                json.dumps(sorted(info.tags)),
                info.topics,
                info.entries,
                info.max_depth,
                json.dumps(info.policies, sort_keys=True),
                info.imported,
            ],
        )
        return int(run_id)

    def finish_run(
        self,
        run_id: int,
        *,
        source_sha256: str,
        tags: list[str],
        topics: int,
        entries: int,
        max_depth: int,
        policies: dict[str, Any],
    ) -> None:
        """Record the run's figures and seal it: the digest of its stored rankings makes them immutable."""
        self.db.execute(
            "UPDATE runs SET source_sha256 = ?, tags = ?, topics = ?, entries = ?, max_depth = ?, policies = ?, "
            "rankings_sha256 = ? WHERE run_id = ?",
            [
                source_sha256,
                json.dumps(sorted(tags)),
                topics,
                entries,
                max_depth,
                json.dumps(policies, sort_keys=True),
                rankings_sha256(self.db, run_id),
                run_id,
            ],
        )

    def retire_run(self, name: str, *, retired: str, reason: str) -> bool:
        """Record that the run leaves the default run sets; False when it was retired already."""
        run_id = self._run_id(name)
        if self.db.execute("SELECT 1 FROM run_retirements WHERE run_id = ?", [run_id]).fetchone():
            return False
        self.db.execute(
            "INSERT INTO run_retirements (run_id, retired, reason) VALUES (?, ?, ?)", [run_id, retired, reason]
        )
        return True

    def retirements(self) -> dict[str, tuple[str, str]]:
        """`run name -> (when retired, reason)` of the retired runs, in run order."""
        return {
            name: (retired, reason)
            for name, retired, reason in self.db.execute(
                "SELECT r.name, t.retired, t.reason FROM run_retirements t JOIN runs r ON r.run_id = t.run_id "
                "ORDER BY r.run_id"
            )
        }

    def delete_run(self, name: str) -> None:
        """Remove a run whole: its rankings go with it (the foreign key cascades; the guards allow that)."""
        self.db.execute("DELETE FROM runs WHERE run_id = ?", [self._run_id(name)])

    def put_ranking(self, run_id: int, ranking: Ranking) -> None:
        """Store (or, while the run is being imported, rewrite) one topic's ranking."""
        # on the sqlite3 connection itself: one call per topic of an import, sqlite-utils adds nothing here
        self.db.conn.execute(
            "INSERT OR REPLACE INTO run_rankings (run_id, topic_id, units, scores, ranks) VALUES (?, ?, ?, ?, ?)",
            [
                run_id,
                ranking.topic_id,
                "\n".join(ranking.units),
                array("d", ranking.scores).tobytes(),
                array("q", ranking.ranks).tobytes(),
            ],
        )

    def ranking(self, run: str | int, topic_id: str) -> Ranking | None:
        run_id = run if isinstance(run, int) else self._run_id(run)
        row = self.db.execute(
            "SELECT topic_id, units, scores, ranks FROM run_rankings WHERE run_id = ? AND topic_id = ?",
            [run_id, topic_id],
        ).fetchone()
        return _ranking(row) if row else None

    def rankings(self, name: str, depth: int | None = None) -> dict[str, Ranking]:
        """All of a run's rankings by topic, optionally cut at `depth`."""
        rows = self.db.execute(
            "SELECT topic_id, units, scores, ranks FROM run_rankings WHERE run_id = ?", [self._run_id(name)]
        )
        return {row[0]: _ranking(row, depth) for row in rows}

    def iter_rankings(self, name: str, topics: Sequence[str]) -> Iterator[Ranking]:
        """The run's rankings of `topics`, one row read at a time: an export never holds the whole run."""
        run_id = self._run_id(name)
        for topic_id in topics:
            ranking = self.ranking(run_id, topic_id)
            if ranking is not None:
                yield ranking

    def run_topics(self, name: str) -> list[str]:
        return [
            row[0]
            for row in self.db.execute("SELECT topic_id FROM run_rankings WHERE run_id = ?", [self._run_id(name)])
        ]

    def ranked_units(
        self, name: str, depth: int | None = None, topics: Sequence[str] | None = None
    ) -> dict[str, list[str]]:
        """`topic -> unit ids in canonical order`: the cheap form pooling needs.

        `topics` reads only those topics' rankings (those the run has), so a
        caller can go through a large run a batch of topics at a time.
        """
        run_id = self._run_id(name)
        if topics is None:
            rows: Iterable[tuple[Any, ...]] = self.db.execute(
                "SELECT topic_id, units FROM run_rankings WHERE run_id = ?", [run_id]
            )
        else:
            rows = self._rows_for_topics(run_id, list(topics))
        result = {}
        for topic_id, units in rows:
            ids = units.split("\n") if units else []
            result[topic_id] = ids[:depth] if depth is not None else ids
        return result

    def _rows_for_topics(self, run_id: int, topics: list[str]) -> Iterator[tuple[str, str]]:
        """(topic, units) rows of the given topics, through the primary key, a few hundred topics per query."""
        for start in range(0, len(topics), 500):
            part = topics[start : start + 500]
            marks = ", ".join("?" * len(part))
            yield from self.db.execute(
                f"SELECT topic_id, units FROM run_rankings WHERE run_id = ? AND topic_id IN ({marks})", [run_id, *part]
            )


def _ranking(row: tuple[Any, ...], depth: int | None = None) -> Ranking:
    from labeler.formats.runs import Ranking

    units = tuple(row[1].split("\n")) if row[1] else ()
    scores = array("d")
    scores.frombytes(row[2])
    ranks = array("q")
    ranks.frombytes(row[3])
    if depth is not None:
        return Ranking(row[0], units[:depth], tuple(scores[:depth]), tuple(ranks[:depth]))
    return Ranking(row[0], units, tuple(scores), tuple(ranks))


def _run_info(row: tuple[Any, ...]) -> RunInfo:
    from labeler.run_models import RunInfo, Unit  # here: `next` reads no run

    unit = Unit("chunk", row[2]) if row[1] == "chunk" else Unit("doc")
    return RunInfo(
        row[0],
        unit,
        row[3],
        row[4],
        row[5],
        tuple(json.loads(row[6])),
        row[7],
        row[8],
        row[9],
        json.loads(row[10]),
        row[11],
        row[12],
    )

"""Pools and their entries (immutable once written)."""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import compress, repeat
from operator import not_
from typing import Any

from labeler.pool_models import PoolEntry, PoolInfo
from labeler.store.rows import Rows

_POOL_COLUMNS = "name, strategy, depth, params, runs, unit, created, pairs"
_ENTRY_COLUMNS = "topic_id, unit_id, best_rank, contributors, rrf"
# A pool being built: connection-local, so filling it takes no lock on the workbench. Keyed like
# pool_entries, so the final copy reads it in that table's order and appends to it.
_STAGING = "temp.pool_staging"


class PoolRows(Rows):
    def pools(self) -> list[PoolInfo]:
        return [_pool(r) for r in self.db.execute(f"SELECT {_POOL_COLUMNS} FROM pools ORDER BY pool_id")]

    def latest_pool(self) -> PoolInfo | None:
        row = self.db.execute(f"SELECT {_POOL_COLUMNS} FROM pools ORDER BY pool_id DESC LIMIT 1").fetchone()
        return _pool(row) if row else None

    def pool(self, name: str) -> PoolInfo:
        return _pool(self._named(f"SELECT {_POOL_COLUMNS} FROM pools WHERE name = ?", name, "pool"))

    def _pool_id(self, name: str) -> int:
        pool_id: int = self._named("SELECT pool_id FROM pools WHERE name = ?", name, "pool")[0]
        return pool_id

    def next_pool_id(self) -> int:
        return self.db.execute("SELECT coalesce(max(pool_id), 0) + 1 FROM pools").fetchone()[0]

    @contextlib.contextmanager
    def pool_staging(self) -> Iterator[None]:
        """A TEMP table to gather a pool's entries in while they are computed; dropped on the way out.

        Writing it locks nothing in the workbench (annotators keep judging) and it spills to a
        temp file, not RAM, so a pool of any size is built in bounded memory; `insert_staged_pool`
        then copies it in one short write transaction.
        """
        self._temp_on_disk()
        self.db.execute(f"DROP TABLE IF EXISTS {_STAGING}")
        self.db.execute(
            f"CREATE TABLE {_STAGING} (topic_id TEXT NOT NULL, unit_id TEXT NOT NULL, best_rank INTEGER NOT NULL, "
            "contributors TEXT NOT NULL, rrf REAL NOT NULL, PRIMARY KEY (topic_id, unit_id)) WITHOUT ROWID"
        )
        try:
            yield
        finally:
            self.db.execute(f"DROP TABLE IF EXISTS {_STAGING}")

    def stage_pool_entries(self, entries: Iterable[PoolEntry]) -> None:
        """Add entries to the staging table, in a transaction of the TEMP database only."""
        sql = f"INSERT INTO {_STAGING} ({_ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
        conn = self.db.conn
        if conn.in_transaction:  # called inside a caller's transaction: join it
            conn.executemany(sql, map(_entry_row, entries))
            return
        conn.execute("BEGIN")  # deferred: only the TEMP database is written, main is at most read
        try:
            conn.executemany(sql, map(_entry_row, entries))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def insert_staged_pool(self, pool_id: int, info: PoolInfo) -> None:
        """The staged entries under `pool_id`, then the pool row; call inside `transaction()`."""
        self.db.execute(
            f"INSERT INTO pool_entries (pool_id, {_ENTRY_COLUMNS}) "
            f"SELECT ?, {_ENTRY_COLUMNS} FROM {_STAGING} ORDER BY topic_id, unit_id",
            [pool_id],
        )
        self._insert_pool_row(pool_id, info)

    def _insert_pool_row(self, pool_id: int, info: PoolInfo) -> None:
        self.db.execute(
            "INSERT INTO pools (pool_id, name, strategy, depth, params, runs, unit, created, pairs) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                pool_id,
                info.name,
                info.strategy,
                info.depth,
                json.dumps(info.params, sort_keys=True),
                json.dumps(list(info.runs)),
                info.unit,
                info.created,
                info.pairs,
            ],
        )

    def _temp_on_disk(self) -> None:
        """Keep TEMP tables in a file where this SQLite would default to memory.

        This build's default is already a file (TEMP_STORE=1); the pragma is set only while the
        connection holds no TEMP table, since changing it drops them, and never in a transaction.
        """
        conn = self.db.conn
        if (
            not conn.in_transaction
            and self.db.execute("PRAGMA temp_store").fetchone()[0] == 0
            and not self.db.execute("SELECT 1 FROM temp.sqlite_master").fetchone()
        ):
            self.db.execute("PRAGMA temp_store = FILE")

    def pool_topic_units(self, name: str, topic_id: str) -> set[str]:
        """The units one topic has in a pool (a seek on the primary key)."""
        return {
            row[0]
            for row in self.db.execute(
                "SELECT unit_id FROM pool_entries WHERE pool_id = ? AND topic_id = ?", [self._pool_id(name), topic_id]
            )
        }

    def pool_pair_contributors(self, name: str) -> Iterator[tuple[str, str, str]]:
        """(topic, unit, contributors as stored) for every pair of a pool, in key order, straight off the cursor.

        For reports over a whole pool that only count runs: the rows stay SQLite's own tuples
        (nothing parsed per pair) and go, a topic's worth at a time, to `count_contributor_runs`.
        """
        return iter(
            self.db.execute(
                "SELECT topic_id, unit_id, contributors FROM pool_entries WHERE pool_id = ? ORDER BY topic_id, unit_id",
                [self._pool_id(name)],
            )
        )

    @staticmethod
    def count_contributor_runs(contributors: list[str]) -> Counter[str]:
        """`count_contributor_runs` of stored contributors (as `pool_pair_contributors` gives them)."""
        return count_contributor_runs(contributors)

    def pool_entries(self, name: str, topic_id: str | None = None) -> dict[str, dict[str, PoolEntry]]:
        """`topic -> unit -> entry`, for one topic or all."""
        sql = "SELECT topic_id, unit_id, best_rank, contributors, rrf FROM pool_entries WHERE pool_id = ?"
        params: list[Any] = [self._pool_id(name)]
        if topic_id is not None:
            sql += " AND topic_id = ?"
            params.append(topic_id)
        result: dict[str, dict[str, PoolEntry]] = {}
        for topic, unit, best_rank, contributors, rrf in self.db.execute(sql, params):
            pairs = tuple((run, int(rank)) for run, rank in (line.split("\t") for line in contributors.split("\n")))
            result.setdefault(topic, {})[unit] = PoolEntry(topic, unit, best_rank, pairs, rrf)
        return result

    def pool_topic_size(self, name: str, topic_id: str) -> int:
        return self.db.execute(
            "SELECT count(*) FROM pool_entries WHERE pool_id = ? AND topic_id = ?", [self._pool_id(name), topic_id]
        ).fetchone()[0]

    def pool_topic_ids(self, name: str) -> list[str]:
        """The pool's topics (in SQL text order), one primary-key seek per topic.

        A skip-scan: counting them (`pool_topic_sizes`) reads every pooled row, ~0.3 s with a
        million pairs, where this takes one B-tree search per topic (~10 µs each).
        """
        return [
            row[0]
            for row in self.db.execute(
                """WITH RECURSIVE topics(topic_id) AS (
                    SELECT (SELECT min(topic_id) FROM pool_entries WHERE pool_id = :pool)
                    UNION ALL
                    SELECT (SELECT min(topic_id) FROM pool_entries WHERE pool_id = :pool AND topic_id > topics.topic_id)
                    FROM topics WHERE topics.topic_id IS NOT NULL
                )
                SELECT topic_id FROM topics WHERE topic_id IS NOT NULL""",
                {"pool": self._pool_id(name)},
            )
        ]

    def pool_has_topic(self, name: str, topic_id: str) -> bool:
        """Whether the pool holds any pair of the topic (one primary-key seek)."""
        return (
            self.db.execute(
                "SELECT 1 FROM pool_entries WHERE pool_id = ? AND topic_id = ? LIMIT 1", [self._pool_id(name), topic_id]
            ).fetchone()
            is not None
        )

    def pool_topic_sizes(self, name: str) -> dict[str, int]:
        return dict(
            self.db.execute(
                "SELECT topic_id, count(*) FROM pool_entries WHERE pool_id = ? GROUP BY topic_id", [self._pool_id(name)]
            )
        )


# the run name at the start of each stored contributor line
_RUN_NAME = re.compile(r"^[^\t\n]*", re.MULTILINE)


def count_contributor_runs(contributors: list[str]) -> Counter[str]:
    """run -> how many of these pairs it contributed to, each pair counted once per run.

    `contributors` are pool_entries' stored values ("run<TAB>rank" lines). A pair of one line
    (one contributor) names one run: those are counted from one scan of them all; the others
    are split pair by pair, since a run counts a pair once however often it is named in it.
    """
    several = list(map(str.__contains__, contributors, repeat("\n")))
    single = list(compress(contributors, map(not_, several)))
    counts = Counter(_RUN_NAME.findall("\n".join(single)) if single else ())  # no pair: not one run named ""
    for lines in compress(contributors, several):
        counts.update({line.split("\t", 1)[0] for line in lines.split("\n")})
    return counts


def _entry_row(e: PoolEntry) -> tuple[Any, ...]:
    """An entry as pool_entries stores it: contributors as "run<TAB>rank" lines, in run order."""
    return e.topic_id, e.unit_id, e.best_rank, "\n".join([f"{r}\t{k}" for r, k in e.contributors]), e.rrf


def _pool(row: tuple[Any, ...]) -> PoolInfo:
    return PoolInfo(row[0], row[1], row[2], json.loads(row[3]), tuple(json.loads(row[4])), row[5], row[6], row[7])

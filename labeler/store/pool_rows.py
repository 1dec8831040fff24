"""Pools and their entries (immutable once written)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from labeler.errors import NotFoundError
from labeler.models import PoolInfo
from labeler.pooling import PoolEntry

_POOL_COLUMNS = "name, strategy, depth, params, runs, unit, created, pairs"


class PoolRows:
    db: object

    def pools(self) -> list[PoolInfo]:
        return [_pool(r) for r in self.db.execute(f"SELECT {_POOL_COLUMNS} FROM pools ORDER BY pool_id")]

    def latest_pool(self) -> PoolInfo | None:
        row = self.db.execute(f"SELECT {_POOL_COLUMNS} FROM pools ORDER BY pool_id DESC LIMIT 1").fetchone()
        return _pool(row) if row else None

    def pool(self, name: str) -> PoolInfo:
        row = self.db.execute(f"SELECT {_POOL_COLUMNS} FROM pools WHERE name = ?", [name]).fetchone()
        if not row:
            raise NotFoundError(f"no pool named {name!r} (see 'labeler pool list')")
        return _pool(row)

    def _pool_id(self, name: str) -> int:
        row = self.db.execute("SELECT pool_id FROM pools WHERE name = ?", [name]).fetchone()
        if not row:
            raise NotFoundError(f"no pool named {name!r} (see 'labeler pool list')")
        return row[0]

    def next_pool_id(self) -> int:
        return self.db.execute("SELECT coalesce(max(pool_id), 0) + 1 FROM pools").fetchone()[0]

    def insert_pool(self, pool_id: int, info: PoolInfo, entries: Iterable[PoolEntry]) -> None:
        """Entries first, then the pool row (its foreign key is checked at commit)."""
        self.db.conn.executemany(
            "INSERT INTO pool_entries (pool_id, topic_id, unit_id, best_rank, contributors, rrf) VALUES (?, ?, ?, ?, ?, ?)",
            ((pool_id, e.topic_id, e.unit_id, e.best_rank, "\n".join(f"{r}\t{k}" for r, k in e.contributors), e.rrf)
             for e in entries),
        )
        self.db.execute(
            "INSERT INTO pools (pool_id, name, strategy, depth, params, runs, unit, created, pairs) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [pool_id, info.name, info.strategy, info.depth, json.dumps(info.params, sort_keys=True),
             json.dumps(list(info.runs)), info.unit, info.created, info.pairs],
        )

    def pool_pairs(self, name: str) -> dict[str, set[str]]:
        """`topic -> units` of a pool."""
        result: dict[str, set[str]] = {}
        for topic_id, unit_id in self.db.execute(
            "SELECT topic_id, unit_id FROM pool_entries WHERE pool_id = ?", [self._pool_id(name)]
        ):
            result.setdefault(topic_id, set()).add(unit_id)
        return result

    def pool_entries(self, name: str, topic_id: str | None = None) -> dict[str, dict[str, PoolEntry]]:
        """`topic -> unit -> entry`, for one topic or all."""
        sql = "SELECT topic_id, unit_id, best_rank, contributors, rrf FROM pool_entries WHERE pool_id = ?"
        params: list = [self._pool_id(name)]
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

    def pool_topic_sizes(self, name: str) -> dict[str, int]:
        return dict(self.db.execute(
            "SELECT topic_id, count(*) FROM pool_entries WHERE pool_id = ? GROUP BY topic_id", [self._pool_id(name)]
        ))


def _pool(row) -> PoolInfo:
    return PoolInfo(row[0], row[1], row[2], json.loads(row[3]), tuple(json.loads(row[4])), row[5], row[6], row[7])

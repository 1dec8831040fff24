"""Runs as Parquet files, read through DuckDB: the scoring path past one SQLite workbench.

One file per run (`NAME.parquet`), one row per ranked unit, columns `topic`
(string), `unit` (string), `rank` (int64, the rank the run file gave) and
`score` (float64), rows in the workbench's canonical order (topic by topic,
score descending, unit descending: trec_eval's order). The run's description
(`RunInfo`: name, unit space, stage, source, ...) is the JSON value of the
file's key-value metadata key `labeler.run`. See docs/formats.md.

pyarrow writes the files a row group at a time (memory holds one batch of
rankings); DuckDB reads them: the topics of a run, each topic's ranking in
canonical order, cut at a depth in SQL (the top k per topic). Neither library
is imported until a Parquet file is written or read, and without them the
error names the extra that installs them.

`ParquetRunsStore` is a `Store` whose runs are those files and whose every
other table (labels, snapshots, chunkings) is the workbench's, so `labeler
eval` scores a directory of Parquet runs with exactly the code and the
measures of the SQLite path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError, NotFoundError
from labeler.models import RunInfo, Unit
from labeler.store import Store

METADATA_KEY = "labeler.run"
LAYOUT_VERSION = 1
INSTALL = "pip install 'relevance-labeler[parquet]'"
BATCH_ROWS = 1 << 17  # rows per row group written: a few MB of memory


def _missing(module: str) -> LabelerError:
    return LabelerError(f"the Parquet path needs duckdb and pyarrow, and {module} is not installed ({INSTALL})")


def _duckdb() -> Any:
    """DuckDB, imported only when a Parquet run is read (plain imports, so `lint-imports` sees where)."""
    try:
        import duckdb
    except ImportError:
        raise _missing("duckdb") from None
    return duckdb


def _pyarrow() -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet, imported only when a Parquet run is written."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise _missing("pyarrow") from None
    return pyarrow, pyarrow.parquet


def info_json(info: RunInfo) -> str:
    """The `labeler.run` metadata value: every field of the run's description."""
    return json.dumps(
        {
            "layout": LAYOUT_VERSION,
            "name": info.name,
            "unit": str(info.unit),
            "stage": info.stage,
            "source": info.source,
            "source_sha256": info.source_sha256,
            "tags": list(info.tags),
            "topics": info.topics,
            "entries": info.entries,
            "max_depth": info.max_depth,
            "policies": info.policies,
            "imported": info.imported,
        },
        sort_keys=True,
    )


def _info_from_json(text: str, path: Path) -> RunInfo:
    try:
        data = json.loads(text)
        if data.get("layout") != LAYOUT_VERSION:
            raise ValueError(f"layout {data.get('layout')!r}, not {LAYOUT_VERSION}")
        return RunInfo(
            data["name"],
            Unit.parse(data["unit"]),
            data["stage"],
            data["source"],
            data["source_sha256"],
            tuple(data["tags"]),
            data["topics"],
            data["entries"],
            data["max_depth"],
            data["policies"],
            data["imported"],
        )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise LabelerError(f"not a labeler Parquet run: metadata {METADATA_KEY}: {exc}", path=path) from None


def write_parquet_run(
    path: Path, info: RunInfo, rankings: Iterable[tuple[str, Sequence[str], Sequence[float], Sequence[int]]]
) -> int:
    """Write one run's rankings (canonical order, topic by topic) to `path`; the number of rows written."""
    pa, pq = _pyarrow()
    schema = pa.schema(
        [("topic", pa.string()), ("unit", pa.string()), ("rank", pa.int64()), ("score", pa.float64())],
        metadata={METADATA_KEY: info_json(info)},
    )
    written = 0
    columns: tuple[list[Any], list[Any], list[Any], list[Any]] = ([], [], [], [])

    def flush(writer: Any) -> None:
        nonlocal columns
        if columns[0]:
            writer.write_table(
                pa.Table.from_arrays(
                    [pa.array(c, type=f.type) for c, f in zip(columns, schema, strict=True)], schema=schema
                )
            )
        columns = ([], [], [], [])

    with pq.ParquetWriter(str(path), schema, compression="zstd") as writer:
        for topic, units, scores, ranks in rankings:
            columns[0].extend([topic] * len(units))
            columns[1].extend(units)
            columns[2].extend(ranks)
            columns[3].extend(float(s) for s in scores)
            written += len(units)
            if len(columns[0]) >= BATCH_ROWS:
                flush(writer)
        flush(writer)
    return written


class ParquetRuns:
    """A directory of Parquet runs, one file per run, queried through an in-memory DuckDB."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise NotFoundError("is not a folder of Parquet runs", path=self.directory)
        duckdb = _duckdb()
        self.db = duckdb.connect(":memory:")
        self.files: dict[str, Path] = {}
        self.infos: dict[str, RunInfo] = {}
        for path in sorted(self.directory.glob("*.parquet")):
            try:
                row = self.db.execute(
                    "SELECT value FROM parquet_kv_metadata(?) WHERE key = ?", [str(path), METADATA_KEY.encode()]
                ).fetchone()
            except duckdb.Error as exc:
                self.db.close()
                raise LabelerError(f"not a readable Parquet file: {str(exc).splitlines()[0]}", path=path) from None
            if row is None:
                raise LabelerError(f"not a labeler Parquet run: no {METADATA_KEY} metadata", path=path)
            value = row[0]
            info = _info_from_json(value.decode() if isinstance(value, bytes) else str(value), path)
            if info.name in self.files:
                raise LabelerError(f"run {info.name!r} is in two files ({self.files[info.name].name})", path=path)
            self.files[info.name] = path
            self.infos[info.name] = info
        if not self.files:
            raise NotFoundError("holds no .parquet run files", path=self.directory)

    def close(self) -> None:
        self.db.close()

    def run(self, name: str) -> RunInfo:
        if name not in self.infos:
            raise NotFoundError(f"no run {name!r} in {self.directory}")
        return self.infos[name]

    def runs(self) -> list[RunInfo]:
        return list(self.infos.values())

    def run_topics(self, name: str) -> list[str]:
        self.run(name)
        return [
            r[0]
            for r in self.db.execute("SELECT DISTINCT topic FROM read_parquet(?)", [str(self.files[name])]).fetchall()
        ]

    def ranked_units(
        self, name: str, depth: int | None = None, topics: Sequence[str] | None = None
    ) -> dict[str, list[str]]:
        """`topic -> unit ids in canonical order`, the top `depth` of each topic cut in SQL.

        DuckDB filters the topics, cuts each at `depth` and builds each topic's list in
        canonical order (`list(unit ORDER BY score DESC, unit DESC)`): Python receives one
        row per topic, not one per unit.
        """
        self.run(name)
        if topics is not None and not topics:
            return {}
        rows = "read_parquet(?) p"
        params: list[Any] = [str(self.files[name])]
        if topics is not None:
            rows += " SEMI JOIN (SELECT unnest(?::VARCHAR[]) AS topic) t ON p.topic = t.topic"
            params.append(list(topics))
        if depth is not None:
            rows = (
                f"(SELECT p.topic, p.unit, p.score FROM {rows} QUALIFY row_number() OVER "
                "(PARTITION BY p.topic ORDER BY p.score DESC, p.unit DESC) <= ?) p"
            )
            params.append(depth)
        sql = f"SELECT p.topic, list(p.unit ORDER BY p.score DESC, p.unit DESC) FROM {rows} GROUP BY p.topic"
        return dict(self.db.execute(sql, params).fetchall())


class ParquetRunsStore(Store):
    """The workbench's labels, snapshots and chunkings; the runs of a Parquet directory.

    It shares the open workbench's connection (closing it closes only DuckDB).
    The workbench's run tables are never read: a run method not answered from
    Parquet reaches `_run_id`, which refuses, so no number can come silently
    from the SQLite runs. `depth` (eval's `--depth`) is cut in SQL for document
    runs; a chunk run may be collapsed to documents before the cut, so its
    rankings are read whole and `evaluate` cuts them, as on the SQLite path.
    """

    def __init__(self, store: Store, runs: ParquetRuns, *, depth: int | None = None) -> None:
        self.path = store.path
        self.db = store.db
        self.parquet = runs
        self.depth = depth

    def close(self) -> None:
        self.parquet.close()

    def runs(self) -> list[RunInfo]:
        return self.parquet.runs()

    def run(self, name: str) -> RunInfo:
        return self.parquet.run(name)

    def run_topics(self, name: str) -> list[str]:
        return self.parquet.run_topics(name)

    def ranked_units(
        self, name: str, depth: int | None = None, topics: Sequence[str] | None = None
    ) -> dict[str, list[str]]:
        if depth is None and self.parquet.run(name).unit.kind == "doc":
            depth = self.depth
        return self.parquet.ranked_units(name, depth=depth, topics=topics)

    def retirements(self) -> dict[str, tuple[str, str]]:
        return {}  # a Parquet run is never retired: the directory holds the runs to score

    def _run_id(self, name: str) -> int:
        raise LabelerError(f"run {name!r}: the runs are read from Parquet, and this needs the stored rankings")

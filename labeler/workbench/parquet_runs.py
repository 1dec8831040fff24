"""Runs as Parquet for scoring past one workbench: `runs export --format parquet`, `eval --runs-parquet`.

The files and their reading are the store's (`labeler.store.parquet_runs`,
DuckDB and pyarrow, loaded only here); this module writes one under the output
rule and hands `evaluate_runs` a store whose runs are a Parquet directory, so
both paths score with the same code and give the same report.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from labeler.models import topic_sort_key
from labeler.output_files import Written, check_output, output_file
from labeler.store import Store


def export_run_parquet(store: Store, name: str, path: str | Path, *, force: bool = False) -> Written:
    """Write run `name` to the Parquet file `path` (docs/formats.md), never over the workbench or a file unasked."""
    from labeler.store.parquet_runs import write_parquet_run

    info = store.run(name)  # an unknown name fails before any file is made
    exists = check_output(path, workbench=store.path, force=force)
    topics = sorted(store.run_topics(name), key=topic_sort_key)
    rankings = ((r.topic_id, r.units, r.scores, r.ranks) for r in store.iter_rankings(name, topics))
    with output_file(path, workbench=store.path, force=force) as temporary:
        write_parquet_run(temporary, info, rankings)
        size = temporary.stat().st_size
    return Written(Path(path), size, exists)


@contextmanager
def parquet_runs(store: Store, directory: str | Path, *, depth: int | None = None) -> Iterator[Store]:
    """The open workbench with its runs replaced by the Parquet runs of `directory`, for `evaluate_runs`."""
    from labeler.store.parquet_runs import ParquetRuns, ParquetRunsStore

    runs = ParquetRuns(directory)
    view = ParquetRunsStore(store, runs, depth=depth)
    try:
        yield view
    finally:
        view.close()

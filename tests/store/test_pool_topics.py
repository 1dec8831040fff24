"""A pool's topics found by a skip-scan of its primary key: the same topics as counting every pooled row."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from store.test_pool_staging import empty_workbench, entries, stage_and_copy  # noqa: F401

from labeler.store import Store


@settings(max_examples=60, deadline=None)
@given(pool=entries, probe=st.text(max_size=3))
def test_the_skip_scan_finds_the_topics_that_counting_finds(empty_workbench, pool, probe):  # noqa: F811
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "wb.db"
        shutil.copy(empty_workbench, path)
        with Store(path) as store:
            stage_and_copy(store, pool)
            sizes = store.pool_topic_sizes("P1")
            assert store.pool_topic_ids("P1") == sorted(sizes)  # SQLite's text order is code point order
            for topic in [*sizes, probe]:
                assert store.pool_has_topic("P1", topic) is (topic in sizes)

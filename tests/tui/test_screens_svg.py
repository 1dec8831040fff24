"""A few SVG snapshots of the main screens (regenerate with `pytest --snapshot-update` after a Textual upgrade)."""

from __future__ import annotations

import pytest

from labeler.tui import JudgeRequest, make_app

SIZE = (120, 34)


@pytest.mark.snapshot
def test_judging_screen(judging_db, snap_compare):
    assert snap_compare(make_app(JudgeRequest(db_path=judging_db, assessor="ann")), terminal_size=SIZE)


@pytest.mark.snapshot
def test_topics_screen(judging_db, snap_compare):
    assert snap_compare(
        make_app(JudgeRequest(db_path=judging_db, assessor="ann")), press=["2", "t"], terminal_size=SIZE
    )


@pytest.mark.snapshot
def test_chunk_inside_parent(chunk_db, snap_compare):
    assert snap_compare(make_app(JudgeRequest(db_path=chunk_db, assessor="ann")), terminal_size=SIZE)


@pytest.mark.snapshot
def test_help_screen(judging_db, snap_compare):
    assert snap_compare(
        make_app(JudgeRequest(db_path=judging_db, assessor="ann")), press=["question_mark"], terminal_size=SIZE
    )

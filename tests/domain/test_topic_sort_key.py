"""Natural topic order for display, and the frozen canonical order of qrels exports."""

from __future__ import annotations

import pytest

from labeler.formats.qrels import format_qrels
from labeler.models import topic_sort_key


@pytest.mark.parametrize(
    "ids, expected",
    [
        (["100", "10", "2", "1"], ["1", "2", "10", "100"]),
        (["q10", "q2", "q100", "q1"], ["q1", "q2", "q10", "q100"]),
        (["q10", "2", "q2", "10", "a"], ["2", "10", "a", "q2", "q10"]),  # numeric ids first, then by text chunk
        (["t2-b10", "t2-b9", "t10-a1", "t2-a"], ["t2-a", "t2-b9", "t2-b10", "t10-a1"]),
        (["beta", "Alpha", "alpha"], ["Alpha", "alpha", "beta"]),  # no numbers: codepoint order
        (["07", "7", "6"], ["6", "07", "7"]),  # equal numbers: the id breaks the tie
        (["2a", "10", "2"], ["2", "2a", "10"]),
    ],
)
def test_topic_sort_key_orders_naturally(ids, expected):
    assert sorted(ids, key=topic_sort_key) == expected


def test_qrels_export_keeps_its_frozen_order_because_the_snapshot_hash_covers_it():
    # docs/formats.md: numeric ids as numbers, then the rest as text (q10 before q2), unchanged
    text = format_qrels([("q2", "d", 1), ("q10", "d", 1), ("10", "d", 1), ("2", "d", 1)])
    assert text == "2 0 d 1\n10 0 d 1\nq10 0 d 1\nq2 0 d 1\n"

"""`labeler status` counts one population per column: the pool's pairs, and labels outside it apart.

Before, "relevant" counted every label while "judged" and "unjudged" counted pooled pairs, so
relevant could exceed judged and nothing added up.
"""

from __future__ import annotations


def test_columns_count_the_pool_and_outside_labels_apart(run_cli, write):
    run_cli("runs", "import", write("a.run", "1 Q0 d1 1 3 a\n1 Q0 d2 2 2 a\n1 Q0 d3 3 1 a\n"), "--name", "a")
    run_cli("pool", "build", "--depth", "3")
    # 2 of 3 pooled pairs judged, 1 relevant; 2 labels outside the pool, 1 relevant
    run_cli("judgments", "import", write("q", "1 0 d1 2\n1 0 d2 0\n1 0 d8 1\n1 0 d9 0\n"))
    result = run_cli.json("status")
    row = result["topics"]["1"]
    assert {k: row[k] for k in ("pool", "judged", "unjudged", "relevant", "outside", "outside_relevant")} == {
        "pool": 3,
        "judged": 2,
        "unjudged": 1,
        "relevant": 1,
        "outside": 2,
        "outside_relevant": 1,
    }
    assert result["totals"]["relevant"] == 1 and result["totals"]["outside"] == 2
    assert result["totals"]["judged"] + result["totals"]["unjudged"] == result["totals"]["pool"]
    text = run_cli("status").stdout
    assert "outside pool" in text and "relevant outside" in text


def test_without_a_pool_every_label_is_outside(run_cli, write):
    run_cli("judgments", "import", write("q", "1 0 d1 2\n1 0 d2 0\n"))
    row = run_cli.json("status")["topics"]["1"]
    assert (row["pool"], row["judged"], row["relevant"], row["outside"], row["outside_relevant"]) == (0, 0, 0, 2, 1)

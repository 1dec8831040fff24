"""Scores that say their topic set changed: eval and compare name the topics that entered or left since the
previous snapshot, and every comparison over two different topic sets warns (words and JSON)."""

from __future__ import annotations

import pytest

TOPICS = ["1", "2", "3", "4"]


@pytest.fixture
def campaign(run_cli, write):
    """v1: topics 1-3 reviewed; v2: topic 1 unmarked, topic 4 marked reviewed. Run B ranks nothing for topic 3."""
    run_a = "".join(f"{t} Q0 d{t}-{r} {r} {10 - r} A\n" for t in TOPICS for r in range(1, 4))
    run_b = "".join(f"{t} Q0 d{t}-{r} {r} {r} B\n" for t in TOPICS if t != "3" for r in range(1, 4))
    run_cli("runs", "import", write("a.run", run_a), "--name", "A")
    run_cli("runs", "import", write("b.run", run_b), "--name", "B")
    qrels = "".join(f"{t} 0 d{t}-{r} {int(r == 2)}\n" for t in TOPICS for r in range(1, 4))
    run_cli("judgments", "import", write("q.qrels", qrels), "--assessor", "ann")
    for topic in ("1", "2", "3"):
        run_cli("topics", "mark", topic, "reviewed", "--assessor", "ann")
    run_cli("snapshot", "create", "-m", "three topics")
    run_cli("topics", "mark", "1", "unreviewed", "--assessor", "ann")
    run_cli("topics", "mark", "4", "reviewed", "--assessor", "ann")
    run_cli("snapshot", "create", "-m", "topic 1 reopened for review, topic 4 done")
    return run_cli


def test_eval_names_the_topics_that_entered_and_left_since_the_previous_snapshot(campaign):
    out = campaign.json("eval", "--measures", "P@1")
    for run in out["runs"]:
        assert run["topics"]["since"] == {"snapshot": "v1", "scored": 3, "entered": ["4"], "left": {"1": "in_progress"}}
    first = campaign.json("eval", "--snapshot", "v1", "--measures", "P@1")
    assert first["runs"][0]["topics"]["since"] is None  # no snapshot before v1
    said = campaign("eval", "--measures", "P@1")
    assert "Warning: the scored topics changed since v1 (3 there, 3 here): 1 entered (4); 1 left (1 (in_progress))" in (
        said.stderr
    )
    assert "changed since" not in campaign("eval", "--snapshot", "v1", "--measures", "P@1").stderr


def test_compare_warns_that_the_older_snapshot_scored_other_topics(campaign):
    out = campaign.json("compare", "v1", "v2", "--depth", "2")
    assert out["topic_changes"] == {"old_scored": 3, "entered": ["4"], "left": {"1": "in_progress"}}
    said = campaign("compare", "v1", "v2", "--depth", "2").stderr
    assert "Warning: v1 scored 3 topics and v2 scores 3 (1 entered (4); 1 left (1 (in_progress)))" in said
    assert "the v1 column is not the mean eval gave on v1" in said


def test_a_comparison_over_different_topic_sets_warns(campaign):
    # trec_eval's rule scores a run on the labelled topics it ranks: B lacks topic 3
    args = ("--measures", "P@1", "--average", "trec_eval", "--bootstrap", "10")
    pair = campaign.json("eval", "--compare", "A", "B", *args)
    assert pair["topic_sets"] == {"first_only": ["3"], "second_only": []}
    assert pair["measures"]["P@1"]["n"] == 3
    said = campaign("eval", "--compare", "A", "B", *args).stderr
    assert "Warning: A and B are scored over different topics (A alone scores 3)" in said
    baseline = campaign.json("eval", "--baseline", "A", *args)
    assert baseline["topic_sets"] == {"B": {"first_only": ["3"], "second_only": []}}
    assert "A alone scores 3" in campaign("eval", "--baseline", "A", *args).stderr
    # labeler's rule scores both on the same topics (B's missing topic 3 scores 0): no warning
    same = campaign.json("eval", "--compare", "A", "B", "--measures", "P@1", "--bootstrap", "10")
    assert same["topic_sets"] is None
    assert "different topics" not in campaign("eval", "--compare", "A", "B", "--measures", "P@1").stderr

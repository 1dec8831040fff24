"""`labeler assign`: dealing, listing, clearing; `status` per assessor; `agreement` on the planned overlap."""

from __future__ import annotations

import pytest

RUN = "".join(f"{t} Q0 d{t}-{r} {r} {100 - r} A\n" for t in (1, 2, 3, 10) for r in range(1, 21))


@pytest.fixture
def pooled(run_cli, write):
    run_cli("runs", "import", write("a.run", RUN), "--name", "A")
    run_cli("pool", "build", "--depth", "20")
    return run_cli


def test_topics_are_dealt_round_robin_in_natural_order(pooled):
    result = pooled.json("assign", "--assessors", "ann,bob", "--assigned-by", "lead")
    assert {t: row["assessor"] for t, row in result["topics"].items()} == {
        "1": "ann",
        "2": "bob",
        "3": "ann",
        "10": "bob",
    }
    assert result["assigned"] == ["1", "2", "3", "10"]
    assert all(row["second"] is None and row["overlap_pairs"] == 0 for row in result["topics"].values())
    assert result["topics"]["1"]["assigned_by"] == "lead"


def test_explicit_topics_to_one_assessor_supersede_and_clear_unassigns(pooled):
    pooled("assign", "--assessors", "ann,bob")
    pooled("assign", "--assessors", "carol", "--topics", "2,10")
    listed = pooled.json("assign", "--list")
    assert {t: row["assessor"] for t, row in listed["topics"].items()} == {
        "1": "ann",
        "2": "carol",
        "3": "ann",
        "10": "carol",
    }
    assert listed["assessors"]["carol"]["topics"] == ["2", "10"]
    pooled("assign", "--clear", "--topics", "3")
    assert list(pooled.json("assign", "--list")["topics"]) == ["1", "2", "10"]
    # a cleared topic is anyone's again: bob (no longer assigned anything) is given it
    assert pooled.json("queue", "--assessor", "bob")["topic"] == "3"


def test_list_json_shape(pooled):
    pooled("assign", "--assessors", "ann,bob", "--overlap", "0.25", "--seed", "4")
    pooled("judgments", "add", "1", "d1-1", "2", "--assessor", "ann")
    listed = pooled.json("assign", "--list")
    assert set(listed) == {"pool", "unit", "topics", "assessors"} and listed["pool"] == "P1"
    row = listed["topics"]["1"]
    assert set(row) == {
        "assessor",
        "second",
        "assessors",
        "overlap",
        "seed",
        "pairs",
        "overlap_pairs",
        "assigned",
        "assigned_by",
        "show_others",
    }
    assert row["show_others"] is False  # blind second judgments unless the assignment asks otherwise
    assert (row["assessor"], row["second"], row["assessors"], row["overlap"], row["seed"], row["pairs"]) == (
        "ann",
        "bob",
        ["ann", "bob"],
        0.25,
        4,
        20,
    )
    ann = listed["assessors"]["ann"]
    assert set(ann) == {"topics", "second_on", "to_judge", "judged", "remaining", "overlap"}
    assert (ann["topics"], ann["second_on"]) == (["1", "3"], ["2", "10"])  # her own two; bob's as second judge
    overlap_of = {t: r["overlap_pairs"] for t, r in listed["topics"].items()}
    assert ann["to_judge"] == 40 + overlap_of["2"] + overlap_of["10"]
    assert ann["overlap"] == sum(overlap_of.values())
    assert (ann["judged"], ann["remaining"]) == (1, ann["to_judge"] - 1)
    text = pooled("assign", "--list").output
    assert "per assessor" in text and "ann" in text


def test_status_shows_each_assessors_work(pooled):
    assert "assessors" not in pooled.json("status")  # no plan, no section
    pooled("assign", "--assessors", "ann,bob")
    pooled("judgments", "add", "2", "d2-1", "1", "--assessor", "bob")
    result = pooled.json("status")
    assert result["assessors"] == {
        "ann": {"topics": ["1", "3"], "second_on": [], "to_judge": 40, "judged": 0, "remaining": 40, "overlap": 0},
        "bob": {"topics": ["2", "10"], "second_on": [], "to_judge": 40, "judged": 1, "remaining": 39, "overlap": 0},
    }
    assert "per assessor" in pooled("status").output


def test_queue_for_an_assessor_lists_only_their_pairs(pooled):
    pooled("assign", "--assessors", "ann,bob")
    assert pooled.json("queue", "--assessor", "bob")["topic"] == "2"
    assert pooled.json("queue", "--assessor", "bob", "--topic", "1")["next"] == []
    assert pooled.json("queue", "--assessor", "ann", "--topic", "1")["remaining"] == 20


def test_agreement_reads_the_planned_overlap_by_default_and_its_conflicts_go_to_adjudication(pooled):
    pooled("assign", "--assessors", "ann,bob", "--topics", "1", "--overlap", "0.5", "--seed", "2")
    bob_queue = [i["unit"] for i in pooled.json("queue", "--assessor", "bob", "--topic", "1", "--limit", "50")["next"]]
    ann_only = next(f"d1-{r}" for r in range(1, 21) if f"d1-{r}" not in bob_queue)
    overlap = bob_queue[0]
    for unit, ann, bob in ((overlap, 2, 0), (ann_only, 1, 1)):  # bob also grades a pair outside the plan
        pooled("judgments", "add", "1", unit, str(ann), "--assessor", "ann")
        pooled("judgments", "add", "1", unit, str(bob), "--assessor", "bob")
    planned = pooled.json("assign", "--list")["topics"]["1"]["overlap_pairs"]
    default = pooled.json("agreement")
    assert (default["pairs_read"], default["planned_overlap"], default["pairs_multi"]) == ("overlap", planned, 1)
    assert f"on the {planned} planned overlap pairs" in pooled("agreement").output
    every = pooled.json("agreement", "--all-pairs")
    assert (every["pairs_read"], every["planned_overlap"], every["pairs_multi"]) == ("all", None, 2)
    assert pooled.json("status")["topics"]["1"]["conflicts"] == 1
    pooled("judgments", "adjudicate", "1", overlap, "1", "--assessor", "lead")
    assert pooled.json("status")["topics"]["1"]["conflicts"] == 0


def test_agreement_without_a_planned_overlap_reads_every_pair(pooled):
    pooled("assign", "--assessors", "ann,bob")
    pooled("judgments", "add", "1", "d1-1", "2", "--assessor", "ann")
    pooled("judgments", "add", "1", "d1-1", "2", "--assessor", "bob")
    result = pooled.json("agreement")
    assert (result["pairs_read"], result["planned_overlap"], result["pairs_multi"]) == ("all", None, 1)

"""`labeler assign --show-model NAME|none`: the campaign's model setting, its history, and what shows it."""

from __future__ import annotations

import pytest
from support import dump

RUN = "".join(f"{t} Q0 d{t}-{r} {r} {100 - r} A\n" for t in (1, 2) for r in range(1, 4))


@pytest.fixture
def pooled(run_cli, write):
    run_cli("runs", "import", write("a.run", RUN), "--name", "A")
    run_cli("pool", "build", "--depth", "3")
    return run_cli


def test_blind_by_default_no_setting_no_key(pooled):
    assert "show_model" not in pooled.json("assign", "--list")
    assert "show_model" not in pooled.json("status")
    assert "Model label shown while judging: none (blind)." in pooled("assign", "--list").stderr


def test_show_model_is_recorded_with_who_and_when_and_shown_by_list_and_status(pooled):
    result = pooled.json("assign", "--show-model", "gpt4o", "--assigned-by", "lead")
    assert result["show_model"]["model"] == "gpt4o" and result["show_model"]["by"] == "lead"
    assert result["show_model"]["set"][:4].isdigit()  # an ISO time
    listed = pooled.json("assign", "--list")
    assert listed["show_model"] == result["show_model"]
    assert pooled.json("status")["show_model"] == result["show_model"]
    said = pooled("assign", "--show-model", "gpt4o", "--assigned-by", "lead").stderr
    assert "shows model gpt4o's label" in said and "has labelled no pairs yet" in said
    assert "Model label shown while judging: gpt4o" in pooled("status").stderr
    off = pooled.json("assign", "--show-model", "NONE", "--assigned-by", "chair")
    assert (off["show_model"]["model"], off["show_model"]["by"]) == (None, "chair")
    assert pooled.json("status")["show_model"]["model"] is None


def test_show_model_with_assessors_assigns_and_sets(pooled):
    result = pooled.json("assign", "--assessors", "ann,bob", "--show-model", "m1")
    assert result["assigned"] == ["1", "2"] and result["show_model"]["model"] == "m1"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--show-model", "a b"], "model name"),
        (["--show-model", "m1", "--list"], "lists the plan alone"),
        (["--show-model", "m1", "--clear", "--topics", "1"], "set --show-model on its own"),
        (["--show-model", "m1", "--topics", "1"], "leave out --topics"),
    ],
)
def test_refusals_change_nothing(pooled, db_path, args, words):
    before = dump(db_path)
    result = pooled("assign", *args, expect=2)
    assert words in result.stderr and "Traceback" not in result.stderr
    assert dump(db_path) == before


def test_a_refused_assignment_sets_no_model(pooled, db_path):
    before = dump(db_path)
    pooled("assign", "--assessors", "ann", "--overlap", "0.5", "--show-model", "m1", expect=2)
    assert dump(db_path) == before


def test_judgments_add_records_no_model_shown(pooled):
    pooled("assign", "--show-model", "m1")
    pooled("judgments", "add", "1", "d1-1", "2", "--assessor", "ann")
    from labeler.store import Store

    with Store(pooled.db) as store:
        (event,) = store.recent_events(limit=10)
    assert event.shown_model is None

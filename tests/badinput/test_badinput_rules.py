"""One rule per input, on every road: a model's grades, ids in one Unicode form, look-alike assessor names."""

from __future__ import annotations

import json

import pytest
from badinput_support import Unchanged, assert_refused, invoke

MODEL = ["--source", "model", "--model", "m", "--allow-unknown"]


@pytest.mark.parametrize(
    ("name", "content", "line"),
    [
        ("m.qrels", "1 0 d1 2\n1 0 d2 -1\n", 2),  # a model's qrels: -1 is not "pooled, not judged" for a model
        ("m.jsonl", '{"topic": "1", "unit": "d1", "grade": 2}\n{"topic": "1", "unit": "d2", "grade": -1}\n', 2),
    ],
)
def test_a_model_grade_off_the_scale_is_refused_on_both_paths(workbench, name, content, line):
    path = workbench.parent / name
    path.write_text(content)
    with Unchanged(workbench):
        result = invoke(workbench, ["judgments", "import", path, "--assessor", "m", *MODEL])
        assert_refused(result, path, line, "grade -1 is not on the scale 'default' (0, 1, 2, 3)")


def test_imported_qrels_keep_their_pooled_grades(workbench):
    path = workbench.parent / "p.qrels"
    path.write_text("1 0 d1 2\n1 0 d2 -1\n")
    result = invoke(workbench, ["judgments", "import", path, "--assessor", "nist", "--allow-unknown", "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["pooled_unjudged"] == 1


def test_a_merged_model_grade_off_the_scale_is_refused(workbench):
    event = {
        "event_id": "e-model",
        "topic_id": "1",
        "unit": "doc",
        "unit_id": "d1",
        "kind": "grade",
        "grade": -1,
        "assessor": "m",
        "source": "model",
        "model": "m",
        "time": "2026-01-01T00:00:00.000000+00:00",
    }
    log = workbench.parent / "log.jsonl"
    log.write_text(json.dumps(event) + "\n")
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["merge", log]), log, 1, "grade -1 is not on the scale 'default'")

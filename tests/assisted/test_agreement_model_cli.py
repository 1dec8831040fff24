"""`labeler agreement model NAME` and `labeler report --model NAME` on a small hand-worked workbench.

Six pairs of topic 1 (default scale 0..3, relevant from 1), humans and model:

    unit   human  model  stated probabilities
    d1     0      0      {0: 0.9, 1: 0.1}
    d2     0      1      {0: 0.4, 1: 0.6}
    d3     1      1      {1: 0.6, 2: 0.4}
    d4     2      2      {1: 0.1, 2: 0.9}
    d5     3      2      {2: 0.6, 3: 0.4}
    d6     3      3      {2: 0.1, 3: 0.9}
"""

from __future__ import annotations

import json

import pytest
from support import dump, trec_run

HUMAN = {"d1": 0, "d2": 0, "d3": 1, "d4": 2, "d5": 3, "d6": 3}
MODEL = {
    "d1": (0, {0: 0.9, 1: 0.1}),
    "d2": (1, {0: 0.4, 1: 0.6}),
    "d3": (1, {1: 0.6, 2: 0.4}),
    "d4": (2, {1: 0.1, 2: 0.9}),
    "d5": (2, {2: 0.6, 3: 0.4}),
    "d6": (3, {2: 0.1, 3: 0.9}),
}
RUNS = {"a": ["d1", "d2"], "b": ["d3", "d4"], "c": ["d2", "d3"]}


def model_file(write, name="m.jsonl", labels=MODEL):
    lines = [
        json.dumps({"topic": "1", "unit": u, "grade": g, "probs": {str(k): p.get(k, 0.0) for k in range(4)}})
        for u, (g, p) in labels.items()
    ]
    return write(name, "\n".join(lines) + "\n")


@pytest.fixture
def workbench(run_cli, write):
    for name, ranking in RUNS.items():
        run_cli("runs", "import", write(f"{name}.run", trec_run(name, {"1": ranking})), "--name", name)
    for unit_id, grade in HUMAN.items():
        run_cli("judgments", "add", "1", unit_id, grade, "--assessor", "ann", "--allow-unknown")
    run_cli("judgments", "import", model_file(write), "--source", "model", "--model", "m", "--allow-unknown")
    return run_cli


def test_the_hand_worked_figures(workbench):
    out = workbench.json("agreement", "model", "m", "--measure", "P@2")
    for key in ("model", "pairs", "kappa", "weighted_kappa", "confusion", "per_grade", "calibration", "tau"):
        assert key in out
    assert out["model"] == "m" and out["pairs"] == 6
    assert out["exact_match"]["value"] == pytest.approx(4 / 6)
    # p_o = 4/6; marginals human (2, 1, 1, 2), model (1, 2, 2, 1): p_e = 8/36, kappa = (4/9)/(7/9)
    assert out["kappa"]["value"] == pytest.approx(4 / 7)
    assert out["confusion"]["counts"] == [[1, 1, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]]
    assert out["confusion"]["row_shares"][3] == [0.0, 0.0, 0.5, 0.5]
    assert out["per_grade"]["2"] == {"precision": 0.5, "recall": 1.0, "support": 1, "predicted": 2}
    # confidence: 0.9 stated three times, all right; 0.6 three times, one right
    bins = out["calibration"]["confidence"]["bins"]
    assert (bins[8]["count"], bins[8]["observed"]) == (3, 1.0)
    assert (bins[5]["count"], bins[5]["observed"]) == (3, pytest.approx(1 / 3))
    assert out["calibration"]["confidence"]["ece"] == pytest.approx(0.5 * 0.1 + 0.5 * (0.6 - 1 / 3))
    # P(relevant): d1 0.1 (not relevant), d2 0.6 (not relevant), the other four 1.0 (relevant)
    relevant = out["calibration"]["relevant"]["bins"]
    assert (relevant[0]["count"], relevant[5]["count"], relevant[9]["count"]) == (1, 1, 4)
    assert relevant[9]["observed"] == 1.0 and relevant[5]["observed"] == 0.0
    # P@2: human a 0, b 1, c 0.5; model a 0.5, b 1, c 1. tau-b: 2 concordant, one pair tied in the model:
    # 2 / sqrt(3 · 2)
    tau = out["tau"]
    assert tau["measure"] == "P@2" and tau["runs"] == 3 and tau["topics"] == 1
    assert tau["scores"]["a"] == {"human": 0.0, "model": 0.5}
    assert tau["kendall_tau"] == pytest.approx(2 / 6**0.5)
    assert out["conditions"]["blind"]["pairs"] == 6 and out["conditions"]["shown"]["pairs"] == 0


def test_kappas_agree_with_scikit_learn(workbench):
    sklearn = pytest.importorskip("sklearn.metrics")
    out = workbench.json("agreement", "model", "m", "--weights", "linear")
    human = list(HUMAN.values())
    model = [g for g, _ in MODEL.values()]
    labels = [0, 1, 2, 3]
    expected = sklearn.cohen_kappa_score(human, model, labels=labels, weights="linear")
    assert out["weighted_kappa"] == {"value": pytest.approx(expected), "pairs": 6, "reason": None, "weights": "linear"}
    assert out["weighted_kappa_quadratic"]["value"] == pytest.approx(
        sklearn.cohen_kappa_score(human, model, labels=labels, weights="quadratic")
    )


def test_shown_and_blind_are_reported_apart(workbench, db_path):
    from labeler.workbench.record_judgments import Judgment, record_judgment
    from labeler.workbench.setup import open_workbench

    with open_workbench(db_path) as store:  # ann judges d2 again, the model's label on screen
        record_judgment(store, Judgment(topic_id="1", unit_id="d2", assessor="ann", grade=1, shown_model="m"))
    out = workbench.json("agreement", "model", "m")
    assert out["conditions"]["shown"]["pairs"] == 1
    assert out["conditions"]["shown"]["exact_match"]["value"] == 1.0
    assert out["conditions"]["blind"]["pairs"] == 5
    assert out["conditions"]["blind"]["exact_match"]["value"] == pytest.approx(4 / 5)  # d5 the only miss


def test_terminal_output_has_the_confusion_and_the_diagram(workbench):
    result = workbench("agreement", "model", "m")
    text = result.stdout
    assert "confusion" in text and "reliability" in text and "Kendall tau" in result.stderr
    assert "#" in text and "|" in text


def test_refusals_change_nothing(workbench, db_path, tmp_path):
    before = dump(db_path)
    page = tmp_path / "never.html"
    assert "nobody" in workbench("report", "--html", page, "--model", "nobody", expect=1).stderr
    assert not page.exists()
    missing = workbench("agreement", "model", "nobody", expect=1)
    assert "no labels from model 'nobody'" in missing.stderr and "Traceback" not in missing.stderr
    assert "--measure" in workbench("agreement", "model", "m", "--measure", "nope@x", expect=2).stderr
    assert "--snapshot" in workbench("agreement", "model", "m", "--snapshot", "v1", expect=2).stderr
    assert "--bins" in workbench("agreement", "model", "m", "--bins", "0", expect=2).stderr
    assert dump(db_path) == before


def test_report_html_has_the_model_section(workbench, tmp_path):
    workbench("snapshot", "create", "-m", "first")
    page = tmp_path / "r.html"
    out = workbench.json("report", "--html", page, "--model", "m")
    assert out["model"] == {"model": "m", "pairs": 6}
    html = page.read_text()
    assert "Model m against the human labels" in html
    assert html.count("class='confusion'") == 1 and html.count('class="diagonal"') == 2
    assert "<td>1 (0.500)</td>" in html  # human 0 -> model 0 (d1 of d1, d2)
    plain = tmp_path / "plain.html"
    workbench("report", "--html", plain)
    assert "against the human labels" not in plain.read_text()


def test_a_model_is_not_an_assessor_of_the_plain_agreement(workbench):
    out = workbench.json("agreement")
    assert out["assessors"] == [] and out["pairs_multi"] == 0 and out["pairs_judged"] == 6


def test_a_hostile_model_name_is_text(run_cli, write, tmp_path):
    name = "<i>[/b]&x"
    run_cli("judgments", "add", "1", "d1", 0, "--assessor", "ann", "--allow-unknown")
    labels = {"d1": MODEL["d1"]}
    run_cli("judgments", "import", model_file(write, labels=labels), "--source", "model", "--model", name,
            "--allow-unknown")  # fmt: skip
    result = run_cli("agreement", "model", name)  # no runs yet: no tau, no error
    assert name in result.stderr and "Kendall tau -" in result.stderr
    run_cli("runs", "import", write("a.run", trec_run("a", {"1": ["d1"]})), "--name", "a")
    run_cli("snapshot", "create", "-m", "s")
    page = tmp_path / "r.html"
    run_cli("report", "--html", page, "--model", name)
    html = page.read_text()
    assert "&lt;i&gt;[/b]&amp;x" in html and "<i>[/b]" not in html


def test_a_planned_overlap_is_the_sample_read_unless_all_pairs(workbench):
    """With `assign --overlap`, only the seeded overlap pairs are compared: the pairs people chose to judge are
    not a sample. `--all-pairs` reads every pair both labelled, as it does without a plan."""
    assert workbench.json("agreement", "model", "m")["pairs_read"] == "human and model labelled"
    workbench("pool", "build", "--depth", "2")
    workbench("assign", "--assessors", "ann,bob", "--overlap", "0.5", "--seed", "3")
    out = workbench.json("agreement", "model", "m")
    assert out["pairs_read"] == "overlap"
    pooled = {u for ranking in RUNS.values() for u in ranking}  # d1..d4, all labelled by both
    assert 0 < out["planned_overlap"] < len(pooled)
    assert out["pairs"] == out["planned_overlap"]
    everything = workbench.json("agreement", "model", "m", "--all-pairs")
    assert everything["pairs_read"] == "human and model labelled" and everything["pairs"] == 6

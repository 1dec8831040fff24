"""Re-pooling end to end: an old judgment set penalises a new run until its finds are pooled and judged."""

from __future__ import annotations

TRUTH = {  # topic -> relevant units (everything else is not relevant)
    "1": {"a1", "a2", "b1", "n1", "n2"},
    "2": {"a3", "c1", "n3"},
}
RUNS = {
    "A": {"1": ["a1", "a2", "x1", "x2", "x3", "n1"], "2": ["a3", "x4", "x5", "x6", "x7", "c1"]},
    "B": {"1": ["b1", "a1", "x1", "x8", "x9"], "2": ["x4", "a3", "x10", "x11", "x12"]},
    "C": {"1": ["x1", "x2", "b1", "x13", "x14"], "2": ["c1", "a3", "x15", "x16", "x17"]},
    # D finds what nobody judged: n1, n2 for topic 1 and n3 for topic 2, near the top
    "D": {"1": ["n1", "n2", "a1", "x20", "x21"], "2": ["n3", "c1", "x22", "x23", "x24"]},
}


def import_run(run_cli, write, name):
    text = "".join(
        f"{t} Q0 {u} {i} {50 - i} {name}\n" for t, units in RUNS[name].items() for i, u in enumerate(units, 1)
    )
    run_cli("runs", "import", write(f"{name}.run", text), "--name", name)


def judge_queue(run_cli):
    """Judge every unit in the queue by the truth, as an assessor would."""
    while True:
        queue = run_cli.json("queue", "--assessor", "ann", "--limit", "100")
        if not queue["next"]:
            return
        for item in queue["next"]:
            grade = 2 if item["unit"] in TRUTH[queue["topic"]] else 0
            run_cli("judgments", "add", queue["topic"], item["unit"], str(grade), "--assessor", "ann")


def test_a_new_run_is_penalised_until_re_pooled(run_cli, write):
    for name in "ABC":
        import_run(run_cli, write, name)
    run_cli("pool", "build", "--depth", "5")
    judge_queue(run_cli)
    for topic in TRUTH:
        run_cli("topics", "mark", topic, "reviewed")
    run_cli("snapshot", "create", "-m", "three runs")

    import_run(run_cli, write, "D")
    scores = {r["run"]: r for r in run_cli.json("eval", "--measures", "R@5 Judged@5")["runs"]}
    # of D's top 5 only a1 (topic 1) and c1 (topic 2) were judged: Judged@5 = 1/5
    assert round(scores["D"]["aggregate"]["Judged@5"], 6) == 0.2
    coverage = run_cli.json("coverage", "--depth", "5")
    assert round(coverage["runs"]["D"]["judged"], 6) == 0.2 and coverage["runs"]["D"]["unjudged"] == 8
    assert coverage["runs"]["A"]["judged"] == 1.0
    text = run_cli("coverage", "--depth", "5").stderr
    assert "Judged@5 over all topics below 0.9 for D" in text

    p2 = run_cli.json("pool", "build", "--depth", "5")
    assert p2["added"] == 8 and p2["per_run"]["D"]["unique"] == 8
    repool = run_cli.json("coverage", "--depth", "5")["pool"]
    assert repool["pool"] == "P2" and repool["per_run"]["D"]["new_unjudged"] == 8
    judge_queue(run_cli)
    for topic in TRUTH:  # reopened by P2, then judged after the mark: reviewed again
        run_cli("topics", "mark", topic, "reviewed")
    run_cli("snapshot", "create", "-m", "after D")

    compare = run_cli.json("compare", "v1", "v2", "--depth", "5")
    assert compare["labels"]["added"] == 8
    assert compare["topics_grown"] == {
        "1": {"before": 3, "after": 5, "new": ["n1", "n2"]},
        "2": {"before": 2, "after": 3, "new": ["n3"]},
    }
    d = compare["runs"]["D"]["recall"]["R@5"]
    # v1: topic 1 R = {a1,a2,b1}: D finds a1 -> 1/3; topic 2 R = {a3,c1}: D finds c1 -> 1/2; macro 5/12
    # v2: topic 1 R = 5: D finds n1,n2,a1 -> 3/5; topic 2 R = 3: D finds n3,c1 -> 2/3; macro 19/30
    assert round(d["before"]["macro"], 6) == round(5 / 12, 6) and round(d["after"]["macro"], 6) == round(19 / 30, 6)
    ranking = compare["ranking"]
    # R@5 macro before: C .667 > A = B .583 > D .417; after: D .633 > C .433 > A = B .367
    assert ranking["before"][0] == "C" and ranking["before"][-1] == "D"
    assert ranking["after"][0] == "D" and ranking["gained"][0]["run"] == "D"
    assert ranking["kendall_tau"] < 1
    assert "Gained most: D" in run_cli("compare", "v1", "v2", "--depth", "5").stderr


def test_html_report_is_standalone_with_its_charts(run_cli, write, tmp_path):
    import re

    for name in "ABCD":
        import_run(run_cli, write, name)
    run_cli("pool", "build", "--depth", "5", "--runs", "A,B,C")
    judge_queue(run_cli)
    for topic in TRUTH:
        run_cli("topics", "mark", topic, "reviewed")
    run_cli("snapshot", "create", "-m", "v1")
    run_cli("pool", "build", "--depth", "5")
    judge_queue(run_cli)
    for topic in TRUTH:
        run_cli("topics", "mark", topic, "reviewed")
    run_cli("snapshot", "create", "-m", "v2")
    page = tmp_path / "report.html"
    result = run_cli.json("report", "--html", page, "--depth", "5")
    assert result["snapshots_drawn"] == ["v1", "v2"] and result["runs"] == ["A", "B", "C", "D"]
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "</html>" in html
    assert not re.search(r"(src|href)=['\"]https?:", html)  # nothing to fetch: it opens offline
    for section in ("recall", "judged", "history", "loro", "topics"):
        assert f"id='{section}'" in html
    assert html.count("<svg") == 4  # recall curve, Judged@k bars, Judged@k and R@k across snapshots
    assert html.count('class="series"') >= 4 + 1 + 4 + 4  # four runs and the ceiling, two history charts
    assert html.count('class="bar"') == 4


def test_current_labels_can_be_scored_without_a_snapshot(run_cli, write):
    for name in "AB":
        import_run(run_cli, write, name)
    run_cli("pool", "build", "--depth", "5")
    judge_queue(run_cli)
    for topic in TRUTH:
        run_cli("topics", "mark", topic, "reviewed")
    now = run_cli.json("eval", "--snapshot", "current", "--measures", "Judged@5")
    assert now["snapshot"] == "current" and now["runs"][0]["aggregate"]["Judged@5"] == 1.0
    assert run_cli.json("snapshot", "list") == []  # nothing was stored
    assert run_cli.json("coverage", "--snapshot", "current", "--depth", "5")["runs"]["A"]["judged"] == 1.0

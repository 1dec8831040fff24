"""One Judged@k, labelled with its topic set: coverage (all topics and scored ones), eval, compare, the report.

Topic 1 is reviewed and fully judged in the top 2, topic 2 reviewed with one of its top 2 judged, topic 3
judged but not reviewed (so not scored), topic 4 ranked but never labelled. By hand, Judged@2 of run `r`:
1.0, 0.5, 0.5, 0.0, so 2/4 = 0.5 over all four topics and 0.75 over the two scored ones.
"""

from __future__ import annotations

import pytest

from labeler.store import Store
from labeler.workbench.record_judgments import Judgment, record_judgment

CORPUS = "".join(f"d{i}\tword{i}\n" for i in range(1, 9))
TOPICS = "1\tone\n2\ttwo\n3\tthree\n4\tfour\n"
RUN = (
    "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n"
    "2 Q0 d3 1 9 r\n2 Q0 d4 2 8 r\n"
    "3 Q0 d5 1 9 r\n3 Q0 d6 2 8 r\n"
    "4 Q0 d7 1 9 r\n4 Q0 d8 2 8 r\n"
)


@pytest.fixture
def bench(run_cli, write):
    run_cli("corpus", "import", write("c.tsv", CORPUS))
    run_cli("topics", "import", write("t.tsv", TOPICS))
    run_cli("runs", "import", write("r.run", RUN), "--name", "r")
    run_cli("pool", "build", "--depth", "1")  # rank 1 only: the marks below leave no pool unit unjudged
    for topic, unit, grade in (("1", "d1", 2), ("1", "d2", 0), ("2", "d3", 1), ("3", "d5", 1)):
        run_cli("judgments", "add", topic, unit, str(grade), "--assessor", "ann")
    run_cli("topics", "mark", "1", "reviewed", "--assessor", "ann")
    run_cli("topics", "mark", "2", "reviewed", "--assessor", "ann")
    run_cli("snapshot", "create", "-m", "first")
    return run_cli


def test_coverage_labels_both_sets_and_eval_agrees_with_the_scored_one(bench):
    coverage = bench.json("coverage", "--depth", "2")
    row = coverage["runs"]["r"]
    assert (row["judged"], row["judged_over"], row["judged_topics"]) == (pytest.approx(0.5), "all", 4)
    assert (row["judged_scored"], row["judged_scored_topics"]) == (pytest.approx(0.75), 2)
    assert (coverage["judged_over"], coverage["judged_topics"], coverage["scored_topics"]) == ("all", 4, 2)
    (run,) = bench.json("eval", "--measures", "Judged@2")["runs"]
    assert run["aggregate"]["Judged@2"] == pytest.approx(row["judged_scored"])
    assert (run["judged_over"], run["judged_topics"], run["topics"]["scored"]) == ("scored", 2, 2)


def test_the_text_outputs_say_which_topics_each_value_is_over(bench):
    text = bench("coverage", "--depth", "2")
    assert "Judged@2 over all 4 topics" in text.stdout and "Judged@2 over 2 scored" in text.stdout
    assert "0.500" in text.stdout and "0.750" in text.stdout
    assert "over all 4 topics (the pool's view) and over the 2 scored topics" in text.stderr
    scores = bench("eval", "--measures", "Judged@2 P@2")
    assert "0.7500" in scores.stdout
    assert "Judged@2: the mean over the 2 scored topics" in scores.stderr


def test_compare_says_its_topic_set(bench):
    bench("judgments", "add", "2", "d4", "0", "--assessor", "ann")
    bench("topics", "mark", "2", "reviewed", "--assessor", "ann")  # judged after its mark: reviewed again
    bench("snapshot", "create", "-m", "second")
    result = bench.json("compare", "v1", "v2", "--depth", "2")
    assert (result["judged_over"], result["judged_topics"], result["topics"]) == ("scored", 2, 2)
    judged = result["runs"]["r"]
    assert (judged["before"]["Judged@2"], judged["after"]["Judged@2"]) == (pytest.approx(0.75), pytest.approx(1.0))
    assert "means over the 2 topics v2 scores, Judged@2 too" in bench("compare", "v1", "v2", "--depth", "2").stdout


def test_the_report_labels_each_judged_value(bench, tmp_path):
    page = tmp_path / "report.html"
    bench("report", "--html", str(page), "--depth", "2")
    html = page.read_text()
    assert "Judged@2 over all 4 topics" in html and "Judged@2 over 2 scored topics" in html
    assert "0.500" in html and "0.750" in html
    assert "topics with a relevant label, reviewed or not (v1: 3 topics)" in html


def test_coverage_names_the_pace_of_its_effort_lines(bench):
    coverage = bench.json("coverage", "--depth", "2")
    effort = coverage["effort"]
    # the top 2 of topics 2, 3, 4 hold d4, d6, d7 and d8 unjudged; nothing was timed: the default pace
    assert (effort["depth"], effort["unjudged"], effort["pace"]["basis"]) == (2, 4, "default")
    assert effort["hours"] == round(4 / effort["pace"]["per_hour"], 2)
    pool = coverage["pool"]
    assert pool["unjudged"] == 1 and pool["pace"]["description"] == effort["pace"]["description"]
    text = bench("coverage", "--depth", "2").stderr
    assert f"Judging the 4 unjudged units of the top 2 takes about {effort['hours']} h at the default pace of " in text
    assert "Pool P1: 1 pair left to judge; about" in text and "no judgments timed yet" in text


def test_a_measured_pace_is_named_with_its_window(bench, db_path):
    with Store(db_path) as store:  # 10 s, 20 s, 30 s: a median of 20 s, 180 an hour
        for unit, ms in (("d4", 10_000), ("d6", 20_000), ("d8", 30_000)):
            record_judgment(
                store, Judgment(topic_id="4", unit_id=unit, assessor="ann", grade=0, active_ms=ms, allow_unknown=True)
            )
    effort = bench.json("coverage", "--depth", "2", "--snapshot", "current")["effort"]
    assert effort["pace"]["description"] == "at 180/h, the median of the last 3 timed judgments"
    text = bench("coverage", "--depth", "2", "--snapshot", "current").stderr
    assert (
        f"Judging the {effort['unjudged']} unjudged units of the top 2 takes about {effort['hours']} h at "
        "180/h, the median of the last 3 timed judgments." in text
    )

"""Documents the recorded shape tests do not print: `topics mark`, and coverage's ranking when leave-one-run-out
did not run (a shorter document, in its own key order). Both come from typed results (`labeler.json_form`).
"""

from __future__ import annotations

import json

from support import Cli

RUNS = {
    "a": "T Q0 x 1 3.0 a\nT Q0 y 2 2.0 a\nT Q0 z 3 1.0 a\n",
    "b": "T Q0 y 1 3.0 b\nT Q0 w 2 2.0 b\nT Q0 x 3 1.0 b\n",
}
QRELS = "T 0 x 2\nT 0 y 0\nT 0 z 1\nT 0 w 0\n"


def judged(run_cli: Cli, write) -> Cli:
    for name, text in RUNS.items():
        run_cli("runs", "import", write(f"{name}.run", text), "--name", name, "--allow-unknown")
    run_cli("judgments", "import", write("j.qrels", QRELS), "--assessor", "nist")
    return run_cli


def test_topics_mark_prints_the_topic_status_and_space_and_the_mark_holds(run_cli, write):
    judged(run_cli, write)
    printed = run_cli("topics", "mark", "T", "reviewed", "--assessor", "ann", "--json").stdout
    assert printed == '{\n  "topic": "T",\n  "status": "reviewed",\n  "unit": "doc"\n}\n'
    assert run_cli.json("status")["topics"]["T"]["review_status"] == "reviewed"


def test_topics_mark_in_words_names_the_space(run_cli, write):
    judged(run_cli, write)
    result = run_cli("topics", "mark", "T", "reviewed", "--assessor", "ann")
    assert result.stdout == ""
    assert result.stderr == "Topic T marked reviewed (doc).\n"


def test_coverage_without_leave_one_run_out_has_the_short_ranking_document(run_cli, write):
    judged(run_cli, write)
    run_cli("topics", "mark", "T", "reviewed", "--assessor", "ann")
    run_cli("snapshot", "create", "-m", "judged")
    ranking = json.loads(run_cli("coverage", "--no-loro", "--json").stdout)["ranking"]
    assert json.dumps(ranking) == '{"kendall_tau": {}, "tau_ap": {}, "measure": null, "favoured": []}'
    full = json.loads(run_cli("coverage", "--json").stdout)["ranking"]
    assert list(full) == ["measure", "full", "kendall_tau", "tau_ap", "min_kendall_tau", "not_equivalent", "favoured"]
    assert full["measure"] == "AP" and sorted(full["full"]) == ["a", "b"]

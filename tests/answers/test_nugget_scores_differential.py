"""`nuggets score` against nuggetizer's own metric functions, on random nuggets and complete assignments.

Nuggets (importance) and assignments for several runs and topics are logged in a workbench as
people make them (nugget versions, grade events in the `nugget:RUN` spaces); the scores the
command prints must equal nuggetizer's `calculate_nugget_scores` for every (run, topic) and
`calculate_global_metrics` per run.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from answers.answer_support import add_answers, add_nuggets
from answers.score_support import add_grades
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nuggetizer.core.metrics import calculate_global_metrics, calculate_nugget_scores
from support import Cli, new_workbench

from labeler.answers.spaces import ASSIGNMENT_LABELS, assignment_space
from labeler.store import Store

SCORES = ("strict_vital_score", "strict_all_score", "vital_score", "all_score")

# per topic: its nuggets' importance; per run and topic: a grade for each nugget
topic_nuggets = st.lists(st.sampled_from(["vital", "okay"]), min_size=1, max_size=8)
case = st.lists(topic_nuggets, min_size=1, max_size=4).flatmap(
    lambda topics: st.tuples(
        st.just(topics),
        st.lists(
            st.tuples(*[st.lists(st.sampled_from([0, 1, 2]), min_size=len(t), max_size=len(t)) for t in topics]),
            min_size=1,
            max_size=3,
        ),
    )
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case)
def test_scores_equal_nuggetizers(drawn):
    topics, runs = drawn
    with tempfile.TemporaryDirectory() as folder:
        db = new_workbench(Path(folder) / "w.db")
        records: dict[str, list[dict]] = {}
        with Store(db) as store:
            ids = {
                str(t): add_nuggets(store, str(t), [(f"fact {i}", imp) for i, imp in enumerate(levels)])
                for t, levels in enumerate(topics, 1)
            }
            for r, grades in enumerate(runs, 1):
                run = f"r{r}"
                add_answers(store, run, {str(t): [("an answer.", ["d1"])] for t in range(1, len(topics) + 1)})
                records[run] = []
                for t, (levels, labels) in enumerate(zip(topics, grades, strict=True), 1):
                    add_grades(store, assignment_space(run), str(t), dict(zip(ids[str(t)], labels, strict=True)))
                    nuggets = [
                        {"text": "x", "importance": imp, "assignment": ASSIGNMENT_LABELS[g]}
                        for imp, g in zip(levels, labels, strict=True)
                    ]
                    records[run].append({"qid": str(t), "nuggets": nuggets})
        data = json.loads(Cli(db)("nuggets", "score", "--json").stdout)
    assert [r["run"] for r in data["runs"]] == list(records)
    for run in data["runs"]:
        expected = records[run["run"]]
        assert [s["topic"] for s in run["topics"]] == [r["qid"] for r in expected] and run["left_out"] == []
        for ours, record in zip(run["topics"], expected, strict=True):
            theirs = calculate_nugget_scores(record["qid"], record["nuggets"])
            assert all(abs(ours[m] - getattr(theirs, m)) <= 1e-12 for m in SCORES), (ours, theirs)
            assert ours["vital"] == sum(1 for n in record["nuggets"] if n["importance"] == "vital")
        means = calculate_global_metrics(expected)
        assert all(abs(run[m] - means[m]) <= 1e-12 for m in SCORES), (run, means)

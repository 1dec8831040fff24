"""Agreement and adjudication on answer judgments: nugget assignments and citation support, as for relevance.

Two annotators assign a run's answers the topics' nuggets; agreement is reported in the run's
`nugget:RUN` space with the statistics of relevance labels, blind and shown second judgments
apart, a model against people, and a conflict is listed and settled by adjudication.
"""

from __future__ import annotations

import pytest
from answers.answer_support import add_answers, add_nuggets
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_no_crash, invoke
from support import Cli, new_workbench

from labeler.answers.spaces import assignment_space, support_space
from labeler.judgments.log import MODEL
from labeler.store import Store
from labeler.workbench.agreement import agreement_report, answer_agreement_report, model_agreement_report
from labeler.workbench.answer_labels import answer_labels
from labeler.workbench.reading import conflicts
from labeler.workbench.record_judgments import Judgment, record_judgment

SPACE = assignment_space("r1")
# Six (topic, nugget) items of run r1's answers, graded by ann and by bob:
ANN = [2, 2, 1, 0, 0, 1]
BOB = [2, 1, 1, 0, 2, 1]
# bob judged the first four blind (nothing of ann's on screen) and the last two with ann's label shown.
BOB_SAW = [(), (), (), (), ("ann",), ("ann",)]


def _items(store: Store) -> list[tuple[str, str]]:
    add_answers(store, "r1", {"1": [("Paris is the capital of France.", ["d1"])], "2": [("It rains.", ["d2"])]})
    ids = []
    for topic in ("1", "2"):
        made = add_nuggets(store, topic, [("Paris is the capital", "vital"), ("France", "okay"), ("rain", "okay")])
        ids += [(topic, nugget_id) for nugget_id in made]
    return ids


def _grade(store: Store, item: tuple[str, str], grade: int, assessor: str, **more) -> None:
    record_judgment(store, Judgment(item[0], item[1], assessor, grade=grade, unit=SPACE, **more))


@pytest.fixture
def db(tmp_path):
    path = new_workbench(tmp_path / "wb.db")
    with Store(path) as store:
        items = _items(store)
        for item, a, b, saw in zip(items, ANN, BOB, BOB_SAW, strict=True):
            _grade(store, item, a, "ann", shown_others=())
            _grade(store, item, b, "bob", shown_others=saw)
    return path


def test_agreement_on_assignments_by_hand(db):
    # p_o = 4/6 (items 1, 3, 4, 6 alike). Marginals: ann 2,2,2 of grades 2,1,0; bob 2,3,1.
    # p_e = (2*2 + 2*3 + 2*1) / 36 = 1/3 -> kappa = (2/3 - 1/3) / (2/3) = 1/2.
    # Supported is full support (grade 2): ann 1,1,0,0,0,0; bob 1,0,0,0,1,0 -> p_o = 4/6,
    # p_e = (2/6)(2/6) + (4/6)(4/6) = 5/9 -> binary kappa = (2/3 - 5/9) / (4/9) = 1/4.
    with Store(db) as store:
        report = agreement_report(store, unit=SPACE)
    assert (report.unit, report.scale, report.threshold, report.pairs_read) == (SPACE, "assignment", 2, "all")
    pair = report.summary.overall.pairs_by_assessors["ann|bob"]
    assert pair.pairs == 6
    assert pair.overlap.value == pytest.approx(4 / 6)
    assert pair.cohen_kappa.value == pytest.approx(1 / 2)
    assert pair.binary_kappa.value == pytest.approx(1 / 4)
    assert sorted(report.summary.topics) == ["1", "2"]
    assert report.conditions == {"blind": 4, "shown": 2, "unrecorded": 0}
    # blind: items 1-4, all alike but item 2 -> overlap 3/4; shown: items 5, 6 -> 1/2
    assert report.by_condition["blind"].overlap.value == pytest.approx(3 / 4)
    assert report.by_condition["shown"].overlap.value == pytest.approx(1 / 2)


def test_agreement_on_assignments_matches_the_references(db):
    import krippendorff
    from sklearn import metrics

    with Store(db) as store:
        nominal = agreement_report(store, unit=SPACE, metric="nominal")
        ordinal = agreement_report(store, unit=SPACE, metric="ordinal")
    pair = nominal.summary.overall.pairs_by_assessors["ann|bob"]
    assert pair.cohen_kappa.value == pytest.approx(metrics.cohen_kappa_score(ANN, BOB, labels=[0, 1, 2]))
    assert pair.weighted_kappa_quadratic.value == pytest.approx(
        metrics.cohen_kappa_score(ANN, BOB, labels=[0, 1, 2], weights="quadratic")
    )
    for report, metric in ((nominal, "nominal"), (ordinal, "ordinal")):
        expected = krippendorff.alpha(reliability_data=[ANN, BOB], level_of_measurement=metric, value_domain=[0, 1, 2])
        assert report.summary.overall.krippendorff_alpha.value == pytest.approx(expected)


def test_a_model_against_people_on_assignments(db):
    # The model grades the six items 2,1,1,0,0,0; people's labels stand where ann and bob agree
    # (items 1, 3, 4, 6: 2, 1, 0, 1), so those four are compared: model 2, 1, 0, 0 -> 3 of 4 alike.
    with Store(db) as store:
        items = sorted(answer_items(store))
        for item, grade in zip(items, [2, 1, 1, 0, 0, 0], strict=True):
            _grade(store, item, grade, "lex", source=MODEL, model="lex")
        report = model_agreement_report(store, "lex", unit=SPACE)
        people = agreement_report(store, unit=SPACE)
    assert report.pairs == 4 and report.model_labels == 6
    assert report.whole.exact_match.value == pytest.approx(3 / 4)
    # p_o = 3/4; human 2,1,0,1 -> (1, 2, 1)/4 over grades 0,1,2; model 2,1,0,0 -> (2, 1, 1)/4
    # p_e = (1*2 + 2*1 + 1*1) / 16 = 5/16 -> kappa = (12/16 - 5/16) / (11/16) = 7/11
    assert report.whole.kappa.value == pytest.approx(7 / 11)
    # the model's grades are no person's: the people's agreement is what it was
    assert people.summary.assessors == ["ann", "bob"] and people.summary.overall.pairs == 6


def answer_items(store: Store) -> set[tuple[str, str]]:
    return {(topic, nugget) for topic in ("1", "2") for nugget in answer_labels(store, SPACE, topic)}


def test_a_conflict_on_an_assignment_is_listed_and_adjudicated(db):
    with Store(db) as store:
        listed = conflicts(store, unit=SPACE)
    # ann and bob differ on items 2 (topic 1, second nugget) and 5 (topic 2, second nugget)
    assert [(c.topic, c.unit_id) for c in listed] == [("1", "n1-2"), ("2", "n2-2")]
    assert [(g.assessor, g.grade) for g in listed[0].grades] == [("ann", 2), ("bob", 1)]
    result = Cli(db).json("judgments", "adjudicate", "1", "n1-2", "1", "--assessor", "lead", "--unit", SPACE)
    assert result["kind"] == "adjudicate" and result["grade"] == 1
    with Store(db) as store:
        state = answer_labels(store, SPACE, "1")["n1-2"]
        left = conflicts(store, unit=SPACE)
    assert state.label == 1 and not state.conflict and state.adjudicated
    assert [(c.topic, c.unit_id) for c in left] == [("2", "n2-2")]


def test_citation_support_is_judged_and_adjudicated_by_sentence(tmp_path):
    db = new_workbench(tmp_path / "wb.db")
    with Store(db) as store:
        add_answers(store, "r1", {"1": [("Paris is the capital.", ["d1"]), ("It is big.", ["d2"])]})
    cli = Cli(db)
    for assessor, grade in (("ann", 2), ("bob", 0)):
        cli("judgments", "add", "1", "2", grade, "--assessor", assessor, "--unit", support_space("r1"))
    assert cli.json("agreement", "--unit", support_space("r1"))["scale"] == "support"
    cli("judgments", "adjudicate", "1", "2", "1", "--assessor", "lead", "--unit", support_space("r1"))
    with Store(db) as store:
        assert answer_labels(store, support_space("r1"), "1")["2"].label == 1


def test_agreement_pooled_over_answer_runs_by_hand(db):
    # run r2's answer to topic 1: ann and bob give (2, 2) to its first nugget and (0, 1) to its second.
    with Store(db) as store:
        add_answers(store, "r2", {"1": [("Paris.", ["d1"])]})
    cli = Cli(db)
    for nugget, grades in (("n1-1", (2, 2)), ("n1-2", (0, 1))):
        for assessor, grade in zip(("ann", "bob"), grades, strict=True):
            cli("judgments", "add", "1", nugget, grade, "--assessor", assessor, "--unit", assignment_space("r2"))
    # pooled, 8 items: ann 2,2,1,0,0,1,2,0; bob 2,1,1,0,2,1,2,1 -> p_o = 5/8;
    # marginals over grades 2, 1, 0: ann 3, 2, 3; bob 3, 4, 1 -> p_e = (9 + 8 + 3) / 64 = 5/16;
    # kappa = (5/8 - 5/16) / (11/16) = 5/11
    result = cli.json("agreement", "--answers", "nuggets")
    assert list(result)[:5] == ["answers", "runs", "scale", "threshold", "metric"]
    assert (result["answers"], result["runs"], result["scale"], result["threshold"]) == (
        "nuggets",
        ["r1", "r2"],
        "assignment",
        2,
    )
    pair = result["overall"]["pairs_by_assessors"]["ann|bob"]
    assert pair["pairs"] == 8 and pair["cohen_kappa"]["value"] == pytest.approx(5 / 11)
    assert result["conditions"] == {"blind": 4, "shown": 2, "unrecorded": 2}
    assert {run: block["pairs"] for run, block in result["by_run"].items()} == {"r1": 6, "r2": 2}
    assert result["by_run"]["r2"]["overlap"]["value"] == pytest.approx(1 / 2)
    with Store(db) as store:
        only_r2 = answer_agreement_report(store, "nuggets", runs=["r2"])
        support = answer_agreement_report(store, "support")
    assert only_r2.summary.pairs_multi == 2 and support.summary.pairs_judged == 0 and support.scale == "support"


@pytest.mark.parametrize(
    ("args", "flag", "fragment"),
    [
        (["--answers", "nuggets", "--unit", SPACE], "--answers", "leave out --unit"),
        (["--answers", "nuggets", "--snapshot", "v1"], "--answers", "leave out --snapshot"),
        (["--runs", "r1"], "--runs", "give --answers nuggets|support with it"),
        (["--answers", "support", "--runs", "r9"], "--runs", "no answer run named 'r9'"),
        (["--answers", "claims"], "--answers", "'claims' is not one of 'nuggets', 'support'"),
    ],
)
def test_bad_answer_agreement_requests_are_refused(db, args, flag, fragment):
    with Unchanged(db):
        result = invoke(db, ["agreement", *args])
        if flag == "--answers" and "claims" in args:  # click's own choice check: a usage error
            assert result.exit_code == 2 and fragment in result.stderr
        else:
            assert_bad_argument(result, flag, fragment)


def _refused(result, fragment: str) -> None:
    """Exit 1, one `Error:` line naming the problem, nothing on stdout."""
    assert_no_crash(result)
    assert result.exit_code == 1, result.stderr
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1 and result.stdout == ""
    assert fragment in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["1", "n1-2", "3"], "grade 3 is not on the scale 'assignment' (0, 1, 2)"),
        (["1", "n9", "1"], "topic 1 has no nugget 'n9'"),
        (["7", "n1-2", "1"], "answer run r1 has no answer to topic '7'"),
    ],
)
def test_adjudicating_what_the_answer_does_not_hold_is_refused(db, args, fragment):
    with Unchanged(db):
        _refused(invoke(db, ["judgments", "adjudicate", *args, "--assessor", "lead", "--unit", SPACE]), fragment)


def test_a_sentence_the_answer_does_not_have_is_refused(db):
    with Unchanged(db):
        args = ["judgments", "adjudicate", "1", "2", "1", "--assessor", "lead", "--unit", support_space("r1")]
        _refused(invoke(db, args), "has no sentence '2' (it has 1)")


@pytest.mark.parametrize("command", [["agreement"], ["agreement", "model", "lex"], ["judgments", "adjudicate"]])
def test_an_answer_space_of_no_run_is_refused(db, command):
    args = [*command, "1", "n1-1", "1", "--assessor", "lead"] if command[0] == "judgments" else command
    with Unchanged(db):
        assert_bad_argument(invoke(db, [*args, "--unit", "nugget:r9"]), "--unit", "no answer run named 'r9'")


def test_an_answer_space_with_a_snapshot_is_refused(db):
    cli = Cli(db)
    cli("judgments", "add", "1", "d1", "1", "--assessor", "ann", "--allow-unknown")
    cli("snapshot", "create", "-m", "first")
    with Unchanged(db):
        result = invoke(db, ["agreement", "--snapshot", "v1", "--unit", SPACE])
        assert_bad_argument(result, "--unit", "holds doc labels, not 'nugget:r1'")

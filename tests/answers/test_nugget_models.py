"""Judges on answers: drafts kept apart from the topic's nuggets, model assignments apart from people's labels."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from answers.answer_support import add_answers, add_nuggets
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_no_crash, invoke
from full_workbench import copy_to
from support import Cli, built_once

from labeler.answers.nuggets import DRAFTED, EDIT, EDITED, NuggetVersion
from labeler.answers.spaces import assignment_space
from labeler.judges.base import AssignRequest, DraftRequest, NuggetText, UnitText
from labeler.judges.lexical import LexicalJudge, assignment, draft_nuggets
from labeler.store import Store
from labeler.workbench.agreement import agreement_report, model_agreement_report
from labeler.workbench.answer_labels import NuggetChange, answer_labels, nuggets_now, record_nugget_changes
from labeler.workbench.assignments import set_show_model
from labeler.workbench.demo import build_demo
from labeler.workbench.nugget_models import relevant_units, shown_assignments
from labeler.workbench.read_labels import model_labels

SPACE = assignment_space("r1")
NUGGETS = [
    ("integrated pest management", "vital"),  # all 3 terms in the answer: support
    ("pheromone traps lure moths", "okay"),  # 2 of 4 terms: partial support
    ("airtight storage bags", "okay"),  # none: not supported
]
ANSWER = [("Farmers rely on integrated pest management.", ["agri-001"]), ("Pheromone traps help.", ["agri-011"])]


def _demo(folder: Path) -> bytes:
    return build_demo(folder, lambda *_: None).db.read_bytes()


@pytest.fixture
def demo_db(tmp_path_factory, tmp_path: Path) -> Path:
    return copy_to(built_once(tmp_path_factory, "demo-nugget-models", _demo), tmp_path / "wb")


@pytest.fixture
def answered(demo_db: Path) -> Path:
    """The demo workbench with run r1's answer to topic 1 and three nuggets of people's for topic 1."""
    with Store(demo_db) as store:
        add_answers(store, "r1", {"1": ANSWER, "3": [("Nothing to say.", ["agri-001"])]})
        add_nuggets(store, "1", NUGGETS)
    return demo_db


# --- the lexical judge, by hand ---------------------------------------------------------------------------------


def test_lexical_drafts_are_the_sentences_sharing_most_of_the_title_by_hand():
    request = DraftRequest(
        "draft",
        "t",
        "apple pie recipe",
        "",
        "",
        (UnitText("u1", "Apple pie\n\nA recipe for apple pie. Bake it. Pie is sweet!"), UnitText("u2", "Recipes.")),
    )
    drafted = draft_nuggets(request)
    # scores: "Apple pie" 2/3, "A recipe for apple pie." 3/3, "Bake it." 0 (left out), "Pie is sweet!" 1/3,
    # "Recipes." 0 ("recipes" is not "recipe"); best first, vital from 1/2
    assert drafted == {
        "topic": "t",
        "nuggets": [
            {"text": "A recipe for apple pie.", "importance": "vital", "sources": ["u1"]},
            {"text": "Apple pie", "importance": "vital", "sources": ["u1"]},
            {"text": "Pie is sweet!", "importance": "okay", "sources": ["u1"]},
        ],
    }


def test_lexical_assignment_is_the_share_of_the_nuggets_terms_by_hand():
    text = " ".join(sentence for sentence, _ in ANSWER)
    assert [assignment(nugget, text) for nugget, _ in NUGGETS] == ["support", "partial_support", "not_support"]
    assert assignment("the of", text) == "not_support"  # no terms
    request = AssignRequest("assign", "1", "t", "", "", "r1", text, (NuggetText("n", NUGGETS[0][0], "vital"),))
    assert list(LexicalJudge().assign([request])) == [{"topic": "1", "nugget": "n", "assignment": "support"}]


# --- drafts ---------------------------------------------------------------------------------------------------------


def test_drafts_are_the_models_and_never_the_topics_nuggets_until_edited(demo_db: Path):
    result = Cli(demo_db).json("nuggets", "draft", "--judge", "lexical", "--topics", "1,2")
    assert result["model"] == "lexical" and result["topics"] == 1 and result["without_relevant"] == ["2"]
    with Store(demo_db) as store:
        drafts = nuggets_now(store, "1", model="lexical")
        relevant = set(relevant_units(store, "doc")["1"])
        assert len(drafts) == result["drafted"] > 0
        assert {(d.origin, d.source, d.assessor) for d in drafts} == {(DRAFTED, "model", "lexical")}
        assert all(d.sources and set(d.sources) <= relevant for d in drafts)
        assert nuggets_now(store, "1") == []  # no draft is one of the topic's nuggets
        # a person post-edits a draft: that version, of their own, is the topic's nugget
        first = drafts[0]
        edited = NuggetVersion(
            EDIT, "IPM in field crops", first.importance, 1, EDITED, first.sources, draft=first.nugget_id
        )
        record_nugget_changes(store, [NuggetChange("1", "mine", edited, "ann")])
        assert [(n.nugget_id, n.origin, n.draft) for n in nuggets_now(store, "1")] == [
            ("mine", EDITED, first.nugget_id)
        ]
    again = Cli(demo_db).json("nuggets", "draft", "--judge", "lexical", "--topics", "1")
    assert (again["drafted"], again["already_drafted"]) == (0, ["1"])  # resumable: drafted topics are skipped


# --- assignments ----------------------------------------------------------------------------------------------------


def test_model_assignments_are_logged_and_never_counted_as_peoples(answered: Path):
    result = Cli(answered).json("nuggets", "assign", "--judge", "lexical")
    assert (result["runs"], result["answers"], result["assigned"]) == (["r1"], 1, 3)
    assert result["without_nuggets"] == ["3"]
    with Store(answered) as store:
        labels = model_labels(store, "lexical", SPACE)
        assert sorted((u, label.grade) for (_, u), label in labels.items()) == [("n1-1", 2), ("n1-2", 1), ("n1-3", 0)]
        people = answer_labels(store, SPACE, "1")
        assert all(not state.judged and state.label is None for state in people.values())
        assert agreement_report(store, unit=SPACE).summary.pairs_judged == 0
    again = Cli(answered).json("nuggets", "assign", "--judge", "lexical")
    assert (again["assigned"], again["already_assigned"]) == (0, 3)


def test_a_model_against_people_once_a_person_assigned(answered: Path):
    cli = Cli(answered)
    cli("nuggets", "assign", "--judge", "lexical", "--model", "lex")
    for nugget, grade in (("n1-1", 2), ("n1-2", 2), ("n1-3", 0)):  # the model said 2, 1, 0
        cli("judgments", "add", "1", nugget, grade, "--assessor", "ann", "--unit", SPACE)
    report = cli.json("agreement", "model", "lex", "--unit", SPACE)
    assert report["pairs"] == 3 and report["exact_match"]["value"] == pytest.approx(2 / 3)
    with Store(answered) as store:
        assert model_agreement_report(store, "lex", unit=SPACE).whole.confusion.counts == [
            [1, 0, 0],
            [0, 0, 0],
            [0, 1, 1],
        ]
        people = agreement_report(store, unit=SPACE)
    # the model is no assessor: ann's three labels are graded by one person each
    assert (people.summary.pairs_judged, people.summary.pairs_multi) == (3, 0)


def test_model_assignments_are_shown_only_when_the_campaign_names_the_model(answered: Path):
    Cli(answered)("nuggets", "assign", "--judge", "lexical")
    with Store(answered) as store:
        assert shown_assignments(store, "r1", "1") == {}  # blind by default
        set_show_model(store, "lexical", by="lead")
        assert {n: label.grade for n, label in shown_assignments(store, "r1", "1").items()} == {
            "n1-1": 2,
            "n1-2": 1,
            "n1-3": 0,
        }
        set_show_model(store, "other", by="lead")
        assert shown_assignments(store, "r1", "1") == {}


# --- command judges -------------------------------------------------------------------------------------------------


def command_judge(tmp_path: Path, body: str) -> str:
    """A command judge that runs `body` (Python) on each request `r`, printing what it returns as a JSON line."""
    script = tmp_path / "answers_judge.py"
    script.write_text(
        "import json, sys\n"
        "def answer(r):\n"
        f"    {body}\n"
        "for line in sys.stdin:\n"
        "    for out in answer(json.loads(line)):\n"
        "        print(json.dumps(out))\n"
    )
    return f"command:{sys.executable} {script}"


def test_a_command_judge_drafts_and_assigns_by_the_protocol(answered: Path, tmp_path: Path):
    drafts = command_judge(
        tmp_path,
        "return [{'topic': r['topic'], 'nuggets': [{'text': r['task'] + ' ' + r['units'][0]['unit'], "
        "'importance': 'vital', 'sources': [r['units'][0]['unit']]}]}]",
    )
    cli = Cli(answered)
    assert cli.json("nuggets", "draft", "--judge", drafts, "--topics", "1", "--model", "cmd")["drafted"] == 1
    with Store(answered) as store:
        (draft,) = nuggets_now(store, "1", model="cmd")
        first_relevant = relevant_units(store, "doc")["1"][0]
    assert (draft.text, draft.sources, draft.origin) == (f"draft {first_relevant}", (first_relevant,), DRAFTED)
    assigns = command_judge(
        tmp_path,
        "return [{'topic': r['topic'], 'nugget': n['nugget'], "
        "'assignment': 'support' if r['answer'].startswith('Farmers') else 'not_support'} for n in r['nuggets']]",
    )
    assert cli.json("nuggets", "assign", "--judge", assigns, "--model", "cmd")["assigned"] == 3
    with Store(answered) as store:
        assert {label.grade for label in model_labels(store, "cmd", SPACE).values()} == {2}


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (
            "return [{'topic': r['topic'], 'nugget': n['nugget'], 'assignment': 'maybe'} for n in r['nuggets']]",
            "'assignment' must be one of support, partial_support, not_support",
        ),
        (
            "return [{'topic': r['topic'], 'nugget': 'n9', 'assignment': 'support'}]",
            "assigns topic 1 nugget n9, not asked",
        ),
        ("return [{'topic': r['topic'], 'nugget': 'n1-1', 'assignment': 'support'}]", "assigned 1 of the 3 nuggets"),
    ],
)
def test_a_bad_assignment_answer_is_refused_and_nothing_is_written(answered: Path, tmp_path: Path, body, fragment):
    judge = command_judge(tmp_path, body)
    with Unchanged(answered):
        result = invoke(answered, ["nuggets", "assign", "--judge", judge])
        assert_no_crash(result)
        assert result.exit_code == 1 and result.stdout == "", result.stderr
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
        assert fragment in result.stderr


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (
            "return [{'topic': r['topic'], 'nuggets': [{'text': 'x', 'importance': 'vital', 'sources': ['zz']}]}]",
            "nugget 1's 'sources' are not units it was given",
        ),
        ("return [{'topic': r['topic'], 'nuggets': [1]}]", "expected a JSON object, found int"),
        ("return [{'topic': r['topic'], 'nuggets': [{'text': 'x', 'importance': 'huge'}]}]", "'vital' or 'okay'"),
        ("return [{'topic': r['topic'], 'nuggets': [{'text': ' ', 'importance': 'okay'}]}]", "text is empty"),
        ("return [{'topic': r['topic'], 'nuggets': 'x'}]", "'nuggets' is missing or not a list"),
        ("return [{'topic': '9', 'nuggets': []}]", "answers topic 9, which was not asked"),
        ("return []", "no answer for topic 1"),
    ],
)
def test_a_bad_draft_answer_is_refused_and_nothing_is_written(answered: Path, tmp_path: Path, body, fragment):
    judge = command_judge(tmp_path, body)
    with Unchanged(answered):
        result = invoke(answered, ["nuggets", "draft", "--judge", judge, "--topics", "1"])
        assert_no_crash(result)
        assert result.exit_code == 1 and fragment in result.stderr, result.stderr
        assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize(
    ("args", "flag", "fragment"),
    [
        (["assign", "--judge", "lexical", "--runs", "nope"], "--runs", "no answer run named 'nope'"),
        (["draft", "--judge", "lexical", "--topics", "999"], "--topics", "unknown topic '999'"),
        (["draft", "--judge", "nope"], "--judge", "unknown judge 'nope'"),
        (["assign", "--judge", "lexical", "--model", "a b"], "--model", "white space"),
    ],
)
def test_bad_requests_are_refused_and_nothing_is_written(answered: Path, args, flag, fragment):
    with Unchanged(answered):
        assert_bad_argument(invoke(answered, ["nuggets", *args]), flag, fragment)


def test_a_python_judge_without_a_draft_method_is_refused(answered: Path, monkeypatch):
    monkeypatch.delattr(LexicalJudge, "draft")
    with Unchanged(answered):
        result = invoke(answered, ["nuggets", "draft", "--judge", "lexical"])
        assert_bad_argument(result, "--judge", "judge 'lexical' cannot draft nuggets")


def test_the_protocol_messages_are_json_as_documented():
    request = AssignRequest("assign", "1", "t", "d", "n", "r1", "text", (NuggetText("n1", "fact", "vital"),))
    assert json.loads(json.dumps(request.to_json())) == {
        "task": "assign",
        "topic": "1",
        "title": "t",
        "description": "d",
        "narrative": "n",
        "run": "r1",
        "answer": "text",
        "nuggets": [{"nugget": "n1", "text": "fact", "importance": "vital"}],
    }
    draft = DraftRequest("draft", "1", "t", "d", "n", (UnitText("u", "x"),))
    assert list(draft.to_json()) == ["task", "topic", "title", "description", "narrative", "units"]
    assert draft.to_json()["units"] == [{"unit": "u", "text": "x"}]

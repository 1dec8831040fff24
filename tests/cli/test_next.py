"""`labeler next` and `labeler queue` with claims: what a script is handed, and what it is not."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from badinput.badinput_support import Unchanged, assert_bad_argument, assert_no_crash, assert_refused, invoke

NEXT_KEYS = ["topic", "unit", "unit_space", "position", "remaining", "lease_until", "overlap", "reason", "reasons"]
RUN = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d3 3 7 r\n2 Q0 d3 1 9 r\n"


@pytest.fixture
def pooled(run_cli, write):
    titles = {"d1": "Maize pests", "d2": "Stored grain", "d3": "Milk fever"}
    run_cli(
        "corpus",
        "import",
        write("c.jsonl", "".join(json.dumps({"id": k, "title": t, "text": t}) + "\n" for k, t in titles.items())),
    )
    run_cli("runs", "import", write("r.run", RUN), "--name", "bm25")
    run_cli("pool", "build", "--depth", "3")
    return run_cli


def test_next_json_shape_claims_and_keeps(pooled):
    ann = pooled.json("next", "--assessor", "ann")
    assert list(ann) == NEXT_KEYS
    assert ann["topic"] == "1" and ann["unit"] == "d1" and ann["unit_space"] == "doc"
    assert ann["position"] == 1 and ann["remaining"] == 3 and ann["overlap"] is False
    assert ann["lease_until"].endswith("+00:00")
    bob = pooled.json("next", "--assessor", "bob", "--lease", "1")
    assert (bob["unit"], bob["position"], bob["remaining"]) == ("d2", 1, 2)
    assert pooled.json("next", "--assessor", "ann")["unit"] == "d1"  # asking again: the same unit
    pooled("judgments", "add", "1", "d1", "2", "--assessor", "ann")
    assert pooled.json("next", "--assessor", "ann")["unit"] == "d3"


def test_next_text_names_the_pair_the_lease_and_the_title(pooled):
    result = pooled("next", "--assessor", "ann")
    out = result.stdout + result.stderr
    assert "1" in out and "d1" in out and "Maize pests" in out and "until" in out


def test_next_when_nothing_is_left(pooled):
    for assessor in ("a", "b", "c"):
        pooled("next", "--assessor", assessor, "--topic", "1")
    result = pooled.json("next", "--assessor", "bob", "--topic", "1")
    reasons = result.pop("reasons")
    assert result == {
        "topic": "1",
        "unit": None,
        "unit_space": "doc",
        "position": None,
        "remaining": 0,
        "lease_until": None,
        "overlap": False,
        "reason": "held by others",
    }
    assert [(r["reason"], r["pairs"], r["assessors"]) for r in reasons] == [
        ("held by others", 3, {"a": 1, "b": 1, "c": 1})
    ]
    assert pooled.json("next", "--assessor", "bob")["unit"] == "d3"  # topic 2's d3: only its topic-1 pair is held
    assert pooled.json("next", "--assessor", "cy")["unit"] is None
    assert pooled.json("next", "--assessor", "cy")["topic"] is None


def test_queue_leaves_out_units_held_by_others(pooled):
    pooled("next", "--assessor", "ann")
    bob = pooled.json("queue", "--assessor", "bob")
    assert bob["held_by_others"] == 1 and [n["unit"] for n in bob["next"]] == ["d2", "d3"]
    assert [n["position"] for n in bob["next"]] == [1, 2] and bob["remaining"] == 2
    ann = pooled.json("queue", "--assessor", "ann")
    assert ann["held_by_others"] == 0 and [n["unit"] for n in ann["next"]] == ["d1", "d2", "d3"]
    text = pooled("queue", "--assessor", "bob")
    assert "1 unit(s) held by other assessors" in text.stdout + text.stderr
    assert bob["reason"] is None and bob["reasons"] == []  # work to show: no reason for nothing


@pytest.mark.parametrize(
    ("args", "where", "fragment"),
    [
        (["--assessor", "ann bob"], "--assessor", "assessor name"),
        (["--assessor", "ann\nbob"], "--assessor", "assessor name"),
        (["--topic", "1\t2"], "--topic", "topic id"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(pooled, db_path, args, where, fragment):
    base = ["next", "--assessor", "ann"]
    with Unchanged(db_path):
        result = invoke(db_path, [*base, *args])
    assert_refused(result, where, None, fragment)


@pytest.mark.parametrize("lease", ["0", "-3", "soon", "nan", "inf", "1e12"])
def test_a_lease_out_of_range_is_a_bad_argument_and_changes_nothing(pooled, db_path, lease):
    with Unchanged(db_path):
        result = invoke(db_path, ["next", "--assessor", "ann", "--lease", lease])
    assert_bad_argument(result, "--lease", "must be a number above 0 and at most 43200")


def test_parallel_next_processes_never_get_the_same_unit(pooled, db_path):
    """`labeler next` then `judgments add`, in two processes at once: every unit handed out once."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    script = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from labeler.cli import cli\n"
        "db, who = sys.argv[1], sys.argv[2]\n"
        "seen = []\n"
        "while True:\n"
        "    r = CliRunner().invoke(cli, ['--db', db, 'next', '--assessor', who, '--json'])\n"
        "    got = json.loads(r.stdout)\n"
        "    if got['unit'] is None: break\n"
        "    seen.append([got['topic'], got['unit']])\n"
        "    CliRunner().invoke(cli, ['--db', db, 'judgments', 'add', got['topic'], got['unit'], '1',"
        " '--assessor', who])\n"
        "print(json.dumps(seen))\n"
    )
    workers = [
        subprocess.Popen([sys.executable, "-c", script, str(db_path), who], stdout=subprocess.PIPE, env=env, text=True)
        for who in ("ann", "bob")
    ]
    handed = [tuple(p) for worker in workers for p in json.loads(worker.communicate(timeout=300)[0])]
    assert sorted(handed) == [("1", "d1"), ("1", "d2"), ("1", "d3"), ("2", "d3")]


def test_judge_refuses_a_lease_of_zero_before_opening(pooled, db_path):
    with Unchanged(db_path):
        result = invoke(db_path, ["judge", "--assessor", "ann", "--lease", "0"])
    assert_bad_argument(result, "--lease", "above 0")


@pytest.fixture
def dealt(pooled):
    """Both topics dealt to ann and bob: carol, with no assignment, has nothing to judge."""
    pooled("assign", "--assessors", "ann,bob")
    return pooled


def test_next_for_an_assessor_without_an_assignment_says_the_pairs_are_assigned_to_others(dealt):
    result = dealt("next", "--assessor", "carol", "--json")
    assert result.exit_code == 0
    claim = json.loads(result.stdout)
    assert list(claim) == NEXT_KEYS and claim["unit"] is None and claim["reason"] == "assigned to others"
    (reason,) = claim["reasons"]
    assert list(reason) == ["reason", "words", "pairs", "topics", "assessors", "lease_ends", "status", "hints"]
    assert (reason["pairs"], reason["topics"], reason["assessors"]) == (4, ["1", "2"], {"ann": 3, "bob": 1})
    assert reason["hints"][0]["action"] == "assign_assessors" and reason["hints"][0]["value"] == "ann,bob,carol"
    words = dealt("next", "--assessor", "carol")
    assert words.stdout == ""
    assert words.stderr.splitlines() == [
        "Nothing for carol to judge in this pool: 4 pairs in 2 topics are assigned to others (ann 3, bob 1); "
        "carol has no topic in the assignment plan.",
        "  To change it: run 'labeler assign --assessors ann,bob,carol' to give carol topics.",
    ]


def test_queue_for_an_assessor_without_an_assignment_says_the_same(dealt):
    result = dealt("queue", "--assessor", "carol", "--json")
    assert result.exit_code == 0
    queue = json.loads(result.stdout)
    assert queue["next"] == [] and queue["reason"] == "assigned to others"
    assert queue["reasons"] == dealt.json("next", "--assessor", "carol")["reasons"]
    words = dealt("queue", "--assessor", "carol")
    assert words.stderr.startswith(
        "Nothing for carol to judge in this pool: 4 pairs in 2 topics are assigned to others"
    )


def test_next_in_a_topic_not_in_the_pool_says_so_and_still_exits_0(pooled, write):
    pooled("topics", "import", write("t.jsonl", '{"id": "9", "title": "later"}\n'))
    result = pooled.json("next", "--assessor", "ann", "--topic", "9")
    assert result["unit"] is None and result["reason"] == "topic not in pool"
    text = pooled("next", "--assessor", "ann", "--topic", "9").stderr
    assert "Nothing for ann to judge in topic 9: topic 9 has nothing in P1." in text
    assert "run 'labeler topics list'" in text


@pytest.mark.parametrize("command", ["next", "queue", "judge"])
def test_a_topic_the_workbench_never_heard_of_is_an_error(pooled, db_path, command):
    with Unchanged(db_path):
        result = invoke(db_path, [command, "--assessor", "ann", "--topic", "999"])
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "Error: no topic '999' in the workbench (run 'labeler topics list')\n"

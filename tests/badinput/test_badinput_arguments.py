"""One rule per argument: every number has a range, a list names each thing once, a topic must exist.

A value out of range, a name given twice in a comma list and an unknown topic are each refused
in one `Error:` line (exit 2 for a bad argument, exit 1 for a name the workbench does not hold),
with no traceback and the workbench byte-for-byte as it was.
"""

from __future__ import annotations

import click
import pytest
from badinput_support import Unchanged, assert_bad_argument, assert_no_crash, invoke

from labeler.cli import cli
from labeler.cli.common.reading import ByteSize

# Options whose range the service checks (and says with a hint the CLI's range could not give):
# still exit 2 and one line, fed to the absurd-value test below like every other.
RANGE_CHECKED_BY_THE_SERVICE = {("labeler merge", "--clock-tolerance")}
NOT_NUMBERS = (click.types.StringParamType, click.types.BoolParamType, click.Choice, click.Path, click.File)


def all_commands(group: click.Group, prefix: str = "labeler"):
    context = click.Context(group)
    for name in sorted(group.list_commands(context)):
        command = group.get_command(context, name)
        path = f"{prefix} {name}"
        if isinstance(command, click.Group):
            yield from all_commands(command, path)
        else:
            yield path, command


def numeric_options():
    for path, command in all_commands(cli):
        for param in command.params:
            if isinstance(param, click.Option) and not isinstance(param.type, NOT_NUMBERS) and not param.is_flag:
                if type(param.type).__name__ == "RegistryChoice":
                    continue
                yield path, max(param.opts, key=len), param.type


NUMERIC = list(numeric_options())


def test_the_walk_finds_the_numeric_options():
    found = {(path, flag) for path, flag, _ in NUMERIC}
    assert {
        ("labeler pool build", "--depth"),
        ("labeler next", "--lease"),
        ("labeler corpus import", "--max-line-bytes"),
    } <= found
    assert len(found) > 50


@pytest.mark.parametrize(("path", "flag", "kind"), NUMERIC, ids=[f"{p} {f}" for p, f, _ in NUMERIC])
def test_every_numeric_option_declares_both_ends_of_its_range(path, flag, kind):
    if (path, flag) in RANGE_CHECKED_BY_THE_SERVICE:
        return
    if isinstance(kind, ByteSize):
        assert kind.max is not None
        return
    assert isinstance(kind, (click.IntRange, click.FloatRange)), f"{path} {flag}: {type(kind).__name__} has no range"
    assert kind.min is not None and kind.max is not None, f"{path} {flag}: a range needs both ends"


def absurd_values(path: str, flag: str, kind) -> list[str]:
    if (path, flag) in RANGE_CHECKED_BY_THE_SERVICE:
        return ["nan", "inf", "-1e308"]
    if isinstance(kind, ByteSize):
        return ["99999T", "0"]
    if isinstance(kind, click.types.IntParamType):
        return [str(10**30), str(-(10**30)), "1.5"]
    return ["1e308", "-1e308", "nan", "inf"]


ABSURD = [(path, flag, value) for path, flag, kind in NUMERIC for value in absurd_values(path, flag, kind)]


@pytest.mark.parametrize(("path", "flag", "value"), ABSURD, ids=[f"{p} {f} {v}" for p, f, v in ABSURD])
def test_an_absurd_number_is_one_line_exit_2_and_changes_nothing(workbench, path, flag, value):
    (workbench.parent / "empty.jsonl").write_text("")
    required = {  # what a command needs before it reaches the option's check
        "labeler merge": [str(workbench.parent / "empty.jsonl")],
        "labeler report": ["--html", str(workbench.parent / "r.html")],
        "labeler runs retrieve": ["--retriever", "fts5", "--name", "x"],
    }
    with Unchanged(workbench):
        result = invoke(workbench, [*path.split()[1:], *required.get(path, []), f"{flag}={value}"])
    assert_bad_argument(result, flag, "")


@pytest.mark.parametrize(
    ("args", "flag", "said"),
    [
        (
            ["pool", "build", "--depth", "5", "--runs", "existing,existing"],
            "--runs",
            "run name 'existing' is given twice",
        ),
        (["pool", "build", "--depth", "5", "--runs", "existing,"], "--runs", "run name '' is empty"),
        (["eval", "--runs", "existing,existing"], "--runs", "given twice"),
        (["eval", "--stages", "candidate,candidate"], "--stages", "stage 'candidate' is given twice"),
        (["eval", "--measures", "AP P@10,AP"], "--measures", "measure 'AP' is given twice"),
        (["coverage", "--runs", "existing,existing"], "--runs", "given twice"),
        (["coverage", "--measures", "AP,AP"], "--measures", "measure 'AP' is given twice"),
        (["replay", "--depth", "5", "--runs", "existing,existing"], "--runs", "given twice"),
        (["replay", "--depth", "5", "--runs", "existing", "--orders", "pool,pool"], "--orders", "given twice"),
        (["replay", "--depth", "5", "--runs", "existing", "--score-runs", "a,a"], "--score-runs", "given twice"),
        (["report", "--html", "r.html", "--replay-depth", "5", "--replay-runs", "a,a"], "--replay-runs", "given twice"),
        (
            ["report", "--html", "r.html", "--replay-depth", "5", "--replay-runs", "a", "--replay-orders", "pool,pool"],
            "--replay-orders",
            "twice",
        ),
        (
            ["runs", "retrieve", "--retriever", "fts5", "--name", "x", "--topics", "1,1"],
            "--topics",
            "'1' is given twice",
        ),
        (["prelabel", "--judge", "x", "--topics", "1,1"], "--topics", "topic id '1' is given twice"),
        (["assign", "--assessors", "ann,ann"], "--assessors", "given twice"),
        (
            ["pool", "build", "--depth", "5", "--run-depth", "existing=3", "--run-depth", "existing=4"],
            "--run-depth",
            "given twice",
        ),
        (["pool", "build", "--depth", "5", "--run-depth", f"existing={10**30}"], "--run-depth", "from 1 to 1000000"),
    ],
)
def test_a_name_given_twice_in_a_list_is_refused(workbench, args, flag, said):
    with Unchanged(workbench):
        result = invoke(workbench, args)
    assert_bad_argument(result, flag, said)


@pytest.mark.parametrize("command", ["next", "queue", "judge"])
def test_an_unknown_topic_is_an_error_with_the_hint_to_list_them(workbench, command):
    assert invoke(workbench, ["pool", "build", "--depth", "2"]).exit_code == 0
    with Unchanged(workbench):
        result = invoke(workbench, [command, "--assessor", "ann", "--topic", "999"])
    assert_no_crash(result)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "Error: no topic '999' in the workbench (run 'labeler topics list')\n"


@pytest.mark.parametrize(
    "args",
    [
        ["pool", "build", "--depth", "5", "--runs", "nope"],
        ["eval", "--runs", "nope"],
        ["coverage", "--runs", "nope"],
        ["replay", "--depth", "5", "--runs", "nope"],
        ["export", "run", "nope"],
        ["runs", "retire", "nope"],
    ],
)
def test_an_unknown_run_is_an_error(workbench, args, write):
    topics = write("t.jsonl", '{"id": "1", "title": "one"}\n')
    for setup in (
        ["topics", "import", topics],
        ["judgments", "add", "1", "x1", "1", "--assessor", "ann", "--allow-unknown"],
    ):
        assert invoke(workbench, setup).exit_code == 0
    assert invoke(workbench, ["snapshot", "create", "-m", "labels"]).exit_code == 0
    with Unchanged(workbench):
        result = invoke(workbench, args)
    assert_no_crash(result)
    assert result.exit_code in (1, 2) and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert "'nope'" in result.stderr

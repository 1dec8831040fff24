"""Services speak the domain's language; each front end says it its own way.

A reason or hint in labeler/workbench, labeler/store or the domain that names a flag (`--unit`) or a
command (`'labeler pool build'`) would reach the TUI verbatim, where there are no flags. These tests
check that every hint action has words in both front ends, that bad arguments exit 2 with their flag,
and that no string outside the front ends speaks the CLI's language.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest

from labeler.cli import cli
from labeler.cli.common import hints as cli_hints
from labeler.errors import HINT_ACTIONS, BadArgumentError, Hint, LabelerError, argument_hint
from labeler.tui import hints as tui_hints

PACKAGE = Path(__file__).resolve().parent.parent / "labeler"


def _command_paths() -> list[str]:
    """Every command as typed after `labeler`: `eval`, `pool build`, ... (longest first, so a regex takes it whole)."""
    context = click.Context(cli)
    paths = []
    for name in cli.list_commands(context):
        paths.append(name)
        command = cli.get_command(context, name)
        if isinstance(command, click.Group):
            paths += [f"{name} {sub}" for sub in command.list_commands(click.Context(command))]
    return sorted(paths, key=len, reverse=True)


_COMMANDS = "|".join(map(re.escape, _command_paths()))
# A flag, `labeler` followed by one of its commands, or a quoted group command (`'pool build'`, "`runs import`").
CLI_LANGUAGE = re.compile(
    rf"(?<![\w-])--[a-z][a-z-]|'labeler [a-z]|\blabeler (?:{_COMMANDS})\b|[`'\"](?:{_COMMANDS}) [a-z][a-z-]*[`'\"]"
)

# Modules whose strings still name flags or commands: convert one, take it off the list. Must end empty.
NOT_YET_CONVERTED: set[str] = set()

# Strings that must stay in the CLI's words, and why.
EXEMPT: dict[str, str] = {
    # The guards' RAISE text is part of the trigger SQL stored in every workbench and compared exactly by
    # `labeler check`; it speaks to someone writing to the file with raw SQL, past both front ends, for whom
    # "import it again with --replace" is the advice. Rewording it is a migration, not a refactor.
    "labeler/store/guards.py": "stored trigger text",
    # The HTML report is a page the user reads next to the CLI's output: it names the commands whose figures it shows.
    "labeler/report/html.py": "a page that names the commands behind its figures",
}


def _service_modules() -> list[Path]:
    front_ends = {PACKAGE / "cli", PACKAGE / "tui"}
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if not any(front in path.parents for front in front_ends) and "migrations" not in path.parts
    )


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant that is not a docstring (of a module, class, function or attribute), with its line.

    f-strings are included part by part (their constant parts are `ast.Constant`s too).
    """
    docstrings = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_service_string_names_a_flag_or_a_command():
    found = []
    for path in _service_modules():
        name = str(path.relative_to(PACKAGE.parent))
        if name in NOT_YET_CONVERTED or name in EXEMPT:
            continue
        for line, text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if CLI_LANGUAGE.search(text):
                found.append(f"{name}:{line}: {text!r}")
    assert not found, "say it as a Hint, not in the CLI's words:\n" + "\n".join(found)


def test_the_to_do_list_names_only_modules_that_still_need_it():
    for name in NOT_YET_CONVERTED:
        path = PACKAGE.parent / name
        assert path.exists(), name
        assert any(CLI_LANGUAGE.search(text) for _, text in _strings(ast.parse(path.read_text()))), (
            f"{name} is clean now: take it off NOT_YET_CONVERTED"
        )


@pytest.mark.parametrize("action", sorted(HINT_ACTIONS))
def test_every_hint_action_has_words_in_both_front_ends(action):
    hint = argument_hint("unit", "doc") if action == "set_argument" else Hint(action)
    assert cli_hints.hint_text(hint)
    assert tui_hints.hint_text(hint)
    if action != "set_argument":
        assert action in cli_hints.COMMANDS
        assert action in tui_hints.KEYS or action in tui_hints.ELSEWHERE


def test_the_renderers_know_no_action_the_domain_does_not():
    assert set(cli_hints.COMMANDS) <= set(HINT_ACTIONS)
    assert set(tui_hints.KEYS) | set(tui_hints.ELSEWHERE) <= set(HINT_ACTIONS)
    assert not set(tui_hints.KEYS) & set(tui_hints.ELSEWHERE)


def test_a_hint_is_said_as_a_flag_in_the_cli_and_as_a_setting_in_the_tui():
    error = LabelerError(
        "the labels are chunk-level", hints=argument_hint("unit", "doc", why="to score at document level")
    )
    assert cli_hints.cli_message(error) == ("the labels are chunk-level (pass --unit doc to score at document level)")
    assert tui_hints.tui_message(error) == "the labels are chunk-level (set unit to doc to score at document level)"
    pool = LabelerError("no pool yet", hints=Hint("build_pool"))
    assert cli_hints.cli_message(pool) == "no pool yet (run 'labeler pool build --depth K')"
    assert "--" not in tui_hints.tui_message(LabelerError("x", hints=Hint("list_topics")))


def test_a_bad_argument_names_its_flag_and_exits_2():
    error = BadArgumentError("must be at least 1, not 0", argument="run_depths")
    assert cli_hints.cli_message(error) == "--run-depth: must be at least 1, not 0"
    assert cli_hints.exit_code(error) == 2
    assert tui_hints.tui_message(error) == "run_depths: must be at least 1, not 0"
    assert cli_hints.exit_code(LabelerError("a bad line", path="f.tsv", line=3)) == 1
    # a positional argument is named as the id rule's errors name one, not as a flag it does not have
    assert cli_hints.cli_message(BadArgumentError("not a status", argument="status")) == "argument STATUS: not a status"


def test_hints_refuse_what_no_front_end_can_say():
    with pytest.raises(ValueError):
        Hint("reticulate_splines")
    with pytest.raises(ValueError):
        Hint("set_argument")
    with pytest.raises(ValueError):
        Hint("build_pool", argument="depth")

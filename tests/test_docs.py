"""docs/cli.md documents every command and every option that exists."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from labeler.cli import cli

DOCS = Path(__file__).resolve().parents[1] / "docs"


def all_commands(group: click.Group, prefix: str = "labeler"):
    for name, command in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        if isinstance(command, click.Group):
            yield from all_commands(command, path)
        else:
            yield path, command


def section(text: str, heading: str) -> str:
    match = re.search(rf"^## `{re.escape(heading)}`\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return match.group(1) if match else ""


@pytest.mark.parametrize(("path", "command"), list(all_commands(cli)), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_and_option_is_in_the_cli_reference(path, command):
    text = (DOCS / "cli.md").read_text()
    body = section(text, path)
    assert body, f"docs/cli.md has no section '## `{path}`'"
    for param in command.params:
        if isinstance(param, click.Option):
            longest = max(param.opts, key=len)
            assert f"`{longest}" in body, f"{path}: option {longest} is not documented"


def test_every_command_has_help_text():
    for path, command in all_commands(cli):
        assert command.help, f"{path} has no help text"

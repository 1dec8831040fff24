"""docs/cli.md documents every command and every option that exists."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from labeler.cli import cli

DOCS = Path(__file__).resolve().parents[1] / "docs"


def all_commands(group: click.Group, prefix: str = "labeler"):
    ctx = click.Context(group)
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)
        assert command is not None
        path = f"{prefix} {name}"
        if isinstance(command, click.Group):
            if command.invoke_without_command:  # runs a report of its own when given no subcommand
                yield path, command
            yield from all_commands(command, path)
        else:
            yield path, command


def deprecated_table(text: str) -> str:
    match = re.search(r"^### Deprecated spellings\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return match.group(1) if match else ""


def section(text: str, heading: str) -> str:
    match = re.search(rf"^## `{re.escape(heading)}`\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return match.group(1) if match else ""


@pytest.mark.parametrize(("path", "command"), list(all_commands(cli)), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_and_option_is_in_the_cli_reference(path, command):
    text = (DOCS / "cli.md").read_text()
    if command.hidden:  # an old spelling: a row of the deprecated spellings, not a section
        assert f"`{path}" in deprecated_table(text), f"{path} is not in docs/cli.md's deprecated spellings"
        return
    body = section(text, path)
    assert body, f"docs/cli.md has no section '## `{path}`'"
    for param in command.params:
        if isinstance(param, click.Option):
            longest = max(param.opts, key=len)
            if param.hidden:  # an old spelling, or an option only an old spelling takes
                old = deprecated_table(text)
                assert (
                    f"`{longest}" in body or f"{path[len('labeler ') :]} {longest}" in old or f"`{longest}`" in old
                ), f"{path}: hidden option {longest} is neither documented nor a deprecated spelling"
            else:
                assert f"`{longest}" in body, f"{path}: option {longest} is not documented"


def test_every_command_has_help_text():
    for path, command in all_commands(cli):
        assert command.help, f"{path} has no help text"


# -- the tables generated from the registries ------------------------------------------------------


def test_every_registry_table_in_the_docs_is_what_the_generator_renders():
    from labeler.cli.common.doc_tables import stale_tables

    assert stale_tables() == [], "run: python -m labeler.cli.common.doc_tables --write"


def test_every_registry_table_has_its_region_in_its_page():
    from labeler.cli.common.doc_tables import TABLES

    for table in TABLES:
        text = (DOCS / table.page).read_text()
        assert text.count(f"<!-- registry:{table.name} -->") == 1, f"docs/{table.page}: region {table.name}"
        assert text.count(f"<!-- /registry:{table.name} -->") == 1, f"docs/{table.page}: end of {table.name}"


def test_the_generator_checks_and_writes_a_stale_table(tmp_path):
    from labeler.cli.common.doc_tables import TABLES, main

    for page in {table.page for table in TABLES}:
        (tmp_path / page).write_text((DOCS / page).read_text())
    page = tmp_path / "cli.md"
    page.write_text(page.read_text().replace("| `rrf` | the top N by reciprocal rank fusion", "| `rrf` | edited"))
    assert main(["--check", "--docs", str(tmp_path)]) == 1
    assert main(["--write", "--docs", str(tmp_path)]) == 0
    assert page.read_text() == (DOCS / "cli.md").read_text()
    assert main(["--check", "--docs", str(tmp_path)]) == 0


def test_a_page_without_its_region_is_an_error():
    from labeler.cli.common.doc_tables import TABLES, regenerated

    with pytest.raises(ValueError, match="no region <!-- registry:orders -->"):
        regenerated("# a page\n", next(table for table in TABLES if table.name == "orders"))


# Docs and docstrings speak of the product: no tracker numbers, no names of the people or
# branches that built it, and no files a reader of the repository cannot open.
FORBIDDEN = re.compile(
    r"issue [0-9]|helper|branch c[0-9]|pooling_literature|PRODUCT\.md|(?-i:ARCHITECTURE\.md)|the seeds"
    r"|seeds'|seed paper|shared/|code_anchors|eval_tools\.md|annotation_ux|the brief",
    re.IGNORECASE,
)


def test_docs_and_code_name_no_issue_helper_branch_or_outside_file() -> None:
    root = DOCS.parent
    files = sorted(DOCS.rglob("*.md")) + sorted((root / "labeler").rglob("*.py"))
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert found == [], "\n".join(found)

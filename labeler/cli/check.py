"""`labeler check`: verify the workbench file (schema, integrity, guards, the log's chain, every recorded hash)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import Env, json_option, pass_env
from labeler.cli.common.printing import emit_json, info, table
from labeler.wording import plural

if TYPE_CHECKING:
    from labeler.workbench.check import Head


@click.command()
@json_option
@pass_env
def check(env: Env, as_json: bool) -> None:
    """Verify the workbench: schema, integrity, keys, guards, log, grades, scale, and every recorded hash."""
    from labeler.inert import visible_line
    from labeler.workbench.check import check_file

    result = check_file(env.db_path)
    if as_json:
        emit_json(result.to_json())
    else:
        table(
            None,
            ["check", "result", "detail"],
            [
                [c.check, "ok" if c.ok else "FAILED", c.fine if c.ok else plural(c.problems, 'problem')]
                for c in result.checks
            ],
        )
        for finding in result.findings:
            click.echo(f"FAILED {visible_line(finding)}")
        _print_head(result.head)
    if not result.ok:
        info("The workbench has problems: see above. A backup copy can be checked the same way (--db COPY).")
        sys.exit(1)


def _print_head(head: Head | None) -> None:
    """The file's head, to keep elsewhere: what one file cannot prove about its own end."""
    from labeler.inert import visible_line

    if head is None:
        return
    latest = (
        f"; latest snapshot {visible_line(head.snapshot)}, sealed {head.seal or 'labels only'}" if head.snapshot else ""
    )
    info(f"Head: {plural(head.events, 'event')}, last link {head.link or '-'}{latest}.")

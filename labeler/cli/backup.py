"""`labeler backup`: copy the workbench while it is in use, then check the copy."""

from __future__ import annotations

import sys

import click

from labeler.cli.common.context import Env, force_option, json_option, pass_env
from labeler.cli.common.printing import emit_json, info
from labeler.wording import plural


@click.command()
@click.argument("destination", type=click.Path())
@force_option
@json_option
@pass_env
def backup(env: Env, destination: str, force: bool, as_json: bool) -> None:
    """Copy the workbench to a new file DESTINATION while it is in use (SQLite online backup), then check the copy."""
    from labeler.output_files import check_output
    from labeler.workbench.team import backup as backup_workbench

    check_output(destination, workbench=env.db_path, force=force)
    with env.store() as store:
        result = backup_workbench(store, destination, force=force)
    if as_json:
        emit_json(result.to_json())
    else:
        info(
            f"Backed up to {result.path} ({plural(result.bytes, 'byte')}, {plural(result.events, 'event')}, "
            f"{plural(result.snapshots, 'snapshot')}); check {'ok' if result.ok else 'FAILED'}."
        )
    if not result.ok:
        sys.exit(1)

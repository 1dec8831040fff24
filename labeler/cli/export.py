"""`labeler export ...`: one verb for every export; each command's code lives with its subject.

`export qrels` is in `labeler.cli.snapshots`, `export run` in `labeler.cli.runs`, `export log`
in `labeler.cli.team`; this group gathers them under one name.
"""

from __future__ import annotations

import click

from labeler.cli.runs import export as export_run
from labeler.cli.snapshots import export_qrels
from labeler.cli.team import export_log


@click.group()
def export() -> None:
    """Export labels, runs and the judgment log for other tools."""


export.add_command(export_qrels, "qrels")
export.add_command(export_run, "run")
export.add_command(export_log, "log")

COMMANDS = [export]

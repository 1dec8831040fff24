"""What every command needs: the workbench path, opened on demand."""

from __future__ import annotations

from dataclasses import dataclass

import click

from labeler.store import Store
from labeler.workbench import open_workbench


@dataclass
class Env:
    db_path: str

    def store(self) -> Store:
        return open_workbench(self.db_path)


pass_env = click.make_pass_decorator(Env)

force_option = click.option(
    "--force", is_flag=True,
    help="Replace the output file if it exists (never the workbench, never through a symlink; see docs/cli.md).",
)

json_option = click.option("--json", "as_json", is_flag=True, help="Print a JSON document (a stable shape).")


def default_assessor() -> str:
    """LABELER_ASSESSOR, else the login name: who is judging when --assessor is not given."""
    import getpass
    import os

    name = os.environ.get("LABELER_ASSESSOR")
    if name:
        return name
    try:
        return getpass.getuser()
    except Exception:  # no login name (some containers): ask for --assessor instead
        return "unknown"


assessor_option = click.option(
    "--assessor", default=default_assessor, show_default="LABELER_ASSESSOR or the login name",
    help="Who is judging.",
)

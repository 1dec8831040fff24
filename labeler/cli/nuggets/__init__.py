"""`labeler nuggets ...`: the nuggets RAG answers are judged by, and the answers' assignments and scores.

Each subcommand lives in a module of this package, named for what it does; the
group registers them below.
"""

from __future__ import annotations

import click


@click.group()
def nuggets() -> None:
    """Nuggets of RAG answers: write, import, assign, score and export them."""


from labeler.cli.nuggets.editing import add, delete, edit, merge, move  # noqa: E402 (registered after the group)
from labeler.cli.nuggets.files import import_assignments, import_nuggets  # noqa: E402
from labeler.cli.nuggets.listing import list_nuggets  # noqa: E402
from labeler.cli.nuggets.models import assign, draft  # noqa: E402
from labeler.cli.nuggets.score import score  # noqa: E402

nuggets.add_command(import_nuggets)
nuggets.add_command(import_assignments)
nuggets.add_command(list_nuggets)
nuggets.add_command(add)
nuggets.add_command(edit)
nuggets.add_command(merge)
nuggets.add_command(delete)
nuggets.add_command(move)
nuggets.add_command(score)
nuggets.add_command(draft)
nuggets.add_command(assign)

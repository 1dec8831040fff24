"""`labeler nuggets ...`: the nuggets RAG answers are judged by, and the answers' assignments and scores.

Each subcommand lives in a module of this package, named for what it does; the
group registers them below.
"""

from __future__ import annotations

import click


@click.group()
def nuggets() -> None:
    """Nuggets of RAG answers: write, import, assign, score and export them."""


from labeler.cli.nuggets.models import assign as _assign  # noqa: E402
from labeler.cli.nuggets.models import draft as _draft  # noqa: E402

nuggets.add_command(_draft)
nuggets.add_command(_assign)

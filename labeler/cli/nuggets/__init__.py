"""`labeler nuggets ...`: the nuggets RAG answers are judged by, and the answers' assignments and scores.

Each subcommand lives in a module of this package, named for what it does; the
group registers them below.
"""

from __future__ import annotations

import click


@click.group()
def nuggets() -> None:
    """Nuggets of RAG answers: write, import, assign, score and export them."""


from labeler.cli.nuggets.score import score  # noqa: E402  (registered after the group is made)

nuggets.add_command(score)

"""`labeler status`: per topic, how far judging has got and whether the stopping rule says stop."""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, json_option, pass_env
from labeler.cli.common.printing import emit_json, info, table
from labeler.workbench.status import TopicCounts
from labeler.workbench.status import status as workbench_status

# The status columns a narrow terminal leaves out first: the labels outside the pool, then the
# skipped and unsure counts (a decision still to come), then the pool size (judged + unjudged).
NARROW_DROPS = ("relevant outside", "outside pool", "skipped", "unsure", "pool")


@click.command()
@click.option("--pool", default=None, help="Pool version to report on (default: the latest).")
@click.option("--unit", default=None, metavar="doc|chunk:NAME", help="Unit space of the labels (default: the pool's).")
@click.option(
    "--stop",
    default="window:10",
    show_default=True,
    metavar="RULE",
    help="Stopping rule shown per topic: window[:N] (no relevant unit in the last N judgments), knee[:N].",
)
@json_option
@pass_env
def status(env: Env, pool: str | None, unit: str | None, stop: str, as_json: bool) -> None:
    """Per topic: pool size, judged, unjudged, relevant, skipped/unsure, conflicts, outside the pool, review status.

    The last column says whether the stopping rule (--stop) says stop on the topic.
    """
    with env.store() as store:
        result = workbench_status(store, unit=unit, pool=pool, stop=stop)
    if as_json:
        emit_json(result.to_json())
        return
    table(
        None,
        ["workbench", "scale", "documents", "chunkings", "runs", "pool", "unit"],
        [
            [
                result.path,
                result.scale,
                result.documents,
                len(result.chunkings),
                len(result.runs),
                result.pool or "-",
                result.unit,
            ]
        ],
    )
    if result.topics:
        # the pool's pairs first (judged + unjudged = pool), then the labels outside it, never mixed
        rows: list[list[object]] = [
            [topic, *_counts(row), str(row.review), "stop" if row.stopping.decision.stop else "-"]
            for topic, row in result.topics.items()
        ]
        rows.append(["total", *_counts(result.totals), "", str(result.stopping_topics)])
        headers = ["topic", "pool", "judged", "unjudged", "relevant", "skipped", "unsure", "conflicts"]
        table(
            None,
            [*headers, "outside pool", "relevant outside", "review status", result.stop_rule.spec],
            rows,
            drop=NARROW_DROPS,
            grow=["review status"],
        )
    if result.show_model is not None:
        info(f"Model label shown while judging: {result.show_model.model or 'none (blind)'}.")
    if result.assessors:
        from labeler.cli.assign import assessor_table  # the text form only: `status --json` loads no other command

        assessor_table("per assessor (assignments)", result.assessors)
    elif not result.runs:
        info("No topics, runs or judgments yet: see 'labeler topics import' and 'labeler runs import'.")


def _counts(row: TopicCounts) -> list[int]:
    """A row's columns: its pool pairs, then its labels outside the pool."""
    return [
        row.pool,
        row.judged,
        row.unjudged,
        row.relevant,
        row.skipped,
        row.unsure,
        row.conflicts,
        row.outside,
        row.outside_relevant,
    ]

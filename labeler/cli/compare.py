"""`labeler compare`: what changed between two snapshots (labels, relevant sets, scores, the system ranking).

The label changes it lists with `--changes` are printed here for `snapshot diff` too (its deprecated spelling).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import (
    Env,
    comma_list,
    json_option,
    pass_env,
    scored_runs_option,
)
from labeler.cli.common.printing import emit_json, info, print_result, progress_bar, table
from labeler.cli.common.ranges import DEPTH
from labeler.cli.common.scores import fixed, not_scored_note, reopened_note
from labeler.cli.eval import (
    changes_line,
    judged_only_note,
    judged_only_option,
    statistics_options,
)
from labeler.wording import agrees, plural
from labeler.workbench.snapshot_answers import AnswersDiff
from labeler.workbench.snapshot_results import SnapshotDiff
from labeler.workbench.snapshots import diff_snapshots

if TYPE_CHECKING:
    from labeler.workbench.coverage_results import SnapshotComparison


def say_label_changes(old: str, new: str, result: SnapshotDiff) -> None:
    """The labels added, changed and removed from snapshot `old` to `new`: a count line, then one row per label."""
    info(f"{old} -> {new}: {result.added} added, {result.changed} changed, {result.removed} removed.")
    rows: list[list[object]] = []
    for topic, changes in result.topics.items():
        rows += [[topic, "added", a.unit, "", a.grade] for a in changes.added]
        rows += [[topic, "changed", c.unit, c.before, c.after] for c in changes.changed]
        rows += [[topic, "removed", r.unit, r.grade, ""] for r in changes.removed]
    if rows:
        table(None, ["topic", "change", "unit", "before", "after"], rows)
    if result.answers is not None:
        say_answer_changes(result.answers)


def say_answer_changes(answers: AnswersDiff) -> None:
    """Nuggets added, changed and removed, and answer labels that differ, one row each."""
    nuggets: list[list[object]] = [[n.topic, "added", n.nugget, n.importance, n.text] for n in answers.nuggets_added]
    for c in answers.nuggets_changed:
        if c.importance is not None:
            nuggets.append([c.topic, "importance", c.nugget, c.importance[0], c.importance[1]])
        if c.text is not None:
            nuggets.append([c.topic, "text", c.nugget, c.text[0], c.text[1]])
    nuggets += [[n.topic, "removed", n.nugget, n.importance, n.text] for n in answers.nuggets_removed]
    if nuggets:
        info(f"Nuggets: {len(nuggets)} {agrees(len(nuggets), 'change', 'changes')}.")
        table(None, ["topic", "change", "nugget", "before", "after"], nuggets)
    labels = [[c.space, c.topic, c.item, _grade(c.before), _grade(c.after)] for c in answers.answer_labels]
    if labels:
        info(f"Answer labels: {len(labels)} {agrees(len(labels), 'change', 'changes')}.")
        table(None, ["space", "topic", "item", "before", "after"], labels)


def _grade(grade: int | None) -> object:
    return "" if grade is None else grade


def print_with_label_changes(
    comparison: SnapshotComparison, changes: SnapshotDiff, as_json: bool, say: Callable[[SnapshotComparison], None]
) -> None:
    """`compare --changes`: the comparison, then the label changes (JSON: the comparison's keys, then label_changes)."""
    if as_json:
        emit_json({**comparison.to_json(), "label_changes": changes.to_json()})
        return
    say(comparison)
    say_label_changes(comparison.old, comparison.new, changes)


@click.command()
@click.argument("old")
@click.argument("new")
@click.option("--depth", default=10, show_default=True, type=DEPTH, help="k for Judged@k, R@k and nDCG@k.")
@scored_runs_option
@click.option("--unit", default=None, metavar="doc", help="Compare at document level.")
@click.option(
    "--baseline",
    default=None,
    metavar="RUN",
    help="Compare every other run with RUN on each measure under NEW's labels: paired tests, corrected over "
    "every run and measure, and bootstrap intervals.",
)
@statistics_options
@judged_only_option
@click.option(
    "--changes",
    is_flag=True,
    help="Also list each label added, changed and removed, per topic (JSON: under label_changes).",
)
@json_option
@pass_env
def compare(
    env: Env,
    old: str,
    new: str,
    depth: int,
    runs: str | None,
    unit: str | None,
    baseline: str | None,
    correction: str,
    bootstrap: int,
    seed: int,
    judged_only: bool,
    changes: bool,
    as_json: bool,
) -> None:
    """What changed between two snapshots: labels, relevant sets, scores, and the system ranking.

    With --changes, also each label added, changed and removed, per topic.
    """
    from labeler.workbench.coverage import CompareRequest, compare_report

    names = comma_list(runs, "runs", "run name")
    with env.store() as store, progress_bar("topics") as progress:
        request = CompareRequest(
            old=old,
            new=new,
            depth=depth,
            runs=names,
            unit=unit,
            baseline=baseline,
            correction=correction,
            bootstrap=bootstrap,
            seed=seed,
            judged_only=judged_only,
        )
        result = compare_report(store, request, progress)
        label_changes = diff_snapshots(store, old, new) if changes else None
    if label_changes is None:
        print_result(result, as_json, _print_comparison)
    else:
        print_with_label_changes(result, label_changes, as_json, _print_comparison)


def _print_comparison(result: SnapshotComparison) -> None:
    """What the labels did, the topics reopened since, the relevant sets that grew, then scores and ranking."""
    old, new, labels = result.old, result.new, result.labels
    info(
        f"{old} -> {new} ({result.unit}, {plural(result.topics, 'topic')}): "
        f"{plural(labels['added'], 'label')} added, "
        f"{labels['changed']} changed, {labels['retracted']} retracted; "
        f"relevant sets grew in {plural(len(result.topics_grown), 'topic')}"
        f"{judged_only_note(result.judged_only)}."
    )
    changes = result.topic_changes
    if changes.get("entered") or changes.get("left"):
        info(
            f"Warning: {old} scored {plural(changes['old_scored'], 'topic')} and {new} scores {result.topics} "
            f"({changes_line(changes['entered'], changes['left'])}): both columns below are over {new}'s topics, "
            f"so the {old} column is not the mean eval gave on {old}."
        )
    reopened = result.reopened_since
    if reopened:
        info(
            f"{plural(len(reopened), 'topic')} reviewed in {old} {agrees(len(reopened), 'was', 'were')} reopened by "
            f"later pools (their {old} scores were over judgments the campaign later found incomplete)."
        )
        table(
            "reopened since " + old,
            ["topic", "pools (units added)", f"status in {new}"],
            [[t, ", ".join(f"{p} +{n}" for p, n in r.pools.items()), r.after] for t, r in reopened.items()],
        )
    reopened_note(result.reopened)
    if result.topics_grown:
        table(
            "relevant sets that grew",
            ["topic", "before", "after"],
            [[t, g["before"], g["after"]] for t, g in result.topics_grown.items()],
        )
    _print_scores_before_after(result)
    if result.baseline is not None:
        from labeler.cli.eval import print_baseline

        print_baseline(result.baseline, f"under the labels of {result.new} (the newer snapshot)")
    not_scored_note(result.unit, result.runs_not_scored, result.runs_retired)


def _print_scores_before_after(result: SnapshotComparison) -> None:
    """Each run's scores on both snapshots, the ranking before and after, and who gained most."""
    rows = []
    for run, r in result.runs.items():
        row = [run]
        for measure in r["before"]:
            row.append(f"{fixed(r['before'][measure], 3)} → {fixed(r['after'][measure], 3)}")
        rows.append(row)
    first = next(iter(result.runs.values()))
    table(
        f"per run, before → after (means over the {result.topics} topics {result.new} scores, Judged@"
        f"{result.depth} too)",
        ["run", *first["before"]],
        rows,
    )
    ranking = result.ranking
    info(
        f"Ranking by {ranking.measure}: {' > '.join(ranking.before)}  →  {' > '.join(ranking.after)} "
        f"(Kendall's tau {fixed(ranking.kendall_tau, 3)}, tau_AP {fixed(ranking.tau_ap, 3)})."
    )
    if ranking.gained:
        best = ranking.gained[0]
        info(
            f"Gained most: {best['run']} ({fixed(best['before'], 3)} → {fixed(best['after'], 3)}): "
            "the new judgments found what the old ones missed."
        )

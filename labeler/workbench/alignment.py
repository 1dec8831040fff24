"""Runs and labels brought to one unit, and the topics a score rests on: shared by every report that scores runs.

`eval`, `coverage`, `compare` and `replay` read a snapshot's labels and the runs through these
functions, so they agree on the unit (chunk labels lifted to documents, chunk runs collapsed to
their parents), on which runs a default report covers, and on which topics count (review
status, reopened topics) and why the others do not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from labeler.errors import BadArgumentError, Hint, LabelerError, argument_hint
from labeler.json_form import JsonResult
from labeler.judgments.log import IN_PROGRESS, NO_ANSWER, REVIEWED, UNREVIEWED
from labeler.models import RunInfo, SnapshotInfo, topic_sort_key
from labeler.pooling import collapse_to_documents
from labeler.review import REOPENED
from labeler.store import Store
from labeler.workbench.snapshots import snapshot_rows


@dataclass(frozen=True)
class TopicChanges(JsonResult):
    """Scored topics between two sets: those that entered, and those that left with why they are not scored now."""

    entered: list[str]
    left: dict[str, str]


def check_unit(info: SnapshotInfo, unit: str | None) -> None:
    """Refuse a unit the snapshot's labels cannot be given in: their own, or documents (lifted)."""
    if unit is not None and unit not in ("doc", info.unit):
        raise BadArgumentError(f"must be 'doc' or the snapshot's unit ({info.unit}), not {unit!r}", argument="unit")


def aligned_labels(store: Store, info: SnapshotInfo, unit: str | None):
    """The snapshot's labels as qrels in the unit asked for (`--unit doc` lifts chunk labels), and a note of it."""
    check_unit(info, unit)
    labels = [(t, u, g) for t, u, g, _ in snapshot_rows(store, info)]
    label_unit = info.unit
    target = unit or label_unit
    notes: dict[str, Any] = {"unit": target}
    if target == "doc" and label_unit != "doc":
        labels, partial = _lift(store, label_unit.split(":", 1)[1], labels)
        notes["labels_lifted_to_documents"] = True
        notes["partial_documents"] = partial
        notes["lower_bound"] = partial > 0
    qrels: dict[str, dict[str, int]] = {}
    for topic, unit_id, grade in labels:
        qrels.setdefault(topic, {})[unit_id] = grade
    return qrels, notes


def aligned_rankings(store: Store, info: SnapshotInfo, run: RunInfo, unit: str | None, topics: list[str] | None = None):
    """A run's rankings (of `topics`, or all) in the unit the labels are compared in, and a note of any collapse.

    Chunk runs scored against document labels collapse to their parents; a
    document run against chunk labels, or two chunkings, are refused with what
    to do instead.
    """
    target = unit or info.unit
    run_unit = str(run.unit)
    rankings = store.ranked_units(run.name, topics=topics)
    notes: dict[str, Any] = {}
    if run_unit == target:
        return rankings, notes
    if run_unit.startswith("chunk:") and target == "doc":
        collapsed = 0
        chunking = run_unit.split(":", 1)[1]
        for topic, units in rankings.items():
            parents = store.parents_of(chunking, units)
            missing = [u for u in units if u not in parents]
            if missing:
                raise LabelerError(f"run {run.name!r}: chunk {missing[0]!r} has no parent in {run_unit}")
            rankings[topic], count = collapse_to_documents(units, parents)
            collapsed += count
        notes["chunks_collapsed"] = collapsed
        return rankings, notes
    if run_unit == "doc" and target.startswith("chunk:"):
        raise LabelerError(
            f"run {run.name!r} ranks documents but snapshot {info.name} labels {target}",
            hints=argument_hint(
                "unit", "doc", why="to evaluate at document level (document grades derived from chunk labels)"
            ),
        )
    raise LabelerError(
        f"run {run.name!r} ranks {run_unit} but snapshot {info.name} labels {target}: two different "
        "chunkings cannot be compared; judge the run's units",
        hints=argument_hint("unit", "doc", why="to evaluate both at document level"),
    )


def _lift(store: Store, chunking: str, labels):
    """Chunk labels as document grades: the maximum over judged chunks; count partly judged documents."""
    parents = store.parents_of(chunking, [u for _, u, _ in labels])
    grades: dict[tuple[str, str], int] = {}
    judged: Counter = Counter()
    for topic, unit_id, grade in labels:
        if grade < 0 or unit_id not in parents:
            continue
        key = (topic, parents[unit_id])
        judged[key] += 1
        grades[key] = max(grades.get(key, grade), grade)
    totals = store.chunk_counts(chunking, {d for _, d in grades})
    partial = sum(1 for (t, d), n in judged.items() if n < totals.get(d, 0))
    return [(t, d, g) for (t, d), g in grades.items()], partial


def runs_to_score(store: Store, runs: list[str] | None, space: str) -> tuple[list[str], list[str]]:
    """The runs asked for; by default every run the labels of `space` can score, and the others.

    A report over all runs together cannot include a document run next to
    chunk labels, so by default such runs are left out and named
    (`runs_not_scored`) rather than stopping the whole report; a run asked for
    by name is never left out (scoring it says what to do instead).
    """
    if runs:
        return runs, []
    names, others = comparable_runs(store, space)
    if not names:
        retired = retired_runs(store, runs)
        if not others and retired:
            raise LabelerError(
                f"every run is retired ({', '.join(retired)})",
                hints=argument_hint("runs", why="to name the runs to score"),
            )
        if not others:
            raise LabelerError("no runs", hints=Hint("import_runs"))
        raise LabelerError(
            f"no run ranks {space} units, so none can be scored on these labels (runs: {', '.join(others)})",
            hints=argument_hint("unit", "doc", why="to work at document level"),
        )
    return names, others


def retired_runs(store: Store, runs: list[str] | None) -> list[str]:
    """The retired runs a default run set left out (none when the runs were named)."""
    return [] if runs else list(store.retirements())


def comparable_runs(store: Store, space: str) -> tuple[list[str], list[str]]:
    """(runs that can be scored on labels of `space`, the others).

    Document labels score document runs and chunk runs (collapsed to their
    parents); chunk labels score only runs of the same chunking. This is the
    default set of runs of eval, coverage, compare and the coverage screen;
    retired runs are in neither list (`retired_runs` names them).
    """
    fits: list[str] = []
    others: list[str] = []
    retired = store.retirements()
    for run in store.runs():
        if run.name in retired:
            continue
        (fits if space == "doc" or str(run.unit) == space else others).append(run.name)
    return fits, others


def scored_topics(
    info: SnapshotInfo, qrels, rankings, threshold: int, include_unreviewed: bool, *, include_reopened: bool = False
):
    """(scored topics, {excluded topic: reason}, run topics the snapshot does not cover).

    A reopened topic is left out (reason `reopened`) unless `include_reopened`:
    its labels miss units of the latest pool, so its score is only a lower bound.
    """
    statuses = {t: row.get("review_status", UNREVIEWED) for t, row in info.manifest["topics"].items()}
    scored, excluded = [], {}
    for topic in sorted(set(statuses) | set(qrels), key=topic_sort_key):
        status = statuses.get(topic, UNREVIEWED)
        relevant = any(g >= threshold for g in qrels.get(topic, {}).values())
        if status == NO_ANSWER:
            excluded[topic] = "no_answer"
        elif status == REOPENED:
            if not include_reopened:
                excluded[topic] = REOPENED
            elif not relevant:
                excluded[topic] = "no_relevant"
            else:
                scored.append(topic)
        elif status != REVIEWED and not include_unreviewed:
            excluded[topic] = "in_progress" if status == IN_PROGRESS else "unreviewed"
        elif not relevant:
            excluded[topic] = "no_relevant"
        else:
            scored.append(topic)
    covered = set(scored) | set(excluded)
    not_in_snapshot = sorted((t for t in rankings if t not in covered), key=topic_sort_key)
    return scored, excluded, not_in_snapshot


# the rows are the manifest's stored documents, returned as stored: free-form on purpose
def reopened_topics(info: SnapshotInfo) -> dict[str, dict[str, Any]]:
    """`{topic: {"pool", "unjudged"}}` for the snapshot's reopened topics, as its manifest recorded them."""
    return {
        t: row.get("reopened") or {"pool": None, "unjudged": 0}
        for t, row in info.manifest["topics"].items()
        if row.get("review_status") == REOPENED
    }


def entered_and_left(before: set[str], scored: list[str], excluded: dict[str, str]) -> TopicChanges:
    """The topics that entered an earlier scored set `before` and those that left it (with why not scored now)."""
    now = set(scored)
    return TopicChanges(
        entered=sorted(now - before, key=topic_sort_key),
        left={t: excluded.get(t, "not_in_snapshot") for t in sorted(before - now, key=topic_sort_key)},
    )


@dataclass(frozen=True)
class TopicsSince(JsonResult):
    """One run's scored topics against the previous snapshot of the unit space, under the same rule.

    `scored` counts the topics scored then; `entered` and `left` are the changes (`left`: why not scored now).
    """

    snapshot: str
    scored: int
    entered: list[str]
    left: dict[str, str]

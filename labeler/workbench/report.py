"""`labeler report --html PATH`: gathers coverage and the history of snapshots for the HTML page.

Drawing the page is presentation (`labeler/report/`, above this layer): the front end hands
`write_report` its renderer, so the workbench gathers and writes under the output rule but never
imports HTML or SVG code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from labeler.errors import LabelerError
from labeler.json_form import JsonResult, json_field
from labeler.output_files import check_output, write_output
from labeler.store import Store
from labeler.workbench.coverage import CoverageRequest, coverage_report
from labeler.workbench.coverage_results import History, ReportData
from labeler.workbench.evaluation import EvalRequest, evaluate_runs
from labeler.workbench.setup import now


def report_data(store: Store, *, snapshot: str | None = None, depth: int = 10) -> ReportData:
    """Coverage on one snapshot, plus each run's Judged@k and R@k on every snapshot of the same unit."""
    coverage = coverage_report(store, CoverageRequest(snapshot=snapshot, depth=depth))
    return ReportData(
        workbench=str(store.path), created=now()[:19], coverage=coverage, history=history(store, coverage.unit, depth)
    )


def history(store: Store, unit: str, depth: int) -> History:
    """Each run's Judged@k and R@k on every snapshot of `unit`, None before the run was imported.

    Judged@k across snapshots is eval's mean over each snapshot's topics with a relevant label,
    reviewed, reopened by a later pool or not (so early snapshots draw too): `judged_topics`
    counts them, the page says so.
    """
    snapshots: list[str] = []
    judged_topics: list[int] = []
    judged: dict[str, list[float | None]] = {}
    recall: dict[str, list[float | None]] = {}
    for info in store.snapshots():
        if info.unit != unit:
            continue
        try:
            result = evaluate_runs(
                store,
                EvalRequest(
                    snapshot=info.name,
                    measures=f"Judged@{depth} R@{depth}",
                    include_unreviewed=True,
                    include_reopened=True,
                ),
            )
        except LabelerError:
            continue  # a run whose unit cannot be reconciled with this snapshot is simply not drawn
        snapshots.append(info.name)
        judged_topics.append(max((run.topics.scored for run in result.runs), default=0))
        for score in result.runs:
            judged.setdefault(score.run, []).append(score.aggregate[f"Judged@{depth}"])
            recall.setdefault(score.run, []).append(score.aggregate[f"R@{depth}"])
    size = len(snapshots)
    for series in (judged, recall):
        for name, values in series.items():
            missing: list[float | None] = [None] * (size - len(values))  # runs imported after early snapshots
            series[name] = missing + values
    return History(snapshots=snapshots, judged=judged, recall=recall, judged_topics=judged_topics)


@dataclass(frozen=True)
class ModelSection(JsonResult):
    """The model judge drawn in the page: its name and the pairs both it and a person labelled."""

    model: str
    pairs: int


@dataclass(frozen=True)
class ReportWritten(JsonResult):
    """`write_report`'s result: the page written, its size, the snapshot it shows and what it draws.

    `replay` (each judging order's share of the recall curve) and `model` are there when the page
    has those sections; the front end that drew them adds them.
    """

    path: str
    snapshot: str
    bytes: int
    snapshots_drawn: list[str]
    runs: tuple[str, ...]
    replay: dict[str, float | None] | None = json_field(default=None, omit_if_none=True)
    model: ModelSection | None = json_field(default=None, omit_if_none=True)


def write_report(
    store: Store,
    path: str | Path,
    *,
    render: Callable[[ReportData], str],
    snapshot: str | None = None,
    depth: int = 10,
    force: bool = False,
) -> ReportWritten:
    """Render the page with `render` (given `report_data`) and write it under the output rule
    (labeler/output_files.py): a new file unless `force`."""
    check_output(path, workbench=store.path, force=force)
    data = report_data(store, snapshot=snapshot, depth=depth)
    text = render(data)
    written = write_output(path, text, workbench=store.path, force=force)
    return ReportWritten(
        path=str(path),
        snapshot=data.coverage.snapshot,
        bytes=written.bytes,
        snapshots_drawn=data.history.snapshots,
        runs=tuple(data.coverage.runs),
    )

"""`labeler report --html PATH`: gathers coverage and the history of snapshots for the HTML page.

Drawing the page is presentation (`labeler/report/`, above this layer): the front end hands
`write_report` its renderer, so the workbench gathers and writes under the output rule but never
imports HTML or SVG code.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.outputs import check_output, write_output
from labeler.store import Store
from labeler.workbench.coverage import coverage_report
from labeler.workbench.evaluation import evaluate_runs
from labeler.workbench.setup import now


def report_data(store: Store, *, snapshot: str | None = None, depth: int = 10) -> dict[str, Any]:
    """Coverage on one snapshot, plus each run's Judged@k and R@k on every snapshot of the same unit."""
    coverage = coverage_report(store, snapshot=snapshot, depth=depth)
    # Judged@k across snapshots is eval's mean over each snapshot's topics with a relevant label, reviewed,
    # reopened by a later pool or not (so early snapshots draw too): `judged_topics` counts them, the page says so
    history: dict[str, Any] = {
        "snapshots": [],
        "judged": {},
        "recall": {},
        "judged_over": "labelled",
        "judged_topics": [],
    }
    for info in store.snapshots():
        if info.unit != coverage["unit"]:
            continue
        try:
            result = evaluate_runs(
                store,
                snapshot=info.name,
                measures=f"Judged@{depth} R@{depth}",
                include_unreviewed=True,
                include_reopened=True,
            )
        except LabelerError:
            continue  # a run whose unit cannot be reconciled with this snapshot is simply not drawn
        history["snapshots"].append(info.name)
        history["judged_topics"].append(max((run["topics"]["scored"] for run in result["runs"]), default=0))
        for run in result["runs"]:
            history["judged"].setdefault(run["run"], []).append(run["aggregate"][f"Judged@{depth}"])
            history["recall"].setdefault(run["run"], []).append(run["aggregate"][f"R@{depth}"])
    size = len(history["snapshots"])
    for series in (history["judged"], history["recall"]):
        for run, values in series.items():
            series[run] = [None] * (size - len(values)) + values  # runs imported after early snapshots
    return {"workbench": str(store.path), "created": now()[:19], "coverage": coverage, "history": history}


def write_report(
    store: Store,
    path: str | Path,
    *,
    render: Callable[[dict[str, Any]], str],
    snapshot: str | None = None,
    depth: int = 10,
    force: bool = False,
) -> dict[str, Any]:
    """Render the page with `render` (given `report_data`) and write it under the output rule
    (labeler/outputs.py): a new file unless `force`."""
    check_output(path, workbench=store.path, force=force)
    data = report_data(store, snapshot=snapshot, depth=depth)
    text = render(data)
    written = write_output(path, text, workbench=store.path, force=force)
    return {
        "path": str(path),
        "snapshot": data["coverage"]["snapshot"],
        "bytes": written.bytes,
        "snapshots_drawn": data["history"]["snapshots"],
        "runs": list(data["coverage"]["runs"]),
    }

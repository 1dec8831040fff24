"""`c`: coverage of the current labels: Judged@k per run, the Recall@k curve, what the last re-pool added."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from labeler.tui.text import cell, error_message, plain, shown, spark
from labeler.wording import plural

if TYPE_CHECKING:  # the workbench is imported in the worker, not when the UI starts
    from labeler.tui.app import LabelerApp
    from labeler.workbench.coverage_results import CoverageReport, RepoolStatus


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


class CoverageScreen(Screen[None]):
    """Computed in a worker on its own connection; shows the same figures as `labeler coverage --snapshot current`."""

    BINDINGS = [
        Binding("escape,c", "close", "Back", id="coverage.back"),
        Binding("r", "reload", "Recompute", id="coverage.recompute"),
    ]

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.depth = depth
        self.result: CoverageReport | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("Computing coverage …", id="summary")
            yield DataTable(id="runs", zebra_stripes=True)
            yield Static("", id="curve")
            yield DataTable(id="repool", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        self.query_one("#summary", Static).update("Computing coverage …")
        app = cast("LabelerApp", self.app)
        self.compute(app.db_path, self.depth, app.session.unit)

    @work(thread=True, exclusive=True, group="coverage", exit_on_error=False)
    def compute(self, db_path: Path, depth: int, unit: str) -> None:
        from labeler.workbench.coverage import CoverageRequest, coverage_report
        from labeler.workbench.setup import open_workbench

        with open_workbench(db_path) as store:
            # the session's labels, over the runs they can score; the others are named (runs_not_scored)
            result = coverage_report(store, CoverageRequest(snapshot="current", depth=depth, loro=False, space=unit))
        self.app.call_from_thread(self.show, result)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failure is named in the summary and notified, as the app does for its workers; judging goes on."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            text = error_message(event.worker.error)
            self.query_one("#summary", Static).update(plain(f" Coverage could not be computed: {text}"))
            self.notify(text, title="That did not work", severity="error", timeout=8, markup=False)

    def show(self, result: CoverageReport) -> None:
        """Draw a computed report: the summary line, the per-run table, the recall curves, what the re-pool added."""
        self.result = result
        self.query_one("#summary", Static).update(plain(summary_line(result)))
        self._show_runs(result)
        self._show_curves(result)
        self._show_repool(result.pool)

    def _show_runs(self, result: CoverageReport) -> None:
        """One row per run: Judged@k over every topic and over the scored ones, unjudged and unique units."""
        k = result.depth
        runs = self.query_one("#runs", DataTable)
        runs.clear(columns=True)
        runs.add_columns(
            "run",
            f"Judged@{k} (all {result.judged_topics})",
            f"Judged@{k} ({result.scored_topics} scored)",
            "unjudged in top k",
            "unique",
            "unique relevant",
        )
        for run, row in result.runs.items():
            runs.add_row(
                cell(run),
                _f(row.judged),
                _f(row.judged_scored),
                row.unjudged,
                row.unique,
                row.unique_relevant,
                key=run,
            )

    def _show_curves(self, result: CoverageReport) -> None:
        """Each run's Recall@k as a sparkline with its values, and the ceiling under them."""
        curve = Text("Recall@k (macro) for k = ")
        first = next((r.recall_curve for r in result.runs.values() if r.recall_curve), [])
        curve.append(", ".join(str(p["k"]) for p in first) + "\n", style="dim")
        width = max([len("ceiling"), *(len(shown(run)) for run in result.runs)])
        for run, row in result.runs.items():
            values = [p["macro"] for p in row.recall_curve]
            curve.append(f"{shown(run):<{width}} ", style="bold")
            curve.append(spark(values), style="green")
            curve.append("  " + " ".join("-" if v is None else f"{v:.2f}" for v in values) + "\n")
        if first:
            curve.append(f"{'ceiling':<{width}} ", style="bold")
            curve.append(spark([p["ceiling"] for p in first]), style="dim")
            curve.append("  " + " ".join("-" if p["ceiling"] is None else f"{p['ceiling']:.2f}" for p in first))
        self.query_one("#curve", Static).update(
            curve if first else "No reviewed topic with relevant labels yet: mark topics done (d) to see recall curves."
        )

    def _show_repool(self, pool: RepoolStatus | None) -> None:
        """What the latest pool holds per run, and how much of it is new since the previous pool."""
        repool = self.query_one("#repool", DataTable)
        repool.clear(columns=True)
        since = f" (new since {pool.previous})" if pool is not None and pool.previous else ""
        repool.add_columns("run", "pool pairs", "unjudged", cell(f"new{since}"), "new and unjudged")
        for run, row in (pool.per_run if pool is not None else {}).items():
            repool.add_row(cell(run), row.pairs, row.unjudged, row.new, row.new_unjudged, key=run)

    def action_close(self) -> None:
        self.dismiss(None)


def summary_line(result: CoverageReport) -> str:
    """The screen's first line: the topic sets, the effort left in the top k and in the latest pool."""
    k = result.depth
    pool = result.pool
    top = result.effort
    effort = f", about {pool.effort_hours} h {pool.pace.description}" if pool is not None else ""
    not_scored = (
        f" Not scored here (they rank other units): {', '.join(result.runs_not_scored)}; "
        "see labeler coverage --unit doc."
        if result.runs_not_scored
        else ""
    )
    return (
        f" Current labels ({result.unit}), top {k} of each run; "
        f"{plural(result.scored_topics, 'reviewed topic')} with relevant labels. "
        f"Judged@{k} over all {plural(result.judged_topics, 'topic')} and over the "
        f"{result.scored_topics} scored (the mean labeler eval prints). "
        f"Judging the {plural(top.unjudged, 'unjudged unit')} of the top {k} takes about {top.hours} h "
        f"{top.pace.description}. "
        f"Pool {pool.pool if pool is not None else '-'}: "
        f"{plural(pool.unjudged if pool is not None else 0, 'pair')} to judge{effort}." + not_scored
    )

"""The judging application: screens, the command palette, and slow work in thread workers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from labeler.errors import LabelerError
from labeler.ids import id_problem, is_valid_id, normal_id, shown_id
from labeler.ordering import ORDERS, needs_model, orders_help
from labeler.tui import gc_policy
from labeler.tui.hints import tui_message
from labeler.tui.live_names import LiveNames
from labeler.tui.saving import SavingApp
from labeler.tui.screens.judge import JudgeScreen
from labeler.tui.screens.prompt import ChoicePrompt, TextPrompt
from labeler.tui.text import error_message, shown_lines
from labeler.wording import plural
from labeler.workbench.session import JudgingSession
from labeler.workbench.setup import Store, open_workbench
from labeler.workbench.snapshot_results import QrelsExport, SnapshotCreated

if TYPE_CHECKING:
    from labeler.judgments.log import Event
    from labeler.workbench.answer_judging import AnswerJudgingSession


def order_choices() -> list[tuple[str, str]]:
    """The order picker's rows, read from the registry (labeler.ordering) each time it opens."""
    return [(order.name, f"{order.name}: {order.doc}") for order in ORDERS.values()]


def assessor_problem(name: str) -> str | None:
    """Why a typed assessor name is refused (the id rule of `labeler.ids`), or None."""
    problem = id_problem(name)
    return None if problem is None else f"assessor name {shown_id(name)} {problem}. Type another name."


def live_name_problem(live_names: LiveNames, name: str) -> str | None:
    """Why a browser session cannot take this name (another live session of the server holds it), or
    None, the name now held by this session."""
    try:
        taken = live_names.take(name)
    except OSError as error:
        return f"the names in use cannot be checked ({(error.strerror or str(error)).lower()}). Try again."
    if taken:
        return None
    return (
        f"assessor name {shown_id(name)} is in use in another browser session of this server (names are "
        "compared without case). Type another name, or close that session first."
    )


def ask_assessor_name(app: SavingApp, live_names: LiveNames | None, named: Callable[[str], None]) -> None:
    """Ask for the assessor's name (again after Escape: nothing is recorded without one), then `named(name)`
    with it in NFC, as every entry point keeps an id. Served (`live_names`): one live session per name."""

    def problem(name: str) -> str | None:
        found = assessor_problem(name)
        if found is None and live_names is not None:
            found = live_name_problem(live_names, name)
        return found

    def ask() -> TextPrompt:
        return TextPrompt("Your name (it is recorded with every judgment):", check=problem)

    def answered(name: str | None) -> None:
        if name is None or not is_valid_id(name):
            app.push_screen(ask(), answered)
            return
        named(normal_id(name))

    app.push_screen(ask(), answered)


def human_decisions(store: Store, assessor: str) -> list[Event]:
    """The assessor's last decisions for the history screen, without any a model made under their name.

    A model's labels imported by the assessor carry their name; listing them would show a model's
    grade on a blind campaign (the judging screen shows one only as the campaign's model setting says).
    """
    from labeler.workbench.reading import recent_decisions, recent_events

    decisions = recent_decisions(store, assessor, limit=50)
    models = {e.event_id for e in recent_events(store, assessor, limit=400) if e.source == "model"}
    return [d for d in decisions if d.event_id not in models][:10]


class PlainNoticesApp(SavingApp):
    """Every `notify` passes `markup=False`: messages carry ids, names and paths, which Textual would
    otherwise parse as markup (see labeler/tui/text.py). Every screen's and widget's `notify` ends in
    the app's, which shows their control characters as escapes."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification is plain text: markup is never read, control characters are shown as escapes."""
        super().notify(shown_lines(message), title=shown_lines(title), severity=severity, timeout=timeout, markup=False)


class LabelerApp(PlainNoticesApp):
    """`labeler judge`: built by `make_app`, which the CLI and the tests share.

    Every `notify` passes `markup=False`: messages carry ids, names and paths, which
    Textual would otherwise parse as markup (see labeler/tui/text.py). Every screen's and
    widget's `notify` ends in this app's, which shows their control characters as escapes.
    Files it writes follow the output rule; served, it writes none (labeler/tui/saving.py).
    """

    TITLE = "labeler"
    # Notifications float above the judging screen's last lines (footer, status bar and, on a small
    # terminal, the rubric line: up to five), never over them, whichever screen is on top.
    CSS = """
    ToastRack { margin-bottom: 5; }
    """
    BINDINGS = [Binding("q", "quit", "Quit", show=False, id="app.quit")]

    def __init__(
        self,
        db_path: str | Path,
        session: JudgingSession,
        *,
        ask_assessor: bool = False,
        start_topic: str | None = None,
        served: bool = False,
        live_names: LiveNames | None = None,
    ) -> None:
        super().__init__()
        self.live_names = live_names
        self.db_path = Path(db_path)
        self.served_flag = served
        self.deliveries = []
        self.session = session
        self.ask_assessor = ask_assessor
        self.start_topic = start_topic

    @property
    def store(self) -> Store:
        return self.session.store

    def on_mount(self) -> None:
        if not self.ask_assessor:
            self.push_screen(JudgeScreen(self.session))
            return

        def named(name: str) -> None:
            self.session.close()  # the pair opened before the name was known is not this assessor's
            self.session.assessor = name
            self.session.start(self.start_topic)
            self.push_screen(JudgeScreen(self.session))

        # served to a browser: each session says who is judging before anything is recorded
        ask_assessor_name(self, self.live_names, named)

    def on_unmount(self) -> None:
        gc_policy.release()
        if self.live_names is not None:
            self.live_names.release()
        try:
            self.session.close()  # quitting lets the pair shown go, undecided
        except LabelerError:
            pass  # the workbench cannot be written (read-only, full): the lease ends by itself
        self.store.close()

    @property
    def judge_screen(self) -> JudgeScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, JudgeScreen):
                return screen
        return None

    def _refresh_judging(self) -> None:
        if self.judge_screen is not None:
            self.judge_screen.refresh_unit()

    # -- the command palette ---------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("Switch topic", "Pick another topic to judge", self.action_topics)
        yield SystemCommand("Change order", f"Judging order: {orders_help()}", self.action_order)
        yield SystemCommand(
            "Create snapshot", "Freeze the current labels as the next version", self.action_create_snapshot
        )
        yield SystemCommand("Snapshots", "List, create and diff snapshots", self.action_snapshots)
        yield SystemCommand(
            "Export qrels",
            "Download the latest snapshot as TREC qrels"
            if self.served
            else "Write the latest snapshot as TREC qrels to a new file",
            self.action_export,
        )
        yield SystemCommand("Adjudication", "Settle pairs whose assessors disagree", self.action_adjudication)
        yield SystemCommand("History", "Your last decisions; reopen one", self.action_history)
        yield SystemCommand(
            "Flagged pairs", "Every standing flag with the pair's label now; open one to judge", self.action_flagged
        )
        yield SystemCommand(
            "Coverage", "Judged@k per run, the recall curve, what the last re-pool added", self.action_coverage
        )
        yield from super().get_system_commands(screen)

    # -- actions shared by keys and the palette -------------------------------------------

    def action_topics(self) -> None:
        from labeler.tui.screens.topics import TopicsScreen
        from labeler.workbench.status import status
        from labeler.workbench.topics import topic_titles

        titles = topic_titles(self.store)
        # the counts as this assessor may see them: an overlap pair still blind for them shows only their own
        current = status(self.store, pool=self.session.pool_info.name, viewer=self.session.assessor)

        def chosen(topic_id: str | None) -> None:
            if topic_id:
                try:
                    self.session.open_topic(topic_id)
                except LabelerError as error:
                    self.notify(tui_message(error), severity="error", markup=False)
                self._refresh_judging()

        self.push_screen(TopicsScreen(current, titles, self.session.topic_id), chosen)

    def action_order(self) -> None:
        def chosen(order: str | None) -> None:
            if order is None:
                return
            if needs_model(order) and self.session.model is None:
                self.notify(
                    f"The {order} order ranks by a model's labels: start the judging with "
                    "labeler judge --model NAME to use it. The order is unchanged.",
                    severity="warning",
                    markup=False,
                )
                return
            if ORDERS.get(order).seeded:

                def seeded(seed: str | None) -> None:
                    if seed is not None:
                        if not seed.lstrip("-").isdigit():
                            self.notify("The seed must be an integer.", severity="error", markup=False)
                            return
                        self.session.set_order(order, int(seed))
                        self._refresh_judging()
                        self.notify(f"Order: {order}, seed {seed}.", markup=False)

                self.push_screen(TextPrompt(f"Seed for the {order} order:", value=str(self.session.seed)), seeded)
                return
            self.session.set_order(order)
            self._refresh_judging()
            self.notify(f"Order: {order}.", markup=False)

        self.push_screen(ChoicePrompt("Judging order", order_choices()), chosen)

    def action_history(self) -> None:
        from labeler.tui.screens.history import HistoryScreen

        def chosen(pair: tuple[str, str] | None) -> None:
            if pair:
                self.session.reopen(*pair)
                self._refresh_judging()

        self.push_screen(HistoryScreen(human_decisions(self.store, self.session.assessor)), chosen)

    def action_flagged(self) -> None:
        from labeler.tui.screens.flagged import FlaggedScreen
        from labeler.workbench.flagged import flagged_pairs

        def chosen(pair: tuple[str, str] | None) -> None:
            if pair:
                self.session.reopen(*pair)
                self._refresh_judging()

        unit = self.session.unit
        flags = flagged_pairs(self.store, unit=unit, viewer=self.session.assessor)
        self.push_screen(FlaggedScreen(flags, unit), chosen)

    def action_snapshots(self) -> None:
        from labeler.tui.screens.snapshots import SnapshotsScreen

        self.push_screen(SnapshotsScreen())

    def action_adjudication(self) -> None:
        from labeler.tui.screens.adjudicate import AdjudicationScreen

        self.push_screen(AdjudicationScreen(self.session), lambda _: self._refresh_judging())

    def action_show_help_panel(self) -> None:
        """The palette's "Keys": the help screen `?` opens, not Textual's key panel.

        The key panel reads binding descriptions as markup, and the grade keys' descriptions
        are the scale's labels (user data: a label with `[/b]` made it crash).
        """
        from labeler.tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen, "Keys"))

    def action_coverage(self) -> None:
        from labeler.tui.screens.coverage import CoverageScreen

        self.push_screen(CoverageScreen(self.session.pool_info.depth))

    def action_create_snapshot(self, after: Callable[[], None] | None = None) -> None:
        def message(text: str | None) -> None:
            if text:
                self.create_snapshot(text, after)

        self.push_screen(TextPrompt("Snapshot message:", placeholder="what this version is for"), message)

    def action_export(self) -> None:
        """Served: a download, no question asked. Locally: a new file, or one the annotator agrees to replace."""
        if self.served:
            self.download_qrels()
            return
        self.ask_where_to_save(
            "Export the latest snapshot as TREC qrels to:",
            "qrels.txt",
            lambda path, force: self._start_export(path, force),
        )

    def _start_export(self, path: str, force: bool) -> None:
        self.export_qrels(path, force)  # a worker: it reports its own failure (on_worker_state_changed)

    # -- slow work, in threads with their own connection ---------------------------------------
    # (exit_on_error=False: a failure is shown by on_worker_state_changed, and judging goes on)

    @work(thread=True, exclusive=True, group="snapshot", exit_on_error=False)
    def create_snapshot(self, message: str, after: Callable[[], None] | None = None) -> SnapshotCreated:
        from labeler.workbench.snapshots import create_snapshot

        with open_workbench(self.db_path) as store:
            # the same rule as the CLI without --unit; when several spaces have labels, the one being judged
            result = create_snapshot(store, message, default_unit=self.session.unit)
        if result.new:
            text = (
                f"Snapshot {result.snapshot} ({result.unit}): {plural(result.labels, 'label')}, "
                f"{plural(result.conflicts_left_out, 'conflict')} left out."
            )
        else:
            text = f"Labels ({result.unit}) unchanged since {result.unchanged_since}: no snapshot made."
        self.call_from_thread(self.notify, text, markup=False)
        if after is not None:
            self.call_from_thread(after)
        return result

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def export_qrels(self, path: str, force: bool = False) -> QrelsExport:
        from labeler.output_files import write_output
        from labeler.workbench.snapshots import export_qrels

        if self.served:
            raise LabelerError("a browser session writes no file on the server: the export is a download")
        with open_workbench(self.db_path) as store:
            result = export_qrels(store)
        write_output(path, result.text, workbench=self.db_path, force=force)
        self.call_from_thread(
            self.notify, f"Wrote {plural(result.labels, 'label')} of {result.snapshot} to {path}.", markup=False
        )
        return result

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def download_qrels(self) -> QrelsExport:
        from labeler.workbench.snapshots import export_qrels

        with open_workbench(self.db_path) as store:
            result = export_qrels(store)
        filename = f"qrels-{result.snapshot}.txt"
        if self.call_from_thread(self.offer_download, result.text, filename, "text/plain", "qrels"):
            self.call_from_thread(
                self.notify,
                f"Downloading {plural(result.labels, 'label')} of {result.snapshot} as {filename}.",
                markup=False,
            )
        return result

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A failed worker shows a notification; the app keeps running."""
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(
                error_message(event.worker.error), title="That did not work", severity="error", timeout=8, markup=False
            )


class AnswersApp(PlainNoticesApp):
    """`labeler judge --answers TASK`: the nugget assignment or citation support screen, on one session.

    `ask_assessor` (a browser session of `labeler serve`): the name is asked first and the session's
    first item is shown (and claimed) only once it is given; `live_names` as for `LabelerApp`.
    """

    TITLE = "labeler"
    CSS = LabelerApp.CSS
    BINDINGS = [Binding("q", "quit", "Quit", show=False, id="answers_app.quit")]

    def __init__(
        self,
        db_path: str | Path,
        session: AnswerJudgingSession,
        *,
        ask_assessor: bool = False,
        live_names: LiveNames | None = None,
    ) -> None:
        super().__init__()
        self.db_path = Path(db_path)
        self.deliveries = []
        self.session = session
        self.ask_assessor = ask_assessor
        self.live_names = live_names

    def on_mount(self) -> None:
        from labeler.tui.screens.answer_judging import answer_screen

        if not self.ask_assessor:
            self.push_screen(answer_screen(self.session))
            return

        def named(name: str) -> None:
            self.session.close()
            self.session.assessor = name
            self.session.advance()
            self.push_screen(answer_screen(self.session))

        ask_assessor_name(self, self.live_names, named)

    def on_unmount(self) -> None:
        if self.live_names is not None:
            self.live_names.release()
        try:
            self.session.close()  # quitting lets the item shown go, undecided
        except LabelerError:
            pass  # the workbench cannot be written: the lease ends by itself
        self.session.store.close()

"""The terminal UI for annotators (`labeler judge`), built with Textual.

`make_app` is the one way to build it, from a `JudgeRequest`: the CLI and the tests both call it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.workbench.session import JudgingSession
from labeler.workbench.setup import open_workbench

if TYPE_CHECKING:
    from labeler.stopping import StoppingRule
    from labeler.tui.app import AnswersApp, LabelerApp
    from labeler.tui.screens.nugget_writing import NuggetWritingApp


@dataclass(frozen=True)
class JudgeRequest:
    """What a judging app is opened with, checked once when it is made.

    `assessor` obeys the id rule; `order` (with `seed`, and `model`: the model whose labels
    `uncertainty` ranks by, never shown) must be a judging order that can run; `stop` is the
    stopping rule the screen shows for the open topic (`window:10`, `knee:40`;
    labeler.workbench.stopping), kept parsed as `rule`. `pool` and `topic` choose where judging
    starts. `served`: a browser session of `labeler serve`, which writes no file on the server
    (exports and screenshots are downloads); Textual's web driver is also taken as this. `lease`
    (a timedelta, default 15 minutes): how long the pair shown stays the assessor's without a key
    (labeler.workbench.claims). `live_names`: the folder in which the sessions of one
    `labeler serve` hold their assessor names, so that a name typed at the prompt is refused while
    another session holds it (labeler.tui.live_names).
    """

    db_path: str | Path
    assessor: str
    topic: str | None = None
    order: str = "pool"
    seed: int = 0
    pool: str | None = None
    ask_assessor: bool = False
    served: bool = False
    lease: timedelta | None = None
    stop: str = "window:10"
    model: str | None = None
    live_names: str | Path | None = None
    rule: StoppingRule = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from labeler.ids import check_id
        from labeler.workbench.queue import check_model, check_order
        from labeler.workbench.stopping import stopping_rule

        check_order(self.order)
        check_model(self.order, self.model)
        object.__setattr__(self, "rule", stopping_rule(self.stop))
        object.__setattr__(self, "assessor", check_id(self.assessor, "assessor name"))


def make_app(request: JudgeRequest) -> LabelerApp:
    """A ready judging app on a workbench, opened on the first unjudged unit of the first unfinished topic.

    Raises `LabelerError` (no pool, unknown topic) before any screen is drawn; the request has
    refused a bad order or stopping rule already.
    """
    from labeler.tui.app import LabelerApp
    from labeler.tui.live_names import LiveNames

    store = open_workbench(request.db_path)
    try:
        from labeler.workbench.claims import DEFAULT_LEASE

        session = JudgingSession(
            store,
            request.assessor,
            order=request.order,
            seed=request.seed,
            pool=request.pool,
            model=request.model,
            lease=request.lease or DEFAULT_LEASE,
            stop_rule=request.rule,
        )
        session.start(request.topic)
    except BaseException:
        store.close()
        raise
    names = None if request.live_names is None else LiveNames(request.live_names)
    return LabelerApp(
        request.db_path,
        session,
        ask_assessor=request.ask_assessor,
        start_topic=request.topic,
        served=request.served,
        live_names=names,
    )


def make_nugget_writing_app(
    db_path: str | Path, assessor: str, topic: str | None = None, *, drafts_from: str | None = None
) -> NuggetWritingApp:
    """The nugget writing screen on its own, on `topic` (default: the first with a relevant unit).

    Raises `LabelerError` (bad assessor name, unknown topic, no topics) before any screen is drawn.
    """
    from labeler.ids import check_id
    from labeler.tui.screens.nugget_writing import NuggetWritingApp
    from labeler.workbench.nugget_writing import writing_topic

    name = check_id(assessor, "assessor name")
    with open_workbench(db_path) as store:
        topic_id = writing_topic(store, topic)
    return NuggetWritingApp(db_path, name, topic_id, drafts_from=drafts_from)


def make_answers_app(
    db_path: str | Path,
    assessor: str,
    task: str,
    *,
    runs: tuple[str, ...] | None = None,
    topic: str | None = None,
    lease: timedelta | None = None,
    ask_assessor: bool = False,
    live_names: str | Path | None = None,
) -> AnswersApp:
    """A ready answer judging app, on the first item the assessor is to judge (refusals before any screen).

    `ask_assessor` and `live_names` as in `JudgeRequest` (a browser session of `labeler serve`): then
    no item is shown, or claimed, before the name is given.
    """
    from labeler.tui.app import AnswersApp
    from labeler.tui.live_names import LiveNames
    from labeler.workbench.answer_judging import AnswerJudgingSession
    from labeler.workbench.claims import DEFAULT_LEASE

    store = open_workbench(db_path)
    try:
        session = AnswerJudgingSession(store, assessor, task, runs=runs, topic=topic, lease=lease or DEFAULT_LEASE)
        if not ask_assessor:
            session.advance()
    except BaseException:
        store.close()
        raise
    names = None if live_names is None else LiveNames(live_names)
    return AnswersApp(db_path, session, ask_assessor=ask_assessor, live_names=names)

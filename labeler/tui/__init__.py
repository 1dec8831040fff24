"""The terminal UI for annotators (`labeler judge`), built with Textual.

`make_app` is the one way to build it: the CLI and the tests both call it.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.workbench import open_workbench
from labeler.workbench.session import JudgingSession

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp


def make_app(
    db_path: str | Path,
    *,
    assessor: str,
    topic: str | None = None,
    order: str = "pool",
    seed: int = 0,
    pool: str | None = None,
    ask_assessor: bool = False,
    served: bool = False,
    lease: timedelta | None = None,
    stop: str = "window:10",
    model: str | None = None,
    live_names: str | Path | None = None,
) -> LabelerApp:
    """A ready judging app on a workbench, opened on the first unjudged unit of the first unfinished topic.

    `served`: a browser session of `labeler serve`, which writes no file on the server (exports and
    screenshots are downloads); Textual's web driver is also taken as this. `lease` (a timedelta,
    default 15 minutes): how long the pair shown stays the assessor's without a key (labeler.workbench.claims).
    `stop`: the stopping rule the screen shows for the open topic (`window:10`, `knee:40`;
    labeler.workbench.stopping). `model`: the model whose labels `--order uncertainty` ranks by (never shown).
    `live_names`: the folder in which the sessions of one `labeler serve` hold their assessor names, so
    that a name typed at the prompt is refused while another session holds it (labeler.tui.live_names).

    Raises `LabelerError` (no pool, unknown topic, bad order, bad stopping rule) before any screen is drawn.
    """
    from labeler.ids import check_id
    from labeler.tui.app import LabelerApp
    from labeler.tui.live_names import LiveNames
    from labeler.workbench.queue import check_model, check_order
    from labeler.workbench.stopping import stopping_rule

    check_order(order)
    check_model(order, model)
    rule = stopping_rule(stop)
    assessor = check_id(assessor, "assessor name")
    store = open_workbench(db_path)
    try:
        from labeler.workbench.claims import DEFAULT_LEASE

        session = JudgingSession(
            store,
            assessor,
            order=order,
            seed=seed,
            pool=pool,
            model=model,
            lease=lease or DEFAULT_LEASE,
            stop_rule=rule,
        )
        session.start(topic)
    except BaseException:
        store.close()
        raise
    names = None if live_names is None else LiveNames(live_names)
    return LabelerApp(db_path, session, ask_assessor=ask_assessor, start_topic=topic, served=served, live_names=names)

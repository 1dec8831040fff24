"""`labeler judge`: the terminal UI."""

from __future__ import annotations

import click

from labeler.cli.context import Env, assessor_option, pass_env
from labeler.cli.next import lease_option
from labeler.cli.ranges import SEED
from labeler.cli.registry_options import order_option


@click.command()
@assessor_option
@click.option("--topic", default=None, help="Start on this topic (default: the first unfinished one).")
@order_option()
@click.option(
    "--model",
    default=None,
    help="Model whose labels --order uncertainty ranks by (a --model-name of judgments import; required with it).",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the random order.")
@click.option("--pool", default=None, help="Pool version to judge (default: the latest).")
@lease_option
@click.option(
    "--stop",
    default="window:10",
    show_default=True,
    metavar="RULE",
    help="Stopping rule shown for the open topic: window[:N] (no relevant unit in the last N judgments), knee[:N].",
)
@click.option("--ask-assessor", is_flag=True, help="Ask for the assessor's name when the UI opens (labeler serve).")
@click.option(
    "--served",
    is_flag=True,
    hidden=True,
    help="A browser session of labeler serve: write no file, offer exports as downloads.",
)
@pass_env
def judge(
    env: Env,
    assessor: str,
    topic: str | None,
    order: str,
    model: str | None,
    seed: int,
    pool: str | None,
    lease,
    stop: str,
    ask_assessor: bool,
    served: bool,
) -> None:
    """Judge the pool's unjudged units in the terminal UI (one key per grade)."""
    from labeler.tui import make_app
    from labeler.workbench import open_workbench

    open_workbench(env.db_path).close()  # a missing or newer workbench fails here, with a clear message
    app = make_app(
        env.db_path,
        assessor=assessor,
        topic=topic,
        order=order,
        seed=seed,
        pool=pool,
        model=model,
        ask_assessor=ask_assessor,
        served=served,
        lease=lease,
        stop=stop,
    )
    app.run()


@click.command()
@click.option(
    "--host",
    default="localhost",
    show_default=True,
    help="Address to listen on. Keep localhost and reach it over SSH (see docs/team.md).",
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@order_option()
@click.option(
    "--model",
    default=None,
    help="Model whose labels --order uncertainty ranks by (required with it); never shown.",
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="Seed of the random order.")
@click.option("--pool", default=None, help="Pool version to judge (default: the latest).")
@click.option(
    "--stop",
    default="window:10",
    show_default=True,
    metavar="RULE",
    help="Stopping rule each session shows for its open topic: window[:N], knee[:N].",
)
@pass_env
def serve(
    env: Env, host: str, port: int, order: str, model: str | None, seed: int, pool: str | None, stop: str
) -> None:
    """Serve the judging UI to browsers (textual-serve); each browser session asks for its assessor name."""
    from labeler.cli.output import info
    from labeler.inert import visible_line
    from labeler.workbench import open_workbench
    from labeler.workbench.model_labels import model_labels_by_topic
    from labeler.workbench.queue import check_model, check_order
    from labeler.workbench.stopping import stopping_rule

    # checked here, before anything listens: a session refused in the browser is a worse place to learn it
    check_order(order)
    check_model(order, model)
    stopping_rule(stop)
    store = open_workbench(env.db_path)
    try:
        if model is not None:
            model_labels_by_topic(store, model)  # the refusal each session would give, naming the models with labels
    finally:
        store.close()
    try:
        from labeler.cli import serving
    except ImportError:  # pragma: no cover - textual-serve is a declared dependency
        from labeler.errors import LabelerError

        raise LabelerError("labeler serve needs textual-serve: pip install textual-serve") from None
    command = serving.session_command(env.db_path, order=order, seed=seed, pool=pool, model=model, stop=stop)
    serving.check_can_listen(host, port)
    shown = visible_line(host)
    if host not in ("localhost", "127.0.0.1", "::1"):
        info(f"Warning: listening on {shown}: anyone who can reach it can judge. Prefer localhost and SSH.")
    info(f"Serving the judging UI on http://{shown}:{port} (Ctrl+C to stop).")
    serving.serve_sessions(command, host=host, port=port, title="labeler judge")


COMMANDS = [judge, serve]

"""`labeler serve`: the judging UI for browsers. The command is here; `boundary` checks each request's host,
origin and token, `sessions` runs the server and one judging session per browser, `page/` is the page it serves.
"""

from __future__ import annotations

import click

from labeler.cli.common.context import Env, pass_env
from labeler.cli.common.ranges import SEED, Whole
from labeler.cli.common.registry_options import order_option
from labeler.cli.judge import answers_options


@click.command()
@click.option(
    "--host",
    default="localhost",
    show_default=True,
    help="Address to listen on. Keep localhost and reach it over SSH or a reverse proxy (see docs/team.md).",
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
@click.option(
    "--max-sessions",
    default=8,
    show_default=True,
    type=Whole(1, 256),
    help="Browser sessions at once (1 to 256); one more gets a page saying all are in use.",
)
@click.option(
    "--no-token",
    is_flag=True,
    help="Serve without a token (a trusted network only): anyone who reaches the address can judge. "
    "Otherwise the printed address carries a secret token (a new one each start, or LABELER_SERVE_TOKEN).",
)
@click.option(
    "--public-url",
    default=None,
    metavar="URL",
    help="The address browsers use through a reverse proxy (https://labels.example.org/): its host and "
    "origin are let in, and the printed address uses it.",
)
@answers_options
@click.option(
    "--allow-shared-names",
    is_flag=True,
    help="Let two browser sessions judge under the same assessor name at once (refused by default).",
)
@pass_env
def serve(
    env: Env,
    host: str,
    port: int,
    order: str,
    model: str | None,
    seed: int,
    pool: str | None,
    stop: str,
    max_sessions: int,
    no_token: bool,
    public_url: str | None,
    answers: str | None,
    runs: str | None,
    allow_shared_names: bool,
) -> None:
    """Serve the judging UI to browsers (textual-serve); each browser session asks for its assessor name."""
    from labeler.cli.common.printing import info
    from labeler.cli.serve import boundary as serve_boundary

    # checked first: a bad option is one line before the workbench is opened or anything listens
    token = _serve_token(no_token)
    boundary = serve_boundary.Boundary.of(host, token=token, public_url=public_url, max_sessions=max_sessions)
    _check_sessions_would_start(env, order=order, model=model, stop=stop, answers=answers, runs=runs)
    try:
        from labeler.cli.serve import sessions as serving
    except ImportError:  # pragma: no cover - textual-serve is a declared dependency
        from labeler.errors import LabelerError

        raise LabelerError("labeler serve needs textual-serve: pip install textual-serve") from None
    command = serving.session_command(
        env.db_path, order=order, seed=seed, pool=pool, model=model, stop=stop, answers=answers, runs=runs
    )
    serving.check_can_listen(host, port)
    for warning in _serve_warnings(host, no_token=no_token, shared_names=allow_shared_names):
        info(warning)
    url = serve_boundary.served_url(host, port, token, public_url)
    info(f"Serving the judging UI on {url} (Ctrl+C to stop).")
    serving.serve_sessions(
        command, host=host, port=port, title="labeler judge", boundary=boundary, shared_names=allow_shared_names
    )


def _serve_token(no_token: bool) -> str | None:
    """The server's token: the user's (taken out of the environment, which the sessions inherit), a new
    one, or none with --no-token."""
    import os

    from labeler.cli.serve.boundary import TOKEN_ENV, given_token, new_token
    from labeler.errors import BadArgumentError

    given = os.environ.pop(TOKEN_ENV, None)
    if no_token and given is not None:
        raise BadArgumentError(f"{TOKEN_ENV} is set as well: serve with a token or without one", argument="no_token")
    if no_token:
        return None
    return new_token() if given is None else given_token(given)


def _check_sessions_would_start(
    env: Env, *, order: str, model: str | None, stop: str, answers: str | None, runs: str | None
) -> None:
    """Each browser session would refuse these; serve says so once, before anything listens."""
    from labeler.cli.common.context import comma_list
    from labeler.cli.judge import check_runs_with_answers
    from labeler.workbench.queue import check_model, check_order
    from labeler.workbench.read_labels import model_labels_by_topic
    from labeler.workbench.setup import open_workbench
    from labeler.workbench.stopping import stopping_rule

    check_order(order)
    check_model(order, model)
    stopping_rule(stop)
    check_runs_with_answers(runs, answers)
    names = comma_list(runs, "runs", "answer run")
    store = open_workbench(env.db_path)
    try:
        if model is not None:
            model_labels_by_topic(store, model)  # the refusal each session would give, naming the models with labels
        if names is not None:
            from labeler.workbench.answer_labels import answer_run_names

            answer_run_names(store, names)  # an unknown run is refused by name
    finally:
        store.close()


def _serve_warnings(host: str, *, no_token: bool, shared_names: bool) -> list[str]:
    from labeler.inert import visible_line

    warnings = []
    if host not in ("localhost", "127.0.0.1", "::1"):
        warnings.append(
            f"Warning: listening on {visible_line(host)}: whoever reaches it with the token can judge, and without "
            "TLS the token crosses the network in clear. Prefer localhost with SSH or a TLS proxy (docs/team.md)."
        )
    if no_token:
        warnings.append("Warning: --no-token: anyone who reaches this address can judge, under any name.")
    if shared_names:
        warnings.append("Warning: --allow-shared-names: two sessions may judge under one assessor name at once.")
    return warnings

"""What `labeler serve` runs: a child command that ignores the working directory, a port checked up
front, a page that loads nothing from the internet, and a server that lets in only its own pages.

Kept apart from the click command so that each part is testable on its own, and so that a new flag
for the browser sessions is one line in `session_command`. Who may come in is decided by
`serve_boundary.Boundary`; this module applies it to every request before anything is started:
a refused request gets 403 (503 when every session is taken) and no process.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import re
import shlex
import signal
import socket
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from textual_serve.server import Server, to_int

from labeler.cli.serve.boundary import Boundary
from labeler.errors import LabelerError
from labeler.inert import visible_line

log = logging.getLogger("labeler.serve")

# `python -m labeler` puts the working directory first on sys.path, so a `labeler/` folder next to
# where `serve` was started (the parent of a checkout) shadows the installed package and the page
# never starts. `-P` drops that entry but exists only from Python 3.11, and `-I` would also drop
# PYTHONPATH and the user's site-packages. So: `-c`, which puts '' first, and a bootstrap that
# removes it (unless PYTHONSAFEPATH already kept it out), then runs the package as `-m` would.
BOOTSTRAP = (
    "import sys; getattr(sys.flags, 'safe_path', False) or sys.path.pop(0); "
    "import runpy; runpy.run_module('labeler', run_name='__main__', alter_sys=True)"
)

PAGE_TEMPLATES = Path(__file__).resolve().parent / "page"
"""Our copy of textual-serve's page (app_index.html): same markup, every resource from this server."""


def labeler_command(*args: str) -> list[str]:
    """The installed labeler with these arguments, run by this interpreter from any folder."""
    return [sys.executable, "-c", BOOTSTRAP, *args]


def session_command(
    db_path: str | os.PathLike,
    *,
    order: str,
    seed: int,
    pool: str | None,
    model: str | None = None,
    stop: str = "window:10",
    answers: str | None = None,
    runs: str | None = None,
) -> list[str]:
    """What each browser session runs: the judging UI on this workbench (an absolute path, so the
    child's working directory does not matter), asking for the assessor's name first; with `answers`
    (`nuggets` or `support`, and the answer `runs` as given), the answer judging UI."""
    return labeler_command(
        "--db",
        str(Path(db_path).resolve()),
        "judge",
        "--ask-assessor",
        "--served",
        "--order",
        order,
        "--seed",
        str(seed),
        *(["--pool", pool] if pool else []),
        *(["--model", model] if model else []),
        "--stop",
        stop,
        *(["--answers", answers] if answers else []),
        *(["--runs", runs] if runs else []),
    )


def _listen_error(host: str, port: int, address: str, error: OSError) -> LabelerError:
    host, address = visible_line(host), visible_line(address)
    reason = os.strerror(error.errno).lower() if error.errno else str(error)
    if error.errno == errno.EADDRINUSE:
        return LabelerError(f"port {port} on {address} is in use: {reason}; choose another with --port")
    if error.errno == errno.EACCES:
        return LabelerError(
            f"port {port} on {address}: {reason} (ports below 1024 need privileges); choose another with --port"
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return LabelerError(f"--host {host}: {address} is not an address of this machine ({reason})")
    return LabelerError(f"cannot listen on {address} port {port}: {reason}")


def check_can_listen(host: str, port: int) -> None:
    """Bind every address the host names, as asyncio's server will, and release it: a busy port or a
    bad host becomes one line before anything starts. (The server's own bind is also caught, for the
    port taken in between.)"""
    try:
        infos = socket.getaddrinfo(
            host or None, port, family=socket.AF_UNSPEC, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as error:
        raise LabelerError(
            f"--host {visible_line(host)}: not an address or a name this machine can resolve "
            f"({visible_line(str(error))})"
        ) from None
    for family, kind, proto, _, address in sorted(set(infos)):
        try:
            sock = socket.socket(family, kind, proto)
        except OSError:  # a family this machine lacks (no IPv6): asyncio's server skips it too
            continue
        with sock:
            if os.name == "posix":  # as asyncio does: a port in TIME_WAIT is free to listen on
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPV6_V6ONLY"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as error:
                raise _listen_error(host, port, str(address[0]), error) from None


NEEDS_TOKEN = (
    "This labeler serve needs the address with its token, as serve printed it where it was started "
    "(http://HOST:PORT/?token=...). Ask whoever started it for that address."
)
REFUSED = "Refused: {problem}. Open the address labeler serve printed where it was started."
FULL = (
    "All {limit} sessions of this labeler serve are in use. Close one (or ask whoever started serve "
    "to allow more), then reload this page."
)
SECURE_HEADERS = {
    "X-Frame-Options": "DENY",  # no other site can frame the page and click for its user
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",  # the token in the page's address goes nowhere else
    "X-Content-Type-Options": "nosniff",
}


def shown_path(path: str) -> str:
    """A request's path for the console: the websocket's token replaced, the query (the page's token) left out."""
    return visible_line(re.sub(r"^/ws/.*", "/ws/(token)", path))


class TokenlessAccessLogger(AbstractAccessLogger):
    """aiohttp's access log line without the query or the websocket's token: the console shows who
    came for what, never the secret that let them in."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        remote = visible_line(request.remote or "-")
        self.logger.info('%s "%s %s" %s', remote, request.method, shown_path(request.path), response.status)


async def _secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURE_HEADERS)


class GuardedServer(Server):
    """textual-serve's server with labeler's page (see page/app_index.html) behind a boundary:
    every request's Host and Origin checked, the token required on the page and the websocket,
    at most `max_sessions` sessions, no directory listing under /static/."""

    def __init__(self, command: str, *, host: str, port: int, title: str, boundary: Boundary) -> None:
        super().__init__(command, host=host, port=port, title=title, templates_path=PAGE_TEMPLATES)
        self.boundary = boundary
        self.live_sessions = 0

    async def on_startup(self, app) -> None:
        """Quiet: `serve` has said where it listens; textual-serve's banner would print the bootstrap."""

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard()])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_page, name="index"),
                web.get("/ws", self.handle_session),
                web.get("/ws/{token}", self.handle_session, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_response_prepare.append(_secure_headers)
        return app

    def _guard(self) -> Callable:
        @web.middleware
        async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]):
            host = request.headers.get("Host")
            problem = self.boundary.host_problem(host) or self.boundary.origin_problem(
                request.headers.get("Origin"), host
            )
            if problem is not None:
                log.warning(
                    "refused %s %s from %s: %s", request.method, shown_path(request.path), request.remote, problem
                )
                raise web.HTTPForbidden(text=REFUSED.format(problem=problem))
            try:
                return await handler(request)
            except web.HTTPForbidden:
                if request.path.startswith("/static/"):  # a folder, or outside it: nothing to list or say
                    raise web.HTTPNotFound() from None
                raise

        return guard

    def _refuse_without_token(self, request: web.Request, given: str | None) -> None:
        if not self.boundary.token_ok(given):
            log.warning(
                "refused %s %s from %s: no token or a wrong one",
                request.method,
                shown_path(request.path),
                request.remote,
            )
            raise web.HTTPForbidden(text=NEEDS_TOKEN)

    def _refuse_when_full(self) -> None:
        if self.live_sessions >= self.boundary.max_sessions:
            log.warning("refused a session: all %d are in use", self.boundary.max_sessions)
            raise web.HTTPServiceUnavailable(text=FULL.format(limit=self.boundary.max_sessions))

    async def handle_page(self, request: web.Request) -> web.Response:
        """The page, for whoever has the token, while a session is free; it opens `ws/TOKEN` itself."""
        self._refuse_without_token(request, request.query.get("token"))
        self._refuse_when_full()
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_session(self, request: web.Request) -> web.StreamResponse:
        """One browser session: checked and counted before its process starts, uncounted once it has ended."""
        self._refuse_without_token(request, request.match_info.get("token"))
        self._refuse_when_full()
        self.live_sessions += 1  # no await between the check and this: no two sessions take the last place
        try:
            return await super().handle_websocket(request)
        finally:
            self.live_sessions -= 1

    def serve(self, debug: bool = False) -> None:
        """textual-serve's `serve`, with an access log that never shows the token."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self.request_exit)
            loop.add_signal_handler(signal.SIGTERM, self.request_exit)
        except NotImplementedError:  # pragma: no cover - Windows
            pass
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=lambda *args: None,
            access_log_class=TokenlessAccessLogger,
        )


LIVE_NAMES_OPTION = "--live-names"
"""The hidden `judge` option naming the folder in which each session holds its assessor name."""


def serve_sessions(
    command: list[str], *, host: str, port: int, title: str, boundary: Boundary, shared_names: bool = False
) -> None:
    """Run the guarded server until Ctrl+C; a failure to listen is one line. Unless `shared_names`,
    the sessions hold their assessor names in a private folder that lives as long as the server."""
    with tempfile.TemporaryDirectory(prefix="labeler-serve-") as names:
        if not shared_names:
            command = [*command, LIVE_NAMES_OPTION, names]
        server = GuardedServer(shlex.join(command), host=host, port=port, title=title, boundary=boundary)
        try:
            server.serve()
        except OSError as error:  # the port was taken between the check and the bind
            raise _listen_error(host, port, host, error) from None

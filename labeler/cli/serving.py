"""What `labeler serve` runs: a child command that ignores the working directory, a port checked up
front, and a page that loads nothing from the internet.

Kept apart from the click command so that each part is testable on its own, and so that a new flag
for the browser sessions is one line in `session_command`.
"""

from __future__ import annotations

import errno
import os
import shlex
import socket
import sys
from pathlib import Path

from textual_serve.server import Server

from labeler.errors import LabelerError
from labeler.inert import visible_line

# `python -m labeler` puts the working directory first on sys.path, so a `labeler/` folder next to
# where `serve` was started (the parent of a checkout) shadows the installed package and the page
# never starts. `-P` drops that entry but exists only from Python 3.11, and `-I` would also drop
# PYTHONPATH and the user's site-packages. So: `-c`, which puts '' first, and a bootstrap that
# removes it (unless PYTHONSAFEPATH already kept it out), then runs the package as `-m` would.
BOOTSTRAP = (
    "import sys; getattr(sys.flags, 'safe_path', False) or sys.path.pop(0); "
    "import runpy; runpy.run_module('labeler', run_name='__main__', alter_sys=True)"
)

PAGE_TEMPLATES = Path(__file__).resolve().parent / "serve_page"
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
) -> list[str]:
    """What each browser session runs: the judging UI on this workbench (an absolute path, so the
    child's working directory does not matter), asking for the assessor's name first."""
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


class OfflineServer(Server):
    """textual-serve's server with labeler's page (see serve_page/app_index.html)."""

    async def on_startup(self, app) -> None:
        """Quiet: `serve` has said where it listens; textual-serve's banner would print the bootstrap."""


def serve_sessions(command: list[str], *, host: str, port: int, title: str) -> None:
    """Run textual-serve with our offline page until Ctrl+C; a failure to listen is one line."""
    server = OfflineServer(shlex.join(command), host=host, port=port, title=title, templates_path=PAGE_TEMPLATES)
    try:
        server.serve()
    except OSError as error:  # the port was taken between the check and the bind
        raise _listen_error(host, port, host, error) from None

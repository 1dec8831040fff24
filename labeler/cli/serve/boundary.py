"""Who may reach `labeler serve`: the Host a browser names, the Origin of the page that asks, and the
server's token. Pure checks on header values, kept apart from aiohttp so that each rule is testable.

- Host: an IP literal, `localhost`, the name serve listens on, the machine's name when serve listens
  on every address, or the host of `--public-url`. A DNS-rebinding page reaches the server under the
  attacker's own name, which is none of these.
- Origin (sent by browsers with every websocket and every cross-site request): the page's own
  address, that is the Host it asked for, or the origin of `--public-url` (a reverse proxy that
  rewrites Host). No Origin is a client that is not a browser page; `null` is refused.
- Token: compared in constant time; without `--no-token` the page and the websocket need it.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from labeler.errors import BadArgumentError
from labeler.inert import visible_line

TOKEN_ENV = "LABELER_SERVE_TOKEN"
"""The environment variable that gives serve a token of the user's (a stable URL); never an option,
which any local user could read in the process list."""

TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9._~-]{16,256}")
WILDCARDS = ("", "0.0.0.0", "::")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def new_token() -> str:
    """A fresh secret for one run of serve: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def given_token(value: str) -> str:
    """A token from the environment, checked: long enough to guess no sooner than a fresh one would
    be found by chance, and only characters that travel in a URL unchanged."""
    if not TOKEN_CHARACTERS.fullmatch(value):
        raise BadArgumentError(
            f"a token is 16 to 256 letters, digits or the characters . _ ~ - (this one has {len(value)} characters)",
            argument="serve_token",
        )
    return value


def public_origin(url: str) -> tuple[str, str]:
    """`--public-url` as (origin, host name): http or https, a host, no user, query or fragment."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise BadArgumentError(f"{visible_line(url)} is not a URL ({error})", argument="public_url") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadArgumentError(
            f"{visible_line(url)} is not an http:// or https:// address with a host", argument="public_url"
        )
    if parts.username is not None or parts.query or parts.fragment:
        raise BadArgumentError(
            f"{visible_line(url)}: give the address only, without a user, a query or a fragment",
            argument="public_url",
        )
    netloc = _netloc(parts.hostname, port if port != DEFAULT_PORTS[parts.scheme] else None)
    return f"{parts.scheme}://{netloc}", parts.hostname


def _netloc(host: str, port: int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return shown if port is None else f"{shown}:{port}"


def served_url(host: str, port: int, token: str | None, public_url: str | None) -> str:
    """The address serve prints: the public URL, or the listening address (the machine's name when it
    listens on every address), with the token in the query."""
    if public_url is not None:
        base = public_url.rstrip("/") + "/"
    else:
        name = socket.gethostname() if host in WILDCARDS else host
        base = f"http://{_netloc(name, port)}/"
    return base if token is None else f"{base}?token={token}"


def _split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header as (lower-case name, port or None); None when it is not a host[:port]."""
    if not value or any(c in value for c in "/?#@\\ \t"):
        return None
    try:
        parts = urlsplit("//" + value)
        port = parts.port
    except ValueError:
        return None
    return (parts.hostname, port) if parts.hostname else None


def _origin_address(origin: str) -> tuple[str, int] | None:
    """An Origin header as (lower-case host name, port, the scheme's default when not given); None
    when it is not an http(s) or ws(s) origin (`null`, for one)."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.hostname, port if port is not None else DEFAULT_PORTS[parts.scheme]


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Boundary:
    """What one run of serve accepts. `names`: host names (lower case) besides IP literals;
    `origins`: origins accepted besides the page's own; `token`: None with `--no-token`."""

    token: str | None
    names: frozenset[str]
    origins: frozenset[str]
    max_sessions: int

    @classmethod
    def of(cls, host: str, *, token: str | None, public_url: str | None, max_sessions: int) -> Boundary:
        names = {"localhost"}
        if host in WILDCARDS:
            names.add(socket.gethostname().lower())
        elif not _is_ip(host):
            names.add(host.lower())
        origins: set[str] = set()
        if public_url is not None:
            origin, public_host = public_origin(public_url)
            origins.add(origin)
            names.add(public_host.lower())
        return cls(token, frozenset(names), frozenset(origins), max_sessions)

    def host_problem(self, host: str | None) -> str | None:
        """Why a request naming this Host is refused, or None."""
        split = _split_host(host or "")
        if split is None:
            return f"Host {visible_line(host or '')!r} is not an address"
        name, _ = split
        if _is_ip(name) or name in self.names:
            return None
        return f"Host {visible_line(host or '')!r} is not a name of this server"

    def origin_problem(self, origin: str | None, host: str | None) -> str | None:
        """Why a request from a page of this Origin is refused, or None (no Origin: not a browser page)."""
        if origin is None or origin in self.origins:
            return None
        page, asked = _origin_address(origin), _split_host(host or "")
        if page is not None and asked is not None:
            name, port = asked
            if page == (name, port or DEFAULT_PORTS[urlsplit(origin).scheme]):
                return None
        return f"Origin {visible_line(origin)!r} is not this server's page"

    def token_ok(self, given: str | None) -> bool:
        """The server's token, compared in constant time; anything goes with `--no-token`."""
        if self.token is None:
            return True
        return given is not None and hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

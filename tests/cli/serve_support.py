"""Helpers for the tests that start `labeler serve` and drive it as a browser does (aiohttp, loopback only)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import subprocess
import time
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from labeler.cli.serve.sessions import labeler_command

T = TypeVar("T")

TOKEN = "test-token-0123456789abcdef"
"""The token the tests give serve (LABELER_SERVE_TOKEN), so that they know it without reading its output."""

START = 60.0
"""Seconds a server or a session may take to come up on a loaded machine (a bound, not a pace)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Served:
    """A running `labeler serve` on 127.0.0.1: its port, its process, and where its output goes."""

    port: int
    process: subprocess.Popen
    output: Path
    token: str | None = TOKEN

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def page(self, token: str | None = None) -> str:
        token = self.token if token is None else token
        return f"{self.base}/" + (f"?token={token}" if token else "")

    def websocket(self, token: str | None = None) -> str:
        token = self.token if token is None else token
        return f"{self.base}/ws" + (f"/{token}" if token else "") + "?width=120&height=40"

    def sessions(self) -> list[int]:
        """The processes serve has started (its children), read from /proc."""
        return children(self.process.pid)


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _wait_until_listening(port: int, process: subprocess.Popen, deadline: float) -> None:
    while True:
        assert process.poll() is None, f"serve exited with {process.returncode}"
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        assert time.monotonic() < deadline, "serve never listened"
        time.sleep(0.1)


@contextlib.contextmanager
def started_serve(db_path: Path, *args: str, token: str | None = TOKEN, cwd=None) -> Iterator[Served]:
    """serve on 127.0.0.1 and a free port (with `token` in LABELER_SERVE_TOKEN), until the block ends."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "LABELER_SERVE_TOKEN"}
    if token is not None:
        env["LABELER_SERVE_TOKEN"] = token
    output = db_path.parent / f"serve-{port}.out"
    command = labeler_command("--db", str(db_path), "serve", "--host", "127.0.0.1", "--port", str(port), *args)
    with output.open("wb") as sink:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        _wait_until_listening(port, process, time.monotonic() + START)
        yield Served(port, process, output, token)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@dataclass
class Session:
    """One browser session's websocket and the terminal output it has received."""

    ws: object
    deadline: float
    screen: str = field(default="")

    @property
    def text(self) -> str:
        """What the session has drawn, without the terminal's control sequences (colours, cursor moves)."""
        return re.sub(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|.)", "", self.screen)

    async def read_until(self, text: str) -> None:
        import aiohttp

        while text not in self.text:
            remaining = self.deadline - time.monotonic()
            assert remaining > 0, f"{text!r} never appeared; the screen so far ends {self.text[-600:]!r}"
            try:  # not receive(timeout=...): that bound restarts at each of the server's heartbeat pings
                message = await asyncio.wait_for(self.ws.receive(), remaining)  # type: ignore[attr-defined]
            except asyncio.TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen += message.data.decode("utf-8", "replace")
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                raise AssertionError(f"the session closed before {text!r} appeared: {self.text[-600:]!r}")

    async def type(self, text: str) -> None:
        await self.ws.send_json(["stdin", text])  # type: ignore[attr-defined]

    async def name(self, name: str) -> None:
        """Answer the name prompt."""
        await self.read_until("Your name")
        await self.type(name)
        await self.type("\r")

    async def judge(self, name: str, grade: str) -> None:
        """Wait for the judging screen's status bar ("│ NAME │ order": the name alone may be the prompt's
        echo, and a grade key sent before the judging screen is up is lost), then press a grade."""
        await self.read_until(f"│ {name} │ order")
        await self.type(grade)


def run_bounded(scenario: Awaitable[T]) -> T:
    """Run a scenario to its end, or fail it after a bound: a test of serve never hangs."""
    return asyncio.run(asyncio.wait_for(scenario, 3 * START))


def grade_events(db_path: Path) -> list[tuple[str, str, str, int]]:
    from labeler.store import Store

    with Store(db_path) as store:
        return [(e.assessor, e.topic_id, e.unit_id, e.grade) for e in store.unit_events("doc") if e.kind == "grade"]


async def until_recorded(db_path: Path, count: int, deadline: float) -> list[tuple[str, str, str, int]]:
    """The grade events once there are `count` of them."""
    while len(events := grade_events(db_path)) < count:
        assert time.monotonic() < deadline, f"only {events} were recorded"
        await asyncio.sleep(0.1)
    return events

"""`labeler serve` serves the judging UI's page on localhost."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_serve_answers_on_localhost(db_path):
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "labeler", "--db", str(db_path), "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        page = None
        while time.monotonic() < deadline and page is None:
            try:
                with urllib.request.urlopen(f"http://localhost:{port}/", timeout=2) as response:
                    page = response.read().decode()
            except OSError:
                time.sleep(0.3)
        assert page is not None and "labeler judge" in page
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_refuses_a_missing_workbench(tmp_path):
    out = subprocess.run([sys.executable, "-m", "labeler", "--db", str(tmp_path / "none.db"), "serve"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "run 'labeler init' first" in out.stderr


async def _browser_session(port: int, db_path, deadline: float) -> str:
    """Drive textual-serve's websocket as the browser page does: read the screen, type a name, press a grade."""
    import asyncio

    import aiohttp

    from labeler.store import Store

    screen = ""

    async def read_until(ws, text: str) -> None:
        nonlocal screen
        while text not in screen:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"{text!r} never appeared; the screen so far ends {screen[-400:]!r}"
            try:
                message = await ws.receive(timeout=remaining)
            except asyncio.TimeoutError:
                continue
            if message.type == aiohttp.WSMsgType.BINARY:
                screen += message.data.decode("utf-8", "replace")
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                raise AssertionError(f"the session closed before {text!r} appeared: {screen[-400:]!r}")

    async with aiohttp.ClientSession() as http:
        while True:  # the server may still be starting
            try:
                ws = await http.ws_connect(f"http://localhost:{port}/ws?width=120&height=40")
                break
            except aiohttp.ClientError:
                assert time.monotonic() < deadline, "serve never accepted the websocket"
                await asyncio.sleep(0.3)
        async with ws:
            await read_until(ws, "Your name")
            await ws.send_json(["stdin", "alice"])
            await ws.send_json(["stdin", "\r"])
            await read_until(ws, "alice")  # the judging screen shows who is judging
            await ws.send_json(["stdin", "2"])
            while True:
                with Store(db_path) as store:
                    events = [e for e in store.unit_events("doc") if e.kind == "grade"]
                if events:
                    return f"{events[0].assessor} {events[0].topic_id} {events[0].unit_id} {events[0].grade}"
                assert time.monotonic() < deadline, "the grade key was never recorded"
                await asyncio.sleep(0.2)


@pytest.mark.slow
def test_a_browser_session_asks_for_a_name_and_judges_as_it(run_cli, write, db_path):
    """End to end through textual-serve's websocket, the channel a browser uses: no judgment before a name."""
    import asyncio

    run_cli("runs", "import", write("r.run", "1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n"), "--name", "r", "--allow-unknown")
    run_cli("pool", "build", "--depth", "5")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "labeler", "--db", str(db_path), "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        recorded = asyncio.run(_browser_session(port, db_path, time.monotonic() + 60))
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert recorded == "alice 1 a 2"

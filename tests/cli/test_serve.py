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

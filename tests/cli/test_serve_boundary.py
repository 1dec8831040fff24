"""`labeler serve` lets in only its own pages: a websocket from a foreign Origin or Host, or without the
token, gets no session (403, no process started); the right one judges; sessions are limited; /static/
lists nothing; a name live in one browser session is refused in another."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import pytest
from badinput.badinput_support import Unchanged, assert_bad_argument
from serve_support import START, TOKEN, Session, grade_events, run_bounded, started_serve, until_recorded

from labeler.cli.serve.boundary import Boundary, served_url
from labeler.tui.live_names import LiveNames


@pytest.fixture
def pooled(run_cli, write, db_path):
    """A workbench with one topic's pool of three documents to judge (each session shown its own)."""
    run = "1 Q0 a 1 3.0 r\n1 Q0 b 2 2.0 r\n1 Q0 c 3 1.0 r\n"
    run_cli("runs", "import", write("r.run", run), "--name", "r", "--allow-unknown")
    run_cli("pool", "build", "--depth", "5")
    return db_path


async def _status(http, url: str, **headers: str) -> tuple[int, str]:
    async with http.get(url, headers=headers) as response:
        return response.status, await response.text()


async def _refused_websocket(http, url: str, **headers: str) -> int:
    """The status of a websocket handshake the server must refuse (it fails the test if it is accepted)."""
    import aiohttp

    try:
        ws = await http.ws_connect(url, headers=headers)
    except aiohttp.WSServerHandshakeError as error:
        return error.status
    await ws.close()
    raise AssertionError(f"the websocket {url} with {headers} was accepted")


@pytest.mark.slow
def test_only_the_servers_own_page_with_the_token_gets_a_session(pooled):
    """Foreign Origin, foreign Host (DNS rebinding), no token, a wrong token: 403 and no process; the
    right page and token: a session that judges, and the store holds its grade."""
    import aiohttp

    async def scenario(served) -> dict:
        port, seen = served.port, {}
        own = {"Origin": f"http://127.0.0.1:{port}"}
        async with aiohttp.ClientSession() as http:
            right = served.websocket()
            seen["foreign origin"] = await _refused_websocket(http, right, Origin="http://evil.example")
            seen["foreign host"] = await _refused_websocket(
                http, right, Host=f"evil.example:{port}", Origin=f"http://evil.example:{port}"
            )
            seen["other local port"] = await _refused_websocket(http, right, Origin=f"http://127.0.0.1:{port + 1}")
            seen["null origin"] = await _refused_websocket(http, right, Origin="null")
            seen["no token"] = await _refused_websocket(http, f"{served.base}/ws?width=80&height=24", **own)
            seen["wrong token"] = await _refused_websocket(http, served.websocket("x" + TOKEN[1:]), **own)
            seen["page without token"] = (await _status(http, f"{served.base}/"))[0]
            seen["page, wrong token"] = (await _status(http, served.page("wrong-token-0123456789")))[0]
            seen["page, foreign host"] = (await _status(http, served.page(), Host=f"evil.example:{port}"))[0]
            seen["processes after the refusals"] = served.sessions()
            status, page = await _status(http, served.page(), **own)
            seen["page"] = status, "labeler judge" in page
            async with http.ws_connect(right, headers=own) as ws:
                session = Session(ws, time.monotonic() + START)
                await session.name("alice")
                await session.judge("alice", "2")
                seen["recorded"] = await until_recorded(pooled, 1, session.deadline)
        return seen

    with started_serve(pooled) as served:
        seen = run_bounded(scenario(served))
    refusals = {key: value for key, value in seen.items() if key not in ("page", "recorded")}
    assert refusals == {
        "foreign origin": 403,
        "foreign host": 403,
        "other local port": 403,
        "null origin": 403,
        "no token": 403,
        "wrong token": 403,
        "page without token": 403,
        "page, wrong token": 403,
        "page, foreign host": 403,
        "processes after the refusals": [],
    }
    assert seen["page"] == (200, True)
    assert seen["recorded"] == [("alice", "1", "a", 2)]
    log = served.output.read_text()
    assert log.count(TOKEN) == 1 and f"/?token={TOKEN} (Ctrl+C" in log, "the token is printed once, never logged"
    assert "refused GET /ws/(token) from 127.0.0.1: Origin 'http://evil.example'" in log


@pytest.mark.slow
def test_a_session_over_the_limit_is_refused_with_a_page_that_says_so(pooled):
    import aiohttp

    async def scenario(served) -> dict:
        seen = {}
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(served.websocket()) as ws:
                await Session(ws, time.monotonic() + START).read_until("Your name")  # the one session is live
                seen["second websocket"] = await _refused_websocket(http, served.websocket())
                seen["page"] = await _status(http, served.page())
                seen["processes"] = len(served.sessions())
            deadline = time.monotonic() + START
            while (await _status(http, served.page()))[0] != 200:  # the place is free once the session ended
                assert time.monotonic() < deadline, "the ended session still holds its place"
                await asyncio.sleep(0.1)
        return seen

    with started_serve(pooled, "--max-sessions", "1") as served:
        seen = run_bounded(scenario(served))
    assert seen["second websocket"] == 503
    assert seen["page"][0] == 503 and "All 1 sessions of this labeler serve are in use" in seen["page"][1]
    assert seen["processes"] == 1


@pytest.mark.slow
def test_static_lists_no_folder_and_a_page_without_a_token_is_served_only_with_no_token(pooled):
    import aiohttp

    async def scenario(served) -> dict:
        async with aiohttp.ClientSession() as http:
            return {
                "static": (await _status(http, f"{served.base}/static/"))[0],
                "static folder": (await _status(http, f"{served.base}/static/css/"))[0],
                "static file": (await _status(http, f"{served.base}/static/css/xterm.css"))[0],
                "page": (await _status(http, f"{served.base}/"))[0],
                "foreign origin": await _refused_websocket(
                    http, f"{served.base}/ws?width=80&height=24", Origin="http://evil.example"
                ),
            }

    with started_serve(pooled, "--no-token", token=None) as served:
        seen = run_bounded(scenario(served))
    assert seen == {"static": 404, "static folder": 404, "static file": 200, "page": 200, "foreign origin": 403}
    log = served.output.read_text()
    assert "Warning: --no-token: anyone who reaches this address can judge" in log
    assert f"on http://127.0.0.1:{served.port}/ (Ctrl+C" in log


@pytest.mark.slow
def test_a_name_live_in_one_session_is_refused_in_another(pooled):
    """alice judges in one tab; a second tab that types ALICE is told the name is in use and judges as bob."""
    import aiohttp

    async def scenario(served) -> list:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(served.websocket()) as first, http.ws_connect(served.websocket()) as second:
                alice, other = Session(first, time.monotonic() + START), Session(second, time.monotonic() + START)
                await alice.name("alice")
                await alice.judge("alice", "2")
                await until_recorded(pooled, 1, alice.deadline)
                await other.name("ALICE")
                await other.read_until("in use in another browser session")
                await other.type("bob")  # the refused name is kept selected: typing replaces it
                await other.type("\r")
                await other.judge("bob", "1")
                return await until_recorded(pooled, 2, other.deadline)

    with started_serve(pooled) as served:
        recorded = run_bounded(scenario(served))
    # alice graded a; bob judges another unit (c, or b when his session claimed before alice's moved on:
    # which one is a race between the two sessions, and not what this test is about)
    (alice_grade, bob_grade) = sorted(recorded)
    assert alice_grade == ("alice", "1", "a", 2)
    assert bob_grade[0] == "bob" and bob_grade[2] in {"b", "c"} and bob_grade[3] == 1
    assert {event[0] for event in grade_events(pooled)} == {"alice", "bob"}


# --- the name locks themselves ---


def test_a_name_is_held_by_one_session_whatever_its_case_or_width(tmp_path):
    first, second = LiveNames(tmp_path), LiveNames(tmp_path)
    assert first.take("Ann")
    assert not second.take("ann") and not second.take("ＡＮＮ")  # full-width letters: the same name in NFKC
    assert second.take("bob") and first.take("Ann")  # the holder may take its own name again
    first.release()
    assert second.take("ann")  # bob is let go: a session holds one name


def test_a_name_is_free_again_once_its_session_process_is_gone(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from labeler.tui.live_names import LiveNames; n = LiveNames(sys.argv[1]); "
            "assert n.take('carol'); print('held', flush=True); sys.stdin.read()",
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert not LiveNames(tmp_path).take("carol")
    finally:
        holder.kill()  # no clean-up code runs: the operating system lets go of the lock
        holder.wait(timeout=10)
    assert LiveNames(tmp_path).take("carol")


# --- who is let in: the rule on header values ---

LOCAL = Boundary.of("localhost", token=TOKEN, public_url=None, max_sessions=8)
PROXIED = Boundary.of("127.0.0.1", token=TOKEN, public_url="https://labels.example.org/", max_sessions=8)


@pytest.mark.parametrize(
    "boundary, host, allowed",
    [
        (LOCAL, "localhost:8000", True),
        (LOCAL, "LOCALHOST:9000", True),  # an SSH tunnel on another local port
        (LOCAL, "127.0.0.1:8000", True),
        (LOCAL, "[::1]:8000", True),
        (LOCAL, "evil.example:8000", False),  # DNS rebinding: the attacker's name
        (LOCAL, "localhost.evil.example", False),
        (LOCAL, "", False),
        (LOCAL, None, False),
        (LOCAL, "a@localhost", False),
        (LOCAL, "localhost:99999", False),
        (PROXIED, "labels.example.org", True),
        (PROXIED, "127.0.0.1:8000", True),
        (PROXIED, "other.example.org", False),
    ],
)
def test_the_host_rule(boundary, host, allowed):
    assert (boundary.host_problem(host) is None) is allowed


@pytest.mark.parametrize(
    "boundary, origin, host, allowed",
    [
        (LOCAL, None, "localhost:8000", True),  # not a browser page: the token decides
        (LOCAL, "http://localhost:8000", "localhost:8000", True),
        (LOCAL, "http://[::1]:8000", "[::1]:8000", True),
        (LOCAL, "http://localhost:8001", "localhost:8000", False),  # another local server's page
        (LOCAL, "http://evil.example", "localhost:8000", False),
        (LOCAL, "null", "localhost:8000", False),
        (LOCAL, "http://localhost", "localhost", True),  # default ports on both sides
        (LOCAL, "https://localhost", "localhost", True),
        (LOCAL, "http://localhost:443", "localhost", False),
        (PROXIED, "https://labels.example.org", "127.0.0.1:8000", True),  # the proxy rewrote Host
        (PROXIED, "http://labels.example.org", "127.0.0.1:8000", False),
        (PROXIED, "https://labels.example.org:8443", "127.0.0.1:8000", False),
    ],
)
def test_the_origin_rule(boundary, origin, host, allowed):
    assert (boundary.origin_problem(origin, host) is None) is allowed


def test_the_token_rule():
    assert LOCAL.token_ok(TOKEN)
    assert not LOCAL.token_ok(None) and not LOCAL.token_ok("") and not LOCAL.token_ok(TOKEN + "x")
    assert not LOCAL.token_ok("é" * 8)  # not ASCII: compared as bytes, refused, no TypeError
    assert Boundary.of("localhost", token=None, public_url=None, max_sessions=8).token_ok(None)


def test_the_printed_address():
    assert served_url("127.0.0.1", 8123, "tok", None) == "http://127.0.0.1:8123/?token=tok"
    assert served_url("::1", 8123, None, None) == "http://[::1]:8123/"
    assert served_url("127.0.0.1", 8123, "tok", "https://labels.example.org") == "https://labels.example.org/?token=tok"


# --- options refused before anything listens ---


@pytest.fixture
def serve_command(monkeypatch):
    """serve(db, *args, env=None) -> `labeler serve` in-process up to the server, whose command is kept."""
    from click.testing import CliRunner

    from labeler.cli import cli
    from labeler.cli.serve import sessions as serving

    started: list[list[str]] = []

    def record(command, **_kwargs):
        started.append(command)

    monkeypatch.setattr(serving, "serve_sessions", record)
    monkeypatch.delenv("LABELER_SERVE_TOKEN", raising=False)

    def _serve(db, *args: str, env: dict | None = None):
        for key, value in (env or {}).items():
            monkeypatch.setenv(key, value)
        result = CliRunner().invoke(cli, ["--db", str(db), "serve", "--port", "8123", *args])
        return result, started

    return _serve


@pytest.mark.parametrize(
    "args, env, flag, fragment",
    [
        (["--max-sessions", "0"], {}, "--max-sessions", "must be a whole number from 1 to 256, not '0'"),
        (["--max-sessions", "257"], {}, "--max-sessions", "must be a whole number from 1 to 256, not '257'"),
        (["--public-url", "ftp://labels.example.org"], {}, "--public-url", "is not an http:// or https://"),
        (["--public-url", "https://labels.example.org/?a=1"], {}, "--public-url", "without a user, a query"),
        (["--public-url", "https://x:99999/"], {}, "--public-url", "is not a URL"),
        ([], {"LABELER_SERVE_TOKEN": "short"}, "LABELER_SERVE_TOKEN", "a token is 16 to 256"),
        ([], {"LABELER_SERVE_TOKEN": "a token with spaces 0123"}, "LABELER_SERVE_TOKEN", "(this one has 24"),
        (["--no-token"], {"LABELER_SERVE_TOKEN": TOKEN}, "--no-token", "LABELER_SERVE_TOKEN is set as well"),
    ],
)
def test_a_bad_serve_option_is_one_line_and_exit_2(db_path, serve_command, args, env, flag, fragment):
    with Unchanged(db_path):
        result, started = serve_command(db_path, *args, env=env)
    assert_bad_argument(result, flag, fragment)
    assert started == []
    assert TOKEN not in result.output and "a token with spaces" not in result.output  # a token is never echoed


def test_the_sessions_hold_their_names_unless_the_operator_allows_sharing(db_path, monkeypatch):
    """serve hands each session its private names folder; with --allow-shared-names it does not (and says so)."""
    from click.testing import CliRunner

    from labeler.cli import cli
    from labeler.cli.serve import sessions as serving

    commands: list[str] = []

    class Recording(serving.GuardedServer):
        def serve(self, debug: bool = False) -> None:
            commands.append(self.command)

    monkeypatch.setattr(serving, "GuardedServer", Recording)
    monkeypatch.delenv("LABELER_SERVE_TOKEN", raising=False)
    plain = CliRunner().invoke(cli, ["--db", str(db_path), "serve", "--port", "8123"])
    shared = CliRunner().invoke(cli, ["--db", str(db_path), "serve", "--port", "8123", "--allow-shared-names"])
    assert plain.exit_code == 0 and shared.exit_code == 0, (plain.output, shared.output)
    assert "--live-names" in commands[0] and "--live-names" not in commands[1]
    assert "Warning: --allow-shared-names" in shared.stderr and "Warning" not in plain.stderr


def test_the_token_from_the_environment_is_not_passed_on_to_the_sessions(db_path, serve_command):
    result, _started = serve_command(db_path, env={"LABELER_SERVE_TOKEN": TOKEN})
    assert result.exit_code == 0, result.output
    assert f"http://localhost:8123/?token={TOKEN}" in result.stderr
    assert "LABELER_SERVE_TOKEN" not in os.environ  # each session's process inherits this environment

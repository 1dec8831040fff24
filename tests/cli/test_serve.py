"""`labeler serve` serves the judging UI's page on localhost."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from answers.answer_support import add_answers
from serve_support import START, TOKEN, free_port, run_bounded, started_serve, until_recorded

from labeler.cli.serve.sessions import labeler_command, session_command
from labeler.store import Store


@pytest.mark.slow
def test_serve_answers_on_localhost(db_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "labeler", "--db", str(db_path), "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        printed = server.stderr.readline()  # the address, with the token a browser needs
        address = rf"http://localhost:{port}/\?token=[\w-]{{43}}"  # a fresh token: 32 bytes, URL-safe
        found = re.fullmatch(rf"Serving the judging UI on ({address}) \(Ctrl\+C to stop\)\.\n", printed)
        assert found, printed
        page = _get(found.group(1), time.monotonic() + START).decode()
        assert "labeler judge" in page
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def serve_in_process(monkeypatch):
    """serve(db, *args) -> `labeler --db DB serve ARGS` run in-process (CliRunner), as far as its checks go.

    These tests are about what serve refuses before it listens, not about the process (the
    subprocess tests below start real servers): the server itself is replaced by a failure,
    so a check that no longer refuses fails the test instead of serving forever.
    """
    from click.testing import CliRunner

    from labeler.cli import cli
    from labeler.cli.serve import sessions as serving

    def never(*_args, **_kwargs):
        raise AssertionError("serve got past its checks and would listen")

    monkeypatch.setattr(serving, "serve_sessions", never)

    def _serve(db, *args: str):
        return CliRunner().invoke(cli, ["--db", str(db), "serve", *args])

    return _serve


def test_serve_refuses_a_missing_workbench(tmp_path, serve_in_process):
    out = serve_in_process(tmp_path / "none.db")
    assert out.exit_code == 1 and "no workbench here (run 'labeler init'" in out.stderr, out.output
    assert not (tmp_path / "none.db").exists()


def test_serve_checks_the_order_model_and_stopping_rule_before_it_listens(db_path, serve_in_process):
    """Each browser session would refuse them; serve says so once, before anything listens (exit 2)."""
    out = serve_in_process(db_path, "--order", "uncertainty")
    assert out.exit_code == 2 and "--model" in out.stderr, out.output
    out = serve_in_process(db_path, "--order", "uncertainty", "--model", "gpt")
    assert out.exit_code == 2 and "no labels of model 'gpt'" in out.stderr, out.output
    out = serve_in_process(db_path, "--stop", "windw")
    assert out.exit_code == 2 and "--stop" in out.stderr, out.output


def test_a_session_command_carries_the_model_and_the_stopping_rule(db_path):
    command = session_command(db_path, order="uncertainty", seed=0, pool=None, model="gpt", stop="knee:40")
    assert command[command.index("--model") + 1] == "gpt"
    assert command[command.index("--stop") + 1] == "knee:40"
    plain = session_command(db_path, order="pool", seed=0, pool=None)
    assert "--model" not in plain and plain[plain.index("--stop") + 1] == "window:10"


def test_a_session_command_carries_the_answers_task_and_runs(db_path):
    command = session_command(db_path, order="pool", seed=0, pool=None, answers="support", runs="rag1,rag2")
    assert command[command.index("--answers") + 1] == "support"
    assert command[command.index("--runs") + 1] == "rag1,rag2"
    assert "--ask-assessor" in command  # a browser session of answers asks for its name too
    plain = session_command(db_path, order="pool", seed=0, pool=None)
    assert "--answers" not in plain and "--runs" not in plain


def test_serve_checks_the_answer_runs_before_it_listens(db_path, serve_in_process):
    """Runs without --answers, an unknown answer run: one line, before anything listens, the workbench untouched."""
    from badinput.badinput_support import Unchanged, assert_bad_argument, assert_no_crash

    with Store(db_path) as store:
        add_answers(store, "rag1", {"1": [("An answer.", [])]})
    with Unchanged(db_path):
        assert_bad_argument(serve_in_process(db_path, "--runs", "rag1"), "--runs", "--answers")
        out = serve_in_process(db_path, "--answers", "nuggets", "--runs", "rag1,nope")
        assert_no_crash(out)
        assert_bad_argument(out, "--runs", "no answer run named 'nope'")  # as judge --answers says it
        out = serve_in_process(db_path, "--answers", "claims")
        assert out.exit_code == 2 and "--answers" in out.stderr and "Traceback" not in out.output, out.output


async def _in_browser(port: int, deadline: float, act, host: str = "localhost"):
    """Drive serve's websocket as the browser page does (with the token): `act(session)`, its result returned."""
    import aiohttp
    from serve_support import Session

    async with aiohttp.ClientSession() as http:
        while True:  # the server may still be starting
            try:
                ws = await http.ws_connect(f"http://{host}:{port}/ws/{TOKEN}?width=120&height=40")
                break
            except aiohttp.ClientError:
                assert time.monotonic() < deadline, "serve never accepted the websocket"
                await asyncio.sleep(0.3)
        async with ws:
            return await act(Session(ws, deadline))


async def _browser_session(port: int, db_path, deadline: float, host: str = "localhost") -> str:
    """Type a name, press a grade; the event recorded."""

    async def act(session) -> str:
        await session.name("alice")
        await session.judge("alice", "2")
        [event] = await until_recorded(db_path, 1, deadline)
        return " ".join(map(str, event))

    return await _in_browser(port, deadline, act, host)


@pytest.mark.slow
def test_a_browser_session_asks_for_a_name_and_judges_as_it(run_cli, write, db_path):
    """End to end through textual-serve's websocket, the channel a browser uses: no judgment before a name."""
    run_cli("runs", "import", write("r.run", "1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n"), "--name", "r", "--allow-unknown")
    run_cli("pool", "build", "--depth", "5")
    with started_serve(db_path) as served:
        recorded = run_bounded(_browser_session(served.port, db_path, time.monotonic() + START, host="127.0.0.1"))
    assert recorded == "alice 1 a 2"


async def _browser_answers_session(port: int, db_path, deadline: float) -> list[tuple[str, str, int]]:
    """On the nugget assignment screen: a name, then the first nugget graded 2; the grades recorded."""

    async def act(session) -> list[tuple[str, str, int]]:
        await session.name("alice")
        await session.read_until("Nuggets (vital first)")  # the screen is up: a key now is not lost
        await session.type("2")
        while not (grades := _answer_grades(db_path)):
            assert time.monotonic() < deadline, "the browser session's grade was never recorded"
            await asyncio.sleep(0.1)
        return grades

    return await _in_browser(port, deadline, act, "127.0.0.1")


def _answer_grades(db_path) -> list[tuple[str, str, int]]:
    with Store(db_path) as store:
        return [(e.assessor, e.topic_id, e.grade) for e in store.unit_events("nugget:rag1") if e.kind == "grade"]


@pytest.mark.slow
def test_a_browser_session_judges_answers_with_serve_answers(db_path):
    """serve --answers nuggets: the sessions run the nugget assignment screen, asking for the name first."""
    from answers.answer_support import add_nuggets

    with Store(db_path) as store:
        add_answers(store, "rag1", {"1": [("Armyworms eat maize.", [])]})
        add_nuggets(store, "1", [("armyworm eats maize", "vital")])
    with started_serve(db_path, "--answers", "nuggets", "--runs", "rag1") as served:
        recorded = run_bounded(_browser_answers_session(served.port, db_path, time.monotonic() + START))
    assert recorded == [("alice", "1", 2)]


# --- serve starts from any folder, refuses a busy port in one line, and serves a page that stays offline ---


@pytest.fixture
def decoy(tmp_path) -> Path:
    """A folder holding a `labeler/` package that is not labeler: the parent folder of a checkout."""
    folder = tmp_path / "parent-of-a-checkout"
    (folder / "labeler").mkdir(parents=True)
    (folder / "labeler" / "__init__.py").write_text('raise SystemExit("DECOY labeler imported")\n')
    (folder / "labeler" / "__main__.py").write_text('raise SystemExit("DECOY labeler imported")\n')
    return folder


def test_the_decoy_shadows_python_dash_m(decoy):
    """The trap is real: `python -m labeler`, what serve used to run, imports the folder next to it."""
    out = subprocess.run(
        [sys.executable, "-m", "labeler", "--version"], cwd=decoy, capture_output=True, text=True, timeout=60
    )
    assert "DECOY" in out.stderr


def test_the_child_command_runs_the_installed_labeler_from_any_folder(decoy):
    from labeler import __version__

    out = subprocess.run(labeler_command("--version"), cwd=decoy, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, f"labeler, version {__version__}\n", "")


def test_a_session_command_names_the_workbench_by_its_absolute_path(db_path, decoy, monkeypatch):
    monkeypatch.chdir(db_path.parent)
    command = session_command(db_path.name, order="pool", seed=0, pool=None)
    assert command[command.index("--db") + 1] == str(db_path.resolve())
    assert "--served" in command  # a browser session writes no file on the server (downloads instead)
    # and it runs, from the decoy folder, as the installed labeler (here: its help, not the UI)
    out = subprocess.run([*command, "--help"], cwd=decoy, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "--ask-assessor" in out.stdout and "DECOY" not in out.stderr


@pytest.mark.slow
def test_a_browser_session_works_when_serve_starts_beside_a_decoy_labeler(run_cli, write, db_path, decoy):
    """Started from the parent folder of a checkout, each session still runs the installed labeler."""
    run_cli("runs", "import", write("r.run", "1 Q0 a 1 2.0 r\n"), "--name", "r", "--allow-unknown")
    run_cli("pool", "build", "--depth", "5")
    with started_serve(db_path, cwd=decoy) as served:
        recorded = run_bounded(_browser_session(served.port, db_path, time.monotonic() + START, host="127.0.0.1"))
    assert recorded == "alice 1 a 2"


def _serve(db_path, *args: str, code: str | None = None) -> subprocess.CompletedProcess:
    command = labeler_command if code is None else (lambda *a: [sys.executable, "-c", code, *a])
    env = {**os.environ, "LABELER_SERVE_TOKEN": TOKEN}
    return subprocess.run(
        command("--db", str(db_path), "serve", *args), capture_output=True, text=True, timeout=60, env=env
    )


def _assert_one_line_error(out, *fragments: str, after: str = "") -> None:
    """Exit 1 and one `Error: ...` line on stderr, of a process or of an in-process (CliRunner) result."""
    returncode = out.returncode if isinstance(out, subprocess.CompletedProcess) else out.exit_code
    assert returncode == 1, out
    if not isinstance(out, subprocess.CompletedProcess):
        assert isinstance(out.exception, SystemExit), out.exc_info  # refused, not raised
    assert out.stdout == ""
    assert out.stderr.startswith(after), out.stderr
    error = out.stderr[len(after) :]
    assert error.count("\n") == 1 and error.startswith("Error: "), out.stderr
    assert "Traceback" not in out.stderr
    for fragment in fragments:
        assert fragment in out.stderr


@pytest.fixture
def busy_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_a_busy_port_is_one_line(db_path, busy_port, serve_in_process):
    out = serve_in_process(db_path, "--host", "127.0.0.1", "--port", str(busy_port))
    _assert_one_line_error(out, f"port {busy_port} on 127.0.0.1 is in use", "choose another with --port")


def test_a_port_taken_after_the_check_is_one_line_too(db_path, busy_port):
    """The bind inside textual-serve (aiohttp) raises OSError: caught, not a traceback. (serve has
    already said where it was about to listen, so here the error is the line after that one.)"""
    code = (
        "import labeler.cli.serve.sessions as s; s.check_can_listen = lambda host, port: None; "
        "from labeler.cli import main; main()"
    )
    out = _serve(db_path, "--host", "127.0.0.1", "--port", str(busy_port), code=code)
    _assert_one_line_error(
        out,
        f"port {busy_port} on 127.0.0.1 is in use",
        "choose another with --port",
        after=f"Serving the judging UI on http://127.0.0.1:{busy_port}/?token={TOKEN} (Ctrl+C to stop).\n",
    )


@pytest.mark.parametrize(
    "host, fragment",
    [  # each refused without a DNS query: loopback only
        ("a..b", "--host a..b: not an address or a name this machine can resolve"),
        ("x" * 64 + ".invalid", "not an address or a name this machine can resolve"),
        ("192.0.2.1", "--host 192.0.2.1: 192.0.2.1 is not an address of this machine"),  # TEST-NET-1
        ("a\x1b]2;owned\x07..b", "--host a\\x1b]2;owned\\x07..b: not an address"),  # shown, not obeyed
    ],
)
def test_a_bad_host_is_one_line(db_path, host, fragment, serve_in_process):
    _assert_one_line_error(serve_in_process(db_path, "--host", host, "--port", str(free_port())), fragment)


class _References(HTMLParser):
    """Every URL a page can make the browser load: attributes, inline styles and scripts."""

    ATTRIBUTES = {"href", "src", "srcset", "poster", "data", "action", "formaction", "background", "manifest"}

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self._in = tag
        for name, value in attrs:
            if value is None:
                continue
            if name in self.ATTRIBUTES:
                self.urls += (
                    [part.split()[0] for part in value.split(",") if part.strip()] if name == "srcset" else [value]
                )
            elif name == "style":
                self.urls += css_urls(value)
            elif name.startswith("data-") and re.match(r"\s*[a-z][a-z0-9+.-]*://", value, re.I):
                self.urls.append(value.strip())

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "style":
            self.urls += css_urls(data)
        elif self._in == "script":  # a script could fetch anything: flag every absolute URL it spells out
            self.urls += re.findall(r"""[a-z][a-z0-9+.-]*://[^\s"'`)]+""", data, re.I)


def css_urls(css: str) -> list[str]:
    return [
        m.group(2) or m.group(3)
        for m in re.finditer(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+['"]([^'"]+)['"]""", css, re.I)
    ]


def external(urls: list[str], own: str) -> list[str]:
    from urllib.parse import urljoin, urlsplit

    host = urlsplit(own).netloc
    return [u for u in urls if urlsplit(urljoin(own, u)).netloc not in ("", host)]


def test_the_reference_parser_sees_what_the_stock_page_loads_from_the_internet():
    """The parser below would catch textual-serve's own page, which loads its font from Google."""
    import textual_serve

    stock = (Path(textual_serve.__file__).parent / "templates" / "app_index.html").read_text()
    parser = _References()
    parser.feed(stock)
    assert any("fonts.googleapis.com" in u for u in external(parser.urls, "http://127.0.0.1:8000/"))


def _get(url: str, deadline: float) -> bytes:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.read()
        except OSError:
            assert time.monotonic() < deadline, f"serve never answered {url}"
            time.sleep(0.3)


@pytest.mark.slow
def test_the_served_page_loads_nothing_from_another_host(db_path):
    with started_serve(db_path) as served:
        own = f"{served.base}/"
        deadline = time.monotonic() + START
        page = _get(served.page(), deadline).decode()
        parser = _References()
        parser.feed(page)
        assert "labeler judge" in page
        assert {"static/css/xterm.css", "static/js/textual.js"} <= set(parser.urls)
        assert any(u.endswith(".ttf") for u in parser.urls), "the font comes from this server"
        assert external(parser.urls, own) == []
        # nothing in the page names another host at all, not even in a comment
        assert [u for u in re.findall(r"https?://[^\s\"'<>)]+", page) if not u.startswith(own)] == []
        from urllib.parse import urljoin

        for url in parser.urls:  # every reference is served here, and the stylesheets load nothing else
            if url.startswith("ws:"):
                continue  # the websocket, which the page's script points at this server anyway
            body = _get(urljoin(own, url), deadline)
            assert body, url
            if url.endswith(".css"):
                assert external(css_urls(body.decode()), urljoin(own, url)) == []

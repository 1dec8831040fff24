"""Outside retrievers: `command:CMD` (topics on stdin, a run on stdout) and `labeler.retrievers` entry points."""

from __future__ import annotations

import importlib.metadata
import shlex
import sys
from pathlib import Path

import pytest

from labeler.retrievers import registry

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Ranks d1 and d3 for every topic it reads (scores tie on purpose); its tag says the depth it was told.
ECHO = """\
import json, os, sys
tag = "depth" + os.environ["LABELER_RETRIEVE_DEPTH"] + "-" + os.environ["LABELER_RETRIEVE_UNIT"]
for line in sys.stdin:
    topic = json.loads(line)
    print(f"{topic['id']} Q0 d1 1 1.0 {tag}")
    print(f"{topic['id']} Q0 d3 2 1.0 {tag}")
"""


def command(script: Path, *args: str) -> str:
    return "command:" + " ".join(shlex.quote(part) for part in (sys.executable, str(script), *args))


def test_a_command_makes_a_run_from_the_topics_it_reads(hand_cli, write, stored_units):
    result = hand_cli.json("runs", "retrieve", "--retriever", command(write("echo.py", ECHO)), "--name", "cmd")
    assert result["topics"] == 5 and result["entries"] == 10
    assert stored_units("cmd", "1") == ["d3", "d1"]  # a tie: canonical order, unit id descending
    assert result["tags"] == ["depth100-doc"]
    assert result["policies"]["retriever"].startswith("command:") and "echo.py" in result["policies"]["retriever"]
    assert result["policies"]["retriever_params"]["command"].endswith("echo.py")


def test_a_command_gets_only_the_chosen_topics_and_is_cut_at_depth(hand_cli, write, stored_units):
    result = hand_cli.json(
        "runs",
        "retrieve",
        "--retriever",
        command(write("echo.py", ECHO)),
        "--name",
        "cmd",
        "--topics",
        "2",
        "--depth",
        "1",
    )
    assert (result["topics"], result["entries"]) == (1, 1)
    assert stored_units("cmd", "2") == ["d3"]


def test_the_example_script_works_as_a_command(hand_cli, corpus_file, stored_units):
    script = EXAMPLES / "retriever_plugin.py"
    hand_cli("runs", "retrieve", "--retriever", command(script, str(corpus_file)), "--name", "overlap")
    # "chase mice": only d1 holds both words.
    assert stored_units("overlap", "3")[0] == "d1"


@pytest.mark.parametrize(
    ("script", "message"),
    [
        # (what the command does, what the error says)
        ("import sys; print('boom', file=sys.stderr); sys.exit(3)", "failed with exit code 3; it said: boom"),
        ("print('1 Q0 d1 1 1.0 t'); print('1 Q0 d2 x')", "bad.py':2: expected 6 fields"),
        ("print('1 Q0 d1 1 high t')", "bad.py':1: score 'high' is not a number"),
        ("pass", "empty run: no result lines"),
        (
            "print('1 Q0 d1 1 1 t'); print('1 Q0 d1 2 0.5 t')",
            "bad.py':2: duplicate id 'd1' in the ranking of topic '1'",
        ),
        ("print('1 Q0 nope 1 1 t')", "returned 1 id not in the corpus, e.g. nope"),
        ("print('99 Q0 d1 1 1 t')", "bad.py':1: topic '99' was not asked for"),
    ],
)
def test_a_failing_command_or_a_bad_run_is_refused_naming_the_command(hand_cli, write, db_path, script, message):
    from support import dump

    before = dump(db_path)
    result = hand_cli("runs", "retrieve", "--retriever", command(write("bad.py", script)), "--name", "r", expect=1)
    assert result.stderr.startswith("Error: ")
    assert "bad.py" in result.stderr
    assert message in result.stderr
    assert dump(db_path) == before


def test_a_command_that_cannot_start_is_named(hand_cli):
    result = hand_cli("runs", "retrieve", "--retriever", "command:/no/such/retriever --fast", "--name", "r", expect=1)
    assert "retriever command '/no/such/retriever --fast' could not start" in result.stderr


def test_an_empty_command_is_refused(hand_cli):
    result = hand_cli("runs", "retrieve", "--retriever", "command:", "--name", "r", expect=1)
    assert "needs a command" in result.stderr


# -- entry points -----------------------------------------------------------------------------------------


class Recorder:
    """A plug-in that ranks units by how many times the query's first word occurs, and keeps what it saw."""

    seen: list[tuple[str, str]] = []

    def __init__(self, boost: float = 1.0):
        self.boost = boost

    def index(self, units):
        Recorder.seen = list(units)

    def search(self, query, k):
        word = query.split()[0].lower() if query.split() else ""
        hits = [(unit_id, self.boost * text.split().count(word)) for unit_id, text in Recorder.seen]
        return [hit for hit in hits if hit[1] > 0][:k]


class Broken:
    def index(self, units):
        pass

    def search(self, query, k):
        return [("d1", float("nan"))]


class Crashing(Broken):
    def search(self, query, k):
        raise RuntimeError("index is corrupt")


@pytest.fixture
def plugins(monkeypatch):
    """plugins(name=value, ...) registers fake `labeler.retrievers` entry points."""

    def _register(**points: str) -> None:
        found = [importlib.metadata.EntryPoint(name, value, registry.GROUP) for name, value in points.items()]
        original = importlib.metadata.entry_points

        def entry_points(**selection):
            if selection.get("group") == registry.GROUP:
                return found
            return original(**selection)

        monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)

    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.syspath_prepend(str(EXAMPLES))
    return _register


def test_an_entry_point_plugin_runs_like_a_builtin(hand_cli, plugins, stored_units):
    plugins(recorder="test_retriever_plugins:Recorder")
    result = hand_cli.json(
        "runs", "retrieve", "--retriever", "recorder", "--name", "p", "--param", "boost=2", "--unit", "chunk:w3"
    )
    assert dict(Recorder.seen)["d2#1"] == "day and cats"  # it was given the chunk texts
    assert stored_units("p", "1") == ["d3#0", "d2#1", "d2#0", "d1#0"]  # all tie at 2.0: unit id descending
    assert result["policies"]["retriever"] == "recorder"
    assert result["policies"]["retriever_params"] == {"boost": 2}  # no params attribute: what it was given
    assert result["policies"]["retriever_version"] == "unknown"


def test_the_example_plugin_records_its_name_version_and_params(hand_cli, plugins, stored_units):
    plugins(overlap="retriever_plugin:OverlapRetriever")
    assert "overlap" in registry.RETRIEVERS.names()
    result = hand_cli.json("runs", "retrieve", "--retriever", "overlap", "--name", "o", "--param", "min_words=2")
    assert result["policies"]["retriever_params"] == {"min_words": 2}
    assert result["policies"]["retriever_version"] == "1"
    assert stored_units("o", "3") == ["d1"]  # the only document with both "chase" and "mice"


def test_builtins_win_over_a_plugin_of_the_same_name(hand_cli, plugins):
    plugins(ql="test_retriever_plugins:Broken")
    assert hand_cli.json("runs", "retrieve", "--retriever", "ql", "--name", "q")["policies"]["retriever_version"] == "1"


@pytest.mark.parametrize(
    ("point", "args", "message"),
    [
        ("test_retriever_plugins:Broken", (), "retriever 'plug' returned ('d1', nan) for topic '1'"),
        ("test_retriever_plugins:Crashing", (), "retriever 'plug' failed: RuntimeError: index is corrupt"),
        (
            "test_retriever_plugins:NoSuchClass",
            (),
            "retriever plug-in 'plug' (test_retriever_plugins:NoSuchClass) failed to load",
        ),
        (
            "test_retriever_plugins:Recorder",
            ("--param", "colour=red"),
            "retriever 'plug' takes no parameter colour (it takes boost)",
        ),
        ("retriever_plugin:OverlapRetriever", ("--param", "min_words=0"), "min_words must be 1 or more"),
        ("builtins:object", (), "retriever plug-in 'plug' (builtins:object) has no index() method"),
    ],
)
def test_a_broken_plugin_is_named_in_one_line(hand_cli, plugins, db_path, point, args, message):
    plugins(plug=point)
    result = hand_cli("runs", "retrieve", "--retriever", "plug", "--name", "p", *args, expect=1)
    assert message in result.stderr
    assert "Traceback" not in result.stderr

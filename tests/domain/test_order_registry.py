"""A judging order is one function plus one registration: every front end then offers it.

The toy order below ("reverse": the pool order backwards) is registered by the
test itself and must show up, with no other edit, in `labeler judge --help`,
`labeler queue --help`, the TUI's order picker (reached through the command
palette) and `labeler queue --order reverse`; then it is unregistered. The same
holds for pooling strategies and `labeler pool build --strategy`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import palette, until
from textual.widgets import OptionList

from labeler.cli import cli
from labeler.ordering import ORDERS, OrderInput, pool_order
from labeler.pooling import STRATEGIES, PoolRequest, Runs, depth_pool
from labeler.store import Store
from labeler.workbench.corpus import import_corpus
from labeler.workbench.init import init_workbench
from labeler.workbench.pools import build_pool
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

DOCS = Path(__file__).resolve().parents[2] / "docs"
CORPUS = "".join(json.dumps({"id": f"d{i}", "title": f"t{i}", "text": f"text {i}"}) + "\n" for i in range(1, 5))
RUN = "1 Q0 d1 1 9 r\n1 Q0 d2 2 8 r\n1 Q0 d3 3 7 r\n1 Q0 d4 4 6 r\n"


@pytest.fixture
def reverse():
    """The toy order, registered for one test: one function and one registration."""

    @ORDERS.register("reverse", label="reversed pool rank", doc="worst rank first")
    def reverse_order(given: OrderInput) -> list[str]:
        return pool_order(given.entries)[::-1]

    yield "reverse"
    ORDERS.unregister("reverse")


@pytest.fixture
def workbench(tmp_path):
    """One topic, four documents, one run, a depth-4 pool: pool order d1 d2 d3 d4."""
    db = tmp_path / "wb.db"
    init_workbench(db)
    (tmp_path / "corpus.jsonl").write_text(CORPUS)
    (tmp_path / "topics.tsv").write_text("1\tmaize\tmaize?\tmaize.\n")
    (tmp_path / "run.txt").write_text(RUN)
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.tsv")
        import_run(store, tmp_path / "run.txt", "bm25")
        build_pool(store, 4)
    return db


def run(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)


def test_the_built_in_orders_are_registered_in_their_listed_order():
    assert ORDERS.names() == ("pool", "rrf", "mtf", "random", "maxmean", "hedge", "uncertainty")
    assert [o.name for o in ORDERS.values() if o.seeded] == ["random"]


def test_a_name_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="already registered"):
        ORDERS.register("pool", label="x", doc="x")(lambda given: [])
    with pytest.raises(ValueError, match="already registered"):
        STRATEGIES.register("depth", doc="x")(lambda runs, request: {})


@pytest.mark.parametrize("command", [["judge"], ["queue"], ["next"], ["serve"], ["judgments", "add"]])
def test_a_registered_order_is_a_choice_in_every_order_option(reverse, command):
    text = CliRunner().invoke(cli, [*command, "--help"]).output
    assert "[pool|rrf|mtf|random|maxmean|hedge|uncertainty|reverse]" in text


@pytest.mark.parametrize("command", ["judge", "queue"])
def test_a_registered_order_is_named_in_the_help_text(reverse, command):
    text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
    assert "seeded random, MaxMean, Hedge, model uncertainty, or reversed pool rank." in text


def test_the_help_text_is_read_from_the_registry_not_frozen():
    from labeler.cli.queue import queue

    [order] = [param for param in queue.params if param.name == "order"]
    assert order.help == (
        "Judging order: pool rank, RRF score, Move-to-Front, seeded random, MaxMean, Hedge, or model uncertainty."
    )
    assert "reverse" not in CliRunner().invoke(cli, ["queue", "--help"]).output


def test_queue_uses_a_registered_order(workbench, reverse):
    result = run(workbench, "queue", "--assessor", "ann", "--topic", "1", "--order", "reverse", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert [item["unit"] for item in shown["next"]] == ["d4", "d3", "d2", "d1"]
    assert (shown["order"], shown["seed"]) == ("reverse", None)


def test_an_unregistered_order_is_refused_again(workbench, reverse):
    ORDERS.unregister("reverse")
    result = CliRunner().invoke(cli, ["--db", str(workbench), "queue", "--assessor", "ann", "--order", "reverse"])
    assert result.exit_code == 2 and "'reverse' is not one of 'pool', 'rrf', 'mtf', 'random'" in result.output
    ORDERS.register("reverse", label="r", doc="r")(lambda given: [])  # for the fixture to unregister


def test_the_service_refuses_an_unregistered_order_as_a_bad_argument():
    from labeler.errors import BadArgumentError
    from labeler.workbench.queue import check_order

    with pytest.raises(BadArgumentError) as refused:
        check_order("backwards")
    assert refused.value.argument == "order"
    assert refused.value.reason == (
        "unknown judging order 'backwards': choose one of pool, rrf, mtf, random, maxmean, hedge, uncertainty"
    )


async def test_the_tui_order_picker_offers_a_registered_order_and_judges_in_it(workbench, reverse):
    from labeler.tui import JudgeRequest, make_app
    from labeler.tui.screens.prompt import ChoicePrompt

    app = make_app(JudgeRequest(db_path=workbench, assessor="ann"))
    async with app.run_test(size=(120, 40)) as pilot:
        await palette(pilot, "Change order")
        await until(
            pilot, lambda: isinstance(app.screen, ChoicePrompt) and app.screen.focused is not None, "the picker"
        )
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels[-1] == "reverse: worst rank first"
        options.highlighted = len(labels) - 1
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, ChoicePrompt), "the picker closed")
        await app.workers.wait_for_complete()
        assert app.session.order == "reverse"
        assert app.session.current.unit_id == "d4"
        await pilot.press("1")
        await until(pilot, lambda: app.session.current is None or app.session.current.unit_id != "d4", "graded d4")
        await app.workers.wait_for_complete()
    with Store(workbench) as store:
        [event] = [e for e in store.recent_events(limit=10) if e.kind == "grade"]
    assert (event.unit_id, event.order, event.seed) == ("d4", "reverse", None)


# -- pooling strategies ---------------------------------------------------------------------------


@pytest.fixture
def shallow():
    """A toy strategy: each run's top 1, whatever the depth asked for."""

    @STRATEGIES.register("shallow", doc="each run's top unit")
    def shallow_pool(runs: Runs, request: PoolRequest):
        return depth_pool(runs, 1)

    yield "shallow"
    STRATEGIES.unregister("shallow")


def test_the_built_in_strategies_are_registered():
    assert STRATEGIES.names() == ("depth", "rrf")


def test_a_registered_strategy_is_a_choice_and_builds_a_pool(workbench, shallow):
    text = " ".join(CliRunner().invoke(cli, ["pool", "build", "--help"]).output.split())
    assert "[depth|rrf|shallow]" in text
    assert "reciprocal rank fusion, or each run's top unit." in text
    result = run(workbench, "pool", "build", "--depth", "3", "--strategy", "shallow", "--json")
    assert result.exit_code == 0, result.output
    built = json.loads(result.output)
    assert (built["strategy"], built["pairs"], built["params"]) == ("shallow", 1, {"run_depths": {}})


def test_rrf_still_records_its_constant(workbench):
    built = json.loads(
        run(workbench, "pool", "build", "--depth", "2", "--strategy", "rrf", "--rrf-k", "10", "--json").output
    )
    assert built["params"] == {"run_depths": {}, "rrf_k": 10}


# -- the docs list exactly the registered orders and strategies -----------------------------------


def option_rows(text: str, option: str) -> list[set[str]]:
    """The choice sets of every `| --option a\\|b |` table row and `[--option a|b]` synopsis in a doc."""
    opt = re.escape(option)
    found = re.findall(rf"^\| `{opt} ([a-z|\\]+)`", text, re.M) + re.findall(rf"\[{opt} ([a-z|]+)\]", text)
    return [set(choices.replace("\\", "").split("|")) for choices in found]


@pytest.mark.parametrize("doc", ["cli.md", "tui.md"])
def test_the_docs_list_exactly_the_registered_orders(doc):
    rows = option_rows((DOCS / doc).read_text(), "--order")
    assert rows, f"docs/{doc} lists no --order choices"
    for row in rows:
        assert row == set(ORDERS.names()), f"docs/{doc} lists --order {sorted(row)}, the registry {ORDERS.names()}"


def test_the_tui_doc_describes_every_registered_order():
    tui = (DOCS / "tui.md").read_text().split("## Changing the order", 1)[1].split("\n## ", 1)[0]
    for name in ORDERS.names():
        assert f"`{name}`" in tui, f"docs/tui.md's 'Changing the order' does not describe {name}"


def test_the_guide_table_of_orders_is_generated_and_a_registered_order_joins_it(reverse):
    """The toy order needs no doc edit: the generator's table has its row, so the committed docs are stale."""
    from labeler.cli.common.doc_tables import orders_table, stale_tables

    assert "| `reverse` | reversed pool rank | worst rank first |  |  |" in orders_table().splitlines()
    assert "guide.md: orders" in stale_tables()
    ORDERS.unregister("reverse")
    assert "reverse" not in orders_table() and stale_tables() == []
    ORDERS.register("reverse", label="r", doc="r")(lambda given: [])  # for the fixture to unregister


def test_a_registered_strategy_joins_the_generated_table(shallow):
    from labeler.cli.common.doc_tables import stale_tables, strategies_table

    assert "| `shallow` | each run's top unit | — |" in strategies_table().splitlines()
    assert stale_tables() == ["cli.md: strategies"]


def test_the_cli_doc_lists_exactly_the_registered_strategies():
    rows = option_rows((DOCS / "cli.md").read_text(), "--strategy")
    assert rows == [set(STRATEGIES.names())]

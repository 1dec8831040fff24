"""MaxMean and Hedge in live judging: `queue`, `next`, `judgments add` and the TUI, on Toy-2 (three runs of five)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from support import listening, notices, palette, until

from labeler.cli import cli
from labeler.ordering import hedge_order, maxmean_order
from labeler.store import Store
from labeler.workbench.corpus import import_corpus
from labeler.workbench.init import init_workbench
from labeler.workbench.pools import build_pool
from labeler.workbench.runs import import_run
from labeler.workbench.topics import import_topics

TOY2 = {"A": "d1 d2 d3 d4 d5".split(), "B": "d2 d6 d1 d7 d8".split(), "C": "d9 d6 d10 d2 d11".split()}
RELEVANT = {"d1", "d2", "d4", "d6", "d9"}


@pytest.fixture
def toy2(tmp_path):
    db = tmp_path / "wb.db"
    init_workbench(db)
    corpus = "".join(json.dumps({"id": f"d{i}", "title": f"t{i}", "text": f"text {i}"}) + "\n" for i in range(1, 12))
    (tmp_path / "corpus.jsonl").write_text(corpus)
    (tmp_path / "topics.tsv").write_text("1\tmaize\tmaize?\tmaize.\n")
    with Store(db) as store:
        import_corpus(store, tmp_path / "corpus.jsonl")
        import_topics(store, tmp_path / "topics.tsv")
        for run, ranking in TOY2.items():
            path = tmp_path / f"{run}.txt"
            path.write_text("".join(f"1 Q0 {u} {r} {10 - r} {run}\n" for r, u in enumerate(ranking, 1)))
            import_run(store, path, run)
        build_pool(store, 5)
    return db


def cli_json(db, *args):
    result = CliRunner().invoke(cli, ["--db", str(db), *args, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(("order", "function"), [("maxmean", maxmean_order), ("hedge", hedge_order)])
def test_queue_follows_the_order_and_learns_from_each_judgment(toy2, order, function):
    judged: dict[str, bool] = {}
    for _ in range(4):
        shown = cli_json(toy2, "queue", "--assessor", "ann", "--topic", "1", "--order", order)
        assert shown["order"] == order
        expected = [u for u in function(TOY2, judged) if u not in judged]
        assert [item["unit"] for item in shown["next"]] == expected
        unit = expected[0]
        grade = "1" if unit in RELEVANT else "0"
        event = cli_json(toy2, "judgments", "add", "1", unit, grade, "--assessor", "ann", "--order", order)
        assert event["unit_id"] == unit
        judged[unit] = unit in RELEVANT
    with Store(toy2) as store:
        events = [e for e in store.recent_events(limit=20) if e.kind == "grade"]
    assert {(e.order, e.seed) for e in events} == {(order, None)}
    # Four judgments in, the judged prefix is the hand-worked order's (MaxMean A6: d1 d2 d3 d6; Hedge: d2 d1 d6 d9).
    assert list(judged) == function(TOY2, {u: u in RELEVANT for u in "d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 d11".split()})[:4]


def test_next_claims_the_maxmean_unit(toy2):
    # No labels: MaxMean starts on run A (all means 1/2, run order), so d1.
    shown = cli_json(toy2, "next", "--assessor", "ann", "--topic", "1", "--order", "maxmean")
    assert (shown["unit"], shown["position"], shown["remaining"]) == ("d1", 1, 11)
    # After d1 is judged non-relevant, A and B fall to 1/3 and C (1/2) is drawn: d9.
    cli_json(toy2, "judgments", "add", "1", "d1", "0", "--assessor", "ann", "--order", "maxmean")
    assert cli_json(toy2, "next", "--assessor", "ann", "--topic", "1", "--order", "maxmean")["unit"] == "d9"


async def test_the_tui_judges_in_maxmean_and_records_it(toy2):
    from labeler.tui import JudgeRequest, make_app

    app = make_app(JudgeRequest(db_path=toy2, assessor="ann", topic="1", order="maxmean"))
    shown = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(5):
            unit = app.session.current.unit_id
            shown.append(unit)
            await pilot.press("1" if unit in RELEVANT else "0")
            await pilot.pause()
    # MaxMean on Toy-2 with each label as it comes: A6's first five pulls.
    assert shown == ["d1", "d2", "d3", "d6", "d7"]
    with Store(toy2) as store:
        events = [e for e in store.recent_events(limit=10) if e.kind == "grade"]
    assert sorted(e.unit_id for e in events) == sorted(shown)
    assert {e.order for e in events} == {"maxmean"}


async def test_the_tui_order_picker_offers_hedge_and_the_event_records_it(toy2):

    from labeler.tui import JudgeRequest, make_app

    app = make_app(JudgeRequest(db_path=toy2, assessor="ann", topic="1"))
    async with app.run_test(size=(120, 40)) as pilot:
        await choose_order(app, pilot, "hedge")
        assert app.session.order == "hedge"
        # No labels: Hedge's first pull is d2 (A2 + B1 + C4 = 241/120, the highest value under uniform weights).
        assert app.session.current.unit_id == "d2"
        await pilot.press("1")
        await until(pilot, lambda: app.session.current.unit_id != "d2", "d2 graded")
        # d2 relevant: d1 (64.9 against d6's 53.8 in test_hedge_on_toy2) comes next.
        assert app.session.current.unit_id == "d1"
    with Store(toy2) as store:
        [event] = [e for e in store.recent_events(limit=10) if e.kind == "grade"]
    assert (event.unit_id, event.order, event.seed) == ("d2", "hedge", None)


async def test_the_order_picker_refuses_uncertainty_without_a_model(toy2):
    """`uncertainty` ranks by a model's labels: chosen in a session started without --model, the order stays."""

    from labeler.tui import JudgeRequest, make_app

    app = make_app(JudgeRequest(db_path=toy2, assessor="ann", topic="1", order="mtf"))
    async with app.run_test(size=(120, 40), message_hook=listening(app)) as pilot:
        await choose_order(app, pilot, "uncertainty")
        assert app.session.order == "mtf"
        assert any("--model NAME" in str(n.message) for n in notices(app))


async def choose_order(app, pilot, name: str) -> None:
    """Pick `name` in the judging screen's order picker (the palette's Change order), as a user does."""
    from textual.widgets import OptionList

    from labeler.tui.screens.prompt import ChoicePrompt

    await palette(pilot, "Change order")
    await until(pilot, lambda: isinstance(app.screen, ChoicePrompt) and app.screen.focused is not None, "the picker")
    options = app.screen.query_one(OptionList)
    labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    [index] = [i for i, label in enumerate(labels) if label.startswith(f"{name}: ")]
    options.highlighted = index
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, ChoicePrompt), "the picker closed")
    await app.workers.wait_for_complete()

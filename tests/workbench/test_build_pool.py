"""Building a pool topic by topic through the store's staging table.

The pool must equal the one `labeler.pooling` computes in memory from the same
rankings, the report must equal the whole-pool counts, a failure anywhere must
leave the workbench as it was, and annotators must be able to judge while a
pool is being computed.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import dump, new_workbench

from labeler.models import topic_sort_key
from labeler.pooling import depth_pool, rrf_pool
from labeler.store import Store, connection
from labeler.workbench import pools as pools_module
from labeler.workbench.pools import build_pool
from labeler.workbench.read_labels import current_labels, judging_pace
from labeler.workbench.record_judgments import Judgment, record_judgment
from labeler.workbench.runs import import_run

# numeric order (1, 2, 3, 9, 10, ...) differs from text order (1, 10, 100, 11, ...): the report and the
# staging table's key use one each
TOPICS = ["1", "2", "3", "9", "10", "11", "20", "100"]
UNITS = [f"d{i}" for i in range(10)]


def trec(rankings: dict[str, list[str]], tag: str) -> str:
    return "".join(f"{t} Q0 {u} {r} {100 - r} {tag}\n" for t, units in rankings.items() for r, u in enumerate(units, 1))


def import_runs(store: Store, folder: Path, runs: dict[str, dict[str, list[str]]]) -> None:
    for name, rankings in runs.items():
        path = folder / f"{name}.run"
        path.write_text(trec(rankings, name))
        import_run(store, path, name, allow_unknown=True)


def judge(store: Store, judgments) -> None:
    for topic, unit, grade, assessor in judgments:  # grade None: a skip; two assessors who differ: a conflict
        kind = "grade" if grade is not None else "skip"
        record_judgment(
            store,
            Judgment(
                topic_id=topic,
                unit_id=unit,
                assessor=assessor,
                grade=grade,
                kind=kind,
                allow_unknown=True,
                active_ms=4000,
            ),
        )


def whole_pool_report(store: Store, pool, names, previous: str | None) -> dict:
    """The report's counts the way they were first computed: over the whole pool at once."""
    labels = current_labels(store, "doc")
    previous_pairs = {t: set(units) for t, units in store.pool_entries(previous).items()} if previous else {}
    per_topic, per_run = {}, {run: {"pairs": 0, "unique": 0} for run in names}
    for topic, entries in pool.items():
        row = per_topic.setdefault(topic, {"pairs": 0, "added": 0, "unjudged": 0, "added_judged": 0})
        for unit, entry in entries.items():
            judged = (topic, unit) in labels and labels[(topic, unit)].judged
            row["pairs"] += 1
            row["unjudged"] += not judged
            if unit not in previous_pairs.get(topic, ()):
                row["added"] += 1
                row["added_judged"] += judged
            for run in set(entry.runs):
                per_run[run]["pairs"] += 1
            if len(set(entry.runs)) == 1:
                per_run[entry.runs[0]]["unique"] += 1
    total = lambda key: sum(r[key] for r in per_topic.values())  # noqa: E731
    rate = judging_pace(store).per_hour
    return {
        "previous": previous,
        "pairs": total("pairs"),
        "added": total("added"),
        "added_judged": total("added_judged"),
        "unjudged": total("unjudged"),
        "judgments_per_hour": rate,
        "effort_hours": round(total("unjudged") / rate, 2),
        "per_topic": per_topic,
        "per_run": per_run,
    }


rankings = st.dictionaries(
    st.sampled_from(TOPICS), st.lists(st.sampled_from(UNITS), min_size=1, unique=True), min_size=1
)
judgments = st.lists(
    st.tuples(
        st.sampled_from(TOPICS), st.sampled_from(UNITS), st.none() | st.integers(0, 3), st.sampled_from(["ann", "bob"])
    ),
    max_size=15,
)


@st.composite
def scenarios(draw):
    runs = {f"R{i}": draw(rankings) for i in range(draw(st.integers(1, 4)))}
    strategy = draw(st.sampled_from(["depth", "rrf"]))
    run_depths = {}
    if strategy == "depth":
        run_depths = draw(st.dictionaries(st.sampled_from(sorted(runs)), st.integers(1, 12)))
    return {
        "runs": runs,
        "strategy": strategy,
        "depth": draw(st.integers(1, 8)),
        "run_depths": run_depths,
        "rrf_k": draw(st.integers(0, 80)),
        "previous_depth": draw(st.none() | st.integers(1, 6)),
        "before": draw(judgments),
        "after": draw(judgments),
        "batch": draw(st.sampled_from([1, 7, 10_000])),  # staging flushes inside, between and after topics
        # rankings read one (run, topic), a few topics, or every topic at a time
        "rankings": draw(st.sampled_from([1, 5, 500])),
    }


@settings(max_examples=40, deadline=None)
@given(scenarios())
def test_the_pool_equals_the_in_memory_pool_and_the_report_the_whole_pool_counts(scenario):
    with (
        tempfile.TemporaryDirectory() as folder,
        mock.patch.object(pools_module, "STAGE_BATCH", scenario["batch"]),
        mock.patch.object(pools_module, "RANKINGS_PER_BATCH", scenario["rankings"]),
    ):
        db = Path(folder) / "wb.db"
        new_workbench(db)
        with Store(db) as store:
            import_runs(store, Path(folder), scenario["runs"])
            judge(store, scenario["before"])
            previous = None
            if scenario["previous_depth"] is not None:
                previous = build_pool(store, scenario["previous_depth"]).pool
            judge(store, scenario["after"])
            report = build_pool(
                store,
                scenario["depth"],
                strategy=scenario["strategy"],
                run_depths=scenario["run_depths"],
                rrf_k=scenario["rrf_k"],
            )

            names = list(scenario["runs"])
            stored = {name: store.ranked_units(name) for name in names}  # the canonical rankings pooled
            if scenario["strategy"] == "depth":
                expected = depth_pool(stored, scenario["depth"], scenario["run_depths"])
            else:
                expected = rrf_pool(stored, scenario["depth"], scenario["rrf_k"])
            assert store.pool_entries(report.pool) == expected
            assert report.pool == ("P2" if previous else "P1")
            shown = report.to_json()  # the per-topic and per-run counts, as `pool build --json` prints them
            whole = whole_pool_report(store, expected, names, previous)
            assert {key: shown[key] for key in whole} == whole
            assert list(report.per_topic) == sorted(expected, key=topic_sort_key)
            assert store.pool(report.pool).pairs == report.pairs
            assert store.db.execute("SELECT name FROM temp.sqlite_master").fetchall() == []


# 120 topics, so that progress is reported at topics 50 and 100
MANY = {
    "A": {str(t): [f"a{t}-{r}" for r in range(1, 4)] for t in range(1, 121)},
    "B": {str(t): [f"b{t}-1", f"a{t}-2"] for t in range(1, 121)},
}


class Boom(Exception):
    pass


@pytest.mark.parametrize(
    "where",
    [
        "computing",  # the progress callback fails after 100 of 120 topics, entries of 100 topics staged
        "staging",  # the staging table refuses a batch
        "copying",  # the copy into pool_entries and the pool row are written, then the transaction fails
    ],
)
def test_a_failure_midway_leaves_the_workbench_unchanged(db_path, tmp_path, monkeypatch, where):
    monkeypatch.setattr(pools_module, "STAGE_BATCH", 20)
    with Store(db_path) as store:
        import_runs(store, tmp_path, MANY)
        first = build_pool(store, 2)
        before = dump(db_path)
        progress = None
        if where == "computing":

            def progress(done, total):
                if done == 100:
                    raise Boom
        elif where == "staging":
            stage = store.stage_pool_entries
            calls = []

            def failing_stage(entries):
                calls.append(1)
                if len(calls) == 3:
                    raise Boom
                stage(entries)

            monkeypatch.setattr(store, "stage_pool_entries", failing_stage)
        else:
            insert = store.insert_staged_pool

            def insert_then_fail(pool_id, info):
                insert(pool_id, info)
                assert store.db.execute("SELECT count(*) FROM pool_entries WHERE pool_id = ?", [pool_id]).fetchone()[0]
                raise Boom

            monkeypatch.setattr(store, "insert_staged_pool", insert_then_fail)
        with pytest.raises(Boom):
            build_pool(store, 3, progress=progress)
        assert dump(db_path) == before
        assert store.db.execute("SELECT name FROM temp.sqlite_master").fetchall() == []
        assert not store.db.conn.in_transaction
        monkeypatch.undo()
        again = build_pool(store, 2)
        assert (again.pool, again.pairs, again.added) == ("P2", first.pairs, 0)


def test_annotators_judge_while_a_pool_is_computed(db_path, tmp_path, monkeypatch):
    monkeypatch.setattr(pools_module, "STAGE_BATCH", 1)  # entries are staged before each progress call
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_SECONDS", 0.5)  # a held write lock fails fast, not in 60 s
    recorded = []

    def judge_meanwhile(done, total):
        if done in (50, 100):
            with Store(db_path) as annotator:
                event = record_judgment(
                    annotator,
                    Judgment(topic_id=str(done), unit_id=f"a{done}-1", assessor="ann", grade=2, allow_unknown=True),
                )
            with sqlite3.connect(db_path) as reader:  # committed: another process sees it at once
                assert (
                    reader.execute("SELECT count(*) FROM events WHERE event_id = ?", [event.event_id]).fetchone()[0]
                    == 1
                )
            recorded.append(done)

    with Store(db_path) as store:
        import_runs(store, tmp_path, MANY)
        result = build_pool(store, 2, progress=judge_meanwhile)
        assert recorded == [50, 100]
        assert (result.pool, result.pairs) == ("P1", 120 * 3)
        assert store.event_count() == 2

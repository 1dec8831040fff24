"""A snapshot derived a topic at a time says what one derived from the whole space at once says.

The reference below is the whole-space computation (every label of the space derived in memory,
the review states of every topic from them): the streamed manifest, hash and label rows must equal it.
"""

from __future__ import annotations

import hashlib

from support import Cli, new_workbench, trec_run

from labeler.formats.qrels import format_qrels, qrels_sort_key
from labeler.judgments.log import UNREVIEWED
from labeler.models import topic_sort_key
from labeler.review import ReviewState
from labeler.store import Store
from labeler.workbench.read_labels import current_labels
from labeler.workbench.review import topic_review_states
from labeler.workbench.snapshot_results import TopicLabelCounts
from labeler.workbench.snapshots import create_snapshot, current_snapshot, snapshot_rows
from labeler.workbench.status import all_topic_ids

CORPUS = "d1\tone two three four\nd2\tfive six seven eight\nd3\tnine ten\nd4\televen twelve\n"


def _whole_space(store: Store, space: str):
    """Label rows, conflicts, stale count and per-topic counts, derived from every label of the space at once."""
    current = current_labels(store, space)
    labels, conflicts, stale = [], [], 0
    for (topic_id, unit_id), state in current.items():
        if state.conflict:
            conflicts.append([topic_id, unit_id])
        elif state.label is not None:
            deciding = state.deciding_event
            labels.append((topic_id, unit_id, state.label, deciding.event_id if deciding else None))
        elif state.stale:
            stale += 1
    conflicts.sort(key=lambda p: qrels_sort_key(*p))
    threshold = store.scale().threshold
    states = topic_review_states(store, space, labels=current, topics=all_topic_ids(store))
    counts: dict[str, list[int]] = {}
    for topic_id, _, grade, _ in labels:
        row = counts.setdefault(topic_id, [0, 0, 0, 0])
        row[0] += 1
        row[3 if grade < 0 else 1 if grade >= threshold else 2] += 1
    topics = {}
    for topic_id in sorted(set(states) | set(counts), key=topic_sort_key):
        state = states.get(topic_id, ReviewState(UNREVIEWED))
        n = counts.get(topic_id, [0, 0, 0, 0])
        topics[topic_id] = TopicLabelCounts(*n, state.status, state.reopened).to_json()
    return labels, conflicts, stale, topics


def _campaign(tmp_path, write) -> Cli:
    db = tmp_path / "wb.db"
    new_workbench(db)
    cli = Cli(db)
    cli("corpus", "import", write("c.tsv", CORPUS))
    cli("corpus", "chunk", "--name", "w2", "--size", "2")
    run = trec_run("a", {"1": ["d1", "d2"], "2": ["d3", "d4"], "7": ["d1"], "007": ["d2"], "10": ["d4"]})
    cli("runs", "import", write("a.run", run), "--name", "a")
    cli("pool", "build", "--depth", "1")
    judged = [("1", "d1", 1, "ann"), ("1", "d1", 0, "bob"), ("2", "d3", 0, "ann"), ("2", "d4", 0, "ann")]
    judged += [("7", "d1", 2, "ann"), ("007", "d2", 1, "ann"), ("007", "d1", 0, "bob"), ("10", "d4", 1, "ann")]
    for topic, unit, grade, who in judged:
        cli("judgments", "add", topic, unit, str(grade), "--assessor", who, "--unit", "doc")
    cli("judgments", "add", "1", "d1#0", "1", "--assessor", "ann", "--unit", "chunk:w2", "--allow-unknown")
    cli("topics", "mark", "2", "no_answer", "--assessor", "ann", "--unit", "doc")
    for topic in ("1", "10"):
        cli("topics", "mark", topic, "reviewed", "--assessor", "ann", "--unit", "doc")
    cli("pool", "build", "--depth", "2")  # brings d2 to topic 1: reopened
    return cli


def test_the_streamed_snapshot_equals_the_whole_space_one(tmp_path, write):
    cli = _campaign(tmp_path, write)
    with Store(cli.db) as store:
        for space in ("doc", "chunk:w2"):
            labels, conflicts, stale, topics = _whole_space(store, space)
            manifest = current_snapshot(store, space).manifest
            assert list(manifest["topics"].items()) == list(topics.items())
            assert manifest["conflicts_left_out"] == conflicts
            assert (manifest["labels"], manifest["stale_left_out"]) == (len(labels), stale)
            text = format_qrels((t, u, g) for t, u, g, _ in labels)
            assert manifest["sha256"] == hashlib.sha256(text.encode()).hexdigest()
            assert sorted(snapshot_rows(store, current_snapshot(store, space))) == sorted(labels)
        doc_labels, conflicts, _, topics = _whole_space(store, "doc")
        assert conflicts == [["1", "d1"]]
        assert (topics["1"]["review_status"], topics["10"]["review_status"]) == ("reopened", "reviewed")
        assert topics["2"]["review_status"] == "no_answer" and {"7", "007"} <= set(topics)
        created = create_snapshot(store, "frozen", unit="doc")
        assert sorted(store.snapshot_labels(created.snapshot)) == sorted(doc_labels)
        assert store.snapshot(created.snapshot).manifest["topics"] == topics

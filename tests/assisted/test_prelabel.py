"""`labeler prelabel`: judges as plug-ins and commands, their answers checked, stored as a model's labels."""

from __future__ import annotations

import gzip
import json
import math
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from full_workbench import copy_to
from support import ROOT, Cli, built_once, dump

from labeler.judges.base import JudgePair
from labeler.judges.lexical import LexicalJudge, overlap_score
from labeler.judges.registry import JUDGES, make_judge
from labeler.store import Store
from labeler.workbench.demo import build_demo
from labeler.workbench.read_labels import current_labels, model_labels, model_names

GRADES = [0, 1, 2, 3]


def _demo(folder: Path) -> bytes:
    return build_demo(folder, lambda *_: None).db.read_bytes()


@pytest.fixture
def demo_db(tmp_path_factory, tmp_path: Path) -> Path:
    return copy_to(built_once(tmp_path_factory, "demo-prelabel", _demo), tmp_path / "wb")


def pair(title: str, text: str, topic: str = "t", unit: str = "u") -> JudgePair:
    return JudgePair(topic, unit, "doc", title, "", "", text)


def stub_judge(tmp_path: Path, body: str) -> str:
    """A command judge whose answer per pair line is `body` (Python, `p` the pair); `command:` spec."""
    script = tmp_path / "stub_judge.py"
    script.write_text(f"import json, sys\nfor n, line in enumerate(sys.stdin):\n    p = json.loads(line)\n    {body}\n")
    return f"command:{sys.executable} {script}"


# --- the lexical judge, by hand -------------------------------------------------------------------------------


def test_overlap_score_by_hand():
    # title terms {apple, pie, recipe} ("the" is a stop word); the text has apple and pie: 2 of 3
    assert overlap_score("The apple pie recipe", "Grandma's APPLE pie, baked.") == pytest.approx(2 / 3)
    assert overlap_score("the of", "anything") == 0.0  # no terms: 0


def test_unfitted_lexical_judge_uses_fixed_thresholds_and_a_softmax_by_hand():
    judge = LexicalJudge()
    (answer,) = judge.judge([pair("apple pie recipe", "an apple a day")], GRADES)
    score = 1 / 3  # {apple} of {apple, pie, recipe}
    assert answer["grade"] == 1  # thresholds 0.25, 0.5, 0.75: 1/3 reaches one
    centres = [0.125, 0.375, 0.625, 0.875]
    weights = [math.exp(-abs(score - c) / 0.1) for c in centres]
    expected = {str(g): w / sum(weights) for g, w in zip(GRADES, weights, strict=True)}
    assert answer["probs"] == pytest.approx(expected)
    assert math.fsum(answer["probs"].values()) == pytest.approx(1.0, abs=1e-12)


def test_lexical_thresholds_are_fitted_by_quantile_matching():
    """People gave 10 zeros, 5 ones, 3 twos, 2 threes: the judge's thresholds split the scores the same way."""
    scores = [i / 20 for i in range(20)]  # distinct scores 0, 0.05, ..., 0.95
    grades = [0] * 10 + [1] * 5 + [2] * 3 + [3] * 2
    words = [f"w{i}" for i in range(20)]
    title = " ".join(words)
    examples = [(pair(title, " ".join(words[: round(s * 20)])), g) for s, g in zip(scores, grades, strict=True)]
    judge = LexicalJudge()
    judge.fit(examples, GRADES)
    assert judge.fitted
    answers = list(judge.judge([p for p, _ in examples], GRADES))
    assert [a["grade"] for a in answers] == grades  # monotone labels are recovered exactly
    assert judge.centres[3] == pytest.approx((0.9 + 0.95) / 2)


def test_too_few_examples_keep_the_fixed_thresholds():
    judge = LexicalJudge()
    judge.fit([(pair("a b", "a b"), 3)] * 5, GRADES)
    assert not judge.fitted and judge.thresholds is None


def test_the_registry_lists_the_builtin_and_refuses_an_unknown_judge():
    assert JUDGES.names()[0] == "lexical"
    with pytest.raises(Exception, match="unknown judge 'nope': choose one of lexical"):
        make_judge("nope")


# --- prelabel through the workbench ----------------------------------------------------------------------------


def test_prelabel_labels_the_pairs_no_person_labelled_and_changes_no_human_label(demo_db: Path):
    cli = Cli(demo_db)
    status_before = cli("status", "--json").stdout
    with Store(demo_db) as store:
        pool = store.latest_pool()
        human = {k for k, s in current_labels(store, pool.unit).items() if s.judged}
        pool_pairs = {(t, u) for t in store.pool_topic_ids(pool.name) for u in store.pool_topic_units(pool.name, t)}
    result = cli.json("prelabel", "--judge", "lexical", "--batch", "40")
    unlabelled = pool_pairs - human
    assert result["labelled"] == result["pairs"] == len(unlabelled)
    assert result["human_labelled"] == len(pool_pairs & human)
    assert result["batches"] == math.ceil(len(unlabelled) / 40)
    assert result["fitted_on"] > 0
    with Store(demo_db) as store:
        labels = model_labels(store, "lexical")
        assert set(labels) == unlabelled
        assert all(math.fsum(label.probs.values()) == pytest.approx(1) for label in labels.values())
        assert model_names(store) == ["lexical"]
    assert cli("status", "--json").stdout == status_before  # a model's labels are not people's
    again = cli.json("prelabel", "--judge", "lexical")
    assert (again["pairs"], again["labelled"], again["already_labelled"]) == (0, 0, len(unlabelled))


def test_a_command_judge_gets_the_protocol_and_its_answers_are_stored(demo_db: Path, tmp_path: Path):
    seen = tmp_path / "seen.jsonl"
    spec = stub_judge(
        tmp_path,
        f"open({str(seen)!r}, 'a').write(line); "
        "print(json.dumps({'topic': p['topic'], 'unit': p['unit'], 'grade': 2, "
        "'probs': {'0': 0.1, '1': 0.2, '2': 0.6, '3': 0.1}}))",
    )
    result = Cli(demo_db).json("prelabel", "--judge", spec, "--topics", "1,2", "--model", "stub")
    asked = [json.loads(line) for line in seen.read_text().splitlines()]
    assert len(asked) == result["pairs"] == result["labelled"] > 0
    assert set(asked[0]) == {"topic", "unit", "unit_space", "title", "description", "narrative", "text"}
    assert {a["topic"] for a in asked} == {"1", "2"} and asked[0]["unit_space"] == "doc"
    with Store(demo_db) as store:
        topic = store.topic(asked[0]["topic"])
        assert asked[0]["title"] == topic.title and asked[0]["narrative"] == topic.narrative
        labels = model_labels(store, "stub")
        assert {label.grade for label in labels.values()} == {2}
        assert next(iter(labels.values())).probs == {0: 0.1, 1: 0.2, 2: 0.6, 3: 0.1}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("print(json.dumps({'topic': p['topic'], 'unit': p['unit'], 'grade': 9}))", ":1: grade 9 is not on"),
        ("print('not json')", ":1: "),
        (
            "print(json.dumps({'topic': p['topic'], 'unit': p['unit'], 'grade': 1, 'probs': {'0': 1}}))",
            ":1: probs must give one probability per grade",
        ),
        ("print(json.dumps({'topic': p['topic'], 'unit': 'elsewhere', 'grade': 1}))", "which was not asked"),
        ("n or print(json.dumps({'topic': p['topic'], 'unit': p['unit'], 'grade': 1}))", "answered 1 of the"),
        ("sys.exit(3)", "failed with exit code 3"),
    ],
)
def test_bad_answers_are_refused_naming_the_command_and_line(demo_db: Path, tmp_path: Path, body, message):
    spec = stub_judge(tmp_path, body)
    before = dump(demo_db)
    result = Cli(demo_db)("prelabel", "--judge", spec, "--model", "stub", expect=1)
    assert message in result.stderr and "Traceback" not in result.stderr
    assert "stub_judge.py" in result.stderr  # the command is named
    assert dump(demo_db) == before


def test_an_interrupted_prelabel_keeps_its_finished_batches_and_resumes(demo_db: Path, tmp_path: Path, monkeypatch):
    """The judge fails on its second batch; the first batch is kept, and the next run asks only the rest."""
    counter = tmp_path / "calls"
    counter.write_text("0")
    spec = stub_judge(
        tmp_path,
        f"c = int(open({str(counter)!r}).read()) if n == 0 else c\n"
        f"    n == 0 and open({str(counter)!r}, 'w').write(str(c + 1))\n"
        "    (c == 1 and __import__('os').environ.get('FAIL') and sys.exit(5))\n"
        "    print(json.dumps({'topic': p['topic'], 'unit': p['unit'], 'grade': 0}))",
    )
    cli = Cli(demo_db)
    monkeypatch.setenv("FAIL", "1")
    assert "exit code 5" in cli("prelabel", "--judge", spec, "--model", "stub", "--batch", "10", expect=1).stderr
    monkeypatch.delenv("FAIL")
    with Store(demo_db) as store:
        assert len(model_labels(store, "stub")) == 10  # the first batch
    result = cli.json("prelabel", "--judge", spec, "--model", "stub", "--batch", "10")
    assert result["already_labelled"] == 10 and result["labelled"] == result["pairs"] > 0


def test_prelabel_refuses_unknown_topics_and_judges_and_changes_nothing(demo_db: Path):
    cli = Cli(demo_db)
    before = dump(demo_db)
    assert "topic(s) nope not in pool" in cli("prelabel", "--judge", "lexical", "--topics", "nope", expect=1).stderr
    assert "unknown judge 'gpt9'" in cli("prelabel", "--judge", "gpt9", expect=2).stderr
    assert "--batch" in cli("prelabel", "--judge", "lexical", "--batch", "0", expect=2).stderr
    assert dump(demo_db) == before


# --- the OpenAI-compatible example judge, against a fake endpoint ------------------------------------------------


class _FakeChat(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeChat.requests.append({"path": self.path, "auth": self.headers["Authorization"], "body": body})
        top = [{"token": "2", "logprob": math.log(0.6)}, {"token": "1", "logprob": math.log(0.3)}]
        top.append({"token": "x", "logprob": math.log(0.1)})
        reply = {"choices": [{"message": {"content": "2"}, "logprobs": {"content": [{"top_logprobs": top}]}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_the_openai_example_judge_speaks_the_protocol(demo_db: Path, monkeypatch):
    server = HTTPServer(("127.0.0.1", 0), _FakeChat)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_port}/v1")
        monkeypatch.setenv("OPENAI_API_KEY", "k-test")
        monkeypatch.setenv("OPENAI_MODEL", "fake-model")
        spec = f"command:{sys.executable} {ROOT / 'examples' / 'openai_judge.py'}"
        result = Cli(demo_db).json("prelabel", "--judge", spec, "--topics", "2", "--model", "fake")
    finally:
        server.shutdown()
    assert result["labelled"] == len(_FakeChat.requests) > 0
    first = _FakeChat.requests[0]
    assert (first["path"], first["auth"], first["body"]["model"]) == (
        "/v1/chat/completions",
        "Bearer k-test",
        "fake-model",
    )
    with Store(demo_db) as store:
        label = next(iter(model_labels(store, "fake").values()))
    assert label.grade == 2
    assert label.probs == pytest.approx({0: 0.0, 1: 1 / 3, 2: 2 / 3, 3: 0.0})  # the grades' mass, renormalised


def test_the_openai_example_judge_without_an_endpoint_says_so(demo_db: Path, monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    spec = f"command:{sys.executable} {ROOT / 'examples' / 'openai_judge.py'}"
    result = Cli(demo_db)("prelabel", "--judge", spec, "--topics", "2", "--model", "fake", expect=1)
    assert "failed with exit code 2" in result.stderr and "set OPENAI_BASE_URL and OPENAI_API_KEY" in result.stderr


# --- the built-in judge against NIST on DL 2020 (the figures in docs/cli.md) -----------------------------------------


def _dl2020() -> Path | None:
    for shared in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if (shared / "data" / "trec-dl-2020").is_dir():
            return shared / "data" / "trec-dl-2020"
    return None


def test_lexical_agreement_with_nist_on_dl2020():
    """Two folds by topic: each fold judged with thresholds fitted on the other's NIST labels."""
    data = _dl2020()
    if data is None:
        pytest.skip("../shared/data/trec-dl-2020 is absent")
    from sklearn.metrics import cohen_kappa_score  # the independent computation

    from labeler.agreement.statistics import cohen_kappa

    titles = dict(line.rstrip("\n").split("\t", 1) for line in open(data / "topics.tsv", encoding="utf-8"))
    qrels = {}
    with gzip.open(data / "qrels.txt.gz", "rt") as handle:
        for line in handle:
            topic, _, doc, grade = line.split()
            qrels[(topic, doc)] = int(grade)
    wanted = {doc for _, doc in qrels}
    texts = {}
    with gzip.open(data / "corpus.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if row["id"] in wanted:
                texts[row["id"]] = row["text"]
    order = sorted({t for t, _ in qrels}, key=int)
    fold = {t: i % 2 for i, t in enumerate(order)}
    pairs = {k: pair(titles[k[0]], texts.get(k[1], ""), *k) for k in qrels}
    truth, judged = [], []
    for held_out in (0, 1):
        judge = LexicalJudge()
        judge.fit([(pairs[k], g) for k, g in qrels.items() if fold[k[0]] != held_out], GRADES)
        test = [k for k in qrels if fold[k[0]] == held_out]
        for k, answer in zip(test, judge.judge([pairs[k] for k in test], GRADES), strict=True):
            truth.append(qrels[k])
            judged.append(answer["grade"])
    exact = sum(a == b for a, b in zip(truth, judged, strict=True)) / len(truth)
    kappa = cohen_kappa(truth, judged, categories=GRADES).value
    assert kappa == pytest.approx(cohen_kappa_score(truth, judged, labels=GRADES))
    assert (len(truth), round(exact, 3), round(kappa, 3)) == (11386, 0.596, 0.14)  # as written in docs/cli.md

"""One rule per input, on every road: a model's grades, ids in one Unicode form, look-alike assessor names."""

from __future__ import annotations

import json

import pytest
from badinput_support import Unchanged, assert_bad_argument, assert_refused, invoke
from support import new_workbench

from labeler.store import Store
from labeler.workbench.read_labels import current_labels

MODEL = ["--source", "model", "--model", "m", "--allow-unknown"]


@pytest.mark.parametrize(
    ("name", "content", "line"),
    [
        ("m.qrels", "1 0 d1 2\n1 0 d2 -1\n", 2),  # a model's qrels: -1 is not "pooled, not judged" for a model
        ("m.jsonl", '{"topic": "1", "unit": "d1", "grade": 2}\n{"topic": "1", "unit": "d2", "grade": -1}\n', 2),
    ],
)
def test_a_model_grade_off_the_scale_is_refused_on_both_paths(workbench, name, content, line):
    path = workbench.parent / name
    path.write_text(content)
    with Unchanged(workbench):
        result = invoke(workbench, ["judgments", "import", path, "--assessor", "m", *MODEL])
        assert_refused(result, path, line, "grade -1 is not on the scale 'default' (0, 1, 2, 3)")


def test_imported_qrels_keep_their_pooled_grades(workbench):
    path = workbench.parent / "p.qrels"
    path.write_text("1 0 d1 2\n1 0 d2 -1\n")
    result = invoke(workbench, ["judgments", "import", path, "--assessor", "nist", "--allow-unknown", "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["pooled_unjudged"] == 1


def test_a_merged_model_grade_off_the_scale_is_refused(workbench):
    event = {
        "event_id": "e-model",
        "topic_id": "1",
        "unit": "doc",
        "unit_id": "d1",
        "kind": "grade",
        "grade": -1,
        "assessor": "m",
        "source": "model",
        "model": "m",
        "time": "2026-01-01T00:00:00.000000+00:00",
    }
    log = workbench.parent / "log.jsonl"
    log.write_text(json.dumps(event) + "\n")
    with Unchanged(workbench):
        assert_refused(invoke(workbench, ["merge", log]), log, 1, "grade -1 is not on the scale 'default'")


NFC, NFD = "caf\u00e9", "cafe\u0301"  # the same id, typed two ways


def test_nfc_and_nfd_ids_are_one_id_across_import_and_add(workbench):
    qrels = workbench.parent / "q.qrels"
    qrels.write_text(f"{NFD} 0 d{NFD} 2\n", encoding="utf-8")
    result = invoke(workbench, ["judgments", "import", qrels, "--assessor", NFD, "--allow-unknown"])
    assert result.exit_code == 0, result.stderr
    result = invoke(workbench, ["judgments", "add", NFC, f"d{NFC}", "2", "--assessor", NFC, "--allow-unknown"])
    assert result.exit_code == 0, result.stderr
    log = invoke(workbench, ["export", "log"]).stdout
    events = [json.loads(line) for line in log.splitlines()]
    assert {(e["topic_id"], e["unit_id"], e["assessor"]) for e in events} == {(NFC, f"d{NFC}", NFC)}
    with Store(workbench) as store:
        assert list(current_labels(store, "doc")) == [(NFC, f"d{NFC}")]  # one pair, judged twice by one assessor


def test_a_run_with_nfd_ids_ranks_the_nfc_units(workbench):
    run = workbench.parent / "r.run"
    run.write_text(f"{NFD} Q0 {NFD} 1 2.0 t\n{NFC} Q0 x 2 1.0 t\n", encoding="utf-8")
    assert invoke(workbench, ["runs", "import", run, "--name", "r"]).exit_code == 0
    with Store(workbench) as store:
        assert {t: r.units for t, r in store.rankings("r").items()} == {NFC: (NFC, "x")}


def test_one_pair_twice_in_two_forms_is_a_repeated_line(workbench):
    qrels = workbench.parent / "q.qrels"
    qrels.write_text(f"1 0 {NFC} 2\n1 0 {NFD} 0\n", encoding="utf-8")
    with Unchanged(workbench):
        result = invoke(workbench, ["judgments", "import", qrels, "--assessor", "ann", "--allow-unknown"])
        assert_refused(result, qrels, 2, f"judges {NFC!r} twice (first at line 1)")


@pytest.mark.parametrize("field", ["topic_id", "unit_id", "assessor"])
def test_a_merged_event_with_an_id_not_in_nfc_is_refused(workbench, field):
    event = {
        "event_id": "e-nfd",
        "topic_id": "1",
        "unit": "doc",
        "unit_id": "d1",
        "kind": "grade",
        "grade": 1,
        "assessor": "ann",
        "source": "human",
        "time": "2026-01-01T00:00:00.000000+00:00",
        field: NFD,
    }
    log = workbench.parent / "log.jsonl"
    log.write_text(json.dumps(event) + "\n")
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", log])
        assert_refused(result, log, 1, f"{field} 'cafe\\u0301' is not in Unicode normal form NFC ('caf\\xe9' is)")


def test_a_merged_nfc_event_meets_the_local_nfd_typed_one(workbench, tmp_path):
    """A local id typed in NFD is stored in NFC, so a merged NFC event about it is the same pair."""
    assert (
        invoke(workbench, ["judgments", "add", NFD, "d1", "2", "--assessor", "ann", "--allow-unknown"]).exit_code == 0
    )
    other = tmp_path / "other"
    other.mkdir()
    db = other / "wb.db"
    new_workbench(db)
    assert invoke(db, ["judgments", "add", NFC, "d1", "0", "--assessor", "bob", "--allow-unknown"]).exit_code == 0
    result = invoke(workbench, ["merge", db, "--json"])
    assert result.exit_code == 0, result.stderr
    assert [c["topic"] for c in json.loads(result.stdout)["new_conflicts"]] == [NFC]  # one pair, two grades


LOOKALIKE = "\u0430nn"  # Cyrillic а, then Latin nn


def test_a_name_mixing_lookalike_alphabets_is_refused(workbench):
    with Unchanged(workbench):
        result = invoke(workbench, ["judgments", "add", "1", "d1", "2", "--assessor", LOOKALIKE, "--allow-unknown"])
        assert_bad_argument(result, "--assessor", "mixes Cyrillic and Latin letters")


@pytest.mark.parametrize("name", ["\u0430\u043f\u043f", "ANN", "\uff41nn"])  # Cyrillic, capitals, full-width a
def test_a_name_reading_like_an_existing_assessor_is_refused(workbench, name):
    assert (
        invoke(workbench, ["judgments", "add", "1", "d1", "2", "--assessor", "ann", "--allow-unknown"]).exit_code == 0
    )
    with Unchanged(workbench):
        result = invoke(workbench, ["judgments", "add", "1", "d2", "1", "--assessor", name, "--allow-unknown"])
        assert_bad_argument(result, "--assessor", "an assessor of this workbench")
    with Unchanged(workbench):
        qrels = workbench.parent / "q.qrels"
        qrels.write_text("1 0 d3 1\n")
        result = invoke(workbench, ["judgments", "import", qrels, "--assessor", name, "--allow-unknown"])
        assert_bad_argument(result, "--assessor", "reads like 'ann'")


def test_names_that_only_share_letters_are_not_lookalikes(workbench):
    for name in ("ann", "anna", "\u0430\u043d\u043d\u0430", "\u7530\u4e2dtaro"):  # Cyrillic анна, Han + Latin
        result = invoke(workbench, ["judgments", "add", "1", "d1", "2", "--assessor", name, "--allow-unknown"])
        assert result.exit_code == 0, result.stderr


def test_a_merged_assessor_mixing_lookalike_alphabets_is_refused(workbench):
    event = {
        "event_id": "e-mixed",
        "topic_id": "1",
        "unit": "doc",
        "unit_id": "d1",
        "kind": "grade",
        "grade": 1,
        "assessor": LOOKALIKE,
        "source": "human",
        "time": "2026-01-01T00:00:00.000000+00:00",
    }
    log = workbench.parent / "log.jsonl"
    log.write_text(json.dumps(event, ensure_ascii=False) + "\n", encoding="utf-8")
    with Unchanged(workbench):
        result = invoke(workbench, ["merge", log])
        assert_refused(result, log, 1, "assessor '\\u0430nn' mixes Cyrillic and Latin letters")

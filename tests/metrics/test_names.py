"""Measure names: ir_measures spellings plus labeler's own families, the user's spelling kept as the key."""

from __future__ import annotations

import re

import pytest

from labeler.metrics import DEFAULT_MEASURES, Measure, parse_measure, parse_measures


@pytest.mark.parametrize(
    ("text", "family", "cutoff", "alpha", "p"),
    [
        ("P@10", "P", 10, None, None),
        ("R@100", "R", 100, None, None),
        ("nDCG@10", "nDCG", 10, None, None),
        ("nDCG", "nDCG", None, None, None),  # no cutoff: the whole ranking
        ("AP", "AP", None, None, None),
        ("AP@10", "AP", 10, None, None),  # trec_eval map_cut_10
        ("RR", "RR", None, None, None),
        ("RR@10", "RR", 10, None, None),
        ("Rprec", "Rprec", None, None, None),
        ("Bpref", "Bpref", None, None, None),
        ("infAP", "infAP", None, None, None),
        ("Success@5", "Success", 5, None, None),
        ("Judged@10", "Judged", 10, None, None),
        ("AnyHit@10", "AnyHit", 10, None, None),
        ("AllHit@3", "AllHit", 3, None, None),
        ("T@5", "T", 5, 0.5, None),  # alpha defaults to 0.5
        ("T(alpha=0.3)@5", "T", 5, 0.3, None),
        ("F(alpha=1)@5", "F", 5, 1.0, None),
        ("Fe(alpha=0)@5", "Fe", 5, 0.0, None),
        ("RBP", "RBP", None, None, 0.8),  # p defaults to 0.8
        ("RBP(p=0.95)", "RBP", None, None, 0.95),
        ("MAP", "AP", None, None, None),  # ir_measures aliases
        ("MRR@10", "RR", 10, None, None),
        ("ndcg@10", "nDCG", 10, None, None),  # family names are not case-sensitive
    ],
)
def test_parse_measure(text, family, cutoff, alpha, p):
    measure = parse_measure(text)
    assert (measure.name, measure.family, measure.cutoff, measure.alpha, measure.p) == (text, family, cutoff, alpha, p)


def test_canonical_spelling_fills_in_defaults():
    assert parse_measure("T@5").canonical == "T(alpha=0.5)@5"
    assert parse_measure("rbp").canonical == "RBP(p=0.8)"
    assert parse_measure("map").canonical == "AP"


def test_parse_measures_splits_on_spaces_and_commas_outside_parentheses():
    parsed = parse_measures("R@10  nDCG@10,AP, T(alpha = 0.3)@5\nRBP(p=0.9)")
    assert [m.name for m in parsed] == ["R@10", "nDCG@10", "AP", "T(alpha = 0.3)@5", "RBP(p=0.9)"]
    assert parsed[3].alpha == 0.3


def test_parse_measures_keeps_order_drops_repeats_and_accepts_lists_and_measures():
    given = parse_measure("AP")
    parsed = parse_measures(["P@10 AP", "P@10", given])
    assert [m.name for m in parsed] == ["P@10", "AP"]
    assert parse_measures(given) == [given]


def test_default_measures_parse():
    assert [m.name for m in parse_measures(DEFAULT_MEASURES)] == list(DEFAULT_MEASURES)
    assert all(isinstance(m, Measure) for m in parse_measures(DEFAULT_MEASURES))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("MAPX", "unknown measure 'MAPX'; known measures: P@k, R@k"),
        ("ERR@10", "known measures:"),
        ("P", "P needs a cutoff"),
        ("P@0", "at least 1"),
        ("P@ten", "whole number"),
        ("Rprec@10", "Rprec takes no @cutoff"),
        ("RBP@10", "RBP takes no @cutoff"),
        ("P(rel=2)@10", "threshold comes from the grade scale"),
        ("nDCG(alpha=0.2)@10", "nDCG takes no parameters"),
        ("T(p=0.2)@10", "T takes only alpha="),
        ("T(alpha=x)@10", "alpha must be a number"),
        ("T(alpha=1.5)@10", "alpha must be between 0 and 1"),
        ("RBP(p=1)", "p must be strictly between 0 and 1"),
        ("T(alpha=0.3@5", "unbalanced parentheses"),
    ],
)
def test_bad_names_are_refused_with_a_reason(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_measures(text)


def test_no_measures_is_an_error():
    with pytest.raises(ValueError, match="no measures given"):
        parse_measures(" , ")
    with pytest.raises(ValueError, match="must be text"):
        parse_measures([10])


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("P_10", "P@10"),
        ("ndcg_cut_10", "nDCG@10"),
        ("recall_100", "R@100"),
        ("recip_rank", "RR"),
        ("map_cut_5", "AP@5"),
        ("success_1", "Success@1"),
        ("R-prec", "Rprec"),
    ],
)
def test_trec_eval_names_are_refused_with_ours_suggested(typed, meant):
    with pytest.raises(ValueError, match=re.escape(f"unknown measure {typed!r}: did you mean {meant}?")):
        parse_measure(typed)
    assert parse_measure(meant).canonical == meant  # what is suggested is accepted


def test_map_stays_accepted_as_ir_measures_spells_it():
    assert parse_measure("map").family == "AP"

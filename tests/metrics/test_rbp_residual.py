"""docs/metrics.md's claim about the RBP residual: labeler's is Moffat and Zobel's (always p^d + the unjudged terms);
trec_eval's rbp_resid (m_rbp_resid.c) is the same sum but only stored when an unjudged unit is seen, else 0."""

from __future__ import annotations

import pytest

from labeler.metrics import rbp


def trec_eval_rbp_resid(ranking: list[str], grades: dict[str, int], p: float) -> float:
    """usnistgov/trec_eval m_rbp_resid.c, transcribed: the value is set only `if (unj_so_far)`, else stays 0."""
    unjudged_so_far, total, weight = 0, 0.0, 1.0
    for unit in ranking:
        if grades.get(unit, -1) < 0:
            unjudged_so_far += 1
            total += weight
        weight *= p
    return weight + (1 - p) * total if unjudged_so_far else 0.0


def test_fully_judged_ranking_keeps_the_tail_as_residual():
    grades = {f"d{i}": i % 2 for i in range(10)}
    ranking = [f"d{i}" for i in range(10)]
    _, residual = rbp(ranking, grades, threshold=1, p=0.8)
    assert residual == pytest.approx(0.8**10)  # the ranks below 10 are unjudged in the user model
    assert trec_eval_rbp_resid(ranking, grades, 0.8) == 0.0  # trec_eval: no unjudged unit seen, no residual


def test_with_an_unjudged_unit_the_two_agree():
    grades = {"a": 1, "c": 0}
    ranking = ["a", "x", "c"]  # x unjudged at rank 2
    score, residual = rbp(ranking, grades, threshold=1, p=0.5)
    assert score == pytest.approx(0.5)  # (1 - p) * p^0
    assert residual == pytest.approx(0.5**3 + 0.5 * 0.5)  # p^d + (1 - p) * p^1
    assert residual == pytest.approx(trec_eval_rbp_resid(ranking, grades, 0.5))

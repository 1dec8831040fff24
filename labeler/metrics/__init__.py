"""Scores with their denominators: measure names, trec_eval measures, labeler's own measures, comparisons.

The domain layer for `labeler eval` and `labeler compare`: plain values in
(qrels `{topic: {unit: grade}}`, rankings `{topic: [unit, ...]}` in canonical
order), plain values out. It loads neither SQL, click nor Textual.
"""

from labeler.metrics.compare import paired_comparison, paired_t_test, randomization_p_value
from labeler.metrics.denominators import (
    all_hit_at_k,
    any_hit_at_k,
    f_at_k,
    fe_at_k,
    rbp,
    recall_at_k,
    recall_report,
    relevant_units,
    t_at_k,
)
from labeler.metrics.evaluate import Evaluation, evaluate, merge_evaluations
from labeler.metrics.names import DEFAULT_MEASURES, Measure, parse_measure, parse_measures
from labeler.metrics.standard import judged_at_k, rr_at_k, standard_scores

__all__ = [
    "DEFAULT_MEASURES",
    "Evaluation",
    "Measure",
    "all_hit_at_k",
    "any_hit_at_k",
    "evaluate",
    "f_at_k",
    "fe_at_k",
    "judged_at_k",
    "merge_evaluations",
    "paired_comparison",
    "paired_t_test",
    "parse_measure",
    "parse_measures",
    "randomization_p_value",
    "rbp",
    "recall_at_k",
    "recall_report",
    "relevant_units",
    "rr_at_k",
    "standard_scores",
    "t_at_k",
]
